"""Engine jobs: `hiera optimize` / `hiera profile` as subprocesses, a queue per device, and cancel.

A command handler creates a Job (job.py) and returns at once; the job runs as an asyncio task that waits for
its device (one job per device at a time, the rest queued in order), starts the engine in its own process
group and reads its stdout: the `--events jsonl` stream (read by job_events.py) or a profile's `--json` object.
Its progress reaches the client through job_progress.py; how it ended is job_outcome.py's. Cancelling (from the
progress UI, `hiera.cancel`, or the server exiting) terminates the whole process group (the engine treats
SIGTERM like Ctrl-C), then kills it after a grace period: what the engine finished is already in its store.

Nothing here blocks the event loop: the subprocess is asyncio's, file writes are tiny.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from hiera_ls.job import Job, JobError, JobState
from hiera_ls.job_events import apply_event
from hiera_ls.job_outcome import settle
from hiera_ls.job_progress import JobProgress

log = logging.getLogger(__name__)

CANCEL_GRACE_S = 3.0  # SIGTERM first: the engine stops like Ctrl-C and closes its run; SIGKILL after this


class JobManager:
    def __init__(self, ls: LanguageServer, on_done: Callable[[Job], Awaitable[None]],
                 on_update: Callable[[Job], None], on_notice: Callable[[Job, str], None] | None = None):
        self.on_done = on_done
        self.on_update = on_update  # cheap: the server refreshes code lenses from it
        # An engine notice: the server decides whether it is worth a message (hiera_server.py tell_notice).
        self.on_notice = on_notice or (lambda job, msg: log.info("%s: %s", job.id, msg))
        self.progress = JobProgress(ls, on_cancel=lambda job: self.cancel(job.id))
        self.jobs: dict[str, Job] = {}
        self._device_locks: dict[str, asyncio.Lock] = {}

    # --- public -----------------------------------------------------------------------------------------

    def submit(self, job: Job) -> Job:
        self.jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job), name=f"hiera job {job.id}")
        job.task.add_done_callback(self._log_crash)
        return job

    def active(self) -> list[Job]:
        return [j for j in self.jobs.values() if j.active]

    def owns_live_run(self, run_id: str) -> bool | None:
        """True: a job of this server is running it; False: a job of this server ran it and ended (with or
        without a result); None: no job of this server knows it (a terminal run, or an earlier server's)."""
        mine = [j for j in self.jobs.values() if j.run_id == run_id]
        if not mine:
            return None
        return any(not j.settled for j in mine)

    def for_module(self, path: Path, class_name: str) -> Job | None:
        """The module's optimize job that is not settled yet (queued, running, or delivering its result)."""
        for j in self.jobs.values():
            if not j.settled and j.kind == "optimize" and j.path == path and j.class_name == class_name:
                return j
        return None

    def cancel(self, job_id: str | None = None) -> list[Job]:
        targets = [self.jobs[job_id]] if job_id in self.jobs else ([] if job_id else self.active())
        for job in targets:
            if not job.active or job.cancel_requested:
                continue
            job.cancel_requested = True
            job.message = "cancelling"
            if job.proc is not None and job.proc.returncode is None:
                self._interrupt(job)
            elif job.task is not None:
                job.task.cancel()  # still queued: it never started a process
        return targets

    def cancel_token(self, token: types.ProgressToken) -> None:
        job = self.progress.job_of(token)
        if job is not None:
            self.cancel(job.id)

    def kill_all(self) -> None:
        """Synchronous and final: the server is going away (shutdown, exit, EOF, SIGTERM)."""
        for job in self.jobs.values():
            job.cancel_requested = True
            if job.proc is not None and job.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(job.proc.pid, signal.SIGKILL)

    # --- the job's life ---------------------------------------------------------------------------------

    async def _run(self, job: Job) -> None:
        await self.progress.begin(job, queued=self._busy(job))
        try:
            if job.prepare is not None:
                await job.prepare(job)
            lock = self._device_locks.setdefault(job.device, asyncio.Lock())
            if lock.locked():
                ahead = [j.id for j in self.jobs.values() if j.device == job.device and j.state == "running"]
                self._update(job, "queued", f"queued: waiting for {job.device} ({', '.join(ahead) or 'another job'})")
            async with lock:
                if job.cancel_requested:
                    raise asyncio.CancelledError
                await self._execute(job)
        except asyncio.CancelledError:
            job.state = "cancelled"
            job.message = "cancelled"
            if job.proc is not None and job.proc.returncode is None:  # the server is going away
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(job.proc.pid, signal.SIGKILL)
        except JobError as e:
            job.state, job.error, job.message = "failed", str(e), "failed"
        except Exception as e:  # a bug in the server, not in the job: report it like a failed job
            log.exception("job %s crashed", job.id)
            job.state, job.error, job.message = "failed", f"{type(e).__name__}: {e}", f"failed: {e}"
        try:
            await self.on_done(job)
        except Exception:
            log.exception("delivering the results of job %s failed", job.id)
        job.settled = True
        self.progress.end(job)
        self.progress.status(job)
        self.on_update(job)

    async def _execute(self, job: Job) -> None:
        job.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._update(job, "running", "starting the engine")
        logf = open(job.log_path, "ab")  # noqa: SIM115 - handed to the child, closed below
        try:
            logf.write(f"$ {' '.join(job.argv)}\n".encode())
            logf.flush()
            try:
                job.proc = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "hiera_ls.launch", *job.argv, cwd=str(job.root), env=job.env,
                    stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=logf,
                    start_new_session=True,  # its own process group: cancel reaches builds and workers too
                    limit=64 << 20)  # one event line holds the whole result object
            except OSError as e:
                job.state, job.error = "failed", f"could not start the engine ({job.argv[0]}): {e}"
                job.message = f"failed: {job.error}"
                return
            assert job.proc.stdout is not None
            last_line = ""
            while True:
                raw = await job.proc.stdout.readline()
                if not raw:
                    break
                line = raw.decode(errors="replace").strip()
                if not line:
                    continue
                last_line = line
                try:
                    event = json.loads(line)
                except ValueError:
                    logf.write(f"[stdout] {line}\n".encode())
                    logf.flush()
                    continue
                if isinstance(event, dict):
                    if job.kind == "optimize":
                        self._on_event(job, event)
                    else:
                        job.profile_output = event
            job.returncode = await job.proc.wait()
        finally:
            logf.close()
        settle(job, last_line)

    def _on_event(self, job: Job, line: dict[str, Any]) -> None:
        step = apply_event(job, line)
        if step is None:
            return
        if step.notice is not None:
            self.on_notice(job, step.notice)
        if step.message is not None:
            self._update(job, "running", step.message, done=step.done)

    def _interrupt(self, job: Job) -> None:
        assert job.proc is not None
        pid = job.proc.pid
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGTERM)

        def hard_kill() -> None:
            if job.proc is not None and job.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)

        asyncio.get_running_loop().call_later(CANCEL_GRACE_S, hard_kill)

    # --- what the client is shown ------------------------------------------------------------------------

    def _update(self, job: Job, state: JobState, message: str, done: bool = False) -> None:
        job.state, job.message = state, message
        self.progress.report(job, done)
        self.on_update(job)

    def _busy(self, job: Job) -> bool:
        lock = self._device_locks.get(job.device)
        return bool(lock and lock.locked())

    @staticmethod
    def _log_crash(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("job task %s failed", task.get_name(), exc_info=task.exception())
