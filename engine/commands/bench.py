"""`hiera bench DIR`: the suite, hiera against eager and torch.compile; JSON, Markdown and a PNG plot."""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from engine.bench import TaskResult, code_version, find_tasks, markdown, plot, run_bench
from engine.cli import EXIT_OK, UsageError, console
from engine.evaluate.pipeline import resolve_device


def cmd_bench(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder of tasks")
    if args.budget:
        if args.budget % args.candidates:
            raise UsageError(f"--budget {args.budget} is not a multiple of --candidates {args.candidates}")
        rounds = args.budget // args.candidates
    else:
        rounds = args.rounds
    try:
        devices = [resolve_device(d) for d in (args.devices.split(",") if args.devices else [args.device])]
    except ValueError as e:
        raise UsageError(str(e)) from e
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    opts: dict[str, Any] = {"backend": args.backend, "rounds": rounds, "candidates": args.candidates,
                            "precision": args.precision, "task_timeout_s": args.task_timeout,
                            "compile": not args.no_compile, "no_profile": args.no_profile}
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console)
    bar = progress.add_task("bench", total=None)

    def done(r: TaskResult, n: int, total: int) -> None:
        progress.update(bar, completed=n, total=total, description=f"{r.level}/{r.task}")
        sp = f"{r.speedup:.2f}x" if r.speedup else "invalid"
        cmp = r.compile.get("max-autotune")
        console.print(f"  {r.level}/{r.task}: hiera {sp}, max-autotune {f'{cmp:.2f}x' if cmp else '-'}, "
                      f"{r.wall_s:.0f} s on {r.device}")

    levels = [x.strip() for x in args.levels.split(",")] if args.levels else None
    if levels:
        known = {lv for lv, _ in find_tasks(root)}
        unknown = [lv for lv in levels if lv not in known]
        if unknown:
            raise UsageError(f"--levels: no tasks in level(s) {', '.join(unknown)} under {root} "
                             f"(levels there: {', '.join(sorted(known)) or 'none'})")
    deadline = time.monotonic() + args.stop_after if args.stop_after else None
    opts["code_version"] = code_version()  # once: run_bench stamps it on each result
    if not args.report_only:
        _warn_about_older_results(out, opts["code_version"])
    t0 = time.time()
    with progress:
        results, summ = run_bench(root, out, devices, opts, done, levels=levels, deadline=deadline,
                                  run=not args.report_only,
                                  rerun=[x.strip() for x in args.rerun.split(",")] if args.rerun else None)
    total = len(find_tasks(root, levels))
    unfinished = total - len(results)
    measured_on = sorted({r.device_name or r.device for r in results})
    if args.report_only:
        header = (f"# hiera bench {root} — report of the {len(results)} of {total} tasks finished in {out} "
                  f"(measured on {', '.join(measured_on) or 'nothing yet'}; written {time.strftime('%Y-%m-%d')})")
    else:
        header = (f"# hiera bench {root} — backend {args.backend}, budget {rounds}x{args.candidates}, "
                  f"{args.precision}, devices {', '.join(measured_on) or ','.join(devices)}, "
                  f"{time.strftime('%Y-%m-%d')}, {time.time() - t0:.0f} s; {len(results)} of {total} tasks finished")
    if unfinished:
        header += f" ({unfinished} not run yet: run the same command again to resume)"
    versions = Counter(r.code_version or "unversioned" for r in results)
    if len(versions) > 1:
        header += ("; measured by different code versions (engine.bench.code_version): "
                   + ", ".join(f"{v} ({n} tasks)" for v, n in versions.most_common()))
    doc = {"command": vars(args) | {"func": None}, "devices": devices, "finished": len(results), "of": total,
           "summary": summ,
           "tasks": [asdict(r) for r in results]}
    (out / "bench.json").write_text(json.dumps(doc, indent=1, default=str))
    md = markdown(results, summ, header)
    (out / "bench.md").write_text(md)
    if results:
        plot(results, out / "bench.png")
    if args.json:
        print(json.dumps(doc, default=str))
    else:
        console.print(md)
        console.print(f"wrote {out / 'bench.json'}, {out / 'bench.md'}, {out / 'bench.png'}")
    return EXIT_OK


def _warn_about_older_results(out: Path, current: str) -> None:
    """Say up front when a resumed suite holds results measured by other code: they are kept, not re-run."""
    older = Counter()
    for f in (out / "tasks").glob("*.json"):
        try:
            v = json.loads(f.read_text()).get("code_version") or "unversioned"
        except (OSError, ValueError):
            continue
        if v != current:
            older[v] += 1
    if older:
        console.print(f"[yellow]{sum(older.values())} finished task(s) in {out} were measured by other code "
                      f"({', '.join(f'{v}: {n}' for v, n in older.items())}; this is {current}); they are kept "
                      "and the report marks the mix — --rerun TASKS measures them again[/yellow]")


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="optimize every task of a suite; compare with eager and torch.compile")
    p.add_argument("dir", help="folder of KernelBench-format tasks (levels are its subfolders)")
    p.add_argument("--backend", default="expert", choices=["expert", "llm"])
    p.add_argument("--budget", type=int, default=None, help="candidates per task (rounds = budget / candidates)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--candidates", type=int, default=6)
    p.add_argument("--device", default="auto")
    p.add_argument("--devices", default=None, help="comma-separated devices evaluating tasks in parallel")
    p.add_argument("--precision", default="fp32", choices=["fp32", "tf32"])
    p.add_argument("--out", default="bench-out", help="folder for bench.json, bench.md, bench.png (resumable)")
    p.add_argument("--task-timeout", type=float, default=1800.0, help="seconds per task before it is abandoned")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile baselines")
    p.add_argument("--no-profile", action="store_true")
    p.add_argument("--levels", default=None, help="comma-separated levels (subfolders of DIR) to run; default all")
    p.add_argument("--stop-after", type=float, default=None, metavar="SECONDS",
                   help="start no task after this many seconds (finished tasks are kept; rerun to resume)")
    p.add_argument("--rerun", default=None, metavar="TASKS",
                   help="comma-separated tasks (stem or level/stem) to measure again though finished; "
                        "the old result moves to OUT/tasks/superseded/")
    p.add_argument("--report-only", action="store_true",
                   help="run nothing: write bench.json/md/png from the tasks already finished in --out")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)
