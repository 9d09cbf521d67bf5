"""`hiera bench DIR`: the suite, hiera against eager and torch.compile; JSON, Markdown and a PNG plot."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from contracts import strict_json
from engine.bench_render import bench_markdown, bench_plot
from engine.bench_stats import bench_summary
from engine.commands.checks import output_writable
from engine.commands.common import (
    EXIT_OK,
    EXIT_STOPPED,
    SHAPE_LIMITS,
    UsageError,
    add_eval_limits,
    budget_arg,
    candidates_arg,
    console,
    deadline_seconds,
    device_or_exit,
    eval_limit_flags,
    rounds_arg,
    seconds,
)
from engine.commands.plain import PlainLines
from engine.suite_bench import TaskResult, code_version, find_tasks, run_bench
from engine.untrusted import escape

DEFAULT_ROUNDS, DEFAULT_CANDIDATES = 3, 6


def budget_shape(budget: int | None, rounds: int, candidates: int) -> tuple[int, int, list[str]]:
    """(rounds, candidates, extra optimize flags) for a per-task budget: any N >= 1, in rounds of K with the
    last round taking what is left (N < K is one round of N)."""
    if budget is None:
        return rounds, candidates, []
    if budget <= candidates:
        return 1, budget, []
    return math.ceil(budget / candidates), candidates, ([] if budget % candidates == 0 else ["--budget", str(budget)])


def levels_of(root: Path, text: str | None) -> list[str] | None:
    """--levels as a list (None: all), each a level that has tasks under root, else a usage error."""
    levels = [x.strip() for x in text.split(",")] if text else None
    if levels:
        known = {lv for lv, _ in find_tasks(root)}
        unknown = [lv for lv in levels if lv not in known]
        if unknown:
            raise UsageError(f"--levels: no tasks in level(s) {', '.join(unknown)} under {root} "
                             f"(levels there: {', '.join(sorted(known)) or 'none'})")
    return levels


def add_ray(p: argparse.ArgumentParser, unit: str) -> None:
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help=f"run each {unit} as a Ray task with one GPU (--device cpu: one CPU) on the cluster at "
                        "ADDRESS: auto (the running one), local (start one here), ray://HOST:PORT or HOST:PORT; "
                        "results and the run store land in --out here. Needs pip install 'hiera[ray]' "
                        "(default: this machine)")


def ray_pool(args: argparse.Namespace) -> Any:
    """The Ray cluster's pool for --ray (engine/distributed.py, imported only then: Ray is an optional extra), or
    None: this machine's devices run the tasks."""
    if not args.ray or args.report_only:
        return None
    if args.devices:
        raise UsageError("--devices names this machine's devices; with --ray the cluster's GPUs run the tasks")
    from engine.distributed import RayPool

    return RayPool.connect(args.ray, args.device)


def _precision_words(precision: str) -> str:
    return "each task at its own precision" if precision == "auto" else precision


