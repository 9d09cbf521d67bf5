"""`hiera study DIR --variants ...`: the same tasks at the same budget under several variants of the loop,
repeated; one JSON (study.json), a Markdown report (study.md) and the Figure 4 analogue (study.png).

A command of its own rather than `hiera bench --variants`: a bench's unit is a task (OUT/tasks/<task>.json) and
its report is hiera against torch.compile; a study's unit is a (variant, task, repeat) cell and its report
compares variants with each other. Both run a task the same way (engine/suite_bench.py run_task), compute
their statistics in engine/bench_stats.py (the budget curve with the same budget_curve) and write their reports
with engine/bench_render.py; engine/study.py holds the variants, the cells and the taxonomy.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from contracts import strict_json
from contracts.device import Device
from engine.bench_render import study_markdown, study_plot
from engine.bench_stats import study_summary
from engine.commands.bench import add_ray, budget_shape, levels_of, ray_pool
from engine.commands.common import (
    EXIT_OK,
    EXIT_STOPPED,
    SHAPE_LIMITS,
    UsageError,
    add_eval_limits,
    budget_arg,
    candidates_arg,
    console,
    device_or_exit,
    eval_limit_flags,
    seconds,
    whole_number,
)
from engine.study import (
    DEFAULT_VARIANTS,
    CellResult,
    VariantError,
    load_cells,
    parse_variants,
    run_study,
)
from engine.study_seed import seed_adaptive
from engine.suite_bench import code_version, find_tasks
from engine.untrusted import escape

DEFAULT_BUDGET, DEFAULT_CANDIDATES = 18, 6
# What must be the same in every cell of one study folder: a resumed study with other settings would
# compare variants at different budgets.
LOCKED = ("backend", "budget", "candidates", "precision", "no_profile")


def _select(root: Path, levels: list[str] | None, names: list[str] | None, per_level: int | None
            ) -> list[tuple[str, Path]]:
    tasks = find_tasks(root, levels)
    if names:
        picked = [(lv, p) for lv, p in tasks if p.stem in names or f"{lv}/{p.stem}" in names]
        found = {p.stem for _, p in picked} | {f"{lv}/{p.stem}" for lv, p in picked}
        missing = [n for n in names if n not in found]
        if missing:
            raise UsageError(f"--tasks: no task {', '.join(missing)} under {root}")
        tasks = picked
    if per_level:
        seen: dict[str, int] = {}
        kept = []
        for lv, p in tasks:
            seen[lv] = seen.get(lv, 0) + 1
            if seen[lv] <= per_level:
                kept.append((lv, p))
        tasks = kept
    if not tasks:
        raise UsageError(f"{root}: no tasks (a task is a .py with class Model and get_inputs)")
    return tasks


def _check_settings(out: Path, settings: dict[str, Any], report_only: bool) -> dict[str, Any]:
    f = out / "study-settings.json"
    if f.exists():
        old = json.loads(f.read_text())
        if report_only:
            return old
        diff = [f"{k}: {old.get(k)!r} there, {settings[k]!r} now" for k in LOCKED if old.get(k) != settings[k]]
        if diff:
            raise UsageError(f"{out} holds a study run with other settings ({'; '.join(diff)}): its cells would be "
                             "compared at another budget; give another --out or the same settings")
        return old
    if not report_only:
        f.write_text(strict_json.dumps(settings, indent=1))
    return settings


def _write_reports(out: Path, root: Path, cells: list, done: dict[str, CellResult], variants: list[str],
                   header: str, doc_extra: dict[str, Any]) -> dict[str, Any]:
    summ = study_summary(cells, done, variants)
    doc = {**doc_extra, "variants": variants, "finished": len(done), "of": len(cells), "summary": summ,
           "cells": [asdict(done[c.name]) for c in cells if c.name in done]}
    (out / "study.json").write_text(strict_json.dumps(doc, indent=1, default=str))
    (out / "study.md").write_text(study_markdown(summ, header, doc_extra.get("settings", {}).get("budget")))
    study_plot(summ, [done[c.name] for c in cells if c.name in done], out / "study.png")
    return doc


def _seed_usable(bench: Path, variants: list[str]) -> None:
    """--adaptive-from's usage errors, said before a Ray cluster is joined or the study's folder written."""
    if "adaptive" not in variants:
        raise UsageError("--adaptive-from gives the adaptive variant's cells; add adaptive to --variants")
    if not (bench / "tasks").is_dir():
        raise UsageError(f"--adaptive-from {bench}: not a `hiera bench --out` folder (no tasks/ in it)")


def _card(device: str) -> str:
    """The name of the GPU the study's cells run on ("" on a CPU, or where it cannot be told)."""
    dev = Device.parse(device)
    if not dev.is_cuda:
        return ""
    import torch

    return torch.cuda.get_device_name(dev.index) if torch.cuda.is_available() else ""


