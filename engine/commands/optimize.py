"""`hiera optimize TASK.py`: run the HIERA loop on one task and write the best kernel beside it."""

from __future__ import annotations

import argparse
import math
import signal
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from contracts import strict_json
from contracts.device import Device
from contracts.precision import precision_phrase
from contracts.runrecord import (
    KEPT_DIRS,
    STOP_REASONS,
    BestFigure,
    CandidateFinished,
    Notice,
    Result,
    RetimeFinished,
    RetimeStarted,
    RoundStarted,
    RunBest,
    RunResult,
    RunStarted,
    parse_event,
)
from contracts.runrecord import Progress as ProgressEvent
from contracts.shapes import ShapeReport, describe_range
from contracts.verdict import median, ratio_text
from contracts.vocabulary import Space
from contracts.wording import device_words, flag_phrase, readable_rationale, space_title
from engine.agents.base import Backend
from engine.background import Terminated, stop_reason
from engine.commands.candidate_line import candidate_line, figure_words
from engine.commands.checks import results_writable, task_fits, workspace_writable
from engine.commands.common import (
    EXIT_INVALID,
    EXIT_NOT_WRITTEN,
    EXIT_OK,
    EXIT_STOPPED,
    MIN_TRIALS,
    SHAPE_LIMITS,
    UsageError,
    add_common,
    add_eval_limits,
    budget_arg,
    candidates_arg,
    check_sandbox,
    console,
    deadline_seconds,
    device_or_exit,
    device_text_or_exit,
    eval_limits,
    fig_text,
    folding_table,
    light_cell,
    light_line,
    load_task_or_exit,
    precision_or_exit,
    reason_text,
    rounds_arg,
    shown_path,
    task_text_or_exit,
    task_workdir,
    whole_number,
    workspace_of,
)
from engine.commands.plain import PlainLines
from engine.evaluate.outcome import Precision
from engine.evaluate.pipeline import EvalSettings
from engine.loop import Loop, LoopSettings, in_background, uninterrupted
from engine.phases import process_age_s
from engine.store import RunStore
from engine.untrusted import escape

DEFAULT_ROUNDS, DEFAULT_CANDIDATES = 3, 6
EXIT_TERMINATED = 143  # stopped by SIGTERM (the language server's cancel), 128 + 15


def llm_config_or_exit(args: argparse.Namespace, workspace: Path) -> Any:
    """The LLM backend's configuration (hiera.toml, the flags, the environment), or a usage error that says what is
    missing, before anything slow runs (a misconfigured LLM was said 8-12 s in, after torch loaded). None for the
    expert backend."""
    if args.backend != "llm":
        return None
    from engine.llm_config import load_llm_config, overrides_from_args

    try:
        return load_llm_config(workspace, overrides_from_args(args))
    except ValueError as e:
        raise UsageError(str(e)) from e


def make_backend(args: argparse.Namespace, workspace: Path, config: Any = None) -> Backend:
    if args.backend == "expert":
        from engine.agents.expert import ExpertBackend

        return ExpertBackend()
    from engine.agents.llm import BackendUnavailable, LLMBackend

    try:
        config = config or llm_config_or_exit(args, workspace)
        backend = LLMBackend(config)
        check = backend.check_endpoint()
    except (BackendUnavailable, ValueError) as e:
        raise UsageError(str(e)) from e
    warning = check.warning(config.model)
    if warning:
        console.print(f"[yellow]warning:[/yellow] {escape(warning)}")
    return backend


_stopped_by: list[int] = []  # the signal that stopped the run, when one did


def _sigterm_as_interrupt(signum: int, frame: Any) -> None:
    # The language server cancels a job with SIGTERM: stop like Ctrl-C, with the best so far.
    _stopped_by.append(signum)
    raise Terminated


def first_line(text: str) -> str:
    return next((ln for ln in text.splitlines() if ln.strip()), "")


def best_label(fig: BestFigure | RunBest | None) -> str:
    if fig is None:
        return "no valid candidate yet"
    pair = "re-timed" if fig.retimed else "first pair"
    return f"best {ratio_text(fig.speedup, fig.spread, 'x')} ({fig.verdict}, {pair})"


