"""`hiera` command line: eval, contract, export (and the loop's commands, registered by their modules).

Human output goes to stderr through rich; `--json` puts exactly one JSON object on stdout. Exit codes:
0 success (a valid candidate), 1 the candidate or run produced nothing valid, 2 a usage or task error (nothing
recorded, no `.hiera/` created), 130 stopped by Ctrl-C (what finished is kept; 143 for SIGTERM).

Everything printed through rich that did not come from this file (reasons, hints, paths, source, compiler
output) goes through `escape`: rich would read `[torch.rand(...)]` as markup and drop it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from contracts.runrecord import BestFigure, Figure, RunBest, verdict_phrase
from contracts.task import TaskError, TaskSpec, load_task
from contracts.vocabulary import Space
from engine.evaluate.outcome import Outcome, Precision

console = Console(stderr=True, highlight=False)

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 130


class UsageError(Exception):
    pass


class ParseFailed(Exception):
    """argparse's complaint about the command line, raised (not printed and exited) so main() can say it the
    way every usage error is said, on the event stream too."""

    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser = parser


class HieraParser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # type: ignore[override]
        raise ParseFailed(self, message)


# --- values with a sense: argparse types that refuse the rest -----------------------------------------------

def whole_number(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {n}")
        return n
    return parse


def seconds(text: str) -> float:
    """A time limit: a number of seconds, more than 0, at most a day."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(x) or x <= 0 or x > 86_400:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 86400 seconds, got {text}")
    return x


MIN_TRIALS = 10  # fewer timed trials give no quartiles, so no spread to judge a speedup by


def workspace_of(args: argparse.Namespace) -> Path:
    return Path(args.workspace or os.environ.get("HIERA_WORKSPACE") or os.getcwd()).resolve()


def task_workdir(workspace: Path, spec: TaskSpec) -> Path:
    """Per-task folder in the store: contract files, built candidates' cache lives beside it."""
    return workspace / ".hiera" / "tasks" / f"{spec.name}-{spec.source_hash}"


def load_task_or_exit(path: str) -> TaskSpec:
    try:
        return load_task(path)
    except TaskError as e:
        raise UsageError(str(e)) from e


def device_or_exit(device: str) -> str:
    from engine.evaluate.pipeline import resolve_device

    try:
        return resolve_device(device)
    except ValueError as e:
        raise UsageError(str(e)) from e


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N or auto (default: auto, a GPU if there is one)")
    p.add_argument("--precision", default="fp32", choices=[x.value for x in Precision],
                   help="fp32 (strict, default) or tf32 (allows TF32 matmul/conv, recorded with results)")
    p.add_argument("--workspace", default=None,
                   help="where .hiera/ lives (default: $HIERA_WORKSPACE, else the current directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout (default: off)")


def add_eval_limits(p: argparse.ArgumentParser) -> None:
    """The evaluator's limits and its sandbox (mapped to EvalSettings by eval_limits)."""
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="limit on verifying and timing one candidate; past it the candidate is a timeout (default: "
                        "derived from the reference's own time, so a far slower candidate ends in seconds)")
    p.add_argument("--build-timeout", type=seconds, default=120.0, metavar="SECONDS",
                   help="limit on compiling one candidate; past it the candidate failed to build (default: 120)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run candidate code (its compiler, its runner) without the sandbox: only where the sandbox "
                        "cannot be set up, knowing candidate code can then reach your files (default: sandboxed)")


def eval_limits(args: argparse.Namespace) -> dict[str, Any]:
    return {"request_timeout_s": args.timeout, "build_timeout_s": args.build_timeout,
            "sandbox": not args.no_sandbox}


def eval_limit_flags(args: argparse.Namespace) -> list[str]:
    """The same limits as command-line flags, for the hiera processes a command starts."""
    flags = ["--build-timeout", repr(args.build_timeout)]
    if args.timeout is not None:
        flags += ["--timeout", repr(args.timeout)]
    return flags + (["--no-sandbox"] if args.no_sandbox else [])


