"""The evaluation worker's entry point:
`python -m engine.evaluate.child ADDRESS TASK DEVICE PRECISION WORKDIR SANDBOX`.

Started only by worker.Worker. It connects back over an authenticated Unix socket, loads the task on its
device (the trusted checker: it never loads candidate code, each candidate runs in a sandboxed runner of its
own) and answers EvalRequests one at a time until told to stop.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from multiprocessing.connection import Client, Connection


def _die_with_parent() -> None:
    """Linux: get SIGKILL when the parent dies, so a killed CLI or server leaves no worker behind."""
    try:
        libc = ctypes.CDLL(None)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _child(conn: Connection, task_path: str, device: str, precision: str, workdir: str, sandboxed: bool) -> None:
    from engine.evaluate.checker import Checker
    from engine.evaluate.requests import CeilingsRequest, RegionsRequest

    try:
        session = Checker(task_path, device, precision, workdir, sandboxed)
        conn.send(("ready", session.device_facts().to_json()))  # JSON across the process boundary
    except BaseException as e:
        conn.send(("failed", f"{type(e).__name__}: {e}"))
        return
    while True:
        try:
            req = conn.recv()
        except EOFError:
            return
        if req is None:
            session.close()
            return
        if isinstance(req, CeilingsRequest):
            conn.send(("reply", session.ceilings(req.remeasure)))
            continue
        if isinstance(req, RegionsRequest):
            conn.send(("reply", session.region_times()))
            continue
        reply = session.evaluate(req)
        conn.send(("reply", reply))
        if reply.fatal:
            # A CUDA fault poisons the context: this process must not evaluate anything else.
            conn.close()
            os._exit(3)


def main() -> None:
    address, task_path, device, precision, workdir, sandboxed = sys.argv[1:7]
    _die_with_parent()
    # The runners' policy too (runner.py): the reference and the candidates are timed with the same heap.
    from engine.evaluate.heap_policy import keep_heap_warm

    keep_heap_warm()
    key = bytes.fromhex(os.environ.pop("HIERA_WORKER_KEY"))
    conn = Client(address, family="AF_UNIX", authkey=key)
    _child(conn, task_path, device, precision, workdir, sandboxed == "1")


if __name__ == "__main__":
    main()
