"""The suite runner behind `hiera bench DIR`: optimize every task of a suite and compare with torch.compile,
timed the same way, and score the suite.

(Four things are called "bench": this module; the `hiera bench` command that parses its flags and prints its
report, engine/commands/bench.py; the task suite it is usually run on, bench/; and the scripts that measure
one component each, scripts/bench_*.py.)

Each task runs as subprocesses of the CLI (`hiera optimize --json`, then `hiera eval` of the torch.compile
baselines), one device per worker thread, so tasks on several GPUs of one host run in parallel and a task
that crashes its process costs only itself. Each task's result is written to OUT/tasks/<name>.json as it
finishes; a resumed bench skips those.

Metrics (KernelBench's fast_p: Ouyang et al., "KernelBench: Can LLMs Write Efficient GPU Kernels?",
arXiv:2502.10517): over ALL tasks of a group, fast_0 = fraction valid, fast_1 = fraction with speedup > 1,
fast_2 = fraction > 2; geomean_speedup over the tasks with a valid result (an invalid task counts as
speedup 1.0: the user keeps eager).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import queue
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.baselines import COMPILE_MODES, write_baselines


@dataclass
class TaskResult:
    task: str
    path: str
    level: str
    valid: bool = False
    speedup: float | None = None
    reference_ms: float | None = None
    best_ms: float | None = None
    compile: dict[str, float | None] = field(default_factory=dict)  # mode -> speedup over eager (None invalid)
    compile_status: dict[str, str] = field(default_factory=dict)
    compile_reason: dict[str, str] = field(default_factory=dict)  # mode -> the evaluator's reason, when not valid
    roofline_fraction: float | None = None  # roofline lower bound / best time (1.0 = at the bound)
    roofline_ms: float | None = None
    spaces: list[str] = field(default_factory=list)
    directions: list[str] = field(default_factory=list)
    strategies: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0  # the whole task: hiera's optimize run, the baselines and the roofline analysis
    optimize_wall_s: float = 0.0  # hiera's optimize run alone (what a user waits for)
    run_id: str | None = None
    device: str = ""
    device_name: str = ""  # what the optimize run reported, e.g. "cuda:0 (NVIDIA H200)"
    code_version: str = ""  # code_version() of the tree that measured it ("" for results older than the field)
    error: str | None = None
    limit: str | None = None  # what limited the task when it did not beat torch.compile
    # Each evaluated candidate's speedup in the order the loop evaluated them (None: not valid); the
    # re-timings of the best are left out. Budget curves (fast_1 / geomean at B candidates) are cut from it.
    trajectory: list[float | None] = field(default_factory=list)
    best_space: str | None = None  # the space of the best candidate (first round's space: spaces[0])

    @property
    def best_compile(self) -> float | None:
        """The better of the torch.compile modes' speedups (None: no mode gave a valid result)."""
        return max((v for v in self.compile.values() if v), default=None)

    @property
    def beats_compile(self) -> bool:
        return self.valid and (self.best_compile is None or (self.speedup or 0) >= self.best_compile)


def code_version() -> str:
    """A short hash of the code that generates, builds, checks and times candidates (contracts/, engine/).

    A suite resumed across sessions can mix results measured by different code; each task records this
    so the report can say so (the checkout on a lent machine may carry no .git, so no commit hash)."""
    repo = Path(__file__).resolve().parents[1]
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


def _run_json_lines(cmd: list[str], timeout_s: float) -> tuple[list[dict[str, Any]], str]:
    """Every JSON object line the command printed (one per candidate of `hiera eval --json`), and its log."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout_s:.0f} s: {' '.join(cmd[3:6])}"
    out = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            with contextlib.suppress(json.JSONDecodeError):  # a stray line that only looks like JSON
                out.append(json.loads(line))
    return out, (p.stderr or p.stdout)[-2000:]


def _run_json(cmd: list[str], timeout_s: float) -> tuple[dict[str, Any] | None, str]:
    """The command's last JSON object line (`hiera optimize --json` prints one), and its log."""
    lines, log = _run_json_lines(cmd, timeout_s)
    return (lines[-1] if lines else None), log


def roofline(task: Path, device: str) -> float | None:
    """The task's roofline lower bound in ms, from the expert backend's workload analysis."""
    try:
        from contracts.task import load_task
        from engine.agents.expert.analysis import analyze
    except ImportError:
        return None
    try:
        a = analyze(load_task(task), {}, on_gpu=device.startswith("cuda"))
    except Exception:
        return None
    return getattr(a, "roofline_ms", None)