def shown_path(p: Path | str) -> str:
    """A path as a user would type it: relative to the current directory when under it."""
    p = Path(p)
    try:
        return str(p.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(p)


# Where the evaluator compiles a candidate: its content-addressed build folder holds the source under a fixed
# name (.hiera/cache/build/<hash>/cuda_source.cu or cpu_source.cpp; /sandbox/... as the sandboxed compiler
# sees it), the candidate's text line for line.
_BUILD_SOURCE = re.compile(r"(?:[^\s'\"`:]*?[0-9a-f]{16,}|/sandbox)/(?:cuda_source\.cu|cpu_source\.cpp)")


def check_sandbox(sandbox: bool, device: str) -> None:
    """Refuse, before anything is recorded, to evaluate when the sandbox cannot be set up (unless opted out)."""
    if not sandbox:
        return
    from engine.evaluate.sandbox import SandboxUnavailable, probe

    try:
        probe(device.startswith("cuda"))
    except SandboxUnavailable as e:
        raise UsageError(str(e)) from e


def user_build_log(log: str, source_name: str) -> str:
    """Compiler output with the build folder's copy of the source named as the user's file (same lines)."""
    return _BUILD_SOURCE.sub(lambda _m: source_name, log)


def reason_text(o: Outcome | dict[str, Any], source_name: str | None, lines: int = 3) -> str:
    """An outcome's reason for a person: a build failure's first error lines against the user's file name,
    anything else as it stands; whole lines (the console wraps them), never cut mid-way."""
    status = o.status.value if isinstance(o, Outcome) else o["status"]
    reason = o.reason if isinstance(o, Outcome) else o["reason"]
    if status != "build_failed":
        return reason
    text = user_build_log(reason, source_name) if source_name else reason
    kept = [ln for ln in text.splitlines() if ln.strip() and ln.strip() != "..."]
    errors = [ln for ln in kept if re.search(r"\berror\b", ln, re.IGNORECASE)]
    shown = (errors or kept)[:lines]
    more = len(errors or kept) - len(shown)
    return "\n".join(shown) + (f"\n(+{more} more lines; the whole log is in the run's store)" if more > 0 else "")


def folding_table(*headers: str, **kw: Any) -> Table:
    """A table whose cells wrap and fold at any width: a narrow terminal never cuts a word with an ellipsis."""
    t = Table(**kw)
    for h in headers:
        t.add_column(h, overflow="fold")
    return t


def fig_text(fig: Figure | BestFigure | RunBest) -> str:
    return f"{fig.speedup:.2f}x, {verdict_phrase(fig)}"


def outcome_table(o: Outcome, title: str, source_name: str | None = None) -> Table:
    from engine.loop import figure

    t = Table(title=escape(title), show_header=False, title_justify="left")
    t.add_column(no_wrap=True)
    t.add_column(overflow="fold")  # a long path folds onto the next line: never cut before its line number
    t.add_row("status", f"[bold]{o.status.value}[/bold]")
    t.add_row("reason", escape(reason_text(o, source_name, lines=12)))
    if o.flags:
        t.add_row("flags", escape(", ".join(o.flags)))
    if o.reference and o.candidate:
        t.add_row("reference", f"{o.reference.median_ms:.4g} ms median (min {o.reference.min_ms:.4g}, "
                               f"max {o.reference.max_ms:.4g}, spread {o.reference.spread:.1%})")
        t.add_row("candidate", f"{o.candidate.median_ms:.4g} ms median (min {o.candidate.min_ms:.4g}, "
                               f"max {o.candidate.max_ms:.4g}, spread {o.candidate.spread:.1%})")
        fig = figure(o, retimed=False)
        t.add_row("speedup", f"[bold]{fig.speedup:.2f}x[/bold]: {verdict_phrase(fig)}" if fig else "-")
    if o.error:
        t.add_row("worst error", escape(f"{o.error.where}: expected {o.error.expected:.6g}, got {o.error.got:.6g}"))
    t.add_row("device", escape(o.device))
    t.add_row("precision", o.precision.value)
    secs = [f"{k} {v:.2f}s" for k, v in (("build", o.build_s), ("verify", o.verify_s), ("time", o.time_s)) if v]
    if secs:
        t.add_row("seconds", ", ".join(secs))
    return t


# --- eval ---------------------------------------------------------------------------------------------

def cmd_eval(args: argparse.Namespace) -> int:
    import hashlib

    from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file
    from engine.loop import figure, uninterrupted
    from engine.store import RunStore

    device = device_or_exit(args.device)
    spec = load_task_or_exit(args.task)
    space = Space(args.space)
    cands = []
    for n, name in enumerate(args.candidate, start=1):
        cand_path = Path(name)
        if not cand_path.is_file():
            raise UsageError(f"{cand_path}: no such candidate file")
        try:
            text = cand_path.read_text()
            cid = f"{cand_path.stem}-{hashlib.sha256(text.encode()).hexdigest()[:8]}-{n}"
            cands.append((cand_path, candidate_from_file(cand_path, device, space, cid=cid)))
        except (ValueError, UnicodeDecodeError) as e:
            raise UsageError(f"{cand_path}: {e}") from e
    workspace = workspace_of(args)
    settings = EvalSettings(device=device, precision=Precision(args.precision), space=space,
                            timing_trials=args.trials, **eval_limits(args))
    check_sandbox(settings.sandbox, device)
    store = RunStore.for_workspace(workspace)
    # Several candidates share one worker (one start, one set of reference models and inputs); each is
    # still verified and timed against the reference on its own, and recorded as its own run.
    run_of = {c.id: store.start_run(
        "eval", spec.path, spec.name, spec.source_hash,
        {"device": device, "precision": args.precision, "space": space.value, "candidate": str(p.resolve()),
         "trials": args.trials, **eval_limits(args)}, backend=None, device=device) for p, c in cands}
    file_of = {c.id: p for p, c in cands}
    console.print(f"[dim]hiera eval: {escape(spec.name)} on {device}, run {', '.join(run_of.values())}[/dim]")
    done: list[Outcome] = []

    def finished(cand: Any, outcome: Outcome) -> None:
        # Recorded as it finishes: a later candidate that hangs or a Ctrl-C loses none of the earlier ones.
        run_id, path = run_of[cand.id], file_of[cand.id]
        store.record_candidate(run_id, cand, outcome)
        store.set_reference(run_id, outcome.reference.median_ms if outcome.reference else None, outcome.device)
        fig = figure(outcome, retimed=False)
        store.finish_run(run_id, "finished", {**outcome.to_json(), "figure": fig.to_json() if fig else None})
        done.append(outcome)
        shown = shown_path(path)
        if args.json:
            # The whole compiler output, against the user's file name and lines.
            shown_reason = user_build_log(outcome.reason, shown) if outcome.status.value == "build_failed" \
                else outcome.reason
            print(json.dumps({**outcome.to_json(), "reason": shown_reason, "verdict": fig and fig.verdict,
                              "spread": fig and fig.spread, "run_id": run_id, "candidate_file": str(path)}),
                  flush=True)
        else:
            console.print(outcome_table(outcome, f"{path.name} against {spec.name}", shown))

    try:
        with Evaluator(spec, task_workdir(workspace, spec), settings,
                       cache_dir=workspace / ".hiera" / "cache" / "build") as ev:
            try:
                ev.evaluate([c for _, c in cands], on_outcome=finished)
            except KeyboardInterrupt:
                with uninterrupted():
                    ev.close()
                raise
    except KeyboardInterrupt:
        with uninterrupted():
            left = [run_of[c.id] for _, c in cands if store.run(run_of[c.id])["status"] == "running"]
            for run_id in left:
                store.finish_run(run_id, "stopped")
        console.print(f"[yellow]stopped:[/yellow] {len(done)} of {len(cands)} candidates finished (shown above, "
                      f"and recorded); {len(left)} not evaluated")
        return EXIT_STOPPED
    except BaseException:
        for run_id in run_of.values():
            if store.run(run_id)["status"] == "running":
                store.finish_run(run_id, "failed")
        raise
    return EXIT_OK if all(o.valid for o in done) and len(done) == len(cands) else EXIT_INVALID


# --- contract / export --------------------------------------------------------------------------------

def cmd_contract(args: argparse.Namespace) -> int:
    from contracts.contract import write_contract

    spec = load_task_or_exit(args.task)
    paths = write_contract(spec, Path(args.out))
    if args.json:
        print(json.dumps({k: str(v) for k, v in paths.items()}))
    else:
        for role, p in paths.items():
            console.print(f"{role:<11} {escape(str(p))}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from contracts.export import first_import_note, modelnew_source, result_paths

    src_path = Path(args.candidate)
    if src_path.suffix not in (".cu", ".cpp", ".cc"):
        raise UsageError("export takes a .cu or .cpp contract candidate (a ModelNew .py is already exportable)")
    if not src_path.is_file():
        raise UsageError(f"{src_path}: no such candidate file")
    spec = load_task_or_exit(args.task)
    cuda = src_path.suffix == ".cu"
    source = src_path.read_text()
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    py, kernel = result_paths(spec, src_path.suffix, out_dir)
    py.write_text(modelnew_source(spec, source, cuda=cuda, note=f"Kernel: {kernel.name}."))
    kernel.write_text(source)
    note = first_import_note(cuda)
    if args.json:
        print(json.dumps({"py": str(py), "kernel": str(kernel), "first_import": note}))
    else:
        console.print(f"wrote {escape(str(py))} and {escape(str(kernel))}")
        console.print(f"[dim]{escape(py.name)}: {escape(note)}[/dim]")
    return EXIT_OK


# --- entry point ----------------------------------------------------------------------------------------

Registrar = Callable[[Any], None]
_REGISTRARS: list[str] = ["engine.commands"]  # modules adding the loop's subcommands, when present


def build_parser() -> argparse.ArgumentParser:
    parser = HieraParser(prog="hiera", description="HIERA: workload-aware GPU kernel optimization")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("eval", help="verify and time candidates against a task (with --json: one line each)")
    p.add_argument("task", metavar="TASK.py", help="KernelBench-format task .py (required)")
    p.add_argument("candidate", nargs="+", metavar="CANDIDATE",
                   help="one or more (required): a .cu/.cpp source against the task's contract, or a ModelNew .py; "
                        "several share one worker")
    p.add_argument("--space", default="libraries_pytorch", choices=[s.value for s in Space],
                   help="the implementation space the candidate must stay in (default: libraries_pytorch, any)")
    p.add_argument("--trials", type=whole_number(MIN_TRIALS), default=100,
                   help=f"timing trials per candidate, at least {MIN_TRIALS} (default: 100, the standard)")
    add_eval_limits(p)
    add_common(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("contract", help="write a task's frozen contract files")
    p.add_argument("task", help="KernelBench-format task .py (required)")
    p.add_argument("-o", "--out", required=True, help="output folder (required)")
    p.add_argument("--json", action="store_true", help="print the files written as one JSON object (default: off)")
    p.set_defaults(func=cmd_contract)

    p = sub.add_parser("export", help="write a contract candidate as a self-contained KernelBench ModelNew")
    p.add_argument("task", help="KernelBench-format task .py (required)")
    p.add_argument("candidate", help="the .cu or .cpp contract candidate to export (required)")
    p.add_argument("-o", "--out", default=None, help="folder for the files (default: beside the task)")
    p.add_argument("--json", action="store_true", help="print the files written as one JSON object (default: off)")
    p.set_defaults(func=cmd_export)

    import importlib

    for mod in _REGISTRARS:
        try:
            importlib.import_module(mod).register(sub)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
    return parser


def _say_usage_error(message: str, argv: list[str], usage: str | None = None) -> None:
    """A usage error, said once for a person (stderr) and, when the caller reads JSON, on stdout too."""
    events = "--events=jsonl" in argv or any(
        pair == ("--events", "jsonl") for pair in itertools.pairwise(argv))
    if events:
        # protocol.md: the event stream always ends with a result or an error event.
        print(json.dumps({"event": "error", "message": message, "log": None}), flush=True)
    elif "--json" in argv:
        print(json.dumps({"status": "error", "reason": message}), flush=True)
    if usage:
        console.print(escape(usage.rstrip()), soft_wrap=True)
    console.print(f"[red]error:[/red] {escape(message)}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except ParseFailed as e:
        _say_usage_error(str(e), argv, e.parser.format_usage())
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except UsageError as e:
        _say_usage_error(str(e), argv)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Before a run was recorded (loading the task, checking the endpoint): there is nothing to keep.
        console.print("[yellow]interrupted[/yellow] before anything was recorded")
        return EXIT_STOPPED


if __name__ == "__main__":
    # Run the imported module's main, not this __main__ copy: subcommand modules import engine.cli, and
    # their exceptions (UsageError) must be the classes main() catches.
    from engine.cli import main as _main

    sys.exit(_main())