class HumanProgress:
    """Live progress on stderr: one line per candidate (verbose: with its whole reason) above a bar that counts the
    run's work as the engine counts it (its `progress` events: engine/progress.py), with the step under way and the
    best so far; the same lines in plain text on stdout when it is a log (plain.py), heartbeats included."""

    def __init__(self, total: int, plain: PlainLines | None = None, verbose: bool = False):
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=console, transient=False)
        self.task = self.progress.add_task("starting", total=total)
        self.plain = plain or PlainLines(json_on_stdout=True)  # none asked for: no plain lines
        self.verbose = verbose
        self.best: BestFigure | RunBest | None = None
        self.round = 0
        self.device = ""
        self.what = ""

    def __call__(self, line: dict[str, Any]) -> None:
        e = parse_event(line)
        if isinstance(e, RunStarted):
            self.device = e.device
            on = device_words(e.device, e.device_name)
            self.progress.start()
            kept = shown_path(Path(e.run_dir) / "candidates")
            console.print(f"[dim]run {e.run_id} on {escape(on)} with the {escape(e.backend)} backend; "
                          f"candidates kept in {escape(kept)}[/dim]")
            self.plain.say(f"hiera optimize {Path(e.task or '').name}: run {e.run_id} on {on}, {e.budget} "
                           f"candidate(s) in rounds of up to {e.candidates}, {e.backend} backend; candidates kept "
                           f"in {kept}")
        elif isinstance(e, Notice):
            console.print(f"[yellow]notice:[/yellow] {escape(e.message)}")
            self.plain.say(f"notice: {e.message}")
        elif isinstance(e, RoundStarted):
            self.round = e.round
            scores = " ".join(f"{k} {v:.2f}" for k, v in e.scores.items())
            space = space_title(e.space, self.device)
            console.print(f"[bold]round {e.round}[/bold]: {escape(space)} · {scores} → {e.direction} · "
                          f"{escape(e.strategy)}\n  [dim]{escape(readable_rationale(e.rationale, self.device))}[/dim]")
            self.plain.say(f"round {e.round}: {space} · {e.direction} · {e.strategy}")
        elif isinstance(e, CandidateFinished):
            color = "green" if e.status == "valid" else "red"
            name = Path(e.source).name if e.source else None
            reason = reason_text(line, name, lines=3)
            text = candidate_line(e.index, e.of, e.status, e.figure, reason, max(console.width - 1, 40))
            head = f"  {e.index}/{e.of} {e.status}"
            console.print(f"  {e.index}/{e.of} [{color}]{e.status}[/{color}]{escape(text[len(head):])}",
                          soft_wrap=True)
            if self.verbose and reason:
                console.print(f"[dim]{escape(reason)}[/dim]")
            self.best = e.best
            said = figure_words(e.figure) if e.figure else (ratio_text(e.speedup, None, "x") if e.speedup else "")
            self.plain.say(f"round {e.round} candidate {e.index}/{e.of}: {e.status}"
                           f"{f' {said}' if said else ''} ({first_line(reason)}) · {best_label(self.best)}")
        elif isinstance(e, ProgressEvent):
            self.what = e.what
            self.progress.update(self.task, total=e.total, completed=e.done)
            if e.seconds is not None:  # a heartbeat: one step has run a while
                self.plain.say(f"still {e.what} ({e.seconds:.0f} s; {e.done} of {e.total} steps done)")
                self.progress.update(self.task, description=f"{e.what} · {best_label(self.best)}")
                return
        elif isinstance(e, RetimeStarted):
            self.progress.update(self.task, description=f"timing {e.candidate_id} again on its own")
            return
        elif isinstance(e, RetimeFinished):
            again = fig_text(e.figure) if e.figure else e.status
            console.print(f"  {e.candidate_id} timed again on its own: "
                          + (escape(again) if e.figure else f"[red]{escape(again)}[/red]"))
            self.best = e.best
            self.plain.say(f"{e.candidate_id} timed again on its own: {again}")
        elif isinstance(e, Result):
            # A stopped run's bar stays at what it did of what it would have done ("stopped · 3/18"), never 3/3.
            self.progress.update(self.task, description=f"{e.result.status or 'done'} · {best_label(e.result.best)}")
            self.progress.stop()
            return
        self.progress.update(self.task, description=f"round {self.round} · {best_label(self.best)}")