def cmd_bench(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder of tasks")
    if args.budget is not None and args.rounds is not None:
        raise UsageError("give --budget (candidates per task) or --rounds, not both")
    rounds, candidates, optimize_flags = budget_shape(args.budget, args.rounds or DEFAULT_ROUNDS, args.candidates)
    pool = ray_pool(args)
    devices = pool.slots if pool else [str(device_or_exit(d)) for d in (args.devices.split(",") if args.devices
                                                                   else [args.device])]
    levels = levels_of(root, args.levels)
    out = Path(args.out)
    output_writable(out, "--out")
    out.mkdir(parents=True, exist_ok=True)
    plain = PlainLines(args.json)
    opts: dict[str, Any] = {"backend": args.backend, "rounds": rounds, "candidates": candidates,
                            "budget": args.budget, "precision": args.precision, "task_timeout_s": args.task_timeout,
                            "compile": not args.no_compile, "no_profile": args.no_profile,
                            # flags for the hiera processes each task runs (engine/suite_bench.py run_task)
                            "optimize_flags": optimize_flags + eval_limit_flags(args) + (
                                ["--deadline", repr(args.deadline)] if args.deadline is not None else []),
                            "eval_flags": eval_limit_flags(args)}
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console)
    bar = progress.add_task("bench", total=None)

    def done(r: TaskResult, n: int, total: int) -> None:
        progress.update(bar, completed=n, total=total, description=f"{r.level}/{r.task}")
        sp = f"{r.speedup:.2f}x" if r.speedup else ("failed" if r.error else "no valid candidate")
        cmp = r.compile.get("max-autotune")
        baseline = (f"{cmp:.2f}x" if cmp else r.compile_status.get("max-autotune", "not run")) \
            if not args.no_compile else "not run"
        line = f"{r.level}/{r.task}: hiera {sp}, max-autotune {baseline}, {r.wall_s:.0f} s on {r.device}"
        console.print(f"  {escape(line)}")
        plain.say(f"[{n}/{total}] {line}")

    tasks = find_tasks(root, levels)
    budget = f"budget {args.budget}" if args.budget else f"budget {rounds}x{candidates}"
    earlier = sum((out / "tasks" / f"{lv}__{t.stem}.json").exists() for lv, t in tasks)
    start = (f"hiera bench {root}: {len(tasks)} tasks ({earlier} finished in {out} earlier, "
             f"{0 if args.report_only else len(tasks) - earlier} to run) on {', '.join(devices)}, {budget} per "
             f"task; results in {out}")
    console.print(f"[dim]{escape(start)}[/dim]")
    plain.say(start)

    deadline = time.monotonic() + args.stop_after if args.stop_after else None
    opts["code_version"] = code_version()  # once: run_bench stamps it on each result
    if not args.report_only:
        _warn_about_older_results(out, opts["code_version"])
    t0 = time.time()
    try:
        with progress, pool or contextlib.nullcontext():  # leaving the pool on Ctrl-C cancels its Ray tasks
            results, summ = run_bench(root, out, devices, opts, done, levels=levels, deadline=deadline,
                                      run=not args.report_only,
                                      rerun=[x.strip() for x in args.rerun.split(",")] if args.rerun else None,
                                      runner=pool.run_task if pool else None)
    except KeyboardInterrupt:
        return _stopped(root, out, levels, args, plain)
    total = len(tasks)
    unfinished = total - len(results)
    measured_on = sorted({r.device_name or r.device for r in results})
    if args.report_only:
        header = (f"# hiera bench {root} — report of the {len(results)} of {total} tasks finished in {out} "
                  f"(measured on {', '.join(measured_on) or 'nothing yet'}; written {time.strftime('%Y-%m-%d')})")
    else:
        header = (f"# hiera bench {root} — backend {args.backend}, {budget}, "
                  f"{_precision_words(args.precision)}, devices {', '.join(measured_on) or ','.join(devices)}, "
                  f"{time.strftime('%Y-%m-%d')}, {time.time() - t0:.0f} s; {len(results)} of {total} tasks finished")
    if unfinished:
        header += f" ({unfinished} not run yet: run the same command again to resume)"
    versions = Counter(r.code_version or "unversioned" for r in results)
    if len(versions) > 1:
        header += ("; measured by different code versions (engine.suite_bench.code_version): "
                   + ", ".join(f"{v} ({n} tasks)" for v, n in versions.most_common()))
    doc = {"command": vars(args) | {"func": None}, "devices": devices, "finished": len(results), "of": total,
           "summary": summ,
           "tasks": [asdict(r) for r in results]}
    (out / "bench.json").write_text(strict_json.dumps(doc, indent=1, default=str))
    md = bench_markdown(results, summ, header)
    (out / "bench.md").write_text(md)
    if results:
        bench_plot(results, out / "bench.png")
    wrote = f"wrote {out / 'bench.json'}, {out / 'bench.md'}" + (f", {out / 'bench.png'}" if results else "")
    if args.json:
        print(strict_json.dumps(doc, default=str))
    else:
        console.print(escape(md))
        console.print(escape(wrote))
    if plain.on:
        print(md, flush=True)
        plain.say(wrote)
    return EXIT_OK


def _finished_files(out: Path) -> set[Path]:
    return set((out / "tasks").glob("*.json"))


