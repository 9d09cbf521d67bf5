"""`--ray ADDRESS` for `hiera study` and `hiera bench`: each cell (a bench: each task) as one Ray task, one GPU
each (on the CPU: one CPU), on a Ray cluster; the results and the run store land on the driver, as a local run's.

Imported only when --ray is given (engine/commands/bench.py ray_pool), and the one module that imports ray: Ray
stays an optional extra (pip install 'hiera[ray]') that the local path and the editor never load.

How a cell travels. The driver sends plain data (a Job: the task file's source, its level and name, the variant
and repeat, the optimize settings): the worker need not have the task, nor see the driver's files. The worker
writes the task into a scratch folder of its own and runs the very code a local run runs (suite_bench.run_task,
study.run_cell: the same `hiera optimize` and `hiera eval` processes) with that scratch as OUT. It sends back a
Reply: the result, every row of its private run store, and the files the run wrote (the best kernels, the run's
candidates and profiles) as a tar. The driver rewrites the scratch's paths into its own, unpacks the files into
OUT, merges the rows into OUT's store in one transaction (`hiera report RUN_ID` then shows the remote run), and
only then returns the result to the runner, which writes OUT/tasks or OUT/cells: the mark of a finished cell.
No shared file system is needed; with one, nothing is written twice, since a worker writes only its scratch.

Failure. Ray runs a task again when its worker or node dies (max_retries). A task lost past its retries, failed
on its worker or cancelled raises suite_bench.NotFinished: no result file and no rows, so the next call runs it
again; a finished cell is never submitted again (the runners skip what OUT holds). Leaving the pool on an
exception (Ctrl-C) cancels the tasks still out: Ray interrupts each, whose worker gives the processes it started
SIGINT, as a terminal's Ctrl-C gives a local run's, and removes its scratch; a worker that does not stop in time
is ended by Ray.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import socket
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from engine.commands.common import UsageError, console
from engine.suite_bench import NotFinished, TaskResult

SCRATCH_PREFIX = "hiera-ray-"
# What a run leaves in its workspace that stays on the worker: the build cache and the per-task contract
# folders are rebuilt on demand, and the store travels as rows.
LEFT_ON_WORKER = ("workspace/.hiera/cache", "workspace/.hiera/tasks", "workspace/.hiera/hiera.db")
RETRIES = 2  # runs of a task after its worker or node died, before it counts as lost
STOP_GRACE_S = 10.0  # a cancelled task's processes get this long to stop on SIGINT before SIGKILL
CANCEL_WAIT_S = STOP_GRACE_S + 5.0  # how long leaving the pool waits for cancelled tasks to stop


@dataclass(frozen=True)
class Job:
    """One cell or task, as it travels to a worker."""

    level: str
    stem: str
    source: str  # the task file's text: written into the worker's scratch
    device: str  # as the worker names it: cuda:0 is the one GPU Ray gave the task
    args: dict[str, Any]  # run_task's options
    variant: str | None = None  # a study's cell; None: a bench's task
    repeat: int = 0


@dataclass(frozen=True)
class Reply:
    """What a worker sends back: the result, its store's rows, its files, and where it ran them."""

    result: dict[str, Any] | None  # None: the run was stopped on the worker (a signal there)
    rows: dict[str, list[dict[str, Any]]]
    files: bytes  # tar.gz of the scratch OUT, less LEFT_ON_WORKER
    task: str  # the task's path in the scratch
    out: str  # the scratch OUT
    host: str


# --- on the worker -------------------------------------------------------------------------------------------

def work(job: Job) -> Reply:
    """Run one job in a scratch folder of its own (removed after) and send back what it produced."""
    scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX)).resolve()
    # Ray cancels a task through SIGINT's handler (it interrupts the main thread), which does nothing where
    # SIGINT is ignored, as it is in workers whose raylet was started in the background; and the processes the
    # task starts would inherit the ignored SIGINT, so they could not be stopped with it either.
    ignored = threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _interruptible(lambda: _run_job(job, scratch))
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        shutil.rmtree(scratch, ignore_errors=True)


