"""A control group per runner, where the machine lets hiera make one: caps on processes and memory, a freezer.

rlimits cover a runner's file sizes and CPU time, but not its number of processes when hiera runs as root
(the kernel exempts root's processes from RLIMIT_NPROC, user namespace or not), and an address-space limit
cannot be used on a CUDA runner (the driver reserves far more virtual memory than it uses). A cgroup does
both: `pids.max` and the memory limit count the runner and everything it starts. Used when the cgroup file
system is writable (cgroup v2 with the controllers delegated, or v1's pids and memory hierarchies, as root);
otherwise hiera goes on without it, and the README says which limits then hold.

The freezer (v2's cgroup.freeze, v1's freezer hierarchy) stops every process of the group at once, including
one forked a moment ago: the checker times the reference on the CPU with the candidate's processes stopped,
and a process that keeps forking escapes a stop sent pid by pid.

A group outlives the process that made it unless somebody removes it, and a frozen one keeps its processes
stopped (v1 delivers no SIGKILL to a frozen task, so bwrap's --die-with-parent cannot end them either): a
checker killed while it timed the reference left a frozen runner and its memory behind for good. So each
process that makes groups starts one guard (cgroup_guard.py, outside every group, in a session of its own)
and tells it each group it makes; when that process is gone, however it ended, the guard thaws, kills and
removes every group of it that is still there.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Group:
    paths: tuple[Path, ...]  # one folder per hierarchy (one on v2)
    memory: bool = False  # its memory limit is set (else only the process cap)
    freezer: Path | None = None  # the folder whose freezer stops the group (one of paths), None if none
    freezer_v1: bool = False  # freezer.state (v1) rather than cgroup.freeze (v2)

    def procs_files(self) -> list[str]:
        return [str(p / "cgroup.procs") for p in self.paths]

    def pids(self) -> set[int]:
        """Every process in the group (in any of its hierarchies), as the host sees them."""
        found: set[int] = set()
        for p in self.paths:
            with contextlib.suppress(OSError, ValueError):
                found |= {int(x) for x in (p / "cgroup.procs").read_text().split()}
        return found

    def oom_kills(self) -> int:
        """How many of the group's processes the kernel killed at its memory limit."""
        for p in self.paths:
            for name in ("memory.events", "memory.oom_control"):  # v2, v1
                for line in _read(p / name).splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill" and value.strip().isdigit():
                        return int(value)
        return 0

    def freeze(self, frozen: bool, timeout_s: float = 5.0, wait: bool = True) -> bool:
        """Freeze (or thaw) the whole group; True once the kernel reports it done, False if it could not.
        wait=False: only ask (a thaw just before a timed request: the request itself waits for the runner)."""
        if self.freezer is None:
            return False
        # v1: freezer.state reads FREEZING until every task has stopped; v2: cgroup.events says "frozen 1".
        if self.freezer_v1:
            control, value = self.freezer / "freezer.state", "FROZEN" if frozen else "THAWED"
            state, settled = control, value
        else:
            control, value = self.freezer / "cgroup.freeze", "1" if frozen else "0"
            state, settled = self.freezer / "cgroup.events", f"frozen {value}"
        if not _write(control, value):
            return False
        if not wait:
            return True
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if settled in _read(state).splitlines():
                return True
            time.sleep(0.001)
        return False

    def to_json(self) -> str:
        return json.dumps({"paths": [str(p) for p in self.paths], "memory": self.memory,
                           "freezer": None if self.freezer is None else str(self.freezer),
                           "freezer_v1": self.freezer_v1})

    @staticmethod
    def from_json(line: str) -> Group:
        d = json.loads(line)
        return Group(tuple(Path(p) for p in d["paths"]), bool(d["memory"]),
                     None if d["freezer"] is None else Path(d["freezer"]), bool(d["freezer_v1"]))

    def exists(self) -> bool:
        return any(p.is_dir() for p in self.paths)

    def close(self) -> None:
        """Kill whatever is left in the group, then remove it."""
        if self.freezer is not None:
            self.freeze(False, timeout_s=1.0)  # a frozen process takes no SIGKILL until it is thawed
        for p in self.paths:
            for _ in range(50):
                try:
                    pids = [int(x) for x in (p / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.02)
            with contextlib.suppress(OSError):
                p.rmdir()


def _own(controller: str) -> Path | None:
    """This process's folder in the hierarchy holding `controller` ("" for v2's unified one)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller and controller in names.split(",")) or (not controller and names == ""):
            base = ROOT / controller if controller else ROOT
            if controller == "" and not (ROOT / "cgroup.controllers").exists():
                return None
            return base / path.lstrip("/")
    return None


def _holds(path: Path, value: int) -> bool:
    """Whether a limit file reads back the limit written (the kernel may round it down to a page): a write the
    kernel took but does not apply (a controller not enabled for the group) is no limit, and the caller falls
    back to one that holds (issue 42)."""
    got = _read(path)
    return got.isdigit() and value - 4096 * 64 <= int(got) <= value


def has_pids(group: Group) -> bool:
    """Whether `group` caps its processes (pids.max in one of its folders)."""
    return any((p / "pids.max").exists() for p in group.paths)


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
        return True
    except OSError:
        return False


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


class _Guard:
    """This process's cgroup_guard: started with the first group, told of each one on its stdin (a line of
    JSON), and it cleans up the ones still there once that pipe closes (this process ended)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid = 0  # the process that started it (a forked child must start its own)

    def watch(self, group: Group) -> None:
        with self.lock:
            for _ in range(2):  # a guard that died is started again, once
                if self.proc is None or self.pid != os.getpid() or self.proc.poll() is not None:
                    self._start()
                try:
                    assert self.proc is not None and self.proc.stdin is not None
                    self.proc.stdin.write(group.to_json().encode() + b"\n")
                    self.proc.stdin.flush()
                    return
                except (OSError, AssertionError):
                    self.proc = None

    def _start(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": root}
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "engine.evaluate.cgroup_guard"], cwd=root, env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
            self.pid = os.getpid()
        except OSError:
            self.proc = None


