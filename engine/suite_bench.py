"""The suite runner behind `hiera bench DIR`: optimize every task of a suite and compare with torch.compile,
timed the same way, and score the suite.

(Four things are called "bench": this module; the `hiera bench` command that parses its flags and prints its
report, engine/commands/bench.py; the task suite it is usually run on, bench/; and the scripts that measure
one component each, scripts/bench_*.py.)

Each task runs as subprocesses of the CLI (`hiera optimize --json`, then `hiera eval` of the torch.compile
baselines), one device per worker thread, so tasks on several GPUs of one host run in parallel and a task
that crashes its process costs only itself. Each task's result is written to OUT/tasks/<name>.json as it
finishes; a resumed bench skips those.

The suite's score (fast_p, geomeans, the budget curve) is engine/bench_stats.py; its report and figure,
engine/bench_render.py. engine/study.py runs its cells through run_task and work_through.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from contracts.runrecord import Verdict, verdict_of
from contracts.runstore import StoreReader
from engine.baselines import write_baselines
from engine.bench_records import TaskResult
from engine.bench_stats import bench_summary, task_spread
from engine.exit_status import exit_text


class NotFinished(Exception):
    """Raised by a runner other than run_task (engine/distributed.py's Ray pool) for a task that did not finish:
    its Ray task was lost past its retries, failed on its worker, or was cancelled. Nothing is written for it,
    so the next call runs it again."""


def code_version(repo: Path | None = None) -> str:
    """A short hash of the code that generates, builds, checks and times candidates (contracts/, engine/) of
    this checkout, or of the tree at `repo`.

    A suite resumed across sessions can mix results measured by different code; each task records this
    so the report can say so (the checkout on a lent machine may carry no .git, so no commit hash)."""
    repo = repo or Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for p in sorted([*repo.glob("contracts/**/*.py"), *repo.glob("engine/**/*.py")]):
        h.update(str(p.relative_to(repo)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def find_tasks(root: Path, levels: list[str] | None = None) -> list[tuple[str, Path]]:
    """(level, path) for every task file under root; the level is the first folder below root.

    With levels, only the tasks of those levels (e.g. the GPU levels without the small CPU tasks)."""
    tasks = []
    for p in sorted(root.rglob("*.py")):
        if p.name.startswith(("_", "check_")) or "__pycache__" in p.parts:
            continue
        text = p.read_text(errors="replace")
        if "class Model" not in text or "def get_inputs" not in text:
            continue
        rel = p.relative_to(root)
        level = rel.parts[0] if len(rel.parts) > 1 else root.resolve().name
        if levels is None or level in levels:
            tasks.append((level, p))
    return tasks


def _run_json_lines(cmd: list[str], timeout_s: float) -> tuple[list[dict[str, Any]], str, bool]:
    """Every JSON object line the command printed (one per candidate of `hiera eval --json`), its log, and whether
    it was cut short from outside: killed by a signal other than the bench's own stop (Ctrl-C, SIGTERM), or
    stopped at `timeout_s`."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout_s:.0f} s: {' '.join(cmd[3:6])}", True
    out = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):  # a stray line that only looks like JSON
                out.append(json.loads(line))
    log = (p.stderr or p.stdout)[-2000:]
    killed = p.returncode < 0 and -p.returncode not in (signal.SIGINT, signal.SIGTERM)
    if killed:
        # Killed (the OOM killer, a lost worker, a user's kill -9), whatever it had printed: said as such, so the
        # task's row reads "killed", never an empty error or "no valid candidate"; last, as a task's error is the
        # log's tail.
        log = (f"{log}\n{' '.join(cmd[3:5])} was {exit_text(p.returncode)} before it printed all its results (an "
               "out-of-memory kill or a lost worker; measure it again with --rerun)")
    return out, log, killed


def _run_json(cmd: list[str], timeout_s: float) -> tuple[dict[str, Any] | None, str, bool]:
    """The command's last JSON object line (`hiera optimize --json` prints one), its log and whether it was cut
    short from outside (_run_json_lines)."""
    lines, log, cut = _run_json_lines(cmd, timeout_s)
    return (lines[-1] if lines else None), log, cut


# Why a task's speed-of-light cell is empty.
NO_BOUND = "no speed of light: the run gave no bound (a graph that did not trace, or ceilings not measured)"


