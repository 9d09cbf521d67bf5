"""The study runner behind `hiera study DIR`: the same tasks at the same budget under several variants of the
loop (adaptive, each fixed space, the ablations and their joint one), repeated N times, and the report that
compares them: the speedup distribution per variant (the paper's Figure 4), fast_0/1/2 at B = 1, 6, 12, 18,
the taxonomy miss rate, the spread over repeated runs, and the cost of each variant at the matched budget.

A cell is one (variant, task, repeat): one `hiera optimize --json` process, run by engine/suite_bench.py's
run_task (the same code the suite bench runs each task with; the variant only adds its optimize flags). Each
finished cell is written to OUT/cells/<variant>__<level>__<task>__r<k>.json, with the per-round facts the miss
rate needs read out of the run store as it finishes, so a resumed study (another machine, a fresh store)
skips it and still reports it. Cells run in the order (repeat, task, variant): a study stopped early has
every variant on the same tasks, and the report compares the variants only on the (task, repeat) pairs that
every variant finished.

Variants map onto `hiera optimize`'s flags (VARIANT_FLAGS); "a+b" is the joint variant. `hiera optimize
--repeat` is not used for the repeats: it reports the rounds of its last run only, so fast_p after B candidates
could not be cut from each repeat; here each repeat is its own cell, resumable on its own.
"""

from __future__ import annotations

import json
import math
import queue
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from engine import suite_bench
from engine.suite_bench import BUDGETS, TaskResult, budget_curve, find_tasks, group_summary, time_split

# --- variants ---------------------------------------------------------------------------------------------

SPACE_VARIANTS = ("pure_cuda", "cuda_libraries", "libraries_pytorch")
VARIANT_FLAGS: dict[str, list[str]] = {
    "adaptive": [],  # the SSDA picks the space every round, planned, contract sources: hiera as shipped
    **{s: ["--space", s] for s in SPACE_VARIANTS},
    "no_planning": ["--no-planning"],
    "no_contract": ["--no-contract"],
}
DEFAULT_VARIANTS = ("adaptive", *SPACE_VARIANTS, "no_planning", "no_contract", "no_planning+no_contract")


class VariantError(ValueError):
    pass


def parse_variants(text: str) -> list[str]:
    """The variant names of a comma-separated list, each a known variant or a '+'-joined combination of them
    (at most one space, 'adaptive' alone); refused when unknown, contradictory or repeated."""
    out: list[str] = []
    for raw in (x.strip() for x in text.split(",")):
        if not raw:
            continue
        parts = [p.strip() for p in raw.split("+")]
        unknown = [p for p in parts if p not in VARIANT_FLAGS]
        if unknown:
            raise VariantError(f"unknown variant {'+'.join(unknown)!r} in {raw!r} (known: {', '.join(VARIANT_FLAGS)}; "
                               "join ablations with '+', e.g. no_planning+no_contract)")
        if len(set(parts)) != len(parts):
            raise VariantError(f"variant {raw!r} names a part twice")
        if len(parts) > 1 and "adaptive" in parts:
            raise VariantError(f"variant {raw!r}: adaptive is the loop with nothing changed; it joins nothing")
        if sum(p in SPACE_VARIANTS for p in parts) > 1:
            raise VariantError(f"variant {raw!r} fixes two spaces")
        name = "+".join(parts)
        if name in out:
            raise VariantError(f"variant {name!r} is listed twice")
        out.append(name)
    if not out:
        raise VariantError("no variants given")
    return out


def variant_flags(variant: str) -> list[str]:
    return [f for part in variant.split("+") for f in VARIANT_FLAGS[part]]


# --- cells ------------------------------------------------------------------------------------------------

@dataclass
class CellResult(TaskResult):
    """A task's result (suite_bench.TaskResult) under one variant and repeat, with the cost and the rounds."""

    variant: str = ""
    repeat: int = 0
    backend: str = ""
    tokens: dict[str, int] = field(default_factory=dict)  # prompt / completion, summed over the run's model calls
    cost_usd: float | None = None  # None: no price known (the expert backend calls no model)
    rounds: list[dict[str, Any]] = field(default_factory=list)  # round_verdicts(): the taxonomy's facts
    run_status: str = ""  # the optimize run's status in the store: finished, stopped, failed ("" no run)

    @staticmethod
    def from_json(d: dict[str, Any]) -> CellResult:
        known = {f.name for f in fields(CellResult)}
        return CellResult(**{k: v for k, v in d.items() if k in known})


def cell_name(variant: str, level: str, stem: str, repeat: int) -> str:
    return f"{variant}__{level}__{stem}__r{repeat}"


