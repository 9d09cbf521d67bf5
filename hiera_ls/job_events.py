"""The engine's `--events jsonl` stream (docs/protocol.md §1) read into a job: each event moves the job along
and says what the client is shown next.

Events are read by their one definition (contracts/runrecord.py parse_event); nothing here talks to the client:
the JobManager turns a Step into work-done progress and `hiera/jobStatus` (job_progress.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.runrecord import (
    CandidateFinished,
    CandidateStarted,
    Failed,
    Notice,
    Progress,
    ReferenceTimed,
    Result,
    RetimeFinished,
    RetimeStarted,
    RoundFinished,
    RoundStarted,
    RunStarted,
    parse_event,
)
from hiera_ls.job import Job
from hiera_ls.wording import device_words, duration, space_title, times


@dataclass(frozen=True)
class Step:
    """What one event changes in what the client is shown: a new progress message (done: it follows a finished
    candidate, which the progress bar counts), or an engine notice for the server to tell or log."""

    message: str | None = None
    done: bool = False
    notice: str | None = None


def apply_event(job: Job, line: dict[str, Any]) -> Step | None:
    """Read one event into the job; None when it changes nothing the client is shown."""
    ev = parse_event(line)
    if isinstance(ev, RunStarted):
        job.run_id = ev.run_id
        job.run_dir = Path(ev.run_dir) if ev.run_dir else None
        job.rounds = ev.rounds
        job.of = job.per_round = ev.candidates
        job.budget = ev.budget if isinstance(ev.budget, int) and ev.budget > 0 else None
        job.run_device = device_words(ev.device, ev.device_name) if ev.device else job.device
        return Step(f"started on {device_words(ev.device, ev.device_name)} · {ev.backend or ''} backend")
    if isinstance(ev, Notice):
        msg = str(ev.message or "")
        job.notices.append(msg)
        return Step(notice=msg)
    if isinstance(ev, ReferenceTimed):
        ms = ev.reference_ms
        return Step(f"eager timed: {duration(ms)}" if isinstance(ms, (int, float)) else "eager timed")
    if isinstance(ev, RoundStarted):
        job.round = ev.round
        job.index = 0
        space = space_title(str(ev.space), job.run_device or job.device)
        strategy = f": {ev.strategy}" if ev.strategy else ""
        return Step(f"round {job.round}/{job.rounds or '?'} · {space} · direction {ev.direction or '?'}{strategy}")
    if isinstance(ev, (CandidateStarted, CandidateFinished)):
        job.round = ev.round if ev.round is not None else job.round
        job.index = ev.index
        job.of = ev.of if ev.of is not None else job.of
        if isinstance(ev, CandidateFinished) and ev.best_speedup is not None:
            job.best_speedup = ev.best_speedup
        return Step(where(job), done=isinstance(ev, CandidateFinished))
    if isinstance(ev, RoundFinished):
        if ev.best_speedup is not None:
            job.best_speedup = ev.best_speedup
        return None
    if isinstance(ev, RetimeStarted):
        # The best is timed again on its own before the run reports it (engine/loop.py _confirm_best): a
        # minute on a slow CPU, shown as such rather than as the last candidate's progress.
        job.retiming = ev.candidate_id
        job.retimes += 1
        first = f" (its first pair: {times(ev.first.speedup)})" if ev.first is not None else ""
        return Step(f"re-timing {ev.candidate_id} on its own{first}", done=True)
    if isinstance(ev, RetimeFinished):
        job.retiming = None
        if ev.best is not None:
            job.best_speedup = ev.best.speedup
        fresh = times(ev.figure.speedup) if ev.figure is not None else f"{ev.status}, not kept"
        return Step(f"re-timed {ev.candidate_id}: {fresh} · best {times(job.best_speedup)}", done=True)
    if isinstance(ev, Progress):
        job.work_done, job.work_total = ev.done, ev.total
        if ev.seconds is not None:  # a heartbeat during one long step: say it is still going, where it is
            # (the lens shows this message, and says the round and candidate the status bar says)
            doing = ev.what.split(": ", 1)[1] if ev.what.startswith("round ") and ": " in ev.what else ev.what
            head = f"re-timing {job.retiming} on its own" if job.retiming else where(job)
            return Step(f"{head} · {doing} ({ev.seconds:.0f} s)")
        return None  # the counts only: the engine sends them before the event they go with (its next report)
    if isinstance(ev, Result):
        job.result = ev.result
        job.run_id = ev.result.run_id or job.run_id
        if ev.result.best is not None and ev.result.best.speedup is not None:
            job.best_speedup = ev.result.best.speedup
        return None
    if isinstance(ev, Failed):
        job.error = str(ev.message or "the engine reported an error")
        job.error_log = ev.log
    return None


def where(job: Job) -> str:
    """'round 2/3 · candidate 4/6 · best 1.30×': where the run is, in the words of the code lens."""
    best = f"best {times(job.best_speedup)}" if job.best_speedup else "best -"
    return f"round {job.round or '?'}/{job.rounds or '?'} · candidate {job.index or '?'}/{job.of or '?'} · {best}"