def best_so_far(workspace: Path, task: Path, since: float) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """(run id, best-so-far figure, the run's row) of the latest optimize run of `task` in `workspace` started at
    `since` or later, when it recorded one; None otherwise."""
    reader = StoreReader(workspace)
    try:
        run = reader.latest_run([str(task), str(task.resolve())])
    finally:
        reader.close()
    best = (run or {}).get("best_so_far")
    if not run or float(run.get("started") or 0.0) < since or not isinstance(best, dict) or not best.get("speedup"):
        return None
    return str(run["id"]), best, run


def other_card(ours: str, theirs: str) -> bool:
    """Whether two device names say two different cards (names from engines before the field, "cuda:0 (NVIDIA
    H200)", are read by their name in brackets; an unknown name says nothing)."""

    def name(s: str) -> str:
        s = s.split("(", 1)[1].rstrip(")").strip() if "(" in s else s.strip()
        return "" if re.fullmatch(r"(cuda(:\d+)?|cpu|mps)", s) else s  # a device, not a card's name: unknown
    return bool(name(ours)) and bool(name(theirs)) and name(ours) != name(theirs)


def optimize_command(task: Path, device: str, args: dict[str, Any], out: Path) -> list[str]:
    """The `hiera optimize` command a task runs with (args: the bench's or a study cell's settings)."""
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--json", "--device", device,
           "--workspace", str(out / "workspace"), "--backend", args["backend"], "--rounds", str(args["rounds"]),
           "--candidates", str(args["candidates"]), "--results-dir", str(out / "results" / task.stem),
           "--precision", args["precision"],
           "--keep-slower"]  # the bench's own folder: keep every task's best, faster than eager or not
    if args.get("no_profile"):
        cmd.append("--no-profile")
    return cmd + args.get("optimize_flags", [])


# Flags that say where a run is (its device, folders) rather than what it does: left out of run_flags.
_PLACE_FLAGS = ("--device", "--workspace", "--results-dir")


