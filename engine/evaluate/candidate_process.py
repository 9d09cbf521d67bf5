"""The checker's handle on one candidate's runner: start it in the sandbox, talk to it, end it.

One fresh runner per candidate, so nothing a candidate does to its process (a patched torch, a cache, a
thread) reaches the next one. The runner is the sandbox's PID 1: when it ends, or when the checker kills
the sandbox, every process the candidate started ends too. Its stdout and stderr go to a pipe the checker
drains into memory with a small cap (capped_output.py), never to hiera's streams nor to the host's disk; the
checker reads its tail to explain a crash.

Every reply is matched to its request by id and checked for shape; a runner that breaks the protocol, goes
silent past a deadline or dies is ended, and that is the candidate's outcome.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from contracts.device import Device
from engine import pycache
from engine.evaluate import cgroups, sandbox, wire
from engine.evaluate.capped_output import CappedOutput
from engine.exit_status import exit_text

_HERE = Path(__file__).resolve().parent
# All of hiera a runner's sandbox holds.
RUNNER_FILES = ("runner.py", "wire.py", "cudadrv.py", "heap_policy.py", "warm_compile.py")

# Libraries whose presence in a runner's memory means the candidate left its space (read from outside,
# in /proc/PID/maps, after the calls).
LIBRARY_MARKERS = ("libcublas", "libcublasLt", "libcudnn", "libcufft", "libcurand", "libcusparse", "libcusolver",
                   "libnvblas", "libcutensor")
TORCH_MARKERS = ("libtorch", "libc10")


# A runner's scratch (/sandbox): a memory file system of this size. It holds what a ModelNew builds or caches
# for itself (load_inline, Triton and Inductor caches: tens of MB for KernelBench's largest models); hiera's
# own torch.compile candidates share a cache folder on disk instead (RunnerSpec.compile_cache).
SCRATCH_BYTES = 1 << 30


def _give_to_nobody(folder: Path) -> None:
    """A folder (and what is in it) owned by the uid sandboxed processes run as."""
    for root, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            with contextlib.suppress(OSError):
                os.lchown(os.path.join(root, name), sandbox.NOBODY, sandbox.NOBODY)
    os.chown(folder, sandbox.NOBODY, sandbox.NOBODY)


class FreezeFailed(Exception):
    """The runner's processes could not all be stopped (the message says why)."""


def _state(pid: int) -> str:
    """A process's one-letter state from /proc ("X" once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rindex(")") + 2]
    except (OSError, ValueError, IndexError):
        return "X"


class RunnerFailed(Exception):
    """The runner ended, broke the protocol or timed out; `kind` is timeout | crashed | protocol."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind, self.reason = kind, reason


@dataclass(frozen=True)
class RunnerSpec:
    kind: str  # cuda | cpp | modelnew
    device: Device  # text is parsed on construction; it crosses to the runner as text (wire.Setup)
    space: str
    artifact: Path  # the built .so or the ModelNew .py, on the host
    sandboxed: bool
    workdir: Path  # per-candidate scratch folders are made under it
    threads: int = 0
    limits: dict[str, int] = field(default_factory=dict)
    extra_ro: tuple[str, ...] = ()  # more read-only folders (cuDNN's from the wheel, ...)
    compile_cache: Path | None = None  # a torch.compile cache folder shared with trusted candidates (read-write)
    max_processes: int = 256  # the runner and everything it starts (a cgroup, where one can be made)
    max_memory_bytes: int | None = None  # host memory, the same way

    def __post_init__(self) -> None:
        object.__setattr__(self, "device", Device.parse(self.device))


def _library_dirs() -> list[str]:
    """Where CUDA's libraries live: the toolkit's lib64 and the nvidia-* wheels' lib folders."""
    import site

    dirs = sandbox.hide_library_dirs()
    for sp in site.getsitepackages():
        nv = Path(sp) / "nvidia"
        if nv.is_dir():
            dirs += [str(p) for p in sorted(nv.glob("*/lib")) if p.is_dir()]
    return dirs


