"""The statistics `hiera bench` (engine/suite_bench.py) and `hiera study` (engine/study.py) report: geomeans,
fast_p, medians, spreads, the budget curve and the time split, and each command's summary built from them.

Metrics (KernelBench's fast_p: Ouyang et al., "KernelBench: Can LLMs Write Efficient GPU Kernels?",
arXiv:2502.10517): over ALL tasks of a group, fast_0 = fraction valid, fast_1 = fraction with speedup > 1,
fast_2 = fraction > 2; geomean_speedup over the tasks with a valid result (an invalid task counts as
speedup 1.0: the user keeps eager). The reports that print them are engine/bench_render.py.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import TYPE_CHECKING, Any

from contracts.runrecord import Verdict, verdict_of
from contracts.shapes import ShapeReport
from engine.baselines import COMPILE_MODES

if TYPE_CHECKING:
    from engine.bench_records import Cell, CellResult, TaskResult

# Budgets the curve is cut at (the paper's Figure 3: quality after 1, 6, 12 and 18 candidates).
BUDGETS = (1, 6, 12, 18)
PHASES = ("build", "verify", "time", "profile", "model")

# Repeated timings of one kernel spread by about 3% on the H200 (BENCHMARKS.md): the spread a task measured
# before results recorded their own (TaskResult.spread None) is taken to be this.
SPREAD = 1.03


# --- numbers ------------------------------------------------------------------------------------------------

def geomean(xs: list[float]) -> float | None:
    """The geometric mean (each value floored at 1e-9); None for no values."""
    return math.exp(sum(math.log(max(x, 1e-9)) for x in xs) / len(xs)) if xs else None


def geomean_as_eager(speedups: list[float | None]) -> float | None:
    """The geomean over all tasks, a task with no valid result (None) counted as eager (1.0x)."""
    return geomean([s if s is not None else 1.0 for s in speedups])


def fast_p(speedups: list[float | None], p: float) -> float:
    """The share of all the speedups given (None: not valid) above p: KernelBench's fast_p."""
    n = len(speedups)
    return sum(1 for s in speedups if s is not None and s > p) / n if n else 0.0


