"""A study's adaptive cells taken from a `hiera bench` run (`hiera study --adaptive-from BENCH_OUT`).

A bench task and a study's adaptive cell are the same measurement: one `hiera optimize` process of the task,
started by suite_bench.run_task with the loop as shipped. When a bench has already run a task with exactly the
flags the study's adaptive cell would use (suite_bench.run_flags: budget, rounds, candidates, precision,
profiling, shapes, limits; places left out), its run is the study's cell for repeat 0, and a GPU need not run it
again: on a lent GPU that is the difference between a study that fits the sessions there are and one that does
not. The bench's torch.compile baselines are not part of the cell.

A bench task is taken only where all of these hold, else the study runs the cell itself and says why not:
- it ran on the study's kind of device and card (an H100 bench does not seed an H200 study);
- on a GPU its run had its profiles (a machine without Nsight Compute gives rounds the taxonomy cannot read);
- the bench recorded the flags (results older than the field are not taken) and they equal the cell's;
- its optimize run finished (not stopped by a deadline, not killed) and is in the bench's run store, for
  the rounds the taxonomy's miss rate reads (engine/study.run_facts);
- the task file is the one that run optimized (the run's task_hash against the file's).
A taken cell says where it came from (CellResult.source) and is written like any other, so the study resumes
and reports it the same way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from contracts.runstore import StoreReader
from contracts.wording import is_cpu
from engine import suite_bench
from engine.bench_records import Cell, CellResult, TaskResult
from engine.study import cell_args, run_facts


@dataclass
class Seeded:
    taken: list[str] = field(default_factory=list)  # cell names written
    passed: dict[str, str] = field(default_factory=dict)  # "level/task" -> why the study runs it itself


def bench_store(bench: Path) -> StoreReader | None:
    """The bench's run store: its live workspace's, else the copy scripts/h200_bench.sh packs (runs.db)."""
    for db in (bench / "workspace" / ".hiera" / "hiera.db", bench / "runs.db"):
        if db.is_file():
            return StoreReader.of_file(db)
    return None


def _why_not(r: TaskResult, run: dict[str, Any] | None, want: list[str], task: Path, device: str, card: str
             ) -> str | None:
    if not r.device or is_cpu(r.device) != is_cpu(device):
        return f"measured on {r.device or 'an unrecorded device'}; this study runs on {device}"
    if suite_bench.other_card(r.device_name, card):
        return f"measured on another card ({r.device_name}; this study runs on {card})"
    if not r.optimize_flags:
        return "the bench did not record its optimize flags (a result older than the field)"
    if r.optimize_flags != want:
        return f"ran with other flags (bench: {' '.join(r.optimize_flags)}; this study: {' '.join(want)})"
    off = (r.profiling or {}).get("off") if isinstance(r.profiling, dict) else None
    if off and not is_cpu(device):  # on a CPU no run is profiled, the study's cells neither
        return f"its run had no profiles ({off}), which the study's taxonomy reads"
    if r.status == "stopped":
        return f"its run was stopped ({r.stop_reason or 'no reason recorded'})"
    if not r.run_id:
        return f"it has no optimize run ({(r.error or 'no reason recorded').strip()[:120]})"
    if run is None:
        return "its run is not in the bench's run store"
    if run.get("status") != "finished":
        return f"its run is {run.get('status') or 'unknown'}, not finished"
    if run.get("task_hash") != hashlib.sha256(task.read_bytes()).hexdigest()[:16]:
        return "the task file has changed since the bench ran it"
    return None


def seed_adaptive(bench: Path, out: Path, tasks: list[tuple[str, Path]], args: dict[str, Any], device: str,
                  card: str = "") -> Seeded:
    """Write OUT/cells/adaptive__<level>__<task>__r0.json from BENCH's finished tasks where they are the same
    measurement (the module docstring) on the study's kind of device and card (`card`: the study's GPU's name, ""
    when unknown); cells the study already holds are left as they are."""
    got = Seeded()
    store = bench_store(bench)
    (out / "cells").mkdir(parents=True, exist_ok=True)
    try:
        for level, path in tasks:
            cell = Cell("adaptive", level, path, 0)
            dest = out / "cells" / f"{cell.name}.json"
            name = f"{level}/{path.stem}"
            if dest.exists():
                continue
            f = bench / "tasks" / f"{level}__{path.stem}.json"
            if not f.is_file():
                got.passed[name] = "not in the bench"
                continue
            try:
                r = TaskResult(**json.loads(f.read_text()))
            except (OSError, ValueError, TypeError) as e:  # half-written, or from another version of the fields
                got.passed[name] = f"its result in the bench is unreadable ({type(e).__name__})"
                continue
            want = suite_bench.run_flags(suite_bench.optimize_command(path, device, cell_args(cell, args, out), out))
            run = store.run(r.run_id) if store is not None and r.run_id else None
            why = _why_not(r, run, want, path, device, card)
            if why:
                got.passed[name] = why
                continue
            assert store is not None and r.run_id
            # The bench's baselines are not the cell's: neither their figures nor their seconds (wall_s).
            seeded = CellResult(**{**asdict(r), "compile": {}, "compile_status": {}, "compile_reason": {},
                                   "compile_spread": {}, "wall_s": r.optimize_wall_s},
                                variant="adaptive", repeat=0, **run_facts(store, r.run_id),
                                source=f"hiera bench {bench}")
            tmp = dest.with_suffix(".json.part")
            tmp.write_text(json.dumps(asdict(seeded), indent=1))
            tmp.replace(dest)
            got.taken.append(cell.name)
    finally:
        if store is not None:
            store.close()
    return got