def summary_table(result: RunResult) -> Table:
    t = folding_table("round", "space", "direction", "strategy", "valid", "best x", "speed of light",
                      title=f"hiera optimize · run {result.run_id} · {result.status}", title_justify="left",
                      caption="* a first pair, not timed again on its own" if any(
                          r.best and not r.best.retimed for r in result.rounds) else None,
                      caption_justify="left")
    for r in result.rounds:
        valid = [o for o in r.outcomes if o.status == "valid"]
        b = r.best
        best = f"{b.speedup:.2f}{'' if b.retimed else '*'} ({b.verdict})" if b else "none valid"
        light = light_cell(b.speed_of_light if b else None)
        t.add_row(str(r.round), escape(space_title(r.space, result.device)), r.direction, escape(r.strategy),
                  f"{len(valid)}/{len(r.outcomes)}", best, light)
    return t


def _shape(args: argparse.Namespace) -> tuple[int, int, int | None]:
    """(rounds, candidates, budget) from the flags: --budget N is any N >= 1, the last round taking what is
    left; with --rounds too, the two must agree."""
    k = args.candidates or DEFAULT_CANDIDATES
    if args.budget is None:
        return args.rounds or DEFAULT_ROUNDS, k, None
    rounds = math.ceil(args.budget / k)
    if args.rounds is not None and args.rounds != rounds:
        raise UsageError(f"--budget {args.budget} with --candidates {k} is {rounds} round(s), not --rounds "
                         f"{args.rounds}: give --budget or --rounds")
    return rounds, k, args.budget


def _resumable(args: argparse.Namespace, workspace: Path) -> tuple[RunStore, dict[str, Any]]:
    """The store and the run that --resume names, refused (before anything is written) when it cannot go on."""
    shape = [f for f, v in (("--rounds", args.rounds), ("--candidates", args.candidates), ("--budget", args.budget))
             if v is not None]
    if shape or args.repeat > 1:
        raise UsageError(f"--resume continues run {args.resume} with its own settings; drop "
                         f"{', '.join(shape or ['--repeat'])}")
    store = RunStore.existing(workspace)
    if store is None:
        raise UsageError(f"--resume {args.resume}: no run store in {workspace} (no .hiera/hiera.db); give the "
                         "--workspace the run was started in")
    run = store.run(args.resume)
    if run is None or run["kind"] != "optimize":
        recent = ", ".join(r["id"] for r in store.runs(kind="optimize", limit=5)) or "none"
        raise UsageError(f"--resume {args.resume}: no such optimize run in {store.db_path} (recent: {recent})")
    if run["status"] == "finished":
        raise UsageError(f"run {args.resume} finished; there is nothing to resume (`hiera report {args.resume}` "
                         "shows it; `hiera optimize TASK` starts a new run)")
    if run["status"] == "running":
        raise UsageError(f"run {args.resume} is still running (pid {run['pid']} on {run.get('host') or '?'}); "
                         "stop it first")
    return store, run


DEFAULT_TRIALS = 100
# Under a deadline a candidate's timed calls are capped lower (unless --trials says otherwise): on a busy 2-core CPU
# 100 calls with their cache flushes took 10 s a candidate, half of a 25 s deadline, where 30 still give a median
# and quartiles (the checker's own floor is 20; a GPU's steady kernels stop near it anyway).
DEADLINE_TRIALS = 30


def _trials(args: argparse.Namespace) -> int:
    if args.trials is not None:
        return args.trials
    return DEADLINE_TRIALS if args.deadline is not None else DEFAULT_TRIALS


