"""The reports of `hiera bench` and `hiera study`: their Markdown tables and their figures, from the summaries
engine/bench_stats.py computes (the bench: hiera against torch.compile per task; the study: the variants of the
loop against each other). The table and number formats and the figure's axes are shared by both."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contracts.wording import space_title
from engine.baselines import COMPILE_MODES
from engine.bench_stats import BUDGETS, PHASES, nearest_rank
from engine.suite_bench import NO_BOUND

if TYPE_CHECKING:
    from engine.study import CellResult
    from engine.suite_bench import TaskResult


# --- shared pieces ----------------------------------------------------------------------------------------------

def num(v: float | None, nd: int = 2) -> str:
    return "-" if v is None else f"{v:.{nd}f}"


def pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def pct_range(vals: list[float]) -> str:
    if len(vals) < 2:
        return ""
    return f" ({min(vals):.0%}–{max(vals):.0%})"


def table_head(*columns: str) -> list[str]:
    """A Markdown table's header row and the row under it."""
    return ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _speedup_axis(ax: Any) -> None:
    """A log-scale y axis of speedups, its ticks read "2x"."""
    from matplotlib.ticker import FuncFormatter

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    _pyplot().close(fig)


# --- the bench: hiera against torch.compile, per task -------------------------------------------------------------

class Dashes:
    """Each "-" in a table with its reason: the cell reads "- [n]" and note n, under the table, says why (one
    note for every cell with the same reason)."""

    def __init__(self, after: Dashes | None = None) -> None:
        self.reasons: dict[str, int] = {}
        self.first = after.first + len(after.reasons) if after else 1  # one numbering through the document

    def mark(self, why: str) -> str:
        n = self.reasons.setdefault(" ".join(why.split()), self.first + len(self.reasons))
        return f"- [{n}]"

    def notes(self) -> list[str]:
        if not self.reasons:
            return []
        return ["", "Empty cells:", ""] + [f"- [{n}] {why}" for why, n in self.reasons.items()]


def hiera_missing(r: TaskResult) -> str:
    if r.error:
        return f"{r.level}/{r.task}: the optimize run failed: {r.error[:300]}"
    if not r.spaces:
        return f"{r.level}/{r.task}: the optimize run evaluated nothing"
    return f"{r.level}/{r.task}: no valid candidate"


def compile_missing(r: TaskResult, mode: str) -> str:
    status = r.compile_status.get(mode)
    if status is None:
        return "torch.compile not run (--no-compile)" if not r.compile_status else f"{mode}: no result recorded"
    reason = r.compile_reason.get(mode) or status
    return f"{r.level}/{r.task} torch.compile {mode}: {status}" + (f" ({reason[:300]})" if reason != status else "")


