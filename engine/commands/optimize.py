"""`hiera optimize TASK.py`: run the HIERA loop on one task and write the best kernel beside it."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from contracts.spaces import Space
from engine.agents.base import Backend
from engine.cli import (
    EXIT_INVALID,
    EXIT_OK,
    UsageError,
    add_common,
    console,
    load_task_or_exit,
    task_workdir,
    workspace_of,
)
from engine.evaluate.outcome import Precision
from engine.evaluate.pipeline import EvalSettings, resolve_device
from engine.loop import SLOWER_DIR, Loop, LoopSettings
from engine.store import RunStore


def make_backend(args: argparse.Namespace, workspace: Path) -> Backend:
    if args.backend == "expert":
        from engine.agents.expert import ExpertBackend

        return ExpertBackend()
    from engine.agents.llm import BackendUnavailable, LLMBackend
    from engine.config import load_llm_config, overrides_from_args

    try:
        config = load_llm_config(workspace, overrides_from_args(args))
        backend = LLMBackend(config)
        check = backend.check_endpoint()
    except (BackendUnavailable, ValueError) as e:
        raise UsageError(str(e)) from e
    warning = check.warning(config.model)
    if warning:
        console.print(f"[yellow]warning:[/yellow] {warning}")
    return backend


def _sigterm_as_interrupt(signum: int, frame: Any) -> None:
    # The language server cancels a job with SIGTERM: stop like Ctrl-C, keeping what finished.
    raise KeyboardInterrupt


class HumanProgress:
    """Live progress on stderr: one line per candidate above a bar with the round and best speedup."""

    def __init__(self, total: int):
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=console, transient=False)
        self.task = self.progress.add_task("starting", total=total)
        self.best: float | None = None

    def __call__(self, e: dict[str, Any]) -> None:
        kind = e["event"]
        if kind == "run_started":
            self.progress.start()
            console.print(f"[dim]run {e['run_id']} on {e['device']} with the {e['backend']} backend[/dim]")
        elif kind == "notice":
            console.print(f"[yellow]notice:[/yellow] {e['message']}")
        elif kind == "round_started":
            scores = " ".join(f"{k} {v:.2f}" for k, v in e["scores"].items())
            console.print(f"[bold]round {e['round']}[/bold]: {e['space']} · {scores} → {e['direction']} · "
                          f"{e['strategy']}\n  [dim]{e['rationale']}[/dim]")
            self._describe(e["round"])
        elif kind == "candidate_finished":
            sp = f"{e['speedup']:.2f}x" if e["speedup"] else "-"
            color = "green" if e["status"] == "valid" else "red"
            console.print(f"  {e['index']}/{e['of']} [{color}]{e['status']}[/{color}] {sp}  "
                          f"[dim]{e['reason'][:140]}[/dim]")
            self.best = e["best_speedup"]
            self.progress.advance(self.task)
            self._describe(e["round"])
        elif kind == "result":
            self.progress.stop()

    def _describe(self, r: int) -> None:
        best = f"best {self.best:.2f}x" if self.best else "no valid candidate yet"
        self.progress.update(self.task, description=f"round {r} · {best}")


def summary_table(result: dict[str, Any]) -> Table:
    t = Table(title=f"hiera optimize · run {result['run_id']} · {result['status']}", title_justify="left")
    for col in ("round", "space", "direction", "strategy", "valid", "best x"):
        t.add_column(col)
    for r in result["rounds"]:
        valid = [o for o in r["outcomes"] if o["status"] == "valid"]
        best = max((o["speedup"] or 0 for o in valid), default=None)
        t.add_row(str(r["round"]), r["space"], r["direction"], r["strategy"], f"{len(valid)}/{len(r['outcomes'])}",
                  f"{best:.2f}" if best else "-")
    return t


def cmd_optimize(args: argparse.Namespace) -> int:
    workspace = workspace_of(args)
    store = RunStore.for_workspace(workspace)
    resume = args.resume
    task_arg = args.task
    if resume:
        run = store.run(resume)
        if run is None:
            raise UsageError(f"--resume {resume}: no such run in {store.db_path}")
        task_arg = task_arg or run["task_path"]
    if not task_arg:
        raise UsageError("give a task file (or --resume RUN_ID)")
    try:
        device = resolve_device(args.device)
    except ValueError as e:
        raise UsageError(str(e)) from e
    spec = load_task_or_exit(task_arg)
    backend = make_backend(args, workspace)
    settings = LoopSettings(
        rounds=args.rounds, candidates=args.candidates,
        space=None if args.space == "auto" else Space(args.space),
        planning=not args.no_planning, use_contract=not args.no_contract, profile=not args.no_profile,
        ncu_path=args.ncu, results_dir=Path(args.results_dir) if args.results_dir else None,
        keep_slower=args.keep_slower,
        eval=EvalSettings(device=device, precision=Precision(args.precision),
                          space=Space.LIBRARIES_PYTORCH if args.space == "auto" else Space(args.space),
                          timing_trials=args.trials),
    )
    events = args.events == "jsonl"

    def emit_json(e: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(e) + "\n")
        sys.stdout.flush()

    human = None if (events or args.json) else HumanProgress(args.rounds * args.candidates)
    sink = emit_json if events else (human or (lambda e: None))
    signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
    loop = Loop(spec, backend, store, task_workdir(workspace, spec), settings, sink,
                cache_dir=workspace / ".hiera" / "cache" / "build")
    results: list[dict[str, Any]] = []
    for i in range(max(args.repeat, 1)):
        if resume:
            state, first = loop.resume(resume)
        else:
            state, first = loop.start(backend.name), 1
        try:
            result = loop.run(state, first)
        except KeyboardInterrupt:
            result = loop.finish(state, "stopped")
        except Exception as e:
            from engine.agents.llm import BackendUnavailable

            if isinstance(e, BackendUnavailable):
                # The endpoint went away mid-run (bad key, model gone): stop, keeping what finished.
                store.record_notice(state.run_id, str(e))
                result = loop.finish(state, "stopped")
                console.print(f"[red]stopped:[/red] {e}")
                if events:
                    emit_json({"event": "notice", "message": str(e)})
                results.append(result)
                sink({"event": "result", **result})
                break
            store.finish_run(state.run_id, "failed", {"error": f"{type(e).__name__}: {e}"})
            if events:
                emit_json({"event": "error", "message": f"{type(e).__name__}: {e}",
                           "log": str(store.run_dir(state.run_id))})
            raise
        results.append(result)
        sink({"event": "result", **result})
        if human:
            console.print(summary_table(result))
            _print_best(result)
        if result["status"] == "stopped" or resume:
            break
        if i + 1 < args.repeat:
            loop = Loop(spec, backend, store, task_workdir(workspace, spec), settings, sink,
                        cache_dir=workspace / ".hiera" / "cache" / "build")
    final = results[-1]
    if len(results) > 1:
        speedups = [r["best"]["speedup"] if r["best"] else 0.0 for r in results]
        final = {**final, "repeat": {"runs": [r["run_id"] for r in results], "speedups": speedups,
                                     "min": min(speedups), "max": max(speedups),
                                     "median": sorted(speedups)[len(speedups) // 2]}}
        if human:
            console.print(f"repeat x{len(results)}: best speedup min {min(speedups):.2f}x, "
                          f"median {final['repeat']['median']:.2f}x, max {max(speedups):.2f}x")
    if args.json:
        print(json.dumps(final))
    return EXIT_OK if final["best"] else EXIT_INVALID


def _print_best(result: dict[str, Any]) -> None:
    b = result["best"]
    secs = result["seconds"]
    cost = f", ${result['cost_usd']:.4f}" if result.get("cost_usd") is not None else ""
    tok = result["tokens"]
    again = f" (+{result['retimed']} re-timed)" if result.get("retimed") else ""
    console.print(f"evaluated {result['candidates']} candidates{again} in {secs['total']:.0f} s "
                  f"(build {secs['build']:.0f}, verify {secs['verify']:.0f}, time {secs['time']:.0f}, "
                  f"profile {secs['profile']:.0f}, model "
                  f"{secs['model']:.0f}); tokens {tok['prompt']}+{tok['completion']}{cost}")
    if b is None:
        console.print("[red]no valid candidate[/red]: nothing written; the reasons are listed above")
        return
    paths = b["paths"] or {}
    slower = "" if b["speedup"] > 1.0 else " [yellow](slower than eager: no candidate beat the reference)[/yellow]"
    paired = b.get("paired_reference_ms") or result["reference_ms"]
    console.print(f"[bold green]best: {b['speedup']:.2f}x[/bold green]{slower} ({b['candidate_ms']:.4g} ms vs "
                  f"{paired:.4g} ms eager, timed interleaved; eager's median over the run "
                  f"{result['reference_ms']:.4g} ms) · round {b['round']} · {b['space']} · {b['direction']}")
    kept_aside = any(v and Path(v).parent.name == SLOWER_DIR for v in paths.values())
    if kept_aside:
        console.print("  not written beside the task (it is slower than eager); kept in the run's folder "
                      "(--keep-slower writes it beside the task):")
    for k in ("py", "cu"):
        if paths.get(k):
            console.print(f"  {'' if kept_aside else 'wrote '}{paths[k]}")


def register(sub: Any) -> None:
    p = sub.add_parser("optimize", help="run the HIERA loop on a task and write the best kernel beside it")
    p.add_argument("task", nargs="?", help="KernelBench-format task .py")
    p.add_argument("--backend", default="expert", choices=["expert", "llm"],
                   help="expert (offline rules and code generators, default) or llm (an OpenAI-compatible endpoint)")
    p.add_argument("--rounds", type=int, default=3, help="rounds R (default 3)")
    p.add_argument("--candidates", type=int, default=6, help="candidates per round K (default 6); budget = R*K")
    p.add_argument("--space", default="auto", choices=["auto", *[s.value for s in Space]],
                   help="auto (the SSDA decides every round) or a fixed implementation space")
    p.add_argument("--no-planning", action="store_true", help="ablation: one fixed unconstrained strategy")
    p.add_argument("--no-contract", action="store_true", help="ablation: candidates are whole ModelNew files")
    p.add_argument("--no-profile", action="store_true", help="skip Nsight Compute profiling")
    p.add_argument("--keep-slower", action="store_true",
                   help="write the best beside the task even when it is not faster than eager "
                        "(default: such a result stays in the run's folder)")
    p.add_argument("--ncu", default=None, help="path of the ncu executable (default: found on PATH)")
    p.add_argument("--repeat", type=int, default=1, help="run the task N times and report the spread")
    p.add_argument("--resume", default=None, metavar="RUN_ID", help="continue a stopped run")
    p.add_argument("--trials", type=int, default=100, help="timing trials per candidate (default 100)")
    p.add_argument("--results-dir", default=None, help="write the result files here instead of beside the task")
    p.add_argument("--events", choices=["jsonl"], default=None,
                   help="print progress events as JSON lines on stdout (for editors; docs/protocol.md)")
    from engine.config import add_llm_arguments

    add_llm_arguments(p)
    add_common(p)
    p.set_defaults(func=cmd_optimize)