def run_task(level: str, task: Path, device: str, args: dict[str, Any], out: Path) -> TaskResult:
    py = sys.executable
    r = TaskResult(task.stem, str(task), level, device=device, code_version=args.get("code_version", ""))
    t0 = time.perf_counter()
    workspace = out / "workspace"
    cmd = [py, "-m", "engine.cli", "optimize", str(task), "--json", "--device", device, "--workspace", str(workspace),
           "--backend", args["backend"], "--rounds", str(args["rounds"]), "--candidates", str(args["candidates"]),
           "--results-dir", str(out / "results" / task.stem), "--precision", args["precision"],
           "--keep-slower"]  # the bench's own folder: keep every task's best, faster than eager or not
    if args.get("no_profile"):
        cmd.append("--no-profile")
    cmd += args.get("optimize_flags", [])
    res, log = _run_json(cmd, args["task_timeout_s"])
    r.optimize_wall_s = time.perf_counter() - t0
    if res is None or "rounds" not in res:
        r.error = (res or {}).get("reason") or log[-600:]
    else:
        r.run_id = res["run_id"]
        r.device_name = res.get("device") or ""
        r.reference_ms = res.get("reference_ms")
        r.seconds = res.get("seconds", {})
        r.spaces = [x["space"] for x in res["rounds"]]
        r.trajectory = trajectory(res["rounds"])
        r.directions = [x["direction"] for x in res["rounds"]]
        r.strategies = [x["strategy"] for x in res["rounds"]]
        if res.get("best"):
            r.valid = True
            r.speedup = res["best"]["speedup"]
            r.best_ms = res["best"]["candidate_ms"]
            r.best_space = res["best"].get("space")
    if args.get("compile", True):
        # Both modes in one `hiera eval` (one worker): each is still verified and timed against eager alone.
        paths = write_baselines(task, out / "baselines")
        lines, log = _run_json_lines([py, "-m", "engine.cli", "eval", str(task), *map(str, paths.values()),
                                      "--json", "--device", device, "--workspace", str(workspace),
                                      "--precision", args["precision"], *args.get("eval_flags", [])],
                                     args["task_timeout_s"])
        by_file = {ev.get("candidate_file"): ev for ev in lines}
        for mode, path in paths.items():
            ev = by_file.get(str(path))
            r.compile[mode] = ev.get("speedup") if ev else None
            r.compile_status[mode] = ev.get("status", "error") if ev else f"error: {log[-200:]}"
            if ev and ev.get("status") != "valid":
                r.compile_reason[mode] = str(ev.get("reason") or "")[:600]
    r.roofline_ms = roofline(task, device)
    if r.roofline_ms and r.best_ms:
        r.roofline_fraction = r.roofline_ms / r.best_ms
    r.wall_s = time.perf_counter() - t0
    if not r.beats_compile:
        r.limit = explain_limit(r)
    return r


# Repeated timings of one kernel spread by about 3% on the H200 (BENCHMARKS.md): closer than this is level.
SPREAD = 1.03


def explain_limit(r: TaskResult) -> str:
    if r.error:
        return f"the optimize run failed: {r.error[:200]}"
    if not r.valid:
        return "no valid candidate"
    best_compile = r.best_compile or 0.0
    if best_compile <= (r.speedup or 0) * SPREAD:
        return (f"level with torch.compile ({r.speedup:.2f}x vs {best_compile:.2f}x: within {SPREAD - 1:.0%}, about "
                "the spread of repeated timings of one kernel)")
    if r.roofline_fraction and r.roofline_fraction > 0.7 and best_compile <= (r.speedup or 0) * 1.1:
        return f"near the roofline bound ({r.roofline_fraction:.0%}): little left to gain"
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


# --- summary ----------------------------------------------------------------------------------------------

# Budgets the curve is cut at (the paper's Figure 3: quality after 1, 6, 12 and 18 candidates).
BUDGETS = (1, 6, 12, 18)
PHASES = ("build", "verify", "time", "profile", "model")