def bench_markdown(results: list[TaskResult], summ: dict[str, Any], header: str) -> str:
    """bench.md: a row per task, the fast_p of each group (engine/bench_stats.py bench_summary), the budget
    curve, where the time went, and what limited the tasks that did not beat torch.compile."""
    lines = [header, "", *table_head("level", "task", "valid", "precision", "hiera x", "compile x", "max-autotune x",
                                     "speed of light", "spaces", "directions",
                                     "wall s: whole task · hiera's optimize run (build/verify/time/profile/model)")]
    above_bound = []
    dashes = Dashes()
    for r in sorted(results, key=lambda r: (r.level, r.task)):
        def f(v: float | None, why: str) -> str:
            return f"{v:.2f}" if v else dashes.mark(why)
        if r.roofline_fraction:
            bound = (r.speed_of_light or {}).get("bound")
            roof = f"{r.roofline_fraction:.0%}" + (f" {bound}" if bound else "")
            if r.stopped_early:
                roof += " (stopped)"
        else:
            roof = dashes.mark(NO_BOUND if r.valid else "no speed of light without a valid result")
        if r.roofline_fraction and r.roofline_fraction > 1.0:
            above_bound.append(f"{r.level}/{r.task}")
            roof += "*"
        secs = r.seconds
        split = "/".join(f"{secs.get(k, 0):.0f}" for k in PHASES)
        spaces = ",".join(space_title(x, r.device) for x in r.spaces)
        # Every figure of the row (hiera's, eager's, torch.compile's) was judged and timed at this precision.
        precision = r.precision or dashes.mark("measured before results recorded their precision (fp32 or tf32 then)")
        lines.append(f"| {r.level} | {r.task} | {'yes' if r.valid else 'no'} | {precision} | "
                     f"{f(r.speedup, hiera_missing(r))} | "
                     f"{f(r.compile.get('default'), compile_missing(r, 'default'))} | "
                     f"{f(r.compile.get('max-autotune'), compile_missing(r, 'max-autotune'))} | "
                     f"{roof} | {spaces or dashes.mark(hiera_missing(r))} | "
                     f"{''.join(r.directions) or dashes.mark(hiera_missing(r))} | {r.wall_s:.0f} · "
                     f"{r.optimize_wall_s:.0f} ({split}) |")
    lines += dashes.notes()
    sums = Dashes(after=dashes)  # the summary tables' own notes, after them
    if above_bound:
        # The bound counts a convolution's direct-method FLOPs; Winograd and FFT algorithms do fewer.
        lines += ["", f"\\* above 100% ({', '.join(above_bound)}): faster than the bound from this device's "
                  "measured ceilings, but within the timing's own spread and the ceilings' margin (a kernel may "
                  "beat hiera's own probes by a little); a time beyond them is not credited (suspect)."]
    lines += ["", *table_head("group", "who", "fast_0", "fast_1", "fast_2", "geomean (valid)")]
    for g, d in summ.items():
        for who in ("hiera", *[f"torch.compile:{m}" for m in COMPILE_MODES]):
            b = d[who]
            geo = f"{b['geomean_speedup']:.2f}" if b["geomean_speedup"] else sums.mark(
                f"{who} in {g}: no valid result, so no geomean over valid results")
            lines.append(f"| {g} | {who} | {b['fast_0']:.0%} | {b['fast_1']:.0%} | {b['fast_2']:.0%} | {geo} |")
    lines += ["", *table_head("group", "hiera faster than eager by more than its own timings' spread",
                              "hiera at or above max-autotune", "at or above the better compile mode",
                              "median optimize wall s")]
    for g, d in summ.items():
        h = d["hiera"]
        lines.append(f"| {g} | {h.get('faster_beyond_spread', 0):.0%} | {h['at_or_above_max_autotune']:.0%} | "
                     f"{h.get('at_or_above_best_compile', 0):.0%} | {h['median_wall_s']:.0f} |")
    lines += ["", *table_head("group", "speed of light: geomean fraction of the bound (tasks with one)",
                              "stopped at it (candidates, about s not spent)")]
    for g, d in summ.items():
        h = d["hiera"]
        geo_sol = (f"{h['geomean_speed_of_light']:.0%} ({h['tasks_with_bound']})" if h.get("geomean_speed_of_light")
                   else sums.mark(f"{g}: no task with a valid best has a bound"))
        lines.append(f"| {g} | {geo_sol} | {h.get('stopped_early', 0)} ({h.get('candidates_saved', 0)}, "
                     f"{h.get('seconds_saved', 0.0):.0f} s) |")
    lines += ["", *table_head("group", "valid bests checked at other batch sizes",
                              "their file serves every size checked", "geomean at the given shapes",
                              "geomean across the sizes, as the file serves them")]
    for g, d in summ.items():
        o = d["hiera"].get("other_sizes") or {}
        if not o.get("checked"):
            none = sums.mark(f"{g}: no valid best was checked at another batch size (a task with no batch "
                             "dimension the reference lets vary, or nothing valid)")
            lines.append(f"| {g} | 0 of {o.get('valid', 0)} | {none} | {none} | {none} |")
            continue
        lines.append(f"| {g} | {o['checked']} of {o['valid']} | {o['serve_all']} | {num(o.get('geomean_given'))} | "
                     f"{num(o.get('geomean_across_sizes'))} |")
    lines += ["", "Budget curve, cut from the same runs (each task's best among its first B candidates, in-loop "
              "timings; a task with nothing valid by then counts as eager; faster beyond spread: by more than the "
              "spread of the task's own final timings; B up to the longest run's budget):", "",
              *table_head("group", "B", "fast_0", "fast_1", "faster beyond spread", "geomean (all tasks)")]
    for g, d in summ.items():
        for pt in d["hiera"].get("budget_curve", []):
            geo = f"{pt['geomean_all_tasks']:.2f}" if pt["geomean_all_tasks"] else sums.mark(f"{g}: no tasks")
            lines.append(f"| {g} | {pt['budget']} | {pt['fast_0']:.0%} | {pt['fast_1']:.0%} | "
                         f"{pt['faster_beyond_spread']:.0%} | {geo} |")
    lines += ["", "Where the optimize runs' time went (seconds summed over the group's tasks; other = the rest of the "
              "wall: the loop, loading, worker start):", "",
              *table_head("group", "first round in the best's space", *PHASES, "other", "wall")]
    for g, d in summ.items():
        h = d["hiera"]
        ts = h.get("time_split_s") or {}
        first = h.get("first_round_in_best_space")
        placed = f"{first:.0%}" if first is not None else sums.mark(
            f"{g}: no valid best with its space recorded, so no first round to compare with it")
        lines.append(f"| {g} | {placed} | "
                     + " | ".join(f"{ts.get(k, 0):.0f}" for k in (*PHASES, "other", "wall")) + " |")
    lines += sums.notes()
    lines += ["", *phase_table(results)]
    behind = [r for r in results if r.limit]
    if behind:
        lines += ["", "Tasks that did not beat torch.compile, and what limited them:", ""]
        lines += [f"- {r.level}/{r.task}: {r.limit}" for r in behind]
    return "\n".join(lines) + "\n"