def run_flags(cmd: list[str]) -> list[str]:
    """What an optimize command asks for, without the interpreter, the task's path and the flags naming places:
    two runs with equal run_flags ran the loop alike (a study takes a bench's run as its own cell by them)."""
    args, out = cmd[cmd.index("optimize") + 2:], []
    i = 0
    while i < len(args):
        if args[i] in _PLACE_FLAGS:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def run_task(level: str, task: Path, device: str, args: dict[str, Any], out: Path) -> TaskResult | None:
    """The task's result; None when its optimize run was stopped (a Ctrl-C reaches the whole process group):
    nothing more is started for it and nothing is saved, so the next bench measures it again."""
    r = TaskResult(task.stem, str(task), level, device=device, code_version=args.get("code_version", ""))
    t0, started = time.perf_counter(), time.time()
    workspace = out / "workspace"
    cmd = optimize_command(task, device, args, out)
    r.optimize_flags = run_flags(cmd)
    res, log, cut = _run_json(cmd, args["task_timeout_s"])
    if res is not None and res.get("status") == "stopped" and res.get("stop_reason") != "deadline":
        return None  # Ctrl-C or SIGTERM: the bench is stopping too (a deadline's stop is the task's own plan)
    r.optimize_wall_s = time.perf_counter() - t0
    # Its best so far where the run was killed or stopped at the task's limit (not where it failed by itself, nor
    # where the bench is being stopped: that ends above).
    kept = best_so_far(workspace, task, started) if res is None and cut else None
    if kept is not None:
        # Killed before its result (the OOM killer, a lost worker): its best so far, recorded from its first valid
        # candidate on (engine/loop.py _keep_best), is the task's figure, said to be one.
        r.run_id, best, run = kept
        r.valid, r.status, r.stop_reason = True, "stopped", "killed"
        r.device_name = str(run.get("device_name") or "")  # the card, for the baselines' check below
        settings = run.get("settings") if isinstance(run.get("settings"), dict) else {}
        r.precision = str(settings.get("precision") or "")
        r.speedup, r.best_ms, r.reference_ms = best["speedup"], best.get("candidate_ms"), best.get("reference_ms")
        r.spread = best.get("spread")
        r.left_out = [f"the rest of the run: {log.strip().splitlines()[-1] if log.strip() else 'its process ended'}; "
                      f"the figure is its best so far (round {best.get('round', '?')}, not re-timed)"]
    elif res is None or "rounds" not in res:
        r.error = (res or {}).get("reason") or log[-600:]
    else:
        r.run_id = res["run_id"]
        r.status, r.stop_reason, r.left_out = res.get("status") or "", res.get("stop_reason"), res.get("left_out") or []
        # the device's name; from engines before it had a field of its own, the label "cuda:0 (NVIDIA H200)"
        r.device_name = res.get("device_name") or res.get("device") or ""
        r.reference_ms = res.get("reference_ms")
        r.precision = res.get("precision") or ""
        r.seconds = res.get("seconds", {})
        r.phases = res.get("phases") or {}
        r.profiling = res.get("profiling")
        r.spaces = [x["space"] for x in res["rounds"]]
        r.trajectory = trajectory(res["rounds"])
        r.directions = [x["direction"] for x in res["rounds"]]
        r.strategies = [x["strategy"] for x in res["rounds"]]
        if res.get("best"):
            r.valid = True
            r.speedup = res["best"]["speedup"]
            r.spread = res["best"].get("spread")
            r.best_ms = res["best"]["candidate_ms"]
            r.best_space = res["best"].get("space")
            r.shapes = res["best"].get("shapes") if isinstance(res["best"].get("shapes"), dict) else None
            sol = res["best"].get("speed_of_light")
            if isinstance(sol, dict) and sol.get("fraction"):
                r.speed_of_light = sol
                r.roofline_fraction, r.roofline_ms = sol["fraction"], sol.get("bound_ms")
        r.stopped_early = res.get("stopped_early")
    if args.get("compile", True):
        # Both modes in one `hiera eval` (one worker): each is still verified and timed against eager alone.
        paths = write_baselines(task, out / "baselines")
        lines, log, _ = _run_json_lines([sys.executable, "-m", "engine.cli", "eval", str(task),
                                      *map(str, paths.values()), "--json", "--device", device,
                                      "--workspace", str(workspace),
                                      "--precision", args["precision"], *args.get("eval_flags", [])],
                                     args["task_timeout_s"])
        by_file = {ev.get("candidate_file"): ev for ev in lines}
        for mode, path in paths.items():
            ev = by_file.get(str(path))
            card = str((ev or {}).get("device_name") or "")
            if ev and other_card(r.device_name, card):
                # Both figures are ratios to eager, but each on its own card: set side by side they would compare
                # two GPUs, not hiera and torch.compile.
                r.compile[mode], r.compile_status[mode] = None, "error"
                r.compile_reason[mode] = (f"timed on {card}, hiera's figures on {r.device_name}: figures from two "
                                          "cards are not compared")
                continue
            r.compile[mode] = ev.get("speedup") if ev else None
            if ev and ev.get("spread") is not None:
                r.compile_spread[mode] = ev["spread"]
            r.compile_status[mode] = ev.get("status", "error") if ev else f"error: {log[-200:]}"
            if ev and ev.get("status") != "valid":
                r.compile_reason[mode] = str(ev.get("reason") or "")[:600]
    r.wall_s = time.perf_counter() - t0
    if not r.beats_compile:
        r.limit = explain_limit(r)
    return r


def explain_limit(r: TaskResult) -> str:
    if r.error:
        return f"the optimize run failed: {r.error[:200]}"
    if not r.valid:
        return "no valid candidate"
    best_compile = r.best_compile or 0.0
    mode = max((m for m, v in r.compile.items() if v), key=lambda m: r.compile[m], default=None)
    spread = max(task_spread(r), r.compile_spread.get(mode, 0.0) if mode else 0.0)
    if best_compile and verdict_of((r.speedup or 0) / best_compile, spread) is not Verdict.SLOWER:
        return (f"level with torch.compile ({r.speedup:.2f}x vs {best_compile:.2f}x: within the {spread:.0%} "
                "spread of these timings)")
    if r.roofline_fraction and r.roofline_fraction > 0.7 and best_compile <= (r.speedup or 0) * 1.1:
        return f"near its speed of light ({r.roofline_fraction:.0%} of the bound): little left to gain"
    return (f"strategies tried ({', '.join(dict.fromkeys(r.strategies))}) stayed behind torch.compile "
            f"({best_compile:.2f}x)")


