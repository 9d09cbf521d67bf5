"""What a command checks before it records anything: that it can write where it will write, and that the task
fits the machine that will evaluate it.

A run that cannot keep its record or its result must not start: found at the end (a read-only task folder when
the result is written, after minutes of evaluation) it costs the whole run; found by the store's first write it
is a traceback. Each check raises UsageError (exit 2) naming the folder or the task and what to do instead.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from contracts.device import Device
from engine.commands.usage import UsageError
from engine.task.probe import machine_bytes
from engine.task.spec import TaskSpec

_WHY = {errno.EROFS: "a read-only file system", errno.EACCES: "no permission to write there",
        errno.EPERM: "no permission to write there", errno.ENOSPC: "no space left on the device",
        errno.EDQUOT: "the disk quota is used up"}


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def write_problem(folder: Path) -> str | None:
    """Why nothing can be written in folder (or in the nearest folder above it that exists, where it would be
    created), or None when a file can be written there. Tried for real (a file created and removed), since
    permission bits do not tell: root ignores them, and a read-only mount ignores root."""
    target = _nearest_existing(folder)
    if not target.is_dir():
        return f"{target} is not a folder"
    try:
        fd, probe = tempfile.mkstemp(dir=target, prefix=".hiera-write-check-")
    except OSError as e:
        return _WHY.get(e.errno or 0, e.strerror or str(e))
    os.close(fd)
    os.unlink(probe)
    return None


def workspace_writable(workspace: Path) -> None:
    """The run store goes in WORKSPACE/.hiera (the database, each run's candidates and logs)."""
    store = workspace / ".hiera"
    problem = write_problem(store)
    if problem is None and (store / "hiera.db").exists() and not os.access(store / "hiera.db", os.W_OK):
        problem = f"{store / 'hiera.db'} is read-only"
    if problem:
        raise UsageError(f"cannot keep the run's record in {store} ({problem}): run hiera in a folder you can "
                         "write, or give --workspace DIR (or set HIERA_WORKSPACE) for the run store; nothing was "
                         "recorded")


def results_writable(folder: Path, *, beside_task: bool) -> None:
    """The result files (the ModelNew .py and its kernel) go in folder: beside the task, or --results-dir."""
    problem = write_problem(folder)
    if problem:
        fix = ("give --results-dir DIR for the result files (the run's record stays in the workspace)"
               if beside_task else "give a --results-dir you can write")
        raise UsageError(f"cannot write the result files in {folder} ({problem}): {fix}; nothing was recorded")


def output_writable(folder: Path, flag: str) -> None:
    problem = write_problem(folder)
    if problem:
        raise UsageError(f"cannot write in {folder} ({problem}): give {flag} DIR, a folder you can write")


# A CPU evaluation holds the task's tensors at least twice: the checker's reference inputs, weights and
# outputs, and the shared buffers it hands the candidate's runner (engine/evaluate/checker.py; it also keeps
# a pool of further input sets for timing, so twice is the floor, not the need).
CPU_EVAL_COPIES = 2


def task_fits(spec: TaskSpec, device: Device, memory: int | None = None) -> None:
    """A task evaluated on the CPU must fit this machine's memory; said at load, with the sizes, rather than
    by every candidate's evaluation running out of it. (A GPU task is sized against its device by the
    evaluation itself.)"""
    if device.is_cuda:
        return
    memory = memory or machine_bytes()
    size = spec.min_bytes()
    if size * CPU_EVAL_COPIES <= memory:
        return
    gib = 2 ** 30
    raise UsageError(
        f"{spec.path}: its tensors (get_inputs(), the model's parameters and buffers, and the outputs) take "
        f"{size / gib:.1f} GiB, and an evaluation on the CPU holds them at least {CPU_EVAL_COPIES} times "
        f"({size * CPU_EVAL_COPIES / gib:.1f} GiB): more than this machine's {memory / gib:.1f} GiB of memory. "
        "To fix: make get_inputs() return smaller tensors (or the model smaller), or run it on a GPU machine "
        "(--device cuda)")