def _run_job(job: Job, scratch: Path) -> Reply:
    from engine import study, suite_bench
    from engine.store import RunStore

    task = scratch / "tasks" / job.level / f"{job.stem}.py"
    task.parent.mkdir(parents=True)
    task.write_text(job.source)
    out = scratch / "out"
    # The code measuring is this worker's: the result carries its version, not the driver's.
    args = {**job.args, "code_version": suite_bench.code_version()}
    if job.variant is None:
        r: TaskResult | None = suite_bench.run_task(job.level, task, job.device, args, out)
    else:
        r = study.run_cell(study.Cell(job.variant, job.level, task, job.repeat), job.device, args, out)
    store = RunStore.existing(out / "workspace")
    rows: dict[str, list[dict[str, Any]]] = {}
    if store is not None:
        try:
            rows = store.export_runs()
        finally:
            store.close()
    return Reply(asdict(r) if r is not None else None, rows, _pack(out), str(task), str(out),
                 socket.gethostname())


def _interruptible(fn: Callable[[], Reply]) -> Reply:
    """fn() run in a thread while this one, the task's, waits in short steps. Ray cancels a task by interrupting
    the thread running it, which notices only between bytecodes: blocked in subprocess.run's wait, it would not
    until the optimize process ended. On the interrupt, the processes fn started get SIGINT, as a terminal's
    Ctrl-C gives a local run's (optimize records its run stopped and ends its workers), then SIGKILL after
    STOP_GRACE_S; then the interrupt goes on (Ray reports the task cancelled)."""
    box: dict[str, Any] = {}

    def body() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:
            box["error"] = e

    before = _children()
    t = threading.Thread(target=body, daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.2)
    except KeyboardInterrupt:
        _stop_children(before, t)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def _children() -> set[int]:
    """This process's children (Linux /proc; none known elsewhere)."""
    me, kids = os.getpid(), set()
    for d in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == me:
                kids.add(int(d.name))
    return kids


def _stop_children(before: set[int], t: threading.Thread) -> None:
    signalled: set[int] = set()
    end = time.monotonic() + STOP_GRACE_S
    while t.is_alive() and time.monotonic() < end:
        for pid in _children() - before - signalled:  # new ones too: a bench task's eval follows its optimize
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGINT)
            signalled.add(pid)
        t.join(0.2)
    for pid in _children() - before:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    t.join(2.0)


def _pack(out: Path) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for p in sorted(out.rglob("*")):
            rel = p.relative_to(out).as_posix()
            if p.is_file() and not p.is_symlink() and not rel.startswith(LEFT_ON_WORKER):
                tar.add(p, arcname=rel, recursive=False)
    return buf.getvalue()


# --- on the driver -------------------------------------------------------------------------------------------

def rebase(value: Any, pairs: list[tuple[str, str]]) -> Any:
    """value with every path prefix old replaced by new, (old, new) in pairs' order, inside dicts, lists and
    strings holding JSON (the store's JSON columns) too."""
    if isinstance(value, str):
        if value[:1] in ("{", "["):
            try:
                return json.dumps(rebase(json.loads(value), pairs))
            except ValueError:
                pass
        for old, new in pairs:
            value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {k: rebase(v, pairs) for k, v in value.items()}
    if isinstance(value, list):
        return [rebase(v, pairs) for v in value]
    return value


def land(reply: Reply, task: Path, out: Path) -> dict[str, Any]:
    """Write what a worker sent into OUT as a local run would have (its files, then its runs into OUT's store);
    the result, its paths the driver's. A run stopped on the worker lands as a local stopped run does (its run
    kept in the store) and raises NotFinished: not finished, the next call runs it."""
    from engine.store import RunStore

    pairs = [(reply.task, str(task.resolve())), (reply.out, str(out.resolve()))]
    with tarfile.open(fileobj=io.BytesIO(reply.files), mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):  # refuses members that would land outside OUT
            tar.extractall(out, filter="data")
        else:
            tar.extractall(out)  # Python < 3.11.4 has no filter: the archive is our own worker's
    rows = rebase(reply.rows, pairs)
    if rows.get("runs"):
        store = RunStore.for_workspace(out / "workspace")
        try:
            store.import_runs(rows)
        finally:
            store.close()
    if reply.result is None:
        raise NotFinished(f"{task}: its run was stopped on {reply.host}")
    result = rebase(reply.result, pairs)
    result["path"] = str(task)  # as a local run records it: the task as given
    result["device"] = f"{reply.host}/{result.get('device', '')}"
    return result


