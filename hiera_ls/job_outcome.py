"""How a job ended, once its engine has exited: finished (with its canonical best), failed (with the reason
the user reads) or cancelled; a run the engine left `running` in the store is marked ended here.

The reason of a failure comes from the engine's own words where it said any (an `error` event, the profile's
`--json` object, the last `error:` line of its log), else from how the process exited.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from contracts.runstore import StoreReader
from hiera_ls.best import canonical_best
from hiera_ls.job import Job
from hiera_ls.run_views import speed_phrase


def settle(job: Job, last_line: str) -> None:
    """Set the job's state, message, error and best from its exit (job.returncode) and what it said."""
    rc = job.returncode
    if job.cancel_requested:
        job.state, job.message = "cancelled", "cancelled"
        if job.kind == "optimize" and job.result is not None and job.result.best is not None:
            # The engine stops on SIGTERM with its best so far (its `result` event came before it exited):
            # cancelling keeps what the run found.
            job.best = _canonical_best(job)
            if job.best and isinstance(job.best.get("speedup"), (int, float)):
                job.best_speedup = job.best["speedup"]
                job.message = f"cancelled: best so far {speed_phrase(job.best)}"
        if job.run_id:
            StoreReader(job.root).mark_ended(job.run_id, "stopped")
        return
    if job.kind == "optimize":
        status = job.result.status if job.result is not None else None
        if job.result is not None and status in ("finished", "stopped"):
            job.state = "finished"
            job.best = _canonical_best(job)
            job.retiming = None
            if job.best and isinstance(job.best.get("speedup"), (int, float)):
                job.best_speedup = job.best["speedup"]  # the one figure: its re-timing's where re-timed
                job.message = f"done: {speed_phrase(job.best)}"
            else:
                job.message = "done: no valid candidate"
            return
        if job.error is None:
            job.error = (f"the run ended {status}" if status else error_from_log(job.log_path)
                         or f"the engine exited with code {rc} without a result")
    elif rc == 0 and job.profile_output is not None and job.profile_output.get("status") not in ("error", "failed"):
        job.state, job.message = "finished", "done"
        return
    elif job.error is None:
        reason = (job.profile_output or {}).get("reason") or (job.profile_output or {}).get("message")
        job.error = reason or error_from_log(job.log_path) or (
            f"the engine exited with code {rc}" + (f": {last_line[:200]}" if last_line else ""))
    job.state = "failed"
    job.message = f"failed: {job.error}"
    if job.run_id:
        StoreReader(job.root).mark_ended(job.run_id, "failed")


def _canonical_best(job: Job) -> dict[str, Any] | None:
    """The result's best with its pair from the store (today's engine gives no paired eager for older
    stores' re-timings); the result alone when the store cannot be read."""
    best = job.result.best.to_json() if job.result is not None and job.result.best is not None else None
    run_id = (job.result.run_id if job.result is not None else None) or job.run_id
    reader = StoreReader(job.root)
    try:
        rows = reader.candidates(run_id) if run_id else []
    finally:
        reader.close()
    return canonical_best(best, rows)


def error_from_log(log_path: Path) -> str | None:
    """The engine's own `error: ...` line from its stderr, for failures that end without an error event
    (a usage error, e.g. an LLM endpoint that is not configured, is printed there only)."""
    try:
        with open(log_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 20000))
            tail = f.read().decode(errors="replace")
    except OSError:
        return None
    at = tail.rfind("\nerror: ")
    if at < 0:
        return None
    # rich wraps a long message onto following lines; it is the last thing the engine prints
    return " ".join(tail[at + len("\nerror: "):].split())[:800] or None
