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

The study's statistics (variant_summary, study_summary, miss_rate) are engine/bench_stats.py, its report and
figure (study_markdown, study_plot) engine/bench_render.py: the same modules as the suite bench's.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine import suite_bench
from engine.bench_records import Cell, CellResult
from engine.suite_bench import find_tasks

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
        return run_facts(store, run_id)
    finally:
        store.close()


def run_facts(store: Any, run_id: str) -> dict[str, Any]:
    """A run's backend, status, tokens, dollars and per-round verdicts, from any reader of a run store (the
    study's own; a bench's, for the cells engine/study_seed.py takes from it)."""
    run = store.run(run_id) or {}
    summ = run.get("summary") or {}
    tokens = summ.get("tokens") or {}
    return {"backend": run.get("backend") or "", "run_status": run.get("status") or "",
            "cost_usd": summ.get("cost_usd"),
            "tokens": {"prompt": int(tokens.get("prompt", 0)), "completion": int(tokens.get("completion", 0))},
            "rounds": round_verdicts(store, run_id)}


def cell_args(cell: Cell, args: dict[str, Any], out: Path) -> dict[str, Any]:
    """The study's settings for one cell: the variant's flags, its own results folder, no compile baseline."""
    results = out / "results" / cell.variant / f"r{cell.repeat}" / cell.path.stem
    return {**args, "compile": False,
            "optimize_flags": [*args.get("optimize_flags", []), *variant_flags(cell.variant),
                               "--results-dir", str(results)]}  # argparse: the last --results-dir wins


def run_cell(cell: Cell, device: str, args: dict[str, Any], out: Path) -> CellResult | None:
    """One cell: suite_bench.run_task with cell_args (None: its run was stopped)."""
    r = suite_bench.run_task(cell.level, cell.path, device, cell_args(cell, args, out), out)
    if r is None:
        return None
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
              on_done: Callable[[CellResult, int, int], None] | None = None,
              runner: Callable[[Cell, str, dict[str, Any], Path], CellResult | None] | None = None
              ) -> tuple[list[Cell], dict[str, CellResult]]:
    """Run the cells not yet finished in OUT (none after the deadline, time.monotonic()); return every cell of
    the study and the finished ones by name. run=False only reads what OUT holds. runner runs a cell in place
    of run_cell (e.g. on a Ray cluster; devices are then its slots); one raising NotFinished is not written."""
    tasks = tasks if tasks is not None else find_tasks(root, levels)
    cells = plan_cells(tasks, variants, repeat)
    (out / "cells").mkdir(parents=True, exist_ok=True)
    args = {**args, "code_version": args.get("code_version") or suite_bench.code_version()}
    done = {name: c for name, c in load_cells(out).items()}
    wanted = {c.name for c in cells}
    todo = [c for c in cells if c.name not in done and run]
    lock = threading.Lock()
    total = len(cells)
    if on_done:
        for i, name in enumerate([c.name for c in cells if c.name in done], start=1):
            on_done(done[name], i, total)

    def work(c: Cell, device: str) -> bool:
        r = (runner or run_cell)(c, device, args, out)
        if r is None or r.run_status == "stopped":
            return True  # stopped from outside (Ctrl-C, a signal): not a finished cell; the next call runs it
        path = out / "cells" / f"{c.name}.json"
        tmp = path.with_suffix(".json.part")
        tmp.write_text(json.dumps(asdict(r), indent=1))
        tmp.replace(path)  # whole or not at all: a study killed mid-write leaves no half cell
        with lock:
            done[c.name] = r
            if on_done:
                on_done(r, sum(n in wanted for n in done), total)
        return True

    suite_bench.work_through(todo, devices, work, deadline)
    return cells, {n: r for n, r in done.items() if n in wanted}