def _seed(bench: Path, out: Path, tasks: list[tuple[str, Path]], opts: dict[str, Any], device: str,
          card: str) -> None:
    """--adaptive-from: the adaptive cells a bench has already measured alike (engine/study_seed.py)."""
    got = seed_adaptive(bench, out, tasks, opts, device, card)
    console.print(f"took {len(got.taken)} adaptive cell(s) from {escape(str(bench))}"
                  + (f"; {len(got.passed)} run here:" if got.passed else ""))
    for name, why in sorted(got.passed.items()):
        console.print(f"  [dim]{escape(name)}: {escape(why)}[/dim]")


def cmd_study(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder of tasks")
    try:
        variants = parse_variants(args.variants)
    except VariantError as e:
        raise UsageError(f"--variants: {e}") from e
    levels = levels_of(root, args.levels)
    names = [x.strip() for x in args.tasks.split(",") if x.strip()] if args.tasks else None
    tasks = _select(root, levels, names, args.per_level)
    if args.adaptive_from and not args.report_only:
        _seed_usable(Path(args.adaptive_from), variants)
    rounds, candidates, optimize_flags = budget_shape(args.budget, 0, args.candidates)
    pool = ray_pool(args)
    devices = pool.slots if pool else [str(device_or_exit(d)) for d in (args.devices.split(",") if args.devices
                                                                   else [args.device])]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = _check_settings(out, {"backend": args.backend, "budget": args.budget, "candidates": candidates,
                                     "precision": args.precision, "no_profile": args.no_profile}, args.report_only)
    opts: dict[str, Any] = {"backend": args.backend, "rounds": rounds, "candidates": candidates,
                            "precision": args.precision, "task_timeout_s": args.task_timeout,
                            "no_profile": args.no_profile, "code_version": code_version(),
                            "optimize_flags": optimize_flags + eval_limit_flags(args)}

    def done_line(r: CellResult, n: int, total: int) -> None:
        sp = f"{r.speedup:.2f}x" if r.valid and r.speedup else "invalid"
        console.print(f"  [{n}/{total}] {escape(r.variant)} {r.level}/{r.task} r{r.repeat}: {sp}, "
                      f"{r.optimize_wall_s:.0f} s on {r.device}")

    if args.adaptive_from and not args.report_only:
        # With Ray the cells run on the cluster's devices of the asked kind, whose card is not known here.
        device = ("cpu" if args.device == "cpu" else "cuda") if pool else devices[0]
        _seed(Path(args.adaptive_from), out, tasks, opts, device, "" if pool else _card(device))
    deadline = time.monotonic() + args.stop_after if args.stop_after else None
    t0 = time.time()
    stopped = False
    try:
        with pool or contextlib.nullcontext():  # leaving the pool on Ctrl-C cancels its Ray tasks
            cells, done = run_study(root, out, variants, devices, opts, repeat=args.repeat, tasks=tasks,
                                    deadline=deadline, run=not args.report_only,
                                    on_done=None if args.report_only else done_line,
                                    runner=pool.run_cell if pool else None)
    except KeyboardInterrupt:
        stopped = True
        from engine.study import plan_cells

        cells = plan_cells(tasks, variants, args.repeat)
        names_ = {c.name for c in cells}
        done = {n: r for n, r in load_cells(out).items() if n in names_}
    total, finished = len(cells), len(done)
    what = "report" if args.report_only else f"{time.time() - t0:.0f} s"
    header = (f"# hiera study {root} — {', '.join(variants)}; backend {settings['backend']}, budget "
              f"{settings['budget']} (rounds of {settings['candidates']}), {settings['precision']}, "
              f"{args.repeat} repeat(s), {len(tasks)} task(s); {time.strftime('%Y-%m-%d')}, {what}; "
              f"{finished} of {total} cells finished")
    if finished < total:
        header += " (run the same command again to resume)"
    measured_on = sorted({r.device_name or r.device for r in done.values()})
    if measured_on:
        header += f"; measured on {', '.join(measured_on)}"
    sources = sorted({r.source for r in done.values() if r.source})
    if sources:
        header += (f"; {sum(bool(r.source) for r in done.values())} adaptive cell(s) taken from "
                   f"{', '.join(sources)} (the same optimize flags)")
    versions = sorted({r.code_version or "unversioned" for r in done.values()})
    if len(versions) > 1:
        header += f"; measured by different code versions ({', '.join(versions)})"
    doc = _write_reports(out, root, cells, done, variants, header,
                         {"command": vars(args) | {"func": None}, "settings": settings, "devices": devices,
                          "tasks": [f"{lv}/{p.stem}" for lv, p in tasks], "repeat": args.repeat})
    if stopped:
        console.print(f"[yellow]stopped:[/yellow] {finished} of {total} cells finished; kept in "
                      f"{escape(str(out / 'cells'))}. Run the same command again to run the rest.")
        return EXIT_STOPPED
    if args.json:
        print(strict_json.dumps(doc, default=str))
    else:
        console.print(escape((out / "study.md").read_text()))
        console.print(f"wrote {escape(str(out / 'study.json'))}, {escape(str(out / 'study.md'))}, "
                      f"{escape(str(out / 'study.png'))}")
    return EXIT_OK


def register(sub: Any) -> None:
    p = sub.add_parser("study", help="the same tasks and budget under several variants (spaces, ablations), "
                                     "repeated: speedup distributions, fast_p at B, miss rate, variance, cost")
    p.add_argument("dir", help="folder of KernelBench-format tasks, levels are its subfolders (required)")
    p.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                   help="comma-separated: adaptive, pure_cuda, cuda_libraries, libraries_pytorch, no_planning, "
                        "no_contract, or '+'-joined ones (e.g. no_planning+no_contract) "
                        f"(default: {','.join(DEFAULT_VARIANTS)})")
    p.add_argument("--repeat", type=whole_number(1), default=1,
                   help="run every (variant, task) N times, each its own optimize run (default: 1; 3 or more "
                        "for the spread)")
    p.add_argument("--backend", default="expert", choices=["expert", "llm"],
                   help="expert (offline, default) or llm (an OpenAI-compatible endpoint, set up as for optimize)")
    p.add_argument("--budget", type=budget_arg, default=DEFAULT_BUDGET, metavar="N",
                   help=f"candidates per cell, {SHAPE_LIMITS['budget']}, the same for every variant "
                        f"(default: {DEFAULT_BUDGET})")
    p.add_argument("--candidates", type=candidates_arg, default=DEFAULT_CANDIDATES,
                   help=f"candidates per round, {SHAPE_LIMITS['candidates']} (default: {DEFAULT_CANDIDATES})")
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N or auto (default: auto, a GPU if there is one)")
    p.add_argument("--devices", default=None,
                   help="comma-separated devices running cells in parallel (default: --device alone)")
    p.add_argument("--precision", default="auto", choices=["auto", "fp32", "tf32", "bf16", "fp16"],
                   help="auto (default, as hiera bench: each task's own, bf16 or fp16 where its tensors or an "
                        "autocast region are, else strict fp32), or one policy for every cell (tf32 allows TF32 "
                        "matmul/conv)")
    p.add_argument("--out", default="study-out",
                   help="folder for study.json/md/png, the cells and the run store; resumable (default: study-out)")
    p.add_argument("--levels", default=None, help="comma-separated levels (subfolders of DIR) to run (default: all)")
    p.add_argument("--tasks", default=None, metavar="TASKS",
                   help="comma-separated tasks (stem or level/stem) to run (default: all)")
    p.add_argument("--per-level", type=whole_number(1), default=None, metavar="N",
                   help="the first N tasks of each level, in name order (default: all)")
    p.add_argument("--task-timeout", type=seconds, default=1800.0, metavar="SECONDS",
                   help="seconds per cell before its optimize run is abandoned (an invalid cell) (default: 1800)")
    p.add_argument("--no-profile", action="store_true",
                   help="skip Nsight Compute profiling (default: profile on GPUs; the miss rate needs it)")
    p.add_argument("--stop-after", type=seconds, default=None, metavar="SECONDS",
                   help="start no cell after this many seconds; finished cells are kept, rerun to resume "
                        "(default: no limit)")
    p.add_argument("--report-only", action="store_true",
                   help="run nothing: write study.json/md/png from the cells finished in --out (default: off)")
    p.add_argument("--adaptive-from", default=None, metavar="BENCH_OUT",
                   help="take the adaptive cells of repeat 0 from a `hiera bench --out` folder where the bench ran "
                        "the task with the same optimize flags and its run finished (saves running them again; "
                        "each cell says where it came from) (default: run them)")
    add_ray(p, "cell")
    add_eval_limits(p)
    p.add_argument("--json", action="store_true", help="print study.json's object on stdout (default: off)")
    p.set_defaults(func=cmd_study)