def mean(xs: list[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def median(xs: list[float], empty: float | None = None) -> float | None:
    return statistics.median(xs) if xs else empty


def nearest_rank(vals: list[float], q: float) -> float:
    """The q-quantile of the values by the nearest-rank method (one of the values, no interpolation)."""
    vals = sorted(vals)
    return vals[min(len(vals) - 1, max(0, math.ceil(q * len(vals)) - 1))]


def spread(xs: list[float]) -> dict[str, Any]:
    """n, mean, median, variance and stdev (sample, n-1; None below 2 values), min and max."""
    if not xs:
        return {"n": 0, "mean": None, "median": None, "variance": None, "stdev": None, "min": None, "max": None}
    return {"n": len(xs), "mean": statistics.fmean(xs), "median": statistics.median(xs),
            "variance": statistics.variance(xs) if len(xs) > 1 else None,
            "stdev": statistics.stdev(xs) if len(xs) > 1 else None, "min": min(xs), "max": max(xs)}


# --- a task's figures -----------------------------------------------------------------------------------------

def task_spread(r: TaskResult) -> float:
    """The spread of the timings behind the task's figure: its own, measured, or the H200's 3% for an older
    result that did not record it."""
    return r.spread if r.spread is not None else SPREAD - 1


def faster_beyond_spread(speedup: float | None, spread: float) -> bool:
    return bool(speedup) and verdict_of(speedup, spread) is Verdict.FASTER


def best_within(r: TaskResult, budget: int) -> float | None:
    """The best speedup among the first `budget` candidates of the task's trajectory (None: none valid).

    Cut from the in-loop measurements, so every budget of one task comes from the same run; the final
    figure (`speedup`) is the best's fresh re-timing, which the full-budget point can differ from."""
    valid = [s for s in r.trajectory[:budget] if s is not None]
    return max(valid) if valid else None


# --- the bench's summary ----------------------------------------------------------------------------------------

def budget_curve(results: list[TaskResult], budgets: tuple[int, ...] = BUDGETS) -> list[dict[str, Any]]:
    """fast_0, fast_1, fast_2 and the all-tasks geomean (a task with nothing valid counts as eager, 1.0x) after the
    first B candidates of each task, for each budget B; tasks whose run had fewer candidates count all."""
    n = len(results)
    out = []
    for b in budgets:
        best = [best_within(r, b) for r in results]
        out.append({"budget": b, "tasks": n, "fast_0": sum(x is not None for x in best) / n if n else 0.0,
                    "fast_1": fast_p(best, 1.0), "fast_2": fast_p(best, 2.0),
                    "faster_beyond_spread": sum(faster_beyond_spread(x, task_spread(r))
                                                for x, r in zip(best, results)) / n if n else 0.0,
                    "geomean_all_tasks": geomean_as_eager(best)})
    return out


def budgets_that_ran(results: list[TaskResult], budgets: tuple[int, ...] = BUDGETS) -> tuple[int, ...]:
    """The budgets of the curve that the tasks' runs reached, ending at the longest run's own: a bench at
    budget 2 has rows for B = 1 and 2, not rows for 6, 12 and 18 that repeat B = 2."""
    ran = max((len(r.trajectory) for r in results), default=0)
    if ran == 0:
        return ()
    return (*[b for b in budgets if b < ran], ran)


def time_split(results: list[TaskResult]) -> dict[str, float]:
    """Seconds of the optimize runs spent per phase, summed over the tasks (and the share of their wall)."""
    total = {k: sum(r.seconds.get(k, 0.0) for r in results) for k in PHASES}
    wall = sum(r.optimize_wall_s for r in results)
    total["other"] = max(0.0, wall - sum(total.values()))
    total["wall"] = wall
    return total


def group_summary(results: list[TaskResult]) -> dict[str, dict[str, float | int]]:
    n = len(results)

    def block(speedups: list[float | None]) -> dict[str, float | int]:
        valid = [s for s in speedups if s is not None]
        # Tasks without a valid result keep eager (speedup 1.0) for the user's geomean.
        return {"tasks": n, "fast_0": len(valid) / n if n else 0.0, "fast_1": fast_p(speedups, 1.0),
                "fast_2": fast_p(speedups, 2.0), "geomean_speedup": geomean(valid),
                "geomean_speedup_all_tasks": geomean_as_eager(speedups)}

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
    # 1.00-1.03x, inside the spread of repeated timings of one kernel. This is the share clear of the spread
    # each task's own timings measured (8-126% on a loaded 2-core CPU, about 3% on the H200).
    out["hiera"]["faster_beyond_spread"] = sum(faster_beyond_spread(r.speedup if r.valid else None, task_spread(r))
                                               for r in results) / n if n else 0.0
    # The time target is on what a user waits for: hiera's optimize run, not the baselines timed beside it.
    out["hiera"]["median_wall_s"] = median([r.optimize_wall_s or r.wall_s for r in results], empty=0.0)
    # Planning quality: the share of tasks whose first round was already in the space of the final best.
    placed = [r for r in results if r.valid and r.best_space and r.spaces]
    out["hiera"]["first_round_in_best_space"] = (sum(r.spaces[0] == r.best_space for r in placed) / len(placed)
                                                 if placed else None)
    # How close the bests are to what the device can do: the geomean of their speed-of-light fractions over the
    # tasks that have a bound, and what the runs that stopped at it left unspent.
    fractions = [r.roofline_fraction for r in results if r.valid and r.roofline_fraction]
    out["hiera"]["geomean_speed_of_light"] = geomean(fractions)
    out["hiera"]["tasks_with_bound"] = len(fractions)
    stopped = [r.stopped_early for r in results if isinstance(getattr(r, "stopped_early", None), dict)]
    out["hiera"]["stopped_early"] = len(stopped)
    out["hiera"]["seconds_saved"] = sum(float(x.get("seconds_saved") or 0.0) for x in stopped)
    out["hiera"]["candidates_saved"] = sum(int(x.get("candidates_saved") or 0) for x in stopped)
    out["hiera"]["other_sizes"] = other_sizes(results)
    out["hiera"]["budget_curve"] = budget_curve(results, budgets_that_ran(results))
    out["hiera"]["time_split_s"] = time_split(results)
    return out


def shape_report(r: TaskResult) -> ShapeReport | None:
    """A valid best's shape report when it was checked at another size (None otherwise)."""
    if not (r.valid and isinstance(r.shapes, dict)):
        return None
    rep = ShapeReport.from_json(r.shapes)
    return rep if rep.checked else None


def other_sizes(results: list[TaskResult]) -> dict[str, Any]:
    """Issue 38's measure: of the valid bests checked at other batch sizes, how many their exported file serves
    at every size checked, and the geomean of their speedups at the given shapes beside the geomean of what the
    file delivers across the sizes (ShapeReport.across_sizes: 1 where it runs the reference)."""
    reps = [rep for r in results if (rep := shape_report(r)) is not None]
    timed = [rep for rep in reps if rep.given_speedup]  # both geomeans over the same tasks
    return {"valid": sum(r.valid for r in results), "checked": len(reps),
            "serve_all": sum(rep.serves_all for rep in reps),
            "geomean_given": geomean([rep.given_speedup for rep in timed if rep.given_speedup]),
            "geomean_across_sizes": geomean([a for rep in timed if (a := rep.across_sizes)])}


def bench_summary(results: list[TaskResult]) -> dict[str, Any]:
    """The bench's summary: group_summary over all tasks ("overall") and over each level."""
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


# --- the study's summary -------------------------------------------------------------------------------------

def miss_rate(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """How often the chosen direction was the measured bottleneck's, over the rounds given, by ncu's rules
    (the OPT rule with the largest estimated speedup: `hiera report`'s direction match) and by the dominant
    stall reason; and the bottlenecks that fit none of C/P/M/R/T. Rates are None when nothing could be judged.
    The rounds are engine/study.py round_verdicts()."""
    profiled = [r for r in rounds if r.get("profiled")]

    def judged(key: str, name: str) -> dict[str, Any]:
        have = [r for r in profiled if r.get(name)]
        fit = [r for r in have if r.get(key)]
        matched = sum(r[key] == r["direction"] for r in fit)
        return {"verdicts": len(have), "judged": len(fit), "matched": matched,
                "match_rate": matched / len(fit) if fit else None,
                "miss_rate": 1 - matched / len(fit) if fit else None,
                "fits_none": dict(Counter(r[name] for r in have if not r.get(key)).most_common()),
                "no_verdict": len(profiled) - len(have),
                # chosen -> measured, for the rounds judged: which directions the SSDA confuses
                "chosen_vs_measured": dict(Counter(f"{r['direction']}->{r[key]}" for r in fit).most_common())}

    either = [r for r in profiled if r.get("rule_direction") or r.get("stall_direction")]
    either_matched = sum(r["direction"] in (r.get("rule_direction"), r.get("stall_direction")) for r in either)
    return {"rounds": len(rounds), "profiled_rounds": len(profiled),
            "rules": judged("rule_direction", "rule"), "stalls": judged("stall_direction", "stall"),
            "either": {"judged": len(either), "matched": either_matched,
                       "match_rate": either_matched / len(either) if either else None}}


def matched_pairs(cells: list[Cell], done: dict[str, CellResult], variants: list[str]) -> list[tuple[str, str, int]]:
    """(level, task path, repeat) for which every variant finished: the set the variants are compared on."""
    keys = sorted({(c.level, str(c.path), c.repeat) for c in cells})
    by = {(c.variant, c.level, str(c.path), c.repeat): c.name for c in cells}
    return [k for k in keys if all(by.get((v, *k)) in done for v in variants)]


def fast_at_budgets(per_repeat: list[list[CellResult]]) -> list[dict[str, Any]]:
    """fast_0/1/2 and the all-tasks geomean at each B, the mean over repeats with each repeat's value."""
    curves = [budget_curve(rs) for rs in per_repeat if rs]
    out = []
    for i, b in enumerate(BUDGETS):
        pt: dict[str, Any] = {"budget": b}
        for key in ("fast_0", "fast_1", "fast_2", "geomean_all_tasks"):
            vals = [c[i][key] for c in curves if c[i].get(key) is not None]
            pt[key] = mean(vals)
            pt[f"{key}_by_repeat"] = vals
        out.append(pt)
    return out


def variant_summary(rs: list[CellResult], repeats: list[int]) -> dict[str, Any]:
    per_repeat = [[r for r in rs if r.repeat == k] for k in repeats]
    valid = [r.speedup for r in rs if r.valid and r.speedup]
    finals = [group_summary(x)["hiera"] for x in per_repeat if x]
    levels = sorted({r.level for r in rs})
    by_level = {}
    for lv in levels:
        f1 = [group_summary(x)["hiera"]["fast_1"] for x in ([r for r in xs if r.level == lv] for xs in per_repeat) if x]
        by_level[lv] = {"fast_1_by_repeat": f1, **{k: v for k, v in spread(f1).items() if k != "n"}}
    tasks: dict[str, Any] = {}
    for key in sorted({(r.level, r.task) for r in rs}):
        runs = sorted((r for r in rs if (r.level, r.task) == key), key=lambda r: r.repeat)
        sp = [r.speedup for r in runs if r.valid and r.speedup]
        tasks[f"{key[0]}/{key[1]}"] = {"speedups": [r.speedup if r.valid else None for r in runs],
                                       "invalid": sum(not r.valid for r in runs), **spread(sp)}
    walls = [r.optimize_wall_s for r in rs]
    costs = [r.cost_usd for r in rs if r.cost_usd is not None]
    backends = sorted({r.backend for r in rs if r.backend})
    return {
        "cells": len(rs), "invalid": sum(not r.valid for r in rs),
        "speedup": spread(valid),  # final (re-timed) speedups of the valid cells
        "geomean_all_cells": geomean_as_eager([(r.speedup or 1.0) if r.valid else None for r in rs]),
        "final": {k: mean([f[k] for f in finals]) for k in ("fast_0", "fast_1", "fast_2")},
        "fast_at_budget": fast_at_budgets(per_repeat),
        "fast_1_by_level": by_level,
        "tasks": tasks,
        "taxonomy": miss_rate([rd for r in rs for rd in r.rounds]),
        "cost": {"backend": ", ".join(backends), "wall_s_total": sum(walls),
                 "wall_s_median": median(walls),
                 "candidates_mean": mean([len(r.trajectory) for r in rs]),
                 "time_split_s": time_split(rs),
                 "tokens_prompt": sum(r.tokens.get("prompt", 0) for r in rs),
                 "tokens_completion": sum(r.tokens.get("completion", 0) for r in rs),
                 "cost_usd": sum(costs) if costs else None},
        "errors": [f"{r.level}/{r.task} r{r.repeat}: {r.error[:200]}" for r in rs if r.error],
    }


def study_summary(cells: list[Cell], done: dict[str, CellResult], variants: list[str]) -> dict[str, Any]:
    pairs = set(matched_pairs(cells, done, variants))
    repeats = sorted({k for _, _, k in pairs})
    by_variant = {}
    for v in variants:
        rs = [done[c.name] for c in cells if c.variant == v and c.name in done
              and (c.level, str(c.path), c.repeat) in pairs]
        by_variant[v] = variant_summary(rs, repeats)
    return {"matched_pairs": len(pairs), "matched_tasks": len({(lv, p) for lv, p, _ in pairs}),
            "repeats": repeats, "cells_finished": len(done), "cells_total": len(cells),
            "unmatched_cells": sorted(c.name for c in cells if c.name in done
                                      and (c.level, str(c.path), c.repeat) not in pairs),
            "variants": by_variant}
