"""`hiera` command line: eval, contract, export (and the loop's commands, registered by their modules).

Human output goes to stderr through rich; `--json` puts exactly one JSON object on stdout. Exit codes:
0 success (a valid candidate), 1 the candidate or run produced nothing valid, 2 a usage or task error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from contracts.spaces import Space
from contracts.task import TaskError, TaskSpec, load_task
from engine.evaluate.outcome import Outcome, Precision

console = Console(stderr=True, highlight=False)

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


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


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N or auto (default: auto)")
    p.add_argument("--precision", default="fp32", choices=[x.value for x in Precision],
                   help="fp32 (strict, default) or tf32 (allows TF32 matmul/conv, recorded with results)")
    p.add_argument("--workspace", default=None, help="where .hiera/ lives (default: current directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def outcome_table(o: Outcome, title: str) -> Table:
    t = Table(title=title, show_header=False, title_justify="left")
    t.add_row("status", f"[bold]{o.status.value}[/bold]")
    t.add_row("reason", o.reason)
    if o.flags:
        t.add_row("flags", ", ".join(o.flags))
    if o.reference and o.candidate:
        t.add_row("reference", f"{o.reference.median_ms:.4g} ms median (min {o.reference.min_ms:.4g}, "
                               f"max {o.reference.max_ms:.4g}, spread {o.reference.spread:.1%})")
        t.add_row("candidate", f"{o.candidate.median_ms:.4g} ms median (min {o.candidate.min_ms:.4g}, "
                               f"max {o.candidate.max_ms:.4g}, spread {o.candidate.spread:.1%})")
        t.add_row("speedup", f"[bold]{o.speedup:.2f}x[/bold]" if o.speedup else "-")
    if o.error:
        t.add_row("worst error", f"{o.error.where}: expected {o.error.expected:.6g}, got {o.error.got:.6g}")
    t.add_row("device", o.device)
    t.add_row("precision", o.precision.value)
    secs = [f"{k} {v:.2f}s" for k, v in (("build", o.build_s), ("verify", o.verify_s), ("time", o.time_s)) if v]
    if secs:
        t.add_row("seconds", ", ".join(secs))
    return t


# --- eval ---------------------------------------------------------------------------------------------

def cmd_eval(args: argparse.Namespace) -> int:
    from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file, resolve_device
    from engine.store import RunStore

    try:
        device = resolve_device(args.device)
    except ValueError as e:
        raise UsageError(str(e)) from e
    spec = load_task_or_exit(args.task)
    space = Space(args.space)
    cands = []
    for name in args.candidate:
        cand_path = Path(name)
        if not cand_path.is_file():
            raise UsageError(f"{cand_path}: no such candidate file")
        try:
            cands.append((cand_path, candidate_from_file(cand_path, device, space)))
        except ValueError as e:
            raise UsageError(str(e)) from e
    workspace = workspace_of(args)
    store = RunStore.for_workspace(workspace)
    settings = EvalSettings(device=device, precision=Precision(args.precision), space=space,
                            timing_trials=args.trials)
    # Several candidates share one worker (one start, one set of reference models and inputs); each is
    # still verified and timed against the reference on its own, and recorded as its own run.
    run_ids = [store.start_run("eval", spec.path, spec.name, spec.source_hash,
                               {"device": device, "precision": args.precision, "space": space.value,
                                "candidate": str(p.resolve())}, backend=None, device=device) for p, _ in cands]
    console.print(f"[dim]hiera eval: {spec.name} on {device}, run {', '.join(run_ids)}[/dim]")
    try:
        with Evaluator(spec, task_workdir(workspace, spec), settings,
                       cache_dir=workspace / ".hiera" / "cache" / "build") as ev:
            outcomes = ev.evaluate([c for _, c in cands])
    except BaseException:
        for run_id in run_ids:
            store.finish_run(run_id, "failed")
        raise
    for run_id, (cand_path, cand), outcome in zip(run_ids, cands, outcomes):
        store.record_candidate(run_id, cand, outcome)
        store.set_reference(run_id, outcome.reference.median_ms if outcome.reference else None, outcome.device)
        store.finish_run(run_id, "finished", outcome.to_json())
        if args.json:
            print(json.dumps({**outcome.to_json(), "run_id": run_id, "candidate_file": str(cand_path)}), flush=True)
        else:
            console.print(outcome_table(outcome, f"{cand_path.name} against {spec.name}"))
    return EXIT_OK if all(o.valid for o in outcomes) else EXIT_INVALID


# --- contract / export --------------------------------------------------------------------------------

def cmd_contract(args: argparse.Namespace) -> int:
    from contracts.contract import write_contract

    spec = load_task_or_exit(args.task)
    paths = write_contract(spec, Path(args.out))
    if args.json:
        print(json.dumps({k: str(v) for k, v in paths.items()}))
    else:
        for role, p in paths.items():
            console.print(f"{role:<11} {p}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from contracts.export import modelnew_source, result_paths

    spec = load_task_or_exit(args.task)
    src_path = Path(args.candidate)
    if src_path.suffix not in (".cu", ".cpp", ".cc"):
        raise UsageError("export takes a .cu or .cpp contract candidate (a ModelNew .py is already exportable)")
    cuda = src_path.suffix == ".cu"
    source = src_path.read_text()
    out_dir = Path(args.out) if args.out else None
    py, kernel = result_paths(spec, src_path.suffix, out_dir)
    py.write_text(modelnew_source(spec, source, cuda=cuda, note=f"Kernel: {kernel.name}."))
    kernel.write_text(source)
    if args.json:
        print(json.dumps({"py": str(py), "kernel": str(kernel)}))
    else:
        console.print(f"wrote {py} and {kernel}")
    return EXIT_OK


# --- entry point ----------------------------------------------------------------------------------------

Registrar = Callable[[Any], None]
_REGISTRARS: list[str] = ["engine.commands"]  # modules adding the loop's subcommands, when present


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hiera", description="HIERA: workload-aware GPU kernel optimization")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("eval", help="verify and time candidates against a task (with --json: one line each)")
    p.add_argument("task", help="KernelBench-format task .py")
    p.add_argument("candidate", nargs="+",
                   help="a .cu/.cpp source against the task's contract, or a ModelNew .py (several share a worker)")
    p.add_argument("--space", default="libraries_pytorch", choices=[s.value for s in Space],
                   help="the implementation space the candidate must stay in (default: any)")
    p.add_argument("--trials", type=int, default=100, help="timing trials (at least 100 is the standard)")
    add_common(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("contract", help="write a task's frozen contract files")
    p.add_argument("task")
    p.add_argument("-o", "--out", required=True, help="output folder")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_contract)

    p = sub.add_parser("export", help="write a contract candidate as a self-contained KernelBench ModelNew")
    p.add_argument("task")
    p.add_argument("candidate")
    p.add_argument("-o", "--out", default=None, help="folder for the files (default: beside the task)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_export)

    import importlib

    for mod in _REGISTRARS:
        try:
            importlib.import_module(mod).register(sub)
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as e:
        if getattr(args, "events", None) == "jsonl":
            # protocol.md: the event stream always ends with a result or an error event.
            print(json.dumps({"event": "error", "message": str(e), "log": None}), flush=True)
        elif getattr(args, "json", False):
            print(json.dumps({"status": "error", "reason": str(e)}))
        console.print(f"[red]error:[/red] {e}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/yellow]")
        return 130


if __name__ == "__main__":
    # Run the imported module's main, not this __main__ copy: subcommand modules import engine.cli, and
    # their exceptions (UsageError) must be the classes main() catches.
    from engine.cli import main as _main

    sys.exit(_main())