def profiled_text(r: TaskResult) -> str:
    """'ref + 1/3' (the reference and one of three rounds profiled), 'no ref, 0/3 — <why>', 'off', or 'not
    recorded' (a run older than the record of its profiles)."""
    from contracts.runrecord import Profiling

    if not r.profiling:
        return "not recorded"
    p = Profiling.from_json(r.profiling)
    if not p.asked:
        return "off"
    text = f"{'ref + ' if p.reference else 'no ref, '}{p.rounds_profiled}/{p.rounds}"
    if p.skipped:
        text += " (" + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(p.skipped.items())) + ")"
    if p.off and not p.reference and not p.rounds_profiled:
        text += f" — {p.off[:80]}"
    return text


def phase_table(results: list[TaskResult]) -> list[str]:
    """Each optimize run's wall seconds by phase (they sum to its wall), and the median and p90 over the
    tasks: where a run's time goes (README: every second accounted for)."""
    from engine.phases import ORDER

    timed = [r for r in results if r.phases]
    if not timed:
        return []
    out = ["Where each optimize run's wall time went (seconds by phase, summing to the run's wall; engine/phases.py):",
           "", *table_head("task", "wall", *ORDER, "profiled", "left out for the deadline")]
    for r in sorted(timed, key=lambda r: (r.level, r.task)):
        wall = sum(r.phases.values())
        out.append(f"| {r.level}/{r.task} | {wall:.0f} | " + " | ".join(f"{r.phases.get(k, 0):.1f}" for k in ORDER)
                   + f" | {profiled_text(r)} | {'; '.join(r.left_out) or '-'} |")
    walls = [sum(r.phases.values()) for r in timed]
    for label, q in (("median", 0.5), ("p90", 0.9)):
        out.append(f"| **{label}** ({len(timed)} tasks) | {nearest_rank(walls, q):.0f} | "
                   + " | ".join(f"{nearest_rank([r.phases.get(k, 0.0) for r in timed], q):.1f}" for k in ORDER)
                   + " | | |")
    return out


def bench_plot(results: list[TaskResult], path: Path) -> None:
    """bench.png: per level, hiera's speedup beside both torch.compile modes' for each task."""
    from matplotlib.ticker import FuncFormatter

    plt = _pyplot()
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
        _speedup_axis(ax)
        lo, hi = ax.get_ylim()
        narrow = hi / max(lo, 1e-9) < 1.5  # a level whose speedups all sit near 1x: label the minor ticks too
        ax.yaxis.set_minor_formatter(FuncFormatter(
            lambda v, _, narrow=narrow: f"{v:.2f}x" if narrow else (f"{v:g}x" if v in (0.5, 2, 3, 5) else "")))
        ax.set_title(f"{lv}: speedup over eager (sorted by hiera's)")
        ax.legend(fontsize=7)
    _save(fig, path)


# --- the study: the variants of the loop against each other ---------------------------------------------------