def _settings(args: argparse.Namespace, device: Device, stored: dict[str, Any] | None) -> LoopSettings:
    """The loop's settings: the flags, or on --resume the run's own (LoopSettings.resumed: the flags fill what an
    older run lacks)."""
    rounds, k, budget = (DEFAULT_ROUNDS, DEFAULT_CANDIDATES, None) if stored else _shape(args)
    space = args.space
    # A resumed run keeps its own precision; args.precision is resolved from the module for a new run only.
    precision = Precision((stored or {}).get("precision", args.precision))
    given = LoopSettings(
        rounds=rounds, candidates=k, budget=budget, space=None if space == "auto" else Space(space),
        planning=not args.no_planning, use_contract=not args.no_contract, profile=not args.no_profile,
        ncu_path=args.ncu, results_dir=Path(args.results_dir) if args.results_dir else None,
        keep_slower=args.keep_slower,
        eval=EvalSettings(device=device, precision=precision,
                          space=Space.LIBRARIES_PYTORCH if space == "auto" else Space(space),
                          timing_trials=_trials(args), **eval_limits(args)),
        deadline_s=args.deadline, opener=True,
    )
    return given.resumed(stored) if stored else given


def cmd_optimize(args: argparse.Namespace) -> int:
    workspace = workspace_of(args)
    # Everything that can refuse the command is checked before the store is opened: a usage error leaves
    # no run behind and no .hiera/ in a folder that had none.
    workspace_writable(workspace)
    store, run = _resumable(args, workspace) if args.resume else (None, None)
    if run is None:
        _shape(args)  # a --budget that contradicts --rounds is refused before the task is even loaded
    task_arg = args.task or (run["task_path"] if run else None)
    if not task_arg:
        raise UsageError("give a task file: hiera optimize TASK.py (or --resume RUN_ID to continue a run)")
    if run and run.get("backend") in ("expert", "llm"):
        args.backend = run["backend"]  # the run goes on with the backend that started it
    # What can be refused without torch is, first and at once (well under a second): the device's name, the task
    # file's text, the LLM's configuration.
    device_text = run["settings"].get("device", args.device) if run else args.device
    device_text_or_exit(device_text)
    task_text_or_exit(task_arg)
    llm_config = llm_config_or_exit(args, workspace)
    # Finding the device imports torch (seconds) and loading the task probes it in a process of its own: both
    # at once. A device error is still said before the task is used.
    finding = in_background(lambda: device_or_exit(device_text))
    spec = load_task_or_exit(task_arg, timeout_s=args.load_timeout)
    device = finding.result()
    task_fits(spec, device)
    if run and spec.source_hash != run["task_hash"]:
        raise UsageError(f"{spec.path} changed since run {args.resume} started (its candidates were judged "
                         "against the old task); start a new run")
    # The module's own precision (its dtypes, an autocast region) unless --precision loosens it; a resumed run
    # keeps its own.
    precision_why = ""
    if not run:
        precision, precision_why = precision_or_exit(args.precision, spec)
        args.precision = precision.value
    settings = _settings(args, device, run["settings"] if run else None)
    results_writable(settings.results_dir or spec.path.parent, beside_task=settings.results_dir is None)
    check_sandbox(settings.eval.sandbox, device)
    backend = make_backend(args, workspace, llm_config)
    store = store or RunStore.for_workspace(workspace)
    events = args.events == "jsonl"

    def emit_json(e: dict[str, Any]) -> None:
        sys.stdout.write(strict_json.dumps(e) + "\n")
        sys.stdout.flush()

    plain = PlainLines(events or args.json)
    human = None if (events or args.json) else HumanProgress(settings.total, plain, args.verbose)
    sink = emit_json if events else (human or (lambda e: None))
    if human and precision_why:
        console.print(f"[dim]{escape(precision_why)}[/dim]")
    signal.signal(signal.SIGTERM, _sigterm_as_interrupt)

    def new_loop(started_s: float = 0.0) -> Loop:
        return Loop(spec, backend, store, task_workdir(workspace, spec), settings, sink,
                    cache_dir=workspace / ".hiera" / "cache" / "build", started_s=started_s)

    loop = new_loop(process_age_s())  # the first run's phases start with the process
    results: list[RunResult] = []
    backend_gone = False
    for i in range(args.repeat):
        state, first = loop.resume(args.resume) if args.resume else (loop.start(backend.name), 1)
        try:
            result = loop.run(state, first)
        except KeyboardInterrupt as stop:  # outside the rounds: before the loop began
            with uninterrupted():
                state.stop_reason = stop_reason(stop)
                result = loop.finish(state, "stopped")
        except Exception as e:
            from engine.agents.llm import BackendUnavailable

            if not isinstance(e, BackendUnavailable):
                store.finish_run(state.run_id, "failed", {"error": f"{type(e).__name__}: {e}"})
                if events:
                    emit_json({"event": "error", "message": f"{type(e).__name__}: {e}",
                               "log": str(store.run_dir(state.run_id))})
                raise
            # The endpoint went away mid-run (bad key, model gone): stop, keeping what finished.
            backend_gone = True
            store.record_notice(state.run_id, str(e))
            state.stop_reason = "backend"
            result = loop.finish(state, "stopped")
            console.print(f"[red]stopped:[/red] {escape(str(e))}")
            if events:
                emit_json({"event": "notice", "message": str(e)})
        results.append(result)  # the loop has said it (its `result` event) before its worker ended
        if human:
            console.print(summary_table(result))
        _say(ending(result, args, store), plain, human is not None or result.status == "stopped")
        if result.status == "stopped" and result.stop_reason != "deadline":
            break
        if i + 1 < args.repeat:
            loop = new_loop()
    final = results[-1].to_json()
    if len(results) > 1:
        speedups = [r.best.speedup if r.best else 0.0 for r in results]
        final = {**final, "repeat": {"runs": [r.run_id for r in results], "speedups": speedups,
                                     "min": min(speedups), "max": max(speedups),
                                     "median": median(speedups)}}
        if human:
            _say([("", f"repeat x{len(results)}: best speedup min {min(speedups):.2f}x, "
                       f"median {final['repeat']['median']:.2f}x, max {max(speedups):.2f}x")], plain)
    if args.json:
        print(strict_json.dumps(final))
    if final["status"] == "stopped" and not backend_gone and results[-1].stop_reason != "deadline":
        return EXIT_TERMINATED if signal.SIGTERM in _stopped_by else EXIT_STOPPED
    return exit_status(results[-1])  # a deadline is the user's own plan: the outcome decides, as for a finished run


