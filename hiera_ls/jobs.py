"""Engine jobs: `hiera optimize` / `hiera profile` as subprocesses, with progress, a queue per device and cancel.

A command handler creates a Job and returns at once; the job runs as an asyncio task that waits for its
device (one job per device at a time, the rest queued in order), starts the engine in its own process group,
reads the `--events jsonl` stream (docs/protocol.md §1) and turns it into work-done progress and
`hiera/jobStatus` notifications. Cancelling (from the progress UI, `hiera.cancel`, or the server exiting)
terminates the whole process group (the engine treats SIGTERM like Ctrl-C), then kills it after a grace
period: what the engine finished is already in its store.

Nothing here blocks the event loop: the subprocess is asyncio's, file writes are tiny or in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from contracts.runrecord import (
    CandidateFinished,
    CandidateStarted,
    Failed,
    Notice,
    ReferenceTimed,
    Result,
    RoundFinished,
    RoundStarted,
    RunResult,
    RunStarted,
    parse_event,
)
from contracts.runstore import StoreReader
from hiera_ls.best import canonical_best
from hiera_ls.run_views import speed_phrase
from hiera_ls.settings import Settings
from hiera_ls.wording import duration, space_title, times

log = logging.getLogger(__name__)

JobKind = Literal["optimize", "profile", "profileKernel"]
JobState = Literal["queued", "running", "finished", "failed", "cancelled"]

CANCEL_GRACE_S = 3.0  # SIGTERM first: the engine stops like Ctrl-C and closes its run; SIGKILL after this
JOB_STATUS = "hiera/jobStatus"


class JobError(Exception):
    """A job that cannot run as asked; the message says what to do (shown to the user as is)."""


def engine_command() -> list[str]:
    """The engine's argv prefix: HIERA_ENGINE_CMD (a JSON list) or this interpreter's `-m engine.cli`."""
    raw = os.environ.get("HIERA_ENGINE_CMD")
    if raw:
        try:
            cmd = json.loads(raw)
        except ValueError as e:
            raise ValueError(f"HIERA_ENGINE_CMD is not a JSON list of strings: {e}") from e
        if not (isinstance(cmd, list) and cmd and all(isinstance(x, str) for x in cmd)):
            raise ValueError('HIERA_ENGINE_CMD must be a JSON list of strings, e.g. ["python", "-m", "engine.cli"]')
        return cmd
    return [sys.executable, "-m", "engine.cli"]


def engine_python() -> str:
    """The interpreter the engine runs under (where torch must see the GPU)."""
    cmd = engine_command()
    return cmd[0] if "python" in Path(cmd[0]).name else sys.executable


def engine_env(root: Path) -> dict[str, str]:
    # COLUMNS: rich would wrap the engine's log at 80 columns when it is not a terminal
    return dict(os.environ, PYTHONUNBUFFERED="1", HIERA_WORKSPACE=str(root), COLUMNS="160")


def _tool_flags(s: Settings, llm: bool) -> list[str]:
    """Flags only for values the user set: an explicit flag would override the engine's own configuration
    (HIERA_LLM_* variables, hiera.toml), which is where unset editor settings should fall through to."""
    argv = ["--ncu", s.ncu_path] if s.ncu_path else []
    if llm:
        if s.llm.base_url:
            argv += ["--llm-base-url", s.llm.base_url]
        if s.llm.model:
            argv += ["--llm-model", s.llm.model]
        if s.llm.api_key_env != "OPENAI_API_KEY":
            argv += ["--llm-api-key-env", s.llm.api_key_env]  # the name of the variable, never the key
    return argv


def optimize_argv(settings: Settings, task: Path, root: Path, space: str | None, results_dir: Path | None,
                  device: str) -> list[str]:
    s = settings
    argv = [*engine_command(), "optimize", str(task), "--events", "jsonl", "--workspace", str(root),
            "--backend", s.backend, "--rounds", str(s.rounds), "--candidates", str(s.candidates),
            "--space", space or s.space, "--precision", s.precision, "--device", device, *_tool_flags(s, True)]
    if results_dir is not None:
        argv += ["--results-dir", str(results_dir)]
    return argv + _run_limit_flags(s)


def _run_limit_flags(s: Settings) -> list[str]:
    """--timeout, --build-timeout and --no-sandbox only when set: an engine without them keeps working."""
    argv: list[str] = []
    if s.timeout_s is not None:
        argv += ["--timeout", f"{s.timeout_s:g}"]
    if s.build_timeout_s is not None:
        argv += ["--build-timeout", f"{s.build_timeout_s:g}"]
    if not s.sandbox:
        argv.append("--no-sandbox")
    return argv


def profile_argv(settings: Settings, task: Path, root: Path, candidate: Path | None, device: str) -> list[str]:
    argv = [*engine_command(), "profile", str(task)]
    if candidate is not None:
        argv.append(str(candidate))
    return [*argv, "--json", "--workspace", str(root), "--device", device, *_tool_flags(settings, False)]


class CudaProbe:
    """Whether the engine's interpreter sees a CUDA device: asked once, in a subprocess (no torch in the server)."""

    def __init__(self) -> None:
        self._result: tuple[bool, str] | None = None
        self._lock = asyncio.Lock()

    @property
    def known(self) -> bool | None:
        """The answer once asked (None before)."""
        return None if self._result is None else self._result[0]

    async def check(self) -> tuple[bool, str]:
        """(available, detail) where detail names the interpreter and any error."""
        async with self._lock:
            if self._result is None:
                self._result = await self._ask()
            return self._result

    async def _ask(self) -> tuple[bool, str]:
        py = engine_python()
        try:
            proc = await asyncio.create_subprocess_exec(
                py, "-c", "import torch; print(torch.cuda.is_available())",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL)
            out, err = await asyncio.wait_for(proc.communicate(), timeout=120)
        except (OSError, asyncio.TimeoutError) as e:
            return False, f"{py} could not be asked ({type(e).__name__}: {e})"
        if proc.returncode != 0:
            tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["(no output)"]
            return False, f"{py} cannot import torch: {tail[0]}"
        ok = out.decode().strip().endswith("True")
        return ok, f"torch.cuda.is_available() is {ok} in {py}"


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
    of: int | None = None
    best_speedup: float | None = None
    message: str = "queued"
    run_device: str | None = None  # the device the engine reported (run_started): the words of the views
    result: RunResult | None = None  # an optimize job's `result` event
    profile_output: dict[str, Any] | None = None  # a profile job's --json object (the Profile, or a failure)
    best: dict[str, Any] | None = None  # the result's canonical best (hiera_ls.best), once the job ended
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
                # the end of an optimize job: its canonical best (one pair) and what became of the files
                "verdict": best.get("verdict"), "bestMs": best.get("candidate_ms"),
                "referenceMs": best.get("reference_ms"), "retimed": best.get("retimed"),
                "delivered": self.delivered, "summary": self.summary}