def best_within(r: TaskResult, budget: int) -> float | None:
    """The best speedup among the first `budget` candidates of the task's trajectory (None: none valid).

    Cut from the in-loop measurements, so every budget of one task comes from the same run; the final
    figure (`speedup`) is the best's fresh re-timing, which the full-budget point can differ from."""
    valid = [s for s in r.trajectory[:budget] if s is not None]
    return max(valid) if valid else None


def budget_curve(results: list[TaskResult], budgets: tuple[int, ...] = BUDGETS) -> list[dict[str, Any]]:
    """fast_0, fast_1, fast_2 and the all-tasks geomean (a task with nothing valid counts as eager, 1.0x) after the
    first B candidates of each task, for each budget B; tasks whose run had fewer candidates count all."""
    n = len(results)
    out = []
    for b in budgets:
        best = [best_within(r, b) for r in results]
        kept = [x if x is not None else 1.0 for x in best]
        out.append({"budget": b, "tasks": n, "fast_0": sum(x is not None for x in best) / n if n else 0.0,
                    "fast_1": _fast(best, n, 1.0), "fast_2": _fast(best, n, 2.0),
                    "faster_beyond_spread": _fast(best, n, SPREAD),
                    "geomean_all_tasks": math.exp(sum(math.log(max(x, 1e-9)) for x in kept) / n) if n else None})
    return out


def time_split(results: list[TaskResult]) -> dict[str, float]:
    """Seconds of the optimize runs spent per phase, summed over the tasks (and the share of their wall)."""
    total = {k: sum(r.seconds.get(k, 0.0) for r in results) for k in PHASES}
    wall = sum(r.optimize_wall_s for r in results)
    total["other"] = max(0.0, wall - sum(total.values()))
    total["wall"] = wall
    return total



def _fast(speedups: list[float | None], n: int, p: float) -> float:
    return sum(1 for s in speedups if s is not None and s > p) / n if n else 0.0


def group_summary(results: list[TaskResult]) -> dict[str, dict[str, float | int]]:
    n = len(results)

    def block(speedups: list[float | None]) -> dict[str, float | int]:
        valid = [s for s in speedups if s is not None]
        geo = math.exp(sum(math.log(max(s, 1e-9)) for s in valid) / len(valid)) if valid else None
        # Tasks without a valid result keep eager (speedup 1.0) for the user's geomean.
        kept = [s if s is not None else 1.0 for s in speedups]
        geo_all = math.exp(sum(math.log(max(s, 1e-9)) for s in kept) / n) if n else None
        return {"tasks": n, "fast_0": len(valid) / n if n else 0.0, "fast_1": _fast(speedups, n, 1.0),
                "fast_2": _fast(speedups, n, 2.0), "geomean_speedup": geo, "geomean_speedup_all_tasks": geo_all}

    out = {"hiera": block([r.speedup if r.valid else None for r in results])}
    for mode in COMPILE_MODES:
        out[f"torch.compile:{mode}"] = block([r.compile.get(mode) for r in results])
    out["hiera"]["at_or_above_max_autotune"] = (
        sum(1 for r in results if r.valid and (r.compile.get("max-autotune") is None
                                               or (r.speedup or 0) >= r.compile["max-autotune"])) / n if n else 0.0)
    # max-autotune was slower than the default mode on most memory-bound tasks of the H200 run. Its CUDA
    # graphs are the cause: 'max-autotune-no-cudagraphs' timed level with default (04_gelu 0.96x vs 1.00x,
    # 08_sum_dim 1.11x vs 1.10x) where max-autotune gave 0.36x and 0.33x (BENCHMARKS.md). So the better of
    # the two modes is the fairer bar, reported beside the max-autotune figure.
    out["hiera"]["at_or_above_best_compile"] = sum(1 for r in results if r.beats_compile) / n if n else 0.0
    # fast_1 counts any speedup above 1.0x; a library-bound task that re-issues the same cuBLAS call lands at
    # 1.00-1.03x, inside the spread of repeated timings of one kernel. This is the share clear of that spread.
    out["hiera"]["faster_beyond_spread"] = _fast([r.speedup if r.valid else None for r in results], n, SPREAD)
    # The time target is on what a user waits for: hiera's optimize run, not the baselines timed beside it.
    walls = [r.optimize_wall_s or r.wall_s for r in results]
    out["hiera"]["median_wall_s"] = statistics.median(walls) if walls else 0.0
    # Planning quality: the share of tasks whose first round was already in the space of the final best.
    placed = [r for r in results if r.valid and r.best_space and r.spaces]
    out["hiera"]["first_round_in_best_space"] = (sum(r.spaces[0] == r.best_space for r in placed) / len(placed)
                                                 if placed else None)
    out["hiera"]["budget_curve"] = budget_curve(results)
    out["hiera"]["time_split_s"] = time_split(results)
    return out


