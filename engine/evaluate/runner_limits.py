"""What a candidate's runner may use: host memory, resource limits (rlimits), processes, and the cuDNN folders
it may read. The checker (checker.py) puts these in the RunnerSpec it starts each runner with; the sandbox and
candidate_process.py apply them (and drop an rlimit where a cgroup already caps the same thing)."""

from __future__ import annotations

import os

from engine.evaluate import sandbox
from engine.evaluate.exchange import Exchange
from engine.evaluate.requests import EvalRequest

# Processes and threads a runner may have (threads count: an emulated CUDA block in the tests runs 1024 of
# them, OpenMP one a core): room for honest code, a cap on a flood.
MAX_PROCESSES = 2048


def host_memory_cap(device_type: str, ex: Exchange | None = None) -> int:
    """Host memory a runner may use: 8 GB (torch and a compiler) plus four times the task's shared buffers
    on the CPU, never more than 45% of the machine."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    shared = sum(d.nbytes for d in ex.descriptors) if ex is not None and device_type == "cpu" else 0
    return int(min((8 << 30) + 4 * shared, max(0.45 * total, 6 << 30)))


def rlimits(device_type: str, sandboxed: bool) -> dict[str, int]:
    """The runner's rlimits on a device of this type, sandboxed or not."""
    limits = {"file_bytes": 8 << 30, "cpu_s": 3600}
    if device_type == "cpu":
        # Where no memory cgroup can be made (candidate_process.py drops this when one is), an address-space
        # limit instead, on the CPU only (the CUDA driver reserves far more virtual memory than it uses);
        # generous, since it counts every thread's reserved stack too.
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        limits["address_bytes"] = max(16 << 30, total)
    # Where no cgroup caps the runner's processes (candidate_process.py drops this when one does):
    # RLIMIT_NPROC, which counts every process of the runner's uid. Root's processes are exempt from it,
    # so it is set when the runner runs as someone else: the caller, or nobody when hiera runs as root.
    as_nobody = os.getuid() == 0 and sandboxed and sandbox.drops_root(device_type == "cuda")
    if os.getuid() != 0 or as_nobody:
        limits["processes"] = user_processes(sandbox.NOBODY if as_nobody else os.getuid()) + MAX_PROCESSES
    return limits


def cudnn_dirs(req: EvalRequest) -> tuple[str, ...]:
    """The cuDNN headers and libraries a library-space contract candidate may read (none for pure_cuda or a
    ModelNew file, none where cuDNN is not installed)."""
    if req.kind == "modelnew" or req.space == "pure_cuda":
        return ()
    from engine.task.libraries import find_cudnn

    found = find_cudnn()
    if not found:
        return ()
    include, libdir, _ = found
    return tuple(str(p) for p in (include, libdir) if p)


def user_processes(uid: int) -> int:
    """How many processes `uid` has now (RLIMIT_NPROC counts them all, not only the runner's)."""
    n = 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid == uid:
                    n += 1
            except OSError:
                continue
    return n