def runner_rlimits(spec: RunnerSpec, group: cgroups.Group | None) -> dict[str, int]:
    """The rlimits a runner sets on itself: the spec's, less those its control group already enforces, plus a
    fallback for host memory where neither a memory cgroup nor an address-space limit holds it."""
    limits = dict(spec.limits)
    if group is not None and group.memory:
        # The cgroup counts real memory; an address-space limit would also count every thread's
        # reserved stack (a thousand threads reserve 8 GB) and refuse honest code.
        limits.pop("address_bytes", None)
    elif spec.max_memory_bytes and "address_bytes" not in limits:
        # No memory cgroup, and no address-space limit (a GPU runner: the driver reserves far more address space
        # than it uses): its private writable memory is capped instead (RLIMIT_DATA does not count the driver's
        # PROT_NONE reservations), never no limit at all (limit_check.py).
        limits["data_bytes"] = spec.max_memory_bytes
    if group is not None and cgroups.has_pids(group):
        # The group's cap counts this runner's processes only; RLIMIT_NPROC counts every process of
        # its uid on the host (other sandboxes run as the same nobody).
        limits.pop("processes", None)
    return limits


class CandidateProcess:
    def __init__(self, spec: RunnerSpec, candidate_id: str):
        self.spec = spec
        self.scratch = spec.workdir / f"{candidate_id}-{secrets.token_hex(4)}"
        self.scratch.mkdir(parents=True)
        # Its stdout and stderr, kept in memory with a small cap (capped_output.py): never a file on the host.
        self.output = CappedOutput()
        self.proc: subprocess.Popen[bytes] | None = None
        self.group: cgroups.Group | None = None
        self.sock: socket.socket | None = None
        self.pid: int | None = None  # the runner's own pid, as the host sees it
        self._stopped: set[int] = set()  # what the signal fallback of freeze() stopped, to continue
        self._next_id = 0

    # --- start ----------------------------------------------------------------------------------------

    def _argv_and_policy(self) -> tuple[list[str], sandbox.Policy | None, dict[str, str], str]:
        s = self.spec
        native = s.kind != "modelnew"
        suffix = ".py" if not native else ".so"
        python = os.path.realpath(sys.executable) if native else sys.executable
        flags = ["-I", "-S"] if native else ["-I"]
        env: dict[str, str] = {}
        if s.threads:
            env["OMP_NUM_THREADS"] = str(s.threads)
            # Between two calls the checker writes the next inputs; OpenMP threads that went to sleep meanwhile
            # would cost the timed call their wake-up, which the reference (timed back to back) never pays.
            env["OMP_WAIT_POLICY"] = "ACTIVE"
        libdirs = _library_dirs()
        if native and s.space != "pure_cuda":
            env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [*libdirs, os.environ.get("LD_LIBRARY_PATH")]))
        if not native:
            for var, sub in (("TORCH_EXTENSIONS_DIR", "torch_extensions"), ("TRITON_CACHE_DIR", "triton"),
                             ("TORCHINDUCTOR_CACHE_DIR", "inductor"), ("XDG_CACHE_HOME", "cache")):
                env[var] = f"{sandbox.SCRATCH if s.sandboxed else self.scratch}/{sub}"
            if s.compile_cache is not None:
                shared = "/compile-cache" if s.sandboxed else str(s.compile_cache)
                env["TRITON_CACHE_DIR"], env["TORCHINDUCTOR_CACHE_DIR"] = f"{shared}/triton", f"{shared}/inductor"
            from engine.evaluate.build import ToolchainMissing, find_nvcc

            with contextlib.suppress(ToolchainMissing):
                env["CUDA_HOME"] = str(Path(os.path.realpath(find_nvcc())).parent.parent)
        if not s.sandboxed:
            local = self.scratch / f"candidate{suffix}"
            local.write_bytes(s.artifact.read_bytes())
            runner = str(_HERE / "runner.py")
            return [python, *flags, runner], None, env, str(local)
        inside = f"{sandbox.SCRATCH}/candidate{suffix}"
        binds = [sandbox.Bind(str(_HERE / f), f"{sandbox.HIERA_DIR}/{f}") for f in RUNNER_FILES]
        binds.append(sandbox.Bind(str(s.artifact), inside))
        binds += [sandbox.Bind(d, d) for d in sandbox.python_dirs(with_site=not native) if not d.startswith("/usr/")]
        if not native or s.space != "pure_cuda":
            binds += [sandbox.Bind(d, d) for d in libdirs if not d.startswith("/usr/")]
        binds += [sandbox.Bind(d, d) for d in s.extra_ro if os.path.exists(d)]
        if s.compile_cache is not None and not native:
            s.compile_cache.mkdir(parents=True, exist_ok=True)
            if sandbox.drops_root(s.device.is_cuda) and s.compile_cache.stat().st_uid != sandbox.NOBODY:
                _give_to_nobody(s.compile_cache)  # written from inside the sandbox, as nobody
            binds.append(sandbox.Bind(str(s.compile_cache), "/compile-cache", writable=True))
        if not native and "CUDA_HOME" in env and not env["CUDA_HOME"].startswith("/usr/"):
            binds.append(sandbox.Bind(env["CUDA_HOME"], env["CUDA_HOME"]))
        # Bytecode of the Python installation the checker's side compiled (engine/pycache.py), read-only.
        cached = pycache.readable_parts(sandbox.python_dirs(with_site=not native))
        if cached:
            # -B: read the cache, never write bytecode (the candidate's own module would go there, which the
            # runner's audit hook rightly calls a write outside the scratch: every ModelNew was `suspect`).
            flags += ["-B", "-X", f"pycache_prefix={pycache.active()}"]
            binds += [sandbox.Bind(d, d) for d in cached]
        masks = tuple(sandbox.hide_library_dirs()) if native and s.space == "pure_cuda" else ()
        gpu = s.device.is_cuda
        # A CPU runner sees of /sys only what torch reads there (CPU topology); a GPU one all of it, which the
        # driver may read.
        policy = sandbox.Policy(scratch=self.scratch, binds=tuple(binds), masks=masks, gpu=gpu, env=env,
                                scratch_bytes=SCRATCH_BYTES, sys_dirs=("/sys",) if gpu else ("/sys/devices/system",))
        return [python, *flags, f"{sandbox.HIERA_DIR}/runner.py"], policy, env, inside

    def start(self, setup: wire.Setup, timeout_s: float, fds: list[int] | None = None) -> None:
        argv, policy, env, artifact = self._argv_and_policy()
        setup = wire.Setup(**{**setup.__dict__, "artifact": artifact})
        parent, child = socket.socketpair()
        info_r, info_w = os.pipe()
        try:
            self.group = cgroups.make(self.spec.max_processes, self.spec.max_memory_bytes)
            limits = runner_rlimits(self.spec, self.group)
            full = [*argv, str(child.fileno()), json.dumps(limits)]
            if policy is not None:
                cmd = sandbox.command(policy, full, info_fd=info_w)
                cmd.insert(cmd.index("--") , "--as-pid-1")
                proc_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            else:
                cmd = full
                proc_env = sandbox.base_env(env)
                proc_env["HOME"] = str(self.scratch)
            cmd = cgroups.wrap(self.group, cmd)
            try:
                self.proc = subprocess.Popen(cmd, pass_fds=(child.fileno(), info_w), stdin=subprocess.DEVNULL,
                                             stdout=self.output.fd, stderr=self.output.fd, env=proc_env,
                                             start_new_session=True, cwd=str(self.scratch))
            finally:
                self.output.child_started()
        finally:
            child.close()
            os.close(info_w)
        self.sock = parent
        self.pid = self._read_info(info_r, policy is not None, timeout_s)
        try:
            wire.send_fds(parent, fds or [])
        except OSError as e:
            self.stop()
            raise RunnerFailed("crashed", f"the runner did not start ({e}): {self.log_tail()}") from e
        reply = self._call({"op": "setup", "setup": setup.to_json()}, timeout_s, what="start")
        if not reply.ok:
            self.stop()
            raise RunnerFailed("crashed", "the candidate's runner could not set up its buffers and device (hiera's "
                                          f"own code, before the candidate loaded): {reply.detail[:2500]}")

    def _read_info(self, fd: int, sandboxed: bool, timeout_s: float) -> int | None:
        assert self.proc is not None
        if not sandboxed:
            os.close(fd)
            return self.proc.pid
        import select

        data = b""
        deadline = time.monotonic() + timeout_s
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        break
                    data += chunk
                    if b"}" in data:
                        break
                elif self.proc.poll() is not None:
                    break
        finally:
            os.close(fd)
        try:
            return int(json.loads(data.decode()).get("child-pid"))
        except (ValueError, TypeError, AttributeError):
            self.stop()
            raise RunnerFailed("crashed", "the sandbox did not start: " + self.log_tail()) from None

    # --- requests -------------------------------------------------------------------------------------

    def _call(self, msg: dict[str, Any], timeout_s: float, what: str) -> wire.Reply:
        if self.sock is None:
            raise RunnerFailed("crashed", "the runner is not running")
        self._next_id += 1
        rid = self._next_id
        msg = {**msg, "id": rid}
        try:
            wire.send(self.sock, msg)
            reply = wire.recv(self.sock, timeout_s)
        except wire.WireTimeout:
            self.stop()
            raise RunnerFailed("timeout", f"no answer within {timeout_s:.3g} s ({what}); the candidate's "
                                          "processes were ended") from None
        except wire.WireError as e:
            if "closed the connection" not in str(e):
                self.stop()
                raise RunnerFailed("protocol", f"the runner's answer to {what} broke the protocol ({e}): the "
                                               "candidate wrote into its runner's connection") from e
            raise self._ended(what) from e
        except OSError as e:
            raise self._ended(what) from e
        try:
            parsed = wire.Reply.parse(reply)
            why = "" if parsed.id == rid else "it carries another request's id"
        except wire.WireError as e:
            why = str(e)
        if why:
            self.stop()
            raise RunnerFailed("protocol", f"the runner answered {what} out of turn or malformed ({why}): the "
                                           "candidate tampered with its runner")
        return parsed

    def _ended(self, what: str) -> RunnerFailed:
        code = self._wait_exit(5.0)
        tail = self.log_tail()
        # Asked before stop() closes the group: a SIGKILL from the kernel at the cgroup's memory limit says
        # nothing by itself, and "killed by signal SIGKILL" alone does not tell the user which limit it was.
        oom = self.group.oom_kills() if self.group is not None and self.group.memory else 0
        self.stop()
        gib = (self.spec.max_memory_bytes or 0) / 2**30
        limit = (f"; the kernel killed it at the runner's memory limit of {gib:.1f} GiB (host memory for the "
                 "candidate's process and its children)") if oom else ""
        return RunnerFailed("crashed", f"the candidate's process ended during {what} "
                                       f"({exit_text(code, self.spec.sandboxed)}){limit}"
                            + (f"; its last output: {tail}" if tail else ""))

    def request(self, op: str, timeout_s: float, **fields: Any) -> wire.Reply:
        return self._call({"op": op, **fields}, timeout_s, what=op)

    def _wait_exit(self, seconds: float) -> int | None:
        if self.proc is None:
            return None
        try:
            return self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    # --- what the host sees ---------------------------------------------------------------------------

    def loaded_libraries(self) -> list[str]:
        """Shared libraries mapped into the runner, read from /proc by the checker (the runner can't forge it)."""
        if self.pid is None:
            return []
        try:
            text = Path(f"/proc/{self.pid}/maps").read_text()
        except OSError:
            return []
        libs = {line.split()[-1] for line in text.splitlines() if ".so" in line and "/" in line}
        return sorted(libs)

    def _tree(self) -> list[int]:
        """The runner and every process below it, from /proc (the checker's own view)."""
        if self.pid is None:
            return []
        children: dict[int, list[int]] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
                ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(d))
        tree, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            tree.append(p)
            todo += children.get(p, [])
        return tree

    def threads(self) -> int:
        """How many threads the runner's processes have, from /proc (the checker's own count: a candidate's
        helper threads are seen whatever the runner says)."""
        n = 0
        for pid in self._processes():
            with contextlib.suppress(OSError):
                n += len(os.listdir(f"/proc/{pid}/task"))
        return n

    def _processes(self) -> set[int]:
        """The runner's processes: its tree from /proc, and whatever its cgroup holds (a daemon that left the
        tree, unsandboxed, is still in the group)."""
        found = set(self._tree())
        if self.group is not None:
            found |= self.group.pids()
        return found

    @property
    def freezer(self) -> str:
        """How freeze() stops the runner here: "cgroup" (the freezer of its control group) or "signals" (the
        fallback where no freezer group could be made: SIGSTOP pid by pid, walked until nothing new appears)."""
        return "cgroup" if self.group is not None and self.group.freezer is not None else "signals"

    def freeze(self, frozen: bool, wait: bool = True) -> None:
        """Stop (or resume) every process of the runner, so that nothing of the candidate runs while the
        checker writes a timed call's inputs (checker._time_candidate, back_to_back.py) or times the reference
        between its blocks of calls (on the CPU).

        Through the cgroup freezer where there is one (a process forked during the stop is stopped too);
        otherwise SIGSTOP pid by pid, the walk repeated until it finds no process it has not stopped and
        every one is stopped. Raises FreezeFailed when that does not settle (a process that keeps forking):
        the reference is then not timed beside it. A thaw with wait=False only asks (the cgroup's state is
        not polled; the fallback continues exactly the processes it stopped, with no walk of /proc): it is
        made inside a timed span, just before the request."""
        if self.group is not None and self.group.freezer is not None:
            if self.group.freeze(frozen, wait=wait):
                return
            if frozen:
                self.group.freeze(False)
                raise FreezeFailed("the cgroup freezer did not stop the candidate's processes within 5 s")
        if not frozen:
            stopped, self._stopped = self._stopped, set()
            for pid in (stopped if stopped and not wait else stopped | self._processes()):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGCONT)
            return
        stopped: set[int] = set()
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            now = self._processes()
            for pid in now - stopped:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)
            stopped |= now
            if self._processes() <= stopped and all(_state(pid) in "TtZX" for pid in now):
                self._stopped = stopped
                return
            time.sleep(0.001)
        self._stopped = stopped
        self.freeze(False)
        raise FreezeFailed(f"{len(stopped)} processes stopped one by one and more kept appearing")

    def log_tail(self, limit: int = 1500) -> str:
        """The last of what the runner printed (a crash's last words), as far as the cap kept it."""
        return self.output.text(limit)

    # --- end ------------------------------------------------------------------------------------------

    def stop(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError, wire.WireError):
                wire.send(self.sock, {"op": "exit", "id": -1})
            self.sock.close()
            self.sock = None
        if self.proc is not None:
            if self.proc.poll() is None and self._wait_exit(0.5) is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    self.proc.kill()
                self._wait_exit(10.0)
            # Unsandboxed, a candidate's own children may have left the process group; in the sandbox the
            # PID namespace ends them all with its PID 1, and a cgroup holds whatever is left either way.
            self.proc = None
        if self.group is not None:
            self.group.close()
            self.group = None

    def cleanup(self) -> None:
        import shutil

        self.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)
        shutil.rmtree(self.scratch.parent / (self.scratch.name + ".sys"), ignore_errors=True)
        self.output.close()


