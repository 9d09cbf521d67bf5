"""Where a launch-bound forward loses time between the checker's loop and the candidate's runner (issue 35's
parity gap: eager ResNet18 read 1.35 ms in the checker and 1.55-1.60 ms as its own candidate in the runner, H100
2026-12-06). The runner differs from the checker's loop in how it waits: it is frozen while the checker writes a
call's inputs, then thawed and sent the request (checker.write_unseen), where the checker's loop never stops.

This times the task's own forward in one plain process, strict fp32 as the checker sets it (the earlier
parity script's "plain" figure left cuDNN's TF32 on), with the checker's procedure (timing.time_call with the
L2 flush), in four ways of waiting before each call:
  hot      back to back, as the checker's reference loop
  sleep    a 2 ms blocking sleep before each call (a runner that blocks on its socket)
  stopped  stopped by another process (SIGSTOP) for about 1 ms, continued and told to go through a pipe,
           as the runner is frozen, thawed and sent the request
  spun     as stopped, then 0.3 ms of busy waiting before the call (a remedy to try: the core back up first)
and records the host's time to issue the forward's launches beside the GPU events. From the repo root on the
device machine:  python3 scripts/parity_wake.py cuda:0 TASK.py [TASK.py ...] > $OUT/parity-wake.json
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path

import torch

from engine.evaluate import timing
from engine.evaluate.outcome import Precision
from engine.evaluate.task_module import import_file, set_precision

CALLS = 60


def stopper(parent: int, go_r: int, ack_w: int) -> None:
    """In a child: each byte on go_r stops the parent for about 1 ms, continues it, and acknowledges."""
    while os.read(go_r, 1):
        os.kill(parent, signal.SIGSTOP)
        time.sleep(0.001)
        os.kill(parent, signal.SIGCONT)
        os.write(ack_w, b"k")
    os._exit(0)


def main() -> None:
    dev = torch.device(sys.argv[1])
    set_precision(Precision.FP32)
    go_r, go_w = os.pipe()
    ack_r, ack_w = os.pipe()
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        # The child's own copies of the ends it does not use closed: with its copy of go_w open, its read
        # never saw the end of the pipe and the parent waited on it for ever (H100, 2026-12-07: the rows were
        # printed, the JSON never).
        os.close(go_w)
        os.close(ack_r)
        stopper(parent, go_r, ack_w)
    os.close(go_r)
    os.close(ack_w)
    flusher = timing.CacheFlusher(dev)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    report: dict[str, object] = {"device": name, "tasks": {}}
    for path in sys.argv[2:]:
        m = import_file(Path(path), "task")
        torch.manual_seed(0)
        model = m.Model(*m.get_init_inputs()).to(dev).eval()
        xs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in m.get_inputs()]
        host: list[float] = []

        def fwd(model: torch.nn.Module = model, xs: list = xs, host: list = host) -> object:
            t0 = time.perf_counter()
            out = model(*xs)
            host.append((time.perf_counter() - t0) * 1e3)
            return out

        def wait(how: str) -> None:
            if how == "sleep":
                time.sleep(0.002)
            elif how in ("stopped", "spun"):
                os.write(go_w, b"g")
                os.read(ack_r, 1)
                if how == "spun":
                    end = time.perf_counter() + 0.0003
                    while time.perf_counter() < end:
                        pass

        rows = {}
        with torch.no_grad():
            for _ in range(10):
                model(*xs)
            for how in ("hot", "sleep", "stopped", "spun", "hot"):
                host.clear()
                ms = []
                for _ in range(CALLS):
                    wait(how)
                    ms.append(timing.time_call(fwd, dev, flusher.flush)[0])
                key = how if how not in rows else how + "_again"
                rows[key] = {"gpu_ms_median": round(statistics.median(ms), 4),
                             "gpu_ms_min": round(min(ms), 4),
                             "host_launch_ms_median": round(statistics.median(host), 4)}
                print(path, key, rows[key], file=sys.stderr)
        report["tasks"][path] = rows  # type: ignore[index]
    os.close(go_w)
    os.waitpid(child, 0)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