def _error_from_log(log_path: Path) -> str | None:
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


def new_job_id(kind: str) -> str:
    return f"{kind}-{time.strftime('%H%M%S')}-{secrets.token_hex(2)}"


class JobManager:
    def __init__(self, ls: LanguageServer, on_done: Callable[[Job], Awaitable[None]],
                 on_update: Callable[[Job], None]):
        self.ls = ls
        self.on_done = on_done
        self.on_update = on_update  # cheap: the server refreshes code lenses from it
        self.jobs: dict[str, Job] = {}
        self._device_locks: dict[str, asyncio.Lock] = {}
        self._by_token: dict[str, Job] = {}

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
        job = self._by_token.get(str(token))
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
        await self._progress_begin(job)
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
        self._progress_end(job)
        self._send_status(job)
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
        self._finish(job, last_line)

    def _finish(self, job: Job, last_line: str) -> None:
        rc = job.returncode
        if job.cancel_requested:
            job.state, job.message = "cancelled", "cancelled"
            if job.run_id:
                StoreReader(job.root).mark_ended(job.run_id, "stopped")
            return
        if job.kind == "optimize":
            status = job.result.status if job.result is not None else None
            if job.result is not None and status in ("finished", "stopped"):
                job.state = "finished"
                job.best = self._canonical_best(job)
                if job.best and isinstance(job.best.get("speedup"), (int, float)):
                    job.best_speedup = job.best["speedup"]  # the one figure: its re-timing's where re-timed
                    job.message = f"done: {speed_phrase(job.best)}"
                else:
                    job.message = "done: no valid candidate"
                return
            if job.error is None:
                job.error = (f"the run ended {status}" if status else _error_from_log(job.log_path)
                             or f"the engine exited with code {rc} without a result")
        elif rc == 0 and job.profile_output is not None and job.profile_output.get("status") not in ("error", "failed"):
            job.state, job.message = "finished", "done"
            return
        elif job.error is None:
            reason = (job.profile_output or {}).get("reason") or (job.profile_output or {}).get("message")
            job.error = reason or _error_from_log(job.log_path) or (
                f"the engine exited with code {rc}" + (f": {last_line[:200]}" if last_line else ""))
        job.state = "failed"
        job.message = f"failed: {job.error}"
        if job.run_id:
            StoreReader(job.root).mark_ended(job.run_id, "failed")

    @staticmethod
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

    # --- events (docs/protocol.md §1) ----------------------------------------------------------------------

    def _on_event(self, job: Job, line: dict[str, Any]) -> None:
        ev = parse_event(line)
        if isinstance(ev, RunStarted):
            job.run_id = ev.run_id
            job.run_dir = Path(ev.run_dir) if ev.run_dir else None
            job.rounds = ev.rounds
            job.of = ev.candidates
            job.run_device = ev.device or job.device
            self._update(job, "running", f"started on {ev.device or '?'} · {ev.backend or ''} backend")
        elif isinstance(ev, Notice):
            msg = str(ev.message or "")
            job.notices.append(msg)
            self.ls.window_show_message(types.ShowMessageParams(types.MessageType.Info, f"hiera: {msg}"))
        elif isinstance(ev, ReferenceTimed):
            ms = ev.reference_ms
            self._update(job, "running", f"eager timed: {duration(ms)}" if isinstance(ms, (int, float))
                         else "eager timed")
        elif isinstance(ev, RoundStarted):
            job.round = ev.round
            job.index = 0
            space = space_title(str(ev.space), job.run_device or job.device)
            strategy = f": {ev.strategy}" if ev.strategy else ""
            self._update(job, "running", f"round {job.round}/{job.rounds or '?'} · {space} · direction "
                                         f"{ev.direction or '?'}{strategy}")
        elif isinstance(ev, (CandidateStarted, CandidateFinished)):
            job.round = ev.round if ev.round is not None else job.round
            job.index = ev.index
            job.of = ev.of if ev.of is not None else job.of
            if isinstance(ev, CandidateFinished) and ev.best_speedup is not None:
                job.best_speedup = ev.best_speedup
            self._update(job, "running", self._where(job), done=isinstance(ev, CandidateFinished))
        elif isinstance(ev, RoundFinished):
            if ev.best_speedup is not None:
                job.best_speedup = ev.best_speedup
        elif isinstance(ev, Result):
            job.result = ev.result
            job.run_id = ev.result.run_id or job.run_id
            if ev.result.best is not None and ev.result.best.speedup is not None:
                job.best_speedup = ev.result.best.speedup
        elif isinstance(ev, Failed):
            job.error = str(ev.message or "the engine reported an error")
            job.error_log = ev.log

    @staticmethod
    def _where(job: Job) -> str:
        best = f"best {times(job.best_speedup)}" if job.best_speedup else "best -"
        return f"round {job.round or '?'}/{job.rounds or '?'} · candidate {job.index or '?'}/{job.of or '?'} · {best}"

    # --- progress and status ---------------------------------------------------------------------------------

    def _percentage(self, job: Job, done: bool) -> int | None:
        if not (job.rounds and job.of and job.round):
            return None
        idx = job.index or 0
        finished = (job.round - 1) * job.of + (idx if done else max(idx - 1, 0))
        return max(0, min(100, int(100 * finished / (job.rounds * job.of))))

    def _update(self, job: Job, state: JobState, message: str, done: bool = False) -> None:
        job.state, job.message = state, message
        if job.token is not None:
            self.ls.work_done_progress.report(job.token, types.WorkDoneProgressReport(
                message=message, percentage=self._percentage(job, done), cancellable=True))
        self._send_status(job)
        self.on_update(job)

    def _send_status(self, job: Job) -> None:
        self.ls.protocol.notify(JOB_STATUS, job.status_json())

    async def _progress_begin(self, job: Job) -> None:
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
            lambda fut: loop.call_soon_threadsafe(self.cancel_token, token) if fut.cancelled() else None)
        self.ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=job.title, cancellable=True, message="queued" if self._busy(job) else "starting", percentage=0))

    def _busy(self, job: Job) -> bool:
        lock = self._device_locks.get(job.device)
        return bool(lock and lock.locked())

    def _progress_end(self, job: Job) -> None:
        if job.token is None:
            return
        self.ls.work_done_progress.end(job.token, types.WorkDoneProgressEnd(message=job.message))
        self.ls.work_done_progress.tokens.pop(job.token, None)
        self._by_token.pop(job.token, None)

    @staticmethod
    def _log_crash(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("job task %s failed", task.get_name(), exc_info=task.exception())
