"""A control group per runner, where the machine lets hiera make one: a cap on processes and on memory.

rlimits cover a runner's file sizes and CPU time, but not its number of processes when hiera runs as root
(the kernel exempts root's processes from RLIMIT_NPROC, user namespace or not), and an address-space limit
cannot be used on a CUDA runner (the driver reserves far more virtual memory than it uses). A cgroup does
both: `pids.max` and the memory limit count the runner and everything it starts. Used when the cgroup file
system is writable (cgroup v2 with the controllers delegated, or v1's pids and memory hierarchies, as root);
otherwise hiera goes on without it, and the README says which limits then hold.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Group:
    paths: tuple[Path, ...]  # one folder per hierarchy (one on v2)
    memory: bool = False  # its memory limit is set (else only the process cap)

    def procs_files(self) -> list[str]:
        return [str(p / "cgroup.procs") for p in self.paths]

    def close(self) -> None:
        """Kill whatever is left in the group, then remove it."""
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


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
        return True
    except OSError:
        return False


def make(processes: int, memory_bytes: int | None) -> Group | None:
    """A new group for one runner with the two caps, or None where none can be made here."""
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
            mem = bool(memory_bytes) and _write(g / "memory.max", str(memory_bytes))
            if mem:
                _write(g / "memory.swap.max", "0")
            return Group((g,), mem)
    made: list[Path] = []
    mem = False
    for controller, files in (("pids", {"pids.max": str(processes)}),
                              ("memory", {"memory.limit_in_bytes": str(memory_bytes)} if memory_bytes else {})):
        base = _own(controller)
        if base is None or not base.is_dir():
            continue
        g = base / name
        try:
            g.mkdir()
        except OSError:
            continue
        if all(_write(g / f, v) for f, v in files.items()):
            made.append(g)
            mem = mem or controller == "memory"
        else:
            with contextlib.suppress(OSError):
                g.rmdir()
    return Group(tuple(made), mem) if made else None


def wrap(group: Group | None, cmd: list[str]) -> list[str]:
    """`cmd` started inside `group`: a shell joins the group, then becomes the command (so everything the
    command starts is counted from its first instruction)."""
    if group is None:
        return cmd
    joins = "; ".join(f'echo $$ > "{f}" || exit 97' for f in group.procs_files())
    return ["/bin/sh", "-c", f'{joins}; exec "$@"', "sh", *cmd]