@dataclass(frozen=True)
class Cell:
    variant: str
    level: str
    path: Path
    repeat: int

    @property
    def name(self) -> str:
        return cell_name(self.variant, self.level, self.path.stem, self.repeat)


def plan_cells(tasks: list[tuple[str, Path]], variants: list[str], repeat: int) -> list[Cell]:
    """Every cell, in the order they run: repeat, then task, then variant (so a study cut short has every
    variant on the same tasks)."""
    return [Cell(v, lv, p, k) for k in range(repeat) for lv, p in tasks for v in variants]


# --- the taxonomy: the chosen direction against the measured bottleneck --------------------------------------

_RULE_TEXT = r"^(?P<rule>\S+) \((?P<d>\w|\?)\)$"  # engine/loop.py _bottleneck_text: "Rule (D)", "?" = no direction


def stall_verdict(profile: dict[str, Any] | None) -> dict[str, Any] | None:
    """The dominant warp stall reason of a stored profile, time-weighted over its kernels, and the direction
    engine/profile/directions.py maps it to (None: a stall that fits none of C/P/M/R/T); None without stall
    data. The share is of the cycles warps spend not issuing (directions.stall_share)."""
    if not profile or not profile.get("kernels"):
        return None
    from engine.profile.directions import (
        STALL_DIRECTIONS,
        _weights,
        memory_wait_direction,
        stall_share,
    )
    from engine.profile.metrics import KernelProfile

    kernels = [KernelProfile.from_json(k) for k in profile["kernels"]]
    weights = _weights(kernels)
    shares: Counter[str] = Counter()
    for k, w in zip(kernels, weights):
        for reason in k.warp_stalls:
            if reason != "selected":
                shares[reason] += w * stall_share(k, reason)
    if not shares or max(shares.values()) <= 0:
        return None
    top = max(sorted(shares), key=lambda r: shares[r])
    if top == "long_scoreboard":  # who owns "waiting on global memory" depends on the kernel (directions.py)
        k = max(zip(kernels, weights), key=lambda kw: kw[1] * stall_share(kw[0], top))[0]
        direction: str | None = memory_wait_direction(k)
    else:
        direction = STALL_DIRECTIONS.get(top)
    return {"stall": top, "share": round(shares[top], 4), "direction": direction}


def round_verdicts(store: Any, run_id: str) -> list[dict[str, Any]]:
    """Per round of a run: the space and direction chosen, and, when its parent was profiled, the dominant
    bottleneck by ncu's rules (what the loop recorded beside the decision) and by the stall reasons (from
    the parent's stored profile: the reference's before any best, then each round's profiled best)."""
    import re

    decisions = store.decisions(run_id)
    profiles = store.profiles(run_id)
    round_of = {c["id"]: c["round"] for c in store.candidates(run_id)}
    profiled_in: dict[int, dict[str, Any]] = {}
    for cid, data in profiles.items():
        r = round_of.get(cid.removesuffix("-retimed"))
        if cid != "reference" and r is not None:
            profiled_in[r] = data
    parent = profiles.get("reference")
    out = []
    for d in decisions:
        rec: dict[str, Any] = {"round": d["round"], "space": d["space"], "direction": d["direction"],
                               "profiled": parent is not None or bool(d.get("profile_bottleneck")),
                               "rule": None, "rule_direction": None, "stall": None, "stall_share": None,
                               "stall_direction": None}
        m = re.match(_RULE_TEXT, d.get("profile_bottleneck") or "")
        if m:
            rec["rule"] = m.group("rule")
            rec["rule_direction"] = None if m.group("d") == "?" else m.group("d")
        sv = stall_verdict(parent)
        if sv:
            rec.update(stall=sv["stall"], stall_share=sv["share"], stall_direction=sv["direction"])
        out.append(rec)
        if d["round"] in profiled_in:
            parent = profiled_in[d["round"]]
    return out