def summary(results: list[TaskResult]) -> dict[str, Any]:
    levels = sorted({r.level for r in results})
    s: dict[str, Any] = {"overall": group_summary(results)}
    for lv in levels:
        s[lv] = group_summary([r for r in results if r.level == lv])
    # The flat keys the issue asks for, hiera's numbers (torch.compile's sit beside them in each group).
    for key, group in list(s.items()):
        for k in ("fast_0", "fast_1", "fast_2", "geomean_speedup"):
            group[k] = group["hiera"][k]
        s[key] = group
    return s


# --- reports ----------------------------------------------------------------------------------------------

def markdown(results: list[TaskResult], summ: dict[str, Any], header: str) -> str:
    lines = [header, "", "| level | task | valid | hiera x | compile x | max-autotune x | roofline | spaces | "
             "directions | wall s: whole task · hiera's optimize run (build/verify/time/profile/model) |",
             "|" + "---|" * 10]
    above_bound = []
    for r in sorted(results, key=lambda r: (r.level, r.task)):
        def f(v: float | None) -> str:
            return f"{v:.2f}" if v else "-"
        roof = f"{r.roofline_fraction:.0%}" if r.roofline_fraction else "-"
        if r.roofline_fraction and r.roofline_fraction > 1.0:
            above_bound.append(f"{r.level}/{r.task}")
            roof += "*"
        secs = r.seconds
        split = "/".join(f"{secs.get(k, 0):.0f}" for k in ("build", "verify", "time", "profile", "model"))
        lines.append(f"| {r.level} | {r.task} | {'yes' if r.valid else 'no'} | {f(r.speedup)} | "
                     f"{f(r.compile.get('default'))} | {f(r.compile.get('max-autotune'))} | "
                     f"{roof} | {','.join(r.spaces)} | "
                     f"{''.join(r.directions)} | {r.wall_s:.0f} · {r.optimize_wall_s:.0f} ({split}) |")
    if above_bound:
        # The bound counts a convolution's direct-method FLOPs; Winograd and FFT algorithms do fewer.
        lines += ["", "\\* above 100%: the kernel did less arithmetic than the roofline counts "
                  f"({', '.join(above_bound)}). The bound takes the direct method's FLOPs (a convolution: "
                  "2 x outputs x C x R x S); cuDNN's Winograd and FFT algorithms need fewer, so for them it is "
                  "not a bound. On a task without a convolution it would mean the default ceilings (60 TFLOP/s, "
                  "4.3 TB/s) were beaten."]
    lines += ["", "| group | who | fast_0 | fast_1 | fast_2 | geomean (valid) |", "|---|---|---|---|---|---|"]
    for g, d in summ.items():
        for who in ("hiera", *[f"torch.compile:{m}" for m in COMPILE_MODES]):
            b = d[who]
            geo = f"{b['geomean_speedup']:.2f}" if b["geomean_speedup"] else "-"
            lines.append(f"| {g} | {who} | {b['fast_0']:.0%} | {b['fast_1']:.0%} | {b['fast_2']:.0%} | {geo} |")
    lines += ["", f"| group | hiera faster than eager by more than the {SPREAD - 1:.0%} timing spread | hiera at or "
              "above max-autotune | at or above the better compile mode | median optimize wall s |",
              "|---|---|---|---|---|"]
    for g, d in summ.items():
        h = d["hiera"]
        lines.append(f"| {g} | {h.get('faster_beyond_spread', 0):.0%} | {h['at_or_above_max_autotune']:.0%} | "
                     f"{h.get('at_or_above_best_compile', 0):.0%} | {h['median_wall_s']:.0f} |")
    lines += ["", "Budget curve, cut from the same runs (each task's best among its first B candidates, in-loop "
              "timings; a task with nothing valid by then counts as eager):", "",
              "| group | B | fast_0 | fast_1 | faster beyond spread | geomean (all tasks) |",
              "|---|---|---|---|---|---|"]
    for g, d in summ.items():
        for pt in d["hiera"].get("budget_curve", []):
            geo = f"{pt['geomean_all_tasks']:.2f}" if pt["geomean_all_tasks"] else "-"
            lines.append(f"| {g} | {pt['budget']} | {pt['fast_0']:.0%} | {pt['fast_1']:.0%} | "
                         f"{pt['faster_beyond_spread']:.0%} | {geo} |")
    lines += ["", "Where the optimize runs' time went (seconds summed over the group's tasks; other = the rest of the "
              "wall: the loop, loading, worker start):", "",
              "| group | first round in the best's space | " + " | ".join(PHASES) + " | other | wall |",
              "|---|---|" + "---|" * (len(PHASES) + 2)]
    for g, d in summ.items():
        h = d["hiera"]
        ts = h.get("time_split_s") or {}
        first = h.get("first_round_in_best_space")
        lines.append(f"| {g} | {f'{first:.0%}' if first is not None else '-'} | "
                     + " | ".join(f"{ts.get(k, 0):.0f}" for k in (*PHASES, "other", "wall")) + " |")
    behind = [r for r in results if r.limit]
    if behind:
        lines += ["", "Tasks that did not beat torch.compile, and what limited them:", ""]
        lines += [f"- {r.level}/{r.task}: {r.limit}" for r in behind]
    return "\n".join(lines) + "\n"


