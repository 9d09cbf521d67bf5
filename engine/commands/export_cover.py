"""What `hiera export` lets a kernel serve beyond get_inputs(): the batch range a run in the workspace found this
very kernel valid on, at sizes drawn for it where it could not know them (issue 38). `hiera export` checks that
a kernel builds; it does not verify it, so a kernel no run verified at drawn sizes (one written by hand, one
from a run of another version of the task, or one checked only at announced sizes) serves get_inputs()'s shapes
alone, and the command says which."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from contracts.runstore import StoreReader
from contracts.shapes import Coverage, ShapeReport
from engine.task.spec import TaskSpec

RUNS_READ = 200  # the task's most recent runs searched for the kernel


@dataclass(frozen=True)
class Found:
    """A run that verified the kernel: its coverage at drawn sizes, and which run and candidate said so."""

    cover: Coverage
    run_id: str
    candidate_id: str
    report: ShapeReport


def verified_cover(workspace: Path, spec: TaskSpec, source: str, kind: str) -> Found | None:
    """The most recent valid candidate of a run of this task (same source as now) in `workspace`'s store whose
    source is exactly `source` (of `kind`: "cpp" or "cuda") and whose other batch sizes were drawn for it; None when
    there is none."""
    reader = StoreReader(workspace)
    try:
        for run in reader.runs(task_path=spec.path, limit=RUNS_READ):
            if run.get("task_hash") != spec.source_hash:
                continue
            for cand in reversed(reader.candidates(str(run["id"]))):
                if cand.get("status") != "valid" or cand.get("kind") != kind:
                    continue
                outcome = cand.get("outcome")
                shapes = outcome.get("shapes") if isinstance(outcome, dict) else None
                if not isinstance(shapes, dict) or not _same_source(Path(str(cand.get("source_path"))), source):
                    continue
                report = ShapeReport.from_json(shapes)
                if report.drawn:
                    return Found(report.served, str(run["id"]), str(cand["id"]), report)
    finally:
        reader.close()
    return None


def _same_source(path: Path, source: str) -> bool:
    try:
        return path.read_text() == source
    except OSError:
        return False
