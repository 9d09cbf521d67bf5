"""What the client is shown of a job while it runs: work-done progress (the bar, its message, its cancel
button) and the `hiera/jobStatus` notification.

Progress needs a token the client accepted (`window/workDoneProgress/create`); a client without a progress UI
still gets every `hiera/jobStatus`. The bar is the engine's own count of its work (its `progress` events: the
candidates its rounds generated, re-timings and profiles); from an engine without them, finished candidates of the
run's whole budget (run_started's `budget`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from hiera_ls.job import Job

log = logging.getLogger(__name__)

JOB_STATUS = "hiera/jobStatus"


def percentage(job: Job, done: bool) -> int | None:
    """How far the run is, in percent of its candidates (its budget: the last round takes what is left, so it may
    be shorter than the others); None before the engine said how many it runs. Every round before the current one
    ran K candidates. done: the job's current candidate has finished (else it is under way and not counted yet)."""
    if job.work_total:
        return max(0, min(100, int(100 * (job.work_done or 0) / job.work_total)))
    per_round = job.per_round or job.of
    total = job.budget or (job.rounds * per_round if job.rounds and per_round else None)
    if not (total and per_round and job.round):
        return None
    idx = job.index or 0
    finished = (job.round - 1) * per_round + (idx if done else max(idx - 1, 0))
    return max(0, min(100, int(100 * finished / total)))


class JobProgress:
    """The jobs' progress tokens and the notifications that carry a job's state to the client."""

    def __init__(self, ls: LanguageServer, on_cancel: Callable[[Job], None]):
        self.ls = ls
        self.on_cancel = on_cancel  # the user pressed the progress's cancel button
        self._by_token: dict[str, Job] = {}

    def job_of(self, token: types.ProgressToken) -> Job | None:
        return self._by_token.get(str(token))

    async def begin(self, job: Job, queued: bool) -> None:
        caps = self.ls.client_capabilities
        if not (caps.window and caps.window.work_done_progress):
            return  # the client has no progress UI; hiera/jobStatus still reports
        token = f"hiera-{job.id}-{uuid.uuid4().hex[:8]}"  # fresh per job: pygls refuses a reused token
        try:
            await asyncio.wait_for(self.ls.work_done_progress.create_async(token), timeout=10)
        except Exception as e:
            log.warning("client refused progress for job %s: %s", job.id, e)
            return
        job.token = token
        self._by_token[token] = job
        # pygls cancels the token's future on window/workDoneProgress/cancel; that is our cancel button.
        loop = asyncio.get_running_loop()
        self.ls.work_done_progress.tokens[token].add_done_callback(
            lambda fut: loop.call_soon_threadsafe(self._cancelled, token) if fut.cancelled() else None)
        self.ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=job.title, cancellable=True, message="queued" if queued else "starting", percentage=0))

    def _cancelled(self, token: str) -> None:
        job = self._by_token.get(token)
        if job is not None:
            self.on_cancel(job)

    def report(self, job: Job, done: bool) -> None:
        """The job's message (and how far it is) on its progress, then its status."""
        if job.token is not None:
            self.ls.work_done_progress.report(job.token, types.WorkDoneProgressReport(
                message=job.message, percentage=percentage(job, done), cancellable=True))
        self.status(job)

    def end(self, job: Job) -> None:
        if job.token is None:
            return
        self.ls.work_done_progress.end(job.token, types.WorkDoneProgressEnd(message=job.message))
        self.ls.work_done_progress.tokens.pop(job.token, None)
        self._by_token.pop(job.token, None)

    def status(self, job: Job) -> None:
        self.ls.protocol.notify(JOB_STATUS, job.status_json())