@dataclass
class RayPool:
    """A connection to a Ray cluster that runs jobs; a runner for suite_bench.run_bench and study.run_study."""

    ray: Any
    gpu: bool
    slots: list[str]  # one per task that may run at once: the runners start a thread for each
    owner: bool  # started the cluster (--ray local): shut it down on leaving
    retries: int = RETRIES
    submitted: int = 0  # tasks handed to Ray (a resumed study that submits nothing leaves it 0)
    lost: list[str] = field(default_factory=list)
    _remote: Any = None  # work as a Ray remote function with this pool's resources
    _inflight: set[Any] = field(default_factory=set)
    _closed: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @staticmethod
    def connect(address: str, device: str, retries: int = RETRIES) -> RayPool:
        """Connect to (or, for 'local', start) the cluster at address; device is --device: cpu runs each job on
        one CPU, cuda on one GPU, auto on one GPU where the cluster has any."""
        if device not in ("auto", "cpu", "cuda"):
            raise UsageError(f"--device {device} with --ray: each task gets one GPU from Ray (cuda), or one CPU "
                             "(cpu); give cuda, cpu or auto")
        try:
            import ray
        except ImportError as e:
            raise UsageError("--ray needs Ray, an optional extra: pip install 'hiera[ray]' "
                             f"(or pip install 'ray[default]>=2.9') ({e})") from e
        owner = False
        if not ray.is_initialized():
            try:
                if address == "local":
                    ray.init(address="local", include_dashboard=False, log_to_driver=False)
                else:
                    ray.init(address=address, log_to_driver=False)
            except Exception as e:  # no cluster there, or not reachable: the user's address is wrong
                raise UsageError(f"--ray {address}: could not connect ({type(e).__name__}: {e}); give auto for a "
                                 "running cluster, local to start one here, or ray://HOST:PORT") from e
            owner = address == "local"
        have = ray.cluster_resources()
        gpu = device == "cuda" or (device == "auto" and have.get("GPU", 0) >= 1)
        n = int(have.get("GPU" if gpu else "CPU", 0))
        if n < 1:
            if owner:
                ray.shutdown()
            raise UsageError(f"--ray {address}: the cluster has no {'GPU' if gpu else 'CPU'}"
                             + ("; --device cpu runs the tasks on its CPUs" if gpu else ""))
        return RayPool(ray, gpu, [f"ray:{i}" for i in range(n)], owner, retries)

    # --- the runners' hooks ---------------------------------------------------------------------------------

    def run_task(self, level: str, task: Path, device: str, args: dict[str, Any], out: Path) -> TaskResult:
        return TaskResult(**self._run(Job(level, task.stem, task.read_text(), self._device, args), task, out))

    def run_cell(self, cell: Any, device: str, args: dict[str, Any], out: Path) -> Any:
        from engine.study import CellResult

        job = Job(cell.level, cell.path.stem, cell.path.read_text(), self._device, args, cell.variant, cell.repeat)
        return CellResult.from_json(self._run(job, cell.path, out))

    @property
    def _device(self) -> str:
        return "cuda:0" if self.gpu else "cpu"  # Ray shows a task only the GPU it gave it

    def _run(self, job: Job, task: Path, out: Path) -> dict[str, Any]:
        name = f"{job.variant + ' ' if job.variant else ''}{job.level}/{job.stem}" + \
            (f" r{job.repeat}" if job.variant else "")
        with self._lock:
            if self._closed:  # stopping: start nothing more
                raise NotFinished(name)
            if self._remote is None:
                # Failures of the code itself are not retried (retry_exceptions): they would fail again.
                self._remote = self.ray.remote(work).options(num_cpus=1, num_gpus=1 if self.gpu else 0,
                                                             max_retries=self.retries, retry_exceptions=False)
            ref = self._remote.remote(job)
            self._inflight.add(ref)
            self.submitted += 1
        try:
            reply = self.ray.get(ref)
        except Exception as e:
            if self._closed:
                raise NotFinished(name) from e
            if not isinstance(e, self.ray.exceptions.RayError):
                raise
            why = f"{type(e).__name__}: {str(e).strip().splitlines()[-1][:300] if str(e).strip() else ''}"
            with self._lock:
                self.lost.append(f"{name}: {why}")
            console.print(f"[yellow]{name}: its Ray task was lost or failed ({why}); not finished, the next call "
                          "runs it again[/yellow]")
            raise NotFinished(name) from e
        finally:
            with self._lock:
                self._inflight.discard(ref)
        return land(reply, task, out)

    # --- leaving ------------------------------------------------------------------------------------------

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None:
            self.cancel()
        if self.owner:
            self.ray.shutdown()

    def cancel(self) -> None:
        """Cancel the tasks still out and wait a little for them to stop (their processes end with them)."""
        with self._lock:
            self._closed = True
            refs = list(self._inflight)
        for ref in refs:
            self.ray.cancel(ref)
        if refs:
            _, left = self.ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT_S)
            for ref in left:  # a worker that did not stop: end it (Ray ends its processes with it)
                self.ray.cancel(ref, force=True)