def study_markdown(summ: dict[str, Any], header: str, budget: int | None = None) -> str:
    """study.md, from engine/bench_stats.py study_summary: the speedups per variant, fast_p at each budget, the
    taxonomy miss rate, the spread over repeats and the cost."""
    vs = summ["variants"]
    n_rep = len(summ["repeats"])
    lines = [header, "",
             f"Compared on the {summ['matched_tasks']} task(s) × {n_rep} repeat(s) that every variant finished "
             f"({summ['cells_finished']} of {summ['cells_total']} cells finished"
             + (f"; {len(summ['unmatched_cells'])} finished cell(s) outside that set are not counted" if
                summ["unmatched_cells"] else "") + ").", "",
             "## Speedup over eager per variant (final, re-timed best of each cell; study.png draws it)", "",
             *table_head("variant", "cells", "invalid", "mean", "median", "variance", "stdev", "min", "max",
                         "geomean (invalid = 1.0x)", "fast_0 / fast_1 / fast_2", "wall s per cell (median)")]
    for v, s in vs.items():
        sp, f = s["speedup"], s["final"]
        lines.append(f"| {v} | {s['cells']} | {s['invalid']} | {num(sp['mean'])} | {num(sp['median'])} | "
                     f"{num(sp['variance'], 3)} | {num(sp['stdev'], 3)} | {num(sp['min'])} | {num(sp['max'])} | "
                     f"{num(s['geomean_all_cells'])} | {pct(f['fast_0'])} / {pct(f['fast_1'])} / "
                     f"{pct(f['fast_2'])} | {num(s['cost']['wall_s_median'], 0)} |")
    lines += ["", "Statistics over the valid cells (each task × repeat is one point); fast_p over all cells, from "
              "the final re-timed speedups."]
    lines += ["", "## fast_p per variant at budget B (cut from the same trajectories: each cell's best among its "
              "first B candidates, in-loop timings; fast_p over all tasks, a task with nothing valid counts as "
              "eager" + ("; the mean over repeats, the range in brackets" if n_rep > 1 else "") + ")", "",
              *table_head("variant", "B", "fast_0", "fast_1", "fast_2", "geomean")]
    if budget is not None and budget < max(BUDGETS):
        lines[-2:-2] = [f"The study's budget is {budget} candidates: a B above it is the whole run.", ""]
    for v, s in vs.items():
        for pt in s["fast_at_budget"]:
            lines.append(f"| {v} | {pt['budget']} | {pct(pt['fast_0'])}{pct_range(pt['fast_0_by_repeat'])} | "
                         f"{pct(pt['fast_1'])}{pct_range(pt['fast_1_by_repeat'])} | "
                         f"{pct(pt['fast_2'])}{pct_range(pt['fast_2_by_repeat'])} | {num(pt['geomean_all_tasks'])} |")
    lines += ["", "## Taxonomy miss rate: the chosen direction against the parent's dominant bottleneck", "",
              "By ncu's rules: the OPT rule with the largest estimated speedup (what `hiera report` matches). By "
              "stall reasons: the stall with the largest time-weighted share of non-issuing warp cycles, mapped "
              "as engine/profile/directions.py maps it.", "",
              *table_head("variant", "rounds", "profiled", "by rules: matched / judged", "miss rate",
                          "by stalls: matched / judged", "miss rate", "either", "fit none of C/P/M/R/T")]
    unjudged = []
    for v, s in vs.items():
        t = s["taxonomy"]
        if not t["profiled_rounds"]:
            unjudged.append(v)
            lines.append(f"| {v} | {t['rounds']} | 0 | not judged | - | not judged | - | - | - |")
            continue
        ru, st, ei = t["rules"], t["stalls"], t["either"]
        none = [f"rule {k} ×{n}" for k, n in ru["fits_none"].items()] + \
               [f"stall {k} ×{n}" for k, n in st["fits_none"].items()]
        lines.append(f"| {v} | {t['rounds']} | {t['profiled_rounds']} | {ru['matched']}/{ru['judged']} | "
                     f"{pct(ru['miss_rate'])} | {st['matched']}/{st['judged']} | {pct(st['miss_rate'])} | "
                     f"{ei['matched']}/{ei['judged']} | {', '.join(none) or 'none'} |")
    if unjudged:
        lines += ["", f"Not judged for {', '.join(unjudged)}: no round had a profiled parent (Nsight Compute profiles "
                  "CUDA kernels only: a CPU device or --no-profile leaves nothing to compare the direction with). "
                  "This is not a 0% miss rate."]
    if n_rep > 1:
        lines += ["", f"## Repeated runs ({n_rep} per task): the spread of the final speedup", "",
                  *table_head("variant", "task", "speedups", "min", "max", "mean", "stdev")]
        for v, s in vs.items():
            for task, t in s["tasks"].items():
                shown = ", ".join("invalid" if x is None else f"{x:.2f}" for x in t["speedups"])
                lines.append(f"| {v} | {task} | {shown} | {num(t['min'])} | {num(t['max'])} | {num(t['mean'])} | "
                             f"{num(t['stdev'], 3)} |")
        lines += ["", "fast_1 (final) per level over the repeats:", "",
                  *table_head("variant", "level", "per repeat", "min", "max", "stdev")]
        for v, s in vs.items():
            for lv, f in s["fast_1_by_level"].items():
                lines.append(f"| {v} | {lv} | {', '.join(f'{x:.0%}' for x in f['fast_1_by_repeat'])} | "
                             f"{pct(f['min'])} | {pct(f['max'])} | {num(f['stdev'], 3)} |")
    lines += ["", "## Cost at the matched budget", "",
              *table_head("variant", "candidates per cell (mean)", "optimize wall s (total)", "median per cell",
                          "build / verify / time / profile / model s", "tokens (prompt + completion)", "$")]
    for v, s in vs.items():
        c = s["cost"]
        ts = c["time_split_s"]
        split = " / ".join(f"{ts.get(k, 0):.0f}" for k in PHASES)
        expert_only = c["backend"] in ("", "expert")
        tok = "none (expert backend: no model)" if expert_only else f"{c['tokens_prompt']} + {c['tokens_completion']}"
        usd = ("-" if expert_only else "no price set (--llm-price-*)") if c["cost_usd"] is None \
            else f"{c['cost_usd']:.4f}"
        lines.append(f"| {v} | {num(c['candidates_mean'], 1)} | {c['wall_s_total']:.0f} | {num(c['wall_s_median'], 1)} "
                     f"| {split} | {tok} | {usd} |")
    errors = [(v, e) for v, s in vs.items() for e in s["errors"]]
    if errors:
        lines += ["", "Cells whose optimize run failed (counted as invalid):", ""]
        lines += [f"- {v}: {e}" for v, e in errors]
    return "\n".join(lines) + "\n"