def exit_status(result: RunResult) -> int:
    """0: the result was written (beside the task, or in --results-dir); 3: a valid best, not faster than
    eager, kept in the run's folder and nothing written where the user looks; 1: nothing valid."""
    b = result.best
    if b is None:
        return EXIT_INVALID
    return EXIT_NOT_WRITTEN if kept_aside(b) or b.paths is None else EXIT_OK


def kept_aside(b: RunBest) -> bool:
    return b.paths is not None and Path(b.paths.py).parent.name in KEPT_DIRS


def resume_command(run_id: str, args: argparse.Namespace) -> str:
    cmd = f"hiera optimize --resume {run_id}"
    if args.workspace:
        cmd += f" --workspace {args.workspace}"
    return cmd


Line = tuple[str, str]  # (rich style, plain text): said on stderr with its style, on stdout as it is


def _say(lines: list[Line], plain: PlainLines, human: bool = True) -> None:
    for style, text in lines:
        if human:
            console.print(f"[{style}]{escape(text)}[/{style}]" if style else escape(text))
        plain.say(text)


def _stopped_lines(result: RunResult, args: argparse.Namespace, store: RunStore) -> list[Line]:
    complete = [r.round for r in result.rounds if not r.partial]
    in_rounds = sum(len(r.outcomes) for r in result.rounds if not r.partial)
    partial = result.candidates - in_rounds
    where = f"round{'s' if len(complete) > 1 else ''} {', '.join(map(str, complete))} complete" if complete \
        else "no round complete"
    if partial:
        where += f", {partial} candidate{'s' if partial > 1 else ''} of round {len(complete) + 1}"
    why = STOP_REASONS.get(result.stop_reason or "", "stopped")
    if result.stop_reason == "deadline" and result.deadline_s:
        why = f"its {result.deadline_s:g} s deadline came"
    return [("yellow", f"stopped ({why}): {result.candidates} of {result.budget} candidates evaluated ({where}); "
                       f"everything finished is recorded in run {result.run_id}")]