def warm_compile(spec: RunnerSpec, precision: str, timeout_s: float) -> tuple[bool, str]:
    """Compile one of hiera's own torch.compile candidates into spec.compile_cache ahead of its evaluation
    (warm_compile.py), in the sandbox its runner will get. (ok, the log's tail); a failure costs nothing but
    the time: the candidate then compiles in its own runner, as it would have."""
    proc = CandidateProcess(spec, "warm")
    try:
        argv, policy, env, artifact = proc._argv_and_policy()
        here = f"{sandbox.HIERA_DIR}/warm_compile.py" if policy is not None else str(_HERE / "warm_compile.py")
        argv = [*argv[:-1], here, artifact, str(spec.device), precision]
        if policy is not None:
            cmd, run_env = sandbox.command(policy, argv), {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        else:
            cmd, run_env = argv, {**sandbox.base_env(env), "HOME": str(proc.scratch)}
        try:
            rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=proc.output.fd, stderr=proc.output.fd,
                                env=run_env, cwd=str(proc.scratch), timeout=timeout_s,
                                start_new_session=True).returncode
        except subprocess.TimeoutExpired:
            return False, f"the warm-up compile ran over {timeout_s:.0f} s"
        finally:
            proc.output.close()
        return rc == 0, proc.log_tail(600)
    finally:
        proc.cleanup()