def trajectory(rounds: list[dict[str, Any]]) -> list[float | None]:
    """The speedup of every candidate the loop evaluated, in order (None when not valid), from the optimize
    run's rounds; the re-timings of the best (ids ending in "-retimed") are measurements, not candidates."""
    out: list[float | None] = []
    for rnd in rounds:
        for o in rnd.get("outcomes", []):
            if str(o.get("candidate_id") or "").endswith("-retimed"):
                continue
            out.append(o.get("speedup") if o.get("status") == "valid" else None)
    return out


# --- orchestration ------------------------------------------------------------------------------------------

def work_through(items: Iterable[Any], devices: list[str], work: Callable[[Any, str], bool],
                 deadline: float | None = None) -> None:
    """One worker thread per device, each taking the next item and running work(item, device) until none is
    left or the deadline (time.monotonic()) has passed: no item starts after it. A work that returns False
    stops its worker (the run is stopping); one raising NotFinished leaves its item undone."""
    todo: queue.Queue[Any] = queue.Queue()
    for item in items:
        todo.put(item)

    def worker(device: str) -> None:
        while deadline is None or time.monotonic() < deadline:
            try:
                item = todo.get_nowait()
            except queue.Empty:
                return
            try:
                if not work(item, device):
                    return
            except NotFinished:
                continue

    threads = [threading.Thread(target=worker, args=(d,), daemon=True) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run_bench(root: Path, out: Path, devices: list[str], args: dict[str, Any],
              on_done: Callable[[TaskResult, int, int], None] | None = None, *, levels: list[str] | None = None,
              deadline: float | None = None, run: bool = True, rerun: list[str] | None = None,
              runner: Callable[[str, Path, str, dict[str, Any], Path], TaskResult | None] | None = None
              ) -> tuple[list[TaskResult], dict[str, Any]]:
    """Run the tasks not yet finished in OUT; return every finished task's result and the summary.

    deadline (time.monotonic()): no task starts after it, so a bench on a machine lent for a while stops
    cleanly with each finished task saved; the next call with the same OUT resumes. run=False only
    summarizes what OUT holds. rerun names tasks ("stem" or "level/stem") to measure again even though
    they finished: their old result moves to OUT/tasks/superseded/ rather than being lost. runner runs a task in
    place of run_task (e.g. on a Ray cluster; devices are then its slots); one raising NotFinished is not written."""
    tasks = find_tasks(root, levels)
    (out / "tasks").mkdir(parents=True, exist_ok=True)
    args = {**args, "code_version": args.get("code_version") or code_version()}
    wanted = set(rerun or [])
    done: dict[str, TaskResult] = {}
    for level, path in tasks:
        f = out / "tasks" / f"{level}__{path.stem}.json"
        if f.exists() and run and (path.stem in wanted or f"{level}/{path.stem}" in wanted):
            old = TaskResult(**json.loads(f.read_text()))
            keep = out / "tasks" / "superseded" / f"{f.stem}.{old.code_version or 'unversioned'}.json"
            keep.parent.mkdir(exist_ok=True)
            f.replace(keep)
        if f.exists():
            r = TaskResult(**json.loads(f.read_text()))
            r.limit = None if r.beats_compile else explain_limit(r)  # the explanation follows the current rules
            done[str(path)] = r
    todo = [(level, path) for level, path in tasks if str(path) not in done and run]
    lock = threading.Lock()
    total = len(tasks)
    for r in done.values():
        if on_done:
            on_done(r, len(done), total)

    def work(item: tuple[str, Path], device: str) -> bool:
        level, path = item
        r = (runner or run_task)(level, path, device, args, out)
        if r is None:  # stopped: the bench is stopping too
            return False
        (out / "tasks" / f"{level}__{path.stem}.json").write_text(json.dumps(asdict(r), indent=1))
        with lock:
            done[str(path)] = r
            if on_done:
                on_done(r, len(done), total)
        return True

    work_through(todo, devices, work, deadline)
    results = [done[str(p)] for _, p in tasks if str(p) in done]
    return results, bench_summary(results)