def _resume_line(result: RunResult, args: argparse.Namespace) -> Line:
    return ("bold", f"continue with: {resume_command(result.run_id, args)}")


def ending(result: RunResult, args: argparse.Namespace, store: RunStore) -> list[Line]:
    """What the run did, as it ends: its seconds, its best with where it went, or why nothing was written."""
    secs = result.seconds
    again = f" (+{result.retimed} re-timed)" if result.retimed else ""
    model = ""
    if result.backend != "expert":
        tok = result.tokens
        cost = f", ${result.cost_usd:.4f}" if result.cost_usd is not None else ""
        model = f"; tokens {tok.prompt}+{tok.completion}{cost}"
    lines: list[Line] = [("", f"evaluated {result.candidates} candidates{again} in {secs['total']:.0f} s "
                              f"(build {secs['build']:.0f}, verify {secs['verify']:.0f}, time {secs['time']:.0f}, "
                              f"profile {secs['profile']:.0f}, model {secs['model']:.0f}){model}")]
    if result.left_out:
        lines.append(("yellow", f"left out for the {result.deadline_s:g} s deadline: {'; '.join(result.left_out)}"))
    stopped = result.status == "stopped"
    # Ctrl-C and SIGTERM exit 130 and 143 whatever the best; a deadline's run exits by its outcome (exit_status).
    by_signal = stopped and result.stop_reason in ("interrupted", "terminated")
    if stopped:
        lines += _stopped_lines(result, args, store)
    b = result.best
    if b is None:
        why = "the reasons are listed above" if result.candidates else "no candidate was evaluated"
        lines.append(("red", f"no valid candidate: nothing written; {why}" +
                             ("" if by_signal else f" (exit status {EXIT_INVALID})")))
        return [*lines, _resume_line(result, args)] if stopped else lines
    pair = "timed again on its own" if b.retimed else "its first pair, not yet timed again on its own"
    lines.append(("bold green" if b.verdict == "faster" else "bold yellow",
                  f"{f'best so far: {b.candidate_id},' if stopped else 'best:'} {fig_text(b)} ({b.candidate_ms:.4g} ms "
                  f"vs {b.reference_ms:.4g} ms eager, timed "
                  f"interleaved, {pair}; eager's median over the run {result.reference_ms:.4g} ms) · round "
                  f"{b.round} · {space_title(b.space, result.device)} · {b.direction}"
                  + (f" · {precision_phrase(result.precision)}" if result.precision else "")))
    lines += [("yellow", f"flagged: {flag_phrase(f)}") for f in b.flags]
    if b.speed_of_light:
        lines.append(("", f"speed of light: {light_line(b.speed_of_light)}"))
    if result.stopped_early:
        lines.append(("", result.stopped_early.summary()))
    paths = [p for p in (b.paths.py, b.paths.cu) if p] if b.paths else []
    if kept_aside(b):
        code = "" if by_signal else f" (exit status {EXIT_NOT_WRITTEN})"
        why = b.not_delivered or "not delivered: it is not faster than eager"
        lines.append(("", f"{why}{code}; kept in the run's folder with the reason "
                          "(--keep-slower writes it beside the task):"))
    lines += [("", f"  {'' if kept_aside(b) else 'wrote '}{shown_path(p)}") for p in paths]
    if b.first_import and b.paths:
        lines.append(("dim", f"  {Path(b.paths.py).name}: {b.first_import}"))
    if b.paths and b.paths.cu:
        lines.append(("dim", f"  {Path(b.paths.py).name}: {serves_phrase(b.shapes)}"))
    if stopped:
        lines.append(_resume_line(result, args))
    return lines