def plot(results: list[TaskResult], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    levels = sorted({r.level for r in results})
    fig, axes = plt.subplots(1, len(levels), figsize=(5 * len(levels), 4.5), squeeze=False)
    for ax, lv in zip(axes[0], levels):
        rs = sorted((r for r in results if r.level == lv), key=lambda r: r.speedup or 0)
        x = range(len(rs))
        w = 0.27
        ax.bar([i - w for i in x], [r.speedup or 0 for r in rs], width=w, label="hiera")
        ax.bar(list(x), [r.compile.get("default") or 0 for r in rs], width=w, label="torch.compile default")
        ax.bar([i + w for i in x], [r.compile.get("max-autotune") or 0 for r in rs], width=w,
               label="torch.compile max-autotune")
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xticks(list(x))
        ax.set_xticklabels([r.task[:18] for r in rs], rotation=70, fontsize=7)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
        lo, hi = ax.get_ylim()
        narrow = hi / max(lo, 1e-9) < 1.5  # a level whose speedups all sit near 1x: label the minor ticks too
        ax.yaxis.set_minor_formatter(FuncFormatter(
            lambda v, _, narrow=narrow: f"{v:.2f}x" if narrow else (f"{v:g}x" if v in (0.5, 2, 3, 5) else "")))
        ax.set_title(f"{lv}: speedup over eager (sorted by hiera's)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# --- orchestration ------------------------------------------------------------------------------------------

def run_bench(root: Path, out: Path, devices: list[str], args: dict[str, Any],
              on_done: Callable[[TaskResult, int, int], None] | None = None, *, levels: list[str] | None = None,
              deadline: float | None = None, run: bool = True,
              rerun: list[str] | None = None) -> tuple[list[TaskResult], dict[str, Any]]:
    """Run the tasks not yet finished in OUT; return every finished task's result and the summary.

    deadline (time.monotonic()): no task starts after it, so a bench on a machine lent for a while stops
    cleanly with each finished task saved; the next call with the same OUT resumes. run=False only
    summarizes what OUT holds. rerun names tasks ("stem" or "level/stem") to measure again even though
    they finished: their old result moves to OUT/tasks/superseded/ rather than being lost."""
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
    todo: queue.Queue[tuple[str, Path]] = queue.Queue()
    for level, path in tasks:
        if str(path) not in done and run:
            todo.put((level, path))
    lock = threading.Lock()
    total = len(tasks)
    for r in done.values():
        if on_done:
            on_done(r, len(done), total)

    def worker(device: str) -> None:
        while deadline is None or time.monotonic() < deadline:
            try:
                level, path = todo.get_nowait()
            except queue.Empty:
                return
            r = run_task(level, path, device, args, out)
            (out / "tasks" / f"{level}__{path.stem}.json").write_text(json.dumps(asdict(r), indent=1))
            with lock:
                done[str(path)] = r
                if on_done:
                    on_done(r, len(done), total)

    threads = [threading.Thread(target=worker, args=(d,), daemon=True) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results = [done[str(p)] for _, p in tasks if str(p) in done]
    summ = summary(results)
    return results, summ