def miss_rate(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """How often the chosen direction was the measured bottleneck's, over the rounds given, by ncu's rules
    (the OPT rule with the largest estimated speedup: `hiera report`'s direction match) and by the dominant
    stall reason; and the bottlenecks that fit none of C/P/M/R/T. Rates are None when nothing could be judged."""
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


# --- running ------------------------------------------------------------------------------------------------

def _cost_and_rounds(workspace: Path, run_id: str | None) -> dict[str, Any]:
    """The run's backend, tokens, dollars and per-round verdicts, read from the study's run store."""
    if not run_id:
        return {}
    from engine.store import RunStore

    store = RunStore.existing(workspace)
    if store is None:
        return {}
    try:
        run = store.run(run_id) or {}
        summ = run.get("summary") or {}
        tokens = summ.get("tokens") or {}
        return {"backend": run.get("backend") or "", "run_status": run.get("status") or "",
                "cost_usd": summ.get("cost_usd"),
                "tokens": {"prompt": int(tokens.get("prompt", 0)), "completion": int(tokens.get("completion", 0))},
                "rounds": round_verdicts(store, run_id)}
    finally:
        store.close()


def run_cell(cell: Cell, device: str, args: dict[str, Any], out: Path) -> CellResult:
    """One cell: suite_bench.run_task with the variant's flags, its own results folder, no compile baseline."""
    results = out / "results" / cell.variant / f"r{cell.repeat}" / cell.path.stem
    cell_args = {**args, "compile": False,
                 "optimize_flags": [*args.get("optimize_flags", []), *variant_flags(cell.variant),
                                    "--results-dir", str(results)]}  # argparse: the last --results-dir wins
    r = suite_bench.run_task(cell.level, cell.path, device, cell_args, out)
    extra = _cost_and_rounds(out / "workspace", r.run_id)
    return CellResult(**asdict(r), variant=cell.variant, repeat=cell.repeat, **extra)


def load_cells(out: Path) -> dict[str, CellResult]:
    done = {}
    for f in sorted((out / "cells").glob("*.json")):
        try:
            done[f.stem] = CellResult.from_json(json.loads(f.read_text()))
        except (OSError, ValueError, TypeError):
            continue  # a half-written file (a killed study): the cell runs again
    return done


def run_study(root: Path, out: Path, variants: list[str], devices: list[str], args: dict[str, Any], *,
              repeat: int = 1, levels: list[str] | None = None, tasks: list[tuple[str, Path]] | None = None,
              deadline: float | None = None, run: bool = True,
              on_done: Callable[[CellResult, int, int], None] | None = None
              ) -> tuple[list[Cell], dict[str, CellResult]]:
    """Run the cells not yet finished in OUT (none after the deadline, time.monotonic()); return every cell of
    the study and the finished ones by name. run=False only reads what OUT holds."""
    tasks = tasks if tasks is not None else find_tasks(root, levels)
    cells = plan_cells(tasks, variants, repeat)
    (out / "cells").mkdir(parents=True, exist_ok=True)
    args = {**args, "code_version": args.get("code_version") or suite_bench.code_version()}
    done = {name: c for name, c in load_cells(out).items()}
    wanted = {c.name for c in cells}
    todo: queue.Queue[Cell] = queue.Queue()
    for c in cells:
        if c.name not in done and run:
            todo.put(c)
    lock = threading.Lock()
    total = len(cells)
    if on_done:
        for i, name in enumerate([c.name for c in cells if c.name in done], start=1):
            on_done(done[name], i, total)

    def worker(device: str) -> None:
        while deadline is None or time.monotonic() < deadline:
            try:
                c = todo.get_nowait()
            except queue.Empty:
                return
            r = run_cell(c, device, args, out)
            if r.run_status == "stopped":
                continue  # stopped from outside (Ctrl-C, a signal): not a finished cell; the next call runs it
            path = out / "cells" / f"{c.name}.json"
            tmp = path.with_suffix(".json.part")
            tmp.write_text(json.dumps(asdict(r), indent=1))
            tmp.replace(path)  # whole or not at all: a study killed mid-write leaves no half cell
            with lock:
                done[c.name] = r
                if on_done:
                    on_done(r, sum(n in wanted for n in done), total)

    threads = [threading.Thread(target=worker, args=(d,), daemon=True) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return cells, {n: r for n, r in done.items() if n in wanted}


# --- summary --------------------------------------------------------------------------------------------------

def spread(xs: list[float]) -> dict[str, Any]:
    """n, mean, median, variance and stdev (sample, n-1; None below 2 values), min and max."""
    if not xs:
        return {"n": 0, "mean": None, "median": None, "variance": None, "stdev": None, "min": None, "max": None}
    return {"n": len(xs), "mean": statistics.fmean(xs), "median": statistics.median(xs),
            "variance": statistics.variance(xs) if len(xs) > 1 else None,
            "stdev": statistics.stdev(xs) if len(xs) > 1 else None, "min": min(xs), "max": max(xs)}


def matched_pairs(cells: list[Cell], done: dict[str, CellResult], variants: list[str]) -> list[tuple[str, str, int]]:
    """(level, task path, repeat) for which every variant finished: the set the variants are compared on."""
    keys = sorted({(c.level, str(c.path), c.repeat) for c in cells})
    by = {(c.variant, c.level, str(c.path), c.repeat): c.name for c in cells}
    return [k for k in keys if all(by.get((v, *k)) in done for v in variants)]


def _fast_at_budgets(per_repeat: list[list[CellResult]]) -> list[dict[str, Any]]:
    """fast_0/1/2 and the all-tasks geomean at each B, the mean over repeats with each repeat's value."""
    curves = [budget_curve(rs) for rs in per_repeat if rs]
    out = []
    for i, b in enumerate(BUDGETS):
        pt: dict[str, Any] = {"budget": b}
        for key in ("fast_0", "fast_1", "fast_2", "geomean_all_tasks"):
            vals = [c[i][key] for c in curves if c[i].get(key) is not None]
            pt[key] = statistics.fmean(vals) if vals else None
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
        "geomean_all_cells": math.exp(sum(math.log(max(r.speedup or 1.0, 1e-9)) if r.valid else 0.0 for r in rs)
                                      / len(rs)) if rs else None,
        "final": {k: statistics.fmean([f[k] for f in finals]) if finals else None
                  for k in ("fast_0", "fast_1", "fast_2")},
        "fast_at_budget": _fast_at_budgets(per_repeat),
        "fast_1_by_level": by_level,
        "tasks": tasks,
        "taxonomy": miss_rate([rd for r in rs for rd in r.rounds]),
        "cost": {"backend": ", ".join(backends), "wall_s_total": sum(walls),
                 "wall_s_median": statistics.median(walls) if walls else None,
                 "candidates_mean": statistics.fmean([len(r.trajectory) for r in rs]) if rs else None,
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


# --- reports ------------------------------------------------------------------------------------------------

def _x(v: float | None, nd: int = 2) -> str:
    return "-" if v is None else f"{v:.{nd}f}"


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def _range(vals: list[float]) -> str:
    if len(vals) < 2:
        return ""
    return f" ({min(vals):.0%}–{max(vals):.0%})"


def markdown(summ: dict[str, Any], header: str, budget: int | None = None) -> str:
    vs = summ["variants"]
    n_rep = len(summ["repeats"])
    lines = [header, "",
             f"Compared on the {summ['matched_tasks']} task(s) × {n_rep} repeat(s) that every variant finished "
             f"({summ['cells_finished']} of {summ['cells_total']} cells finished"
             + (f"; {len(summ['unmatched_cells'])} finished cell(s) outside that set are not counted" if
                summ["unmatched_cells"] else "") + ").", "",
             "## Speedup over eager per variant (final, re-timed best of each cell; study.png draws it)", "",
             "| variant | cells | invalid | mean | median | variance | stdev | min | max | geomean (invalid = 1.0x) "
             "| fast_0 / fast_1 / fast_2 | wall s per cell (median) |", "|" + "---|" * 12]
    for v, s in vs.items():
        sp, f = s["speedup"], s["final"]
        lines.append(f"| {v} | {s['cells']} | {s['invalid']} | {_x(sp['mean'])} | {_x(sp['median'])} | "
                     f"{_x(sp['variance'], 3)} | {_x(sp['stdev'], 3)} | {_x(sp['min'])} | {_x(sp['max'])} | "
                     f"{_x(s['geomean_all_cells'])} | {_pct(f['fast_0'])} / {_pct(f['fast_1'])} / "
                     f"{_pct(f['fast_2'])} | {_x(s['cost']['wall_s_median'], 0)} |")
    lines += ["", "Statistics over the valid cells (each task × repeat is one point); fast_p over all cells, from "
              "the final re-timed speedups."]
    lines += ["", "## fast_p per variant at budget B (cut from the same trajectories: each cell's best among its "
              "first B candidates, in-loop timings; fast_p over all tasks, a task with nothing valid counts as "
              "eager" + ("; the mean over repeats, the range in brackets" if n_rep > 1 else "") + ")", "",
              "| variant | B | fast_0 | fast_1 | fast_2 | geomean |", "|---|---|---|---|---|---|"]
    if budget is not None and budget < max(BUDGETS):
        lines[-2:-2] = [f"The study's budget is {budget} candidates: a B above it is the whole run.", ""]
    for v, s in vs.items():
        for pt in s["fast_at_budget"]:
            lines.append(f"| {v} | {pt['budget']} | {_pct(pt['fast_0'])}{_range(pt['fast_0_by_repeat'])} | "
                         f"{_pct(pt['fast_1'])}{_range(pt['fast_1_by_repeat'])} | "
                         f"{_pct(pt['fast_2'])}{_range(pt['fast_2_by_repeat'])} | {_x(pt['geomean_all_tasks'])} |")
    lines += ["", "## Taxonomy miss rate: the chosen direction against the parent's dominant bottleneck", "",
              "By ncu's rules: the OPT rule with the largest estimated speedup (what `hiera report` matches). By "
              "stall reasons: the stall with the largest time-weighted share of non-issuing warp cycles, mapped "
              "as engine/profile/directions.py maps it.", "",
              "| variant | rounds | profiled | by rules: matched / judged | miss rate | by stalls: matched / judged "
              "| miss rate | either | fit none of C/P/M/R/T |", "|---|---|---|---|---|---|---|---|---|"]
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
                     f"{_pct(ru['miss_rate'])} | {st['matched']}/{st['judged']} | {_pct(st['miss_rate'])} | "
                     f"{ei['matched']}/{ei['judged']} | {', '.join(none) or 'none'} |")
    if unjudged:
        lines += ["", f"Not judged for {', '.join(unjudged)}: no round had a profiled parent (Nsight Compute profiles "
                  "CUDA kernels only: a CPU device or --no-profile leaves nothing to compare the direction with). "
                  "This is not a 0% miss rate."]
    if n_rep > 1:
        lines += ["", f"## Repeated runs ({n_rep} per task): the spread of the final speedup", "",
                  "| variant | task | speedups | min | max | mean | stdev |", "|---|---|---|---|---|---|---|"]
        for v, s in vs.items():
            for task, t in s["tasks"].items():
                shown = ", ".join("invalid" if x is None else f"{x:.2f}" for x in t["speedups"])
                lines.append(f"| {v} | {task} | {shown} | {_x(t['min'])} | {_x(t['max'])} | {_x(t['mean'])} | "
                             f"{_x(t['stdev'], 3)} |")
        lines += ["", "fast_1 (final) per level over the repeats:", "",
                  "| variant | level | per repeat | min | max | stdev |", "|---|---|---|---|---|---|"]
        for v, s in vs.items():
            for lv, f in s["fast_1_by_level"].items():
                lines.append(f"| {v} | {lv} | {', '.join(f'{x:.0%}' for x in f['fast_1_by_repeat'])} | "
                             f"{_pct(f['min'])} | {_pct(f['max'])} | {_x(f['stdev'], 3)} |")
    lines += ["", "## Cost at the matched budget", "",
              "| variant | candidates per cell (mean) | optimize wall s (total) | median per cell | build / verify / "
              "time / profile / model s | tokens (prompt + completion) | $ |", "|---|---|---|---|---|---|---|"]
    for v, s in vs.items():
        c = s["cost"]
        ts = c["time_split_s"]
        split = " / ".join(f"{ts.get(k, 0):.0f}" for k in suite_bench.PHASES)
        expert_only = c["backend"] in ("", "expert")
        tok = "none (expert backend: no model)" if expert_only else f"{c['tokens_prompt']} + {c['tokens_completion']}"
        usd = ("-" if expert_only else "no price set (--llm-price-*)") if c["cost_usd"] is None \
            else f"{c['cost_usd']:.4f}"
        lines.append(f"| {v} | {_x(c['candidates_mean'], 1)} | {c['wall_s_total']:.0f} | {_x(c['wall_s_median'], 1)} "
                     f"| {split} | {tok} | {usd} |")
    errors = [(v, e) for v, s in vs.items() for e in s["errors"]]
    if errors:
        lines += ["", "Cells whose optimize run failed (counted as invalid):", ""]
        lines += [f"- {v}: {e}" for v, e in errors]
    return "\n".join(lines) + "\n"


def plot(summ: dict[str, Any], done: list[CellResult], path: Path) -> None:
    """The Figure 4 analogue: per variant, a box of the valid cells' final speedups with every cell as a
    point (jittered), the mean marked, and the invalid cells' count under the axis."""
    import random

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

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
        labels.append(f"{shown}\nmed {_x(sp['median'])} max {_x(sp['max'])}\n{var}"
                      + (f"\n{s['invalid']} invalid" if s["invalid"] else ""))
    ax.set_xticks(range(1, len(names) + 1))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_xlim(0.4, len(names) + 0.6)
    if any(data):
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.set_ylabel("speedup over eager (final, re-timed)")
    ax.set_title(f"speedup per variant over {summ['matched_tasks']} task(s) × {len(summ['repeats'])} repeat(s)")
    if kept:
        ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