def serves_phrase(shapes: ShapeReport | None) -> str:
    """What an exported best serves itself, and what becomes of every other call."""
    if shapes is None:
        what = "the shapes of get_inputs() (not checked at other batch sizes)"
    else:
        what = describe_range(shapes.served, shapes.batch)
        if shapes.fixed_only:
            what += f" (valid only there: {shapes.not_valid()})"
        elif shapes.coverage.batch_range and not shapes.drawn:
            what += " (its other sizes were not drawn where it could not know them)"
        elif shapes.slower:
            what += f" (eager is faster at batch {', '.join(map(str, shapes.slower))})"
    return f"its kernel serves {what}; any other call runs the reference's own forward"


USAGE = """hiera optimize TASK.py [options]
       hiera optimize --resume RUN_ID [--workspace DIR]"""


def register(sub: Any) -> None:
    p = sub.add_parser("optimize", help="run the HIERA loop on a task and write the best kernel beside it",
                       usage=USAGE)
    p.add_argument("task", nargs="?", metavar="TASK.py",
                   help="KernelBench-format task .py (required, unless --resume RUN_ID continues a run)")
    p.add_argument("--backend", default="expert", choices=["expert", "llm"],
                   help="expert (offline rules and code generators, default) or llm (an OpenAI-compatible endpoint)")
    p.add_argument("--rounds", type=rounds_arg, default=None,
                   help=f"rounds R, {SHAPE_LIMITS['rounds']} (default: {DEFAULT_ROUNDS}, or what --budget needs)")
    p.add_argument("--candidates", type=candidates_arg, default=None,
                   help=f"candidates per round K, {SHAPE_LIMITS['candidates']} (default: {DEFAULT_CANDIDATES})")
    p.add_argument("--budget", type=budget_arg, default=None, metavar="N",
                   help=f"total candidates, any N from {SHAPE_LIMITS['budget']}: rounds of K, the last one takes what "
                        "is left "
                        "(default: R x K)")
    p.add_argument("--space", default="auto", choices=["auto", *[s.value for s in Space]],
                   help="auto (the SSDA decides every round, default) or a fixed implementation space")
    p.add_argument("--no-planning", action="store_true",
                   help="ablation: one fixed unconstrained strategy (default: planned)")
    p.add_argument("--no-contract", action="store_true",
                   help="ablation: candidates are whole ModelNew files (default: contract sources)")
    p.add_argument("--no-profile", action="store_true", help="skip Nsight Compute profiling (default: profile on GPUs)")
    p.add_argument("--keep-slower", action="store_true",
                   help="write the best beside the task even when it is not faster than eager "
                        "(default: such a result stays in the run's folder)")
    p.add_argument("--ncu", default=None, help="path of the ncu executable (default: found on PATH)")
    p.add_argument("--repeat", type=whole_number(1), default=1,
                   help="run the task N times and report the spread of the best speedups (default: 1)")
    p.add_argument("--deadline", type=deadline_seconds, default=None, metavar="SECONDS",
                   help="end by SECONDS after the command started (start-up included) with the best so far: fewer "
                        "candidates, profiles and re-timings where they do not fit, and the result says what was "
                        "left out (default: none; the editor's hiera.deadline is 60)")
    p.add_argument("--resume", default=None, metavar="RUN_ID",
                   help="continue a stopped (or killed) run with its own settings; finished candidates are kept, "
                        "not measured again (default: start a new run)")
    p.add_argument("--trials", type=whole_number(MIN_TRIALS), default=None,
                   help=f"timing trials per candidate, at least {MIN_TRIALS} (default: {DEFAULT_TRIALS}; "
                        f"{DEADLINE_TRIALS} under --deadline)")
    p.add_argument("--results-dir", default=None, help="write the result files here (default: beside the task)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="under each candidate's line, its whole reason (default: one line per candidate)")
    p.add_argument("--events", choices=["jsonl"], default=None,
                   help="print progress events as JSON lines on stdout, for editors (docs/protocol.md; default: off)")
    add_eval_limits(p)
    from engine.llm_config import add_llm_arguments

    add_llm_arguments(p)
    add_common(p)
    p.set_defaults(func=cmd_optimize)