def study_plot(summ: dict[str, Any], done: list[CellResult], path: Path) -> None:
    """study.png, the Figure 4 analogue: per variant, a box of the valid cells' final speedups with every cell as
    a point (jittered), the mean marked, and the invalid cells' count under the axis."""
    import random

    plt = _pyplot()
    names = list(summ["variants"])
    data = [[r.speedup for r in done if r.variant == v and r.valid and r.speedup] for v in names]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(names) + 2), 5))
    kept = [(i, d) for i, d in enumerate(data) if d]
    if kept:
        ax.boxplot([d for _, d in kept], positions=[i + 1 for i, _ in kept], widths=0.55, showfliers=False,
                   medianprops={"color": "black"})
    rnd = random.Random(0)  # the same jitter every time the report is drawn
    for i, d in enumerate(data):
        ax.scatter([i + 1 + rnd.uniform(-0.18, 0.18) for _ in d], d, s=14, alpha=0.7, zorder=3)
        if d:
            ax.scatter([i + 1], [statistics.fmean(d)], marker="D", color="red", s=28, zorder=4,
                       label="mean" if i == kept[0][0] else None)
    ax.axhline(1.0, color="gray", lw=0.8, ls="--")
    labels = []
    for v in names:
        s = summ["variants"][v]
        sp = s["speedup"]
        var = f"var {sp['variance']:.2f}" if sp["variance"] is not None else "var -"
        shown = v.replace("+", "+\n")
        labels.append(f"{shown}\nmed {num(sp['median'])} max {num(sp['max'])}\n{var}"
                      + (f"\n{s['invalid']} invalid" if s["invalid"] else ""))
    ax.set_xticks(range(1, len(names) + 1))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_xlim(0.4, len(names) + 0.6)
    if any(data):
        _speedup_axis(ax)
    ax.set_ylabel("speedup over eager (final, re-timed)")
    ax.set_title(f"speedup per variant over {summ['matched_tasks']} task(s) × {len(summ['repeats'])} repeat(s)")
    if kept:
        ax.legend(fontsize=7, loc="upper right")
    _save(fig, path)