_GUARD = _Guard()


def make(processes: int, memory_bytes: int | None) -> Group | None:
    """A new group for one runner with the two caps, or None where none can be made here. The group is
    removed by the guard if this process ends before closing it."""
    group = _make(processes, memory_bytes)
    if group is not None:
        _GUARD.watch(group)
    return group


def _make(processes: int, memory_bytes: int | None) -> Group | None:
    name = f"hiera-runner-{secrets.token_hex(4)}"
    unified = _own("")
    if unified is not None and "pids" in (ROOT / "cgroup.controllers").read_text().split():
        g = unified / name
        try:
            g.mkdir()
        except OSError:
            g = None  # type: ignore[assignment]
        if g is not None:
            _write(g / "pids.max", str(processes))
            mem = bool(memory_bytes) and _write(g / "memory.max", str(memory_bytes)) and \
                _holds(g / "memory.max", memory_bytes)
            if mem:
                _write(g / "memory.swap.max", "0")
            return Group((g,), mem, g if (g / "cgroup.freeze").exists() else None)
    made: list[Path] = []
    mem = False
    freezer: Path | None = None
    for controller, files in (("pids", {"pids.max": str(processes)}),
                              ("memory", {"memory.limit_in_bytes": str(memory_bytes)} if memory_bytes else {}),
                              ("freezer", {})):
        base = _own(controller)
        if base is None or not base.is_dir():
            continue
        g = base / name
        try:
            g.mkdir()
        except OSError:
            continue
        if all(_write(g / f, v) and _holds(g / f, int(v)) for f, v in files.items()):
            made.append(g)
            mem = mem or (controller == "memory" and bool(files))
            if controller == "freezer" and (g / "freezer.state").exists():
                freezer = g
        else:
            with contextlib.suppress(OSError):
                g.rmdir()
    return Group(tuple(made), mem, freezer, freezer_v1=True) if made else None


def wrap(group: Group | None, cmd: list[str]) -> list[str]:
    """`cmd` started inside `group`: a shell joins the group, then becomes the command (so everything the
    command starts is counted from its first instruction)."""
    if group is None:
        return cmd
    joins = "; ".join(f'echo $$ > "{f}" || exit 97' for f in group.procs_files())
    return ["/bin/sh", "-c", f'{joins}; exec "$@"', "sh", *cmd]
