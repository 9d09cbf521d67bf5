"""Which limits hold on this machine, and how: checked at the start of a run, reported by `hiera doctor`.

Each limit a candidate meets has a preferred mechanism and a fallback that works without it (README, "What the
sandbox guarantees"): a control group where hiera can make one (cgroups.py), resource limits (rlimits) and
fixed-size memory file systems otherwise. In the second red-team pass's rerun the compiler's memory and the
scratch quota were not what the machine was thought to enforce, and nothing said so (issue 42). So the
mechanisms are tried, not assumed: a group is made and its limits read back, a sandboxed process writes past a
scratch of a set size, the shell's unit of `ulimit -f` is read from the kernel. A limit that falls back is said
once per run (the run's notices, `hiera eval`'s header) and by the doctor; none is ever silently absent.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Limit:
    name: str  # what is limited, in words
    how: str  # what enforces it on this machine
    fallback: bool  # the preferred mechanism could not be set up here, and `how` is the one that works
    holds: bool = True  # False: checked and found not to hold (said as a failure)


@functools.lru_cache(maxsize=4)
def check(gpu: bool, sandboxed: bool = True) -> tuple[Limit, ...]:
    """The limits a run on this machine gets (cached per process: the machine does not change under a run)."""
    from engine.evaluate import cgroups
    from engine.evaluate.build import COMPILER_FILE_BYTES, shell_block_bytes

    group = cgroups.make(16, 64 << 20)
    try:
        memory = group is not None and group.memory
        pids = group is not None and cgroups.has_pids(group)
        freezer = group is not None and group.freezer is not None
    finally:
        if group is not None:
            group.close()
    limits = []
    if memory:
        limits.append(Limit("runner and compiler memory", "a memory cgroup per process tree", False))
    else:
        runner = ("RLIMIT_DATA (private writable memory; the CUDA driver's address reservations are not counted)"
                  if gpu else "RLIMIT_AS (address space: every thread's reserved stack counts too)")
        limits.append(Limit("runner memory", f"{runner}: no memory cgroup could be made here", True))
        limits.append(Limit("compiler memory", "`ulimit -v` (address space): no memory cgroup could be made here",
                            True))
    if pids:
        limits.append(Limit("processes", "a pids cgroup per runner and compile", False))
    else:
        root = os.geteuid() == 0
        from engine.evaluate import sandbox

        exempt = root and not (sandboxed and sandbox.drops_root(gpu))
        limits.append(Limit("processes", "RLIMIT_NPROC, which counts every process of the sandbox's uid: no pids "
                            "cgroup could be made here" + ("; root's processes are exempt from it, so runners "
                                                           "have no process limit" if exempt else ""),
                            True, holds=not exempt))
    limits.append(Limit("runner stopped while inputs are written", "the cgroup freezer" if freezer else
                        "SIGSTOP to each of the runner's processes, walked until none is new: no freezer cgroup "
                        "could be made here", not freezer))
    unit = shell_block_bytes()
    limits.append(Limit("compiler file size", f"`ulimit -f {COMPILER_FILE_BYTES // unit}` in {unit}-byte blocks "
                        f"({COMPILER_FILE_BYTES >> 20} MiB)", False))
    if sandboxed:
        ok, said = scratch_holds(gpu)
        counted = "counted in the memory cgroup" if memory else "not counted in any memory limit (no memory cgroup)"
        limits.append(Limit("scratch and /tmp size", f"memory file systems of a fixed size, {counted}" if ok else
                            f"a sandboxed write past a scratch of 1 MiB was not stopped ({said})", not memory,
                            holds=ok))
    limits.append(Limit("runner output", "kept in memory, its first 16 KiB and last 64 KiB", False))
    return tuple(limits)


def scratch_holds(gpu: bool) -> tuple[bool, str]:
    """Whether a sandbox's memory scratch stops a write past its size: a process writes 2 MiB into one of 1 MiB."""
    from engine.evaluate import sandbox

    work = Path(tempfile.mkdtemp(prefix="hiera-limits-"))
    scratch = work / "probe"
    scratch.mkdir()
    try:
        policy = sandbox.Policy(scratch=scratch, scratch_bytes=1 << 20, sys_dirs=())
        cmd = sandbox.command(policy, ["/bin/sh", "-c", f"head -c {2 << 20} /dev/zero > {sandbox.SCRATCH}/fill; "
                                                        f"wc -c < {sandbox.SCRATCH}/fill"])
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        written = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        if written.isdigit() and int(written) <= 1 << 20:
            return True, f"{written} bytes written"
        return False, f"{written or 'nothing'} written; {proc.stderr.strip()[-200:]}"
    except (OSError, subprocess.TimeoutExpired, sandbox.SandboxUnavailable) as e:
        return False, str(e)[:200]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def notices(gpu: bool, sandboxed: bool = True) -> list[str]:
    """The run's notices: one per limit that falls back or does not hold."""
    out = []
    for lim in check(gpu, sandboxed):
        if not lim.holds:
            out.append(f"limit not enforced: {lim.name}: {lim.how}")
        elif lim.fallback:
            out.append(f"limit by fallback: {lim.name}: {lim.how}")
    return out
