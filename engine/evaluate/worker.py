"""Worker processes: candidates run only here, one process per device, under time limits.

A segfault, a hang, an illegal memory access or an out-of-memory error ends that worker; the parent
records it as the candidate's outcome and starts a fresh worker for the next one. The parent never
imports candidate code and never touches the device.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection, Listener
from pathlib import Path
from typing import Any

from contracts.device import DeviceFacts
from engine.cache_home import gpu_caches
from engine.evaluate import sandbox
from engine.evaluate.outcome import Status
from engine.evaluate.requests import CeilingsRequest, EvalReply, EvalRequest, RegionsRequest
from engine.exit_status import exit_text


@dataclass(frozen=True)
class WorkerLimits:
    start_s: float = 300.0  # importing torch, the task, creating the context
    load_s: float = 600.0  # a ModelNew that builds itself with load_inline on first import
    per_request_s: float = 600.0  # verify + time one candidate


class WorkerDied(RuntimeError):
    pass


class Worker:
    """One evaluation process bound to one device; restarted after any crash or timeout."""

    def __init__(self, task_path: str, device: str, precision: str, limits: WorkerLimits | None = None,
                 workdir: str | None = None, sandboxed: bool = True):
        self.task_path, self.device, self.precision = task_path, device, precision
        self._own_workdir = workdir is None  # a folder made here is removed when the worker closes
        self.workdir = workdir or tempfile.mkdtemp(prefix="hiera-eval-")
        self.sandboxed = sandboxed
        self.limits = limits or WorkerLimits()
        self.proc: subprocess.Popen[bytes] | None = None
        self.conn: Connection | None = None
        self.facts = DeviceFacts()
        self.restarts = 0

    def start(self) -> DeviceFacts:
        # A plain subprocess (not multiprocessing's spawn, which re-imports the caller's __main__), talking
        # over an authenticated Unix socket. Its stdout goes to our stderr: candidate code may print, and
        # our stdout can be an event stream.
        if self.proc is not None:
            self.restarts += 1
        sock_dir = tempfile.mkdtemp(prefix="hiera-worker-")
        address = str(Path(sock_dir) / "sock")
        key = secrets.token_bytes(16)
        listener = Listener(address, family="AF_UNIX", authkey=key)
        env = dict(gpu_caches(checker_env(os.environ)), HIERA_WORKER_KEY=key.hex(),
                   PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                               os.environ.get("PYTHONPATH", "")]))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "engine.evaluate.child", address, self.task_path, self.device,
             self.precision, self.workdir, "1" if self.sandboxed else "0"],
            stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(), env=env,
            # Its own session: a Ctrl-C at the terminal reaches the CLI (which stops the run and closes
            # the worker), not the worker mid-candidate.
            start_new_session=True)
        try:
            parent = _accept(listener, self.proc, self.limits.start_s)
        finally:
            listener.close()
            Path(address).unlink(missing_ok=True)
            os.rmdir(sock_dir)
        if parent is None:
            code = self.proc.poll()
            self.kill()
            raise WorkerDied(f"the evaluation worker did not start ({exit_text(code)})")
        self.conn = parent
        if not parent.poll(self.limits.start_s):
            self.kill()
            raise WorkerDied(f"the evaluation worker did not start within {self.limits.start_s:.0f} s")
        try:
            kind, payload = parent.recv()
        except EOFError as e:
            code = self.proc.wait(5)
            self.kill()
            raise WorkerDied(f"the evaluation worker died while starting ({exit_text(code)})") from e
        if kind != "ready":
            self.kill()
            raise WorkerDied(f"the evaluation worker could not load the task: {payload}")
        self.facts = DeviceFacts.from_json(payload)
        return self.facts

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None and self.conn is not None

    def evaluate(self, req: EvalRequest, timeout_s: float | None = None) -> EvalReply:
        """Run one request; a crash or timeout becomes the reply and the worker restarts on next use."""
        if not self.alive():
            self.start()
        assert self.conn is not None
        limit = timeout_s or self.limits.per_request_s
        t0 = time.perf_counter()
        self.conn.send(req)
        if not self.conn.poll(limit):
            self.kill()
            return EvalReply(req.candidate_id, Status.TIMEOUT,
                             f"no result within {limit:.0f} s (hang or far too slow); the worker was killed",
                             verify_s=time.perf_counter() - t0)
        try:
            _kind, reply = self.conn.recv()
        except (EOFError, ConnectionResetError):
            assert self.proc is not None
            try:
                code: int | None = self.proc.wait(5)
            except subprocess.TimeoutExpired:
                code = None
            self.kill()
            return EvalReply(req.candidate_id, Status.RUNTIME_ERROR,
                             f"the candidate crashed the worker process ({exit_text(code)}); "
                             "the worker was restarted", verify_s=time.perf_counter() - t0, fatal=True)
        if reply.fatal:
            self.kill()
        return reply

    def ceilings(self, remeasure: bool = False, timeout_s: float = 180.0) -> dict[str, Any]:
        """The device's measured ceilings from the checker: {"ceilings": their JSON or None, "why": ...}."""
        return self._side_request(CeilingsRequest(remeasure), "ceilings", "measuring the device's ceilings", timeout_s)

    def regions(self, timeout_s: float = 60.0) -> dict[str, Any]:
        """Where the reference's time goes, from the checker: {"regions": their JSON or None, "why": ...}."""
        return self._side_request(RegionsRequest(), "regions", "timing the reference's submodules", timeout_s)

    def _side_request(self, req: object, key: str, doing: str, timeout_s: float) -> dict[str, Any]:
        """A request beside the evaluations (the checker answers a dict); {key: None, "why": ...} when it took
        over timeout_s (the worker, busy with it, is ended: a fresh one serves the run's candidates) or the worker
        died."""
        if not self.alive():
            self.start()
        assert self.conn is not None
        self.conn.send(req)
        if not self.conn.poll(timeout_s):
            self.kill()
            return {key: None, "why": f"{doing} took over {timeout_s:.0f} s"}
        try:
            _kind, reply = self.conn.recv()
        except (EOFError, ConnectionResetError):
            self.kill()
            return {key: None, "why": f"the evaluation worker died {doing}"}
        return reply if isinstance(reply, dict) else {key: None, "why": "no answer"}

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self._clear_scratch()

    def _clear_scratch(self) -> None:
        """What a checker leaves when it dies mid-candidate (killed at its time limit, or crashed): its runners'
        scratch folders and logs. Only a dead checker's: this runs once its process is gone. (Its exchange
        buffers are memory files that went with it.)"""
        if self.proc is not None and self.proc.poll() is None:
            return
        shutil.rmtree(Path(self.workdir) / "runners", ignore_errors=True)

    def close(self, wait_s: float = 2.0) -> None:
        # A checker between candidates exits at once; one in the middle of a candidate (a Ctrl-C, a hang) is
        # not waited for: killing it ends its runner too (the sandbox dies with its parent).
        if self.conn is not None and self.alive() and wait_s > 0:
            try:
                self.conn.send(None)
                self.proc.wait(wait_s)  # type: ignore[union-attr]
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


# Math-library settings in the user's environment (MKL_CBWR=COMPATIBLE made a GEMM 3.7x slower) would apply to
# the reference, timed in the checker, and never to a candidate, whose runner's environment is built from
# nothing: an honest ModelNew read 2.4x faster. The checker goes without them too, but for those a runner is
# given as well (sandbox.PASS_ENV: the two thread counts).
MATH_ENV_PREFIXES = ("MKL_", "KMP_", "GOMP_", "OMP_", "OPENBLAS_", "BLIS_", "DNNL_", "ONEDNN_", "ATEN_CPU_")


def checker_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` less the math-library settings a runner never gets."""
    return {k: v for k, v in env.items() if k in sandbox.PASS_ENV or not k.startswith(MATH_ENV_PREFIXES)}


def _accept(listener: Listener, proc: subprocess.Popen[bytes], limit_s: float) -> Connection | None:
    """Wait for the child to connect, giving up if it exits or the limit passes."""
    import threading

    result: list[Connection] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            result.append(listener.accept())

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    deadline = time.monotonic() + limit_s
    while t.is_alive() and time.monotonic() < deadline and proc.poll() is None:
        t.join(0.1)
    if not result:
        t.join(0.5)
    return result[0] if result else None