def _stopped(root: Path, out: Path, levels: list[str] | None, args: argparse.Namespace, plain: PlainLines) -> int:
    """Ctrl-C: the tasks that finished are kept (OUT/tasks) and reported; the ones in flight are not.

    The task processes got the same Ctrl-C from the terminal and stop themselves (each records its optimize
    run `stopped`). A task result written after this moment comes from a stopped task, so it is removed:
    the next run of the same command measures that task again."""
    kept = _finished_files(out)
    results = []
    for f in sorted(kept):
        try:
            results.append(TaskResult(**json.loads(f.read_text())))
        except (OSError, ValueError, TypeError):
            continue
    total = len(find_tasks(root, levels))
    header = (f"# hiera bench {root} — stopped by Ctrl-C; {len(results)} of {total} tasks finished "
              f"({time.strftime('%Y-%m-%d')}); run the same command again to resume")
    (out / "bench.md").write_text(bench_markdown(results, bench_summary(results), header))
    for f in _finished_files(out) - kept:  # written while stopping: not a finished task
        f.unlink(missing_ok=True)
    said = (f"stopped: {len(results)} of {total} tasks finished; their results are kept in {out / 'tasks'} and "
            f"reported in {out / 'bench.md'}. Run the same command again to measure the rest.")
    console.print(f"[yellow]stopped:[/yellow] {escape(said.removeprefix('stopped: '))}")
    plain.say(said)
    if args.json:
        print(strict_json.dumps({"status": "stopped", "finished": len(results), "of": total}))
    return EXIT_STOPPED


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
    p.add_argument("dir", help="folder of KernelBench-format tasks, levels are its subfolders (required)")
    p.add_argument("--backend", default="expert", choices=["expert", "llm"],
                   help="expert (offline, default) or llm (an OpenAI-compatible endpoint, set up as for optimize)")
    p.add_argument("--budget", type=budget_arg, default=None, metavar="N",
                   help=f"candidates per task, any N from {SHAPE_LIMITS['budget']}: rounds of --candidates, the last "
                        "taking what is left "
                        f"(default: --rounds x --candidates, {DEFAULT_ROUNDS} x {DEFAULT_CANDIDATES})")
    p.add_argument("--rounds", type=rounds_arg, default=None,
                   help=f"rounds per task, {SHAPE_LIMITS['rounds']} (default: {DEFAULT_ROUNDS}; not with --budget)")
    p.add_argument("--candidates", type=candidates_arg, default=DEFAULT_CANDIDATES,
                   help=f"candidates per round, {SHAPE_LIMITS['candidates']} (default: {DEFAULT_CANDIDATES})")
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N or auto (default: auto, a GPU if there is one)")
    p.add_argument("--devices", default=None,
                   help="comma-separated devices evaluating tasks in parallel (default: --device alone)")
    p.add_argument("--precision", default="auto", choices=["auto", "fp32", "tf32", "bf16", "fp16"],
                   help="auto (default: each task's own, bf16 or fp16 where its tensors or an autocast region are, "
                        "else strict fp32; its hiera run, eager and torch.compile all at it), or one policy for every "
                        "task (an override may loosen a task's precision, never tighten it)")
    p.add_argument("--out", default="bench-out",
                   help="folder for bench.json, bench.md, bench.png and each task's result; resumable "
                        "(default: bench-out)")
    p.add_argument("--task-timeout", type=seconds, default=1800.0, metavar="SECONDS",
                   help="seconds per task before it is abandoned (default: 1800)")
    p.add_argument("--deadline", type=deadline_seconds, default=None, metavar="SECONDS",
                   help="each task's optimize run ends by SECONDS after it started, with its best so far "
                        "(hiera optimize --deadline; default: none)")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile baselines (default: run them)")
    p.add_argument("--no-profile", action="store_true", help="skip Nsight Compute profiling (default: profile on GPUs)")
    p.add_argument("--levels", default=None,
                   help="comma-separated levels (subfolders of DIR) to run (default: all)")
    p.add_argument("--stop-after", type=seconds, default=None, metavar="SECONDS",
                   help="start no task after this many seconds; finished tasks are kept, rerun to resume "
                        "(default: no limit)")
    p.add_argument("--rerun", default=None, metavar="TASKS",
                   help="comma-separated tasks (stem or level/stem) to measure again though finished; "
                        "the old result moves to OUT/tasks/superseded/ (default: none)")
    p.add_argument("--report-only", action="store_true",
                   help="run nothing: write bench.json/md/png from the tasks already finished in --out (default: off)")
    add_ray(p, "task")
    add_eval_limits(p)
    p.add_argument("--json", action="store_true", help="print bench.json's object on stdout (default: off)")
    p.set_defaults(func=cmd_bench)
