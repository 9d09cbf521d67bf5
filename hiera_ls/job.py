"""One engine job as the server knows it: what it runs, where it stands, and how it ended.

A Job is plain state: the JobManager (jobs.py) runs it, job_events.py moves it along as the engine's events
arrive, job_outcome.py says how it ended, and `status_json` is the `hiera/jobStatus` notification a client
gets (docs/protocol.md §3; editors/vscode/src/protocol.ts JobStatus is checked against it).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from contracts.runrecord import RunResult

JobKind = Literal["optimize", "profile", "profileKernel"]
JobState = Literal["queued", "running", "finished", "failed", "cancelled"]


class JobError(Exception):
    """A job that cannot run as asked; the message says what to do (shown to the user as is)."""


@dataclass
class Job:
    id: str
    kind: JobKind
    title: str
    argv: list[str]
    root: Path
    device: str  # queue key: "cpu" or "cuda:N"
    env: dict[str, str]
    log_path: Path
    uri: str | None = None
    path: Path | None = None  # the module file (optimize, profile) or the .cu (profileKernel)
    class_name: str | None = None
    results_dir: Path | None = None
    state: JobState = "queued"
    token: str | None = None
    run_id: str | None = None
    run_dir: Path | None = None
    round: int | None = None
    rounds: int | None = None
    index: int | None = None
    of: int | None = None  # the current round's candidates (the last round of a budget may have fewer)
    per_round: int | None = None  # K, the run's candidates per round (run_started)
    budget: int | None = None  # the run's candidates in all (run_started; an older engine's may lack it)
    best_speedup: float | None = None
    retiming: str | None = None  # the candidate being timed again on its own (retime_started), else None
    retimes: int = 0  # re-timings started: the run is past its rounds, confirming its best
    # The run's work as the engine counts it (its `progress` events: engine/progress.py); None from older engines.
    work_done: int | None = None
    work_total: int | None = None
    message: str = "queued"
    run_device: str | None = None  # the device the engine reported (run_started): the words of the views
    result: RunResult | None = None  # an optimize job's `result` event
    profile_output: dict[str, Any] | None = None  # a profile job's --json object (the Profile, or a failure)
    best: dict[str, Any] | None = None  # the result's canonical best (hiera_ls.best), words and all, once it ended
    summary: str | None = None  # the sentence that tells the job's end (deliver.py), for clients' own toasts
    delivered: bool | None = None  # whether result files were written beside the module
    error: str | None = None
    error_log: str | None = None
    returncode: int | None = None
    notices: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    cancel_requested: bool = False
    settled: bool = False  # its end has been delivered (result edit, messages): nothing of it is pending
    proc: asyncio.subprocess.Process | None = None
    task: asyncio.Task[None] | None = None
    # Work before the queue: resolve the device (may probe CUDA), write the task file, build argv.
    prepare: Callable[[Job], Awaitable[None]] | None = None

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")

    def status_json(self) -> dict[str, Any]:
        best = self.best or {}
        return {"jobId": self.id, "state": self.state, "runId": self.run_id, "round": self.round,
                "rounds": self.rounds, "index": self.index, "of": self.of, "bestSpeedup": self.best_speedup,
                "message": self.message, "kind": self.kind, "uri": self.uri, "className": self.class_name,
                "device": self.run_device,
                "retiming": self.retiming,
                # the end of an optimize job: its canonical best (one pair), its words (contracts/verdict.py, so
                # a client shows them rather than deriving its own) and what became of the files
                "verdict": best.get("verdict"), "bestMs": best.get("candidate_ms"),
                "referenceMs": best.get("reference_ms"), "retimed": best.get("retimed"),
                "spread": best.get("spread"), "headline": best.get("headline"),
                "uncertainty": best.get("uncertainty"), "warnings": best.get("warnings"),
                "speedOfLight": best.get("speed_of_light_text"),
                "delivered": self.delivered, "summary": self.summary}


def new_job_id(kind: str) -> str:
    return f"{kind}-{time.strftime('%H%M%S')}-{secrets.token_hex(2)}"
