"""Why the runner issues a host-bound forward slower than the checker (issue 35's parity gap, H100 2026-12-07, fifth
session: the reference's own forward as its candidate read 0.82x on 9_ResNet18 and 0.84x on 28_VisionTransformer
with the reference timed in blocks between the candidate's calls, and back to back 1.73 against 1.50 ms and 3.12
against 2.23 ms by the checker's clock; the after-runner drift of the session before is not all of it).

The runner differs from the checker's loop, for a ModelNew in libraries_pytorch, in the Python audit hook it
installs before the candidate loads (engine/evaluate/runner.py Attempts: called for every audit event the
process raises), and in its environment and process. This takes the first apart in one plain process, strict
fp32, the forward back to back with the checker's procedure (timing.time_call with the L2 flush), 60 calls a row:
  plain     as the checker's reference loop (twice: plain_again is the drift between blocks, nothing changed)
  hooked    with the runner's own audit hook installed (an audit hook cannot be removed: this row comes last)
and counts the audit events one forward raises on this device, by name (none fired on the CPU, 2026-12-06).
From the repo root on the device machine:
  python3 scripts/runner_host_cost.py cuda:0 .gpu-kb/dev/level3/9_ResNet18.py > $OUT/runner_host_cost.json
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import torch

from engine.evaluate import timing
from engine.evaluate.outcome import Precision
from engine.evaluate.task_module import import_file, set_precision

CALLS = 60


def timed(fwd, dev: torch.device, flusher: timing.CacheFlusher) -> dict[str, float]:
    for _ in range(5):
        fwd()
    ms, host = [], []
    for _ in range(CALLS):
        t0 = time.perf_counter()
        ms.append(timing.time_call(fwd, dev, flusher.flush)[0])
        host.append((time.perf_counter() - t0) * 1e3)
    return {"median_ms": round(statistics.median(ms), 4), "min_ms": round(min(ms), 4),
            "host_wall_ms": round(statistics.median(host), 4)}


def main() -> None:
    dev = torch.device(sys.argv[1])
    set_precision(Precision.FP32)
    flusher = timing.CacheFlusher(dev)
    forwards = []
    for path in sys.argv[2:]:
        mod = import_file(Path(path), f"task_{Path(path).stem}")
        torch.manual_seed(0)
        model = mod.Model(*mod.get_init_inputs()).to(dev).eval()
        with torch.device(dev):
            inputs = [x.to(dev) if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]

        def fwd(model=model, inputs=inputs):
            with torch.no_grad():
                return model(*inputs)
        forwards.append((Path(path).stem, fwd))
    rows: dict[str, dict[str, object]] = {name: {"plain": timed(fwd, dev, flusher)} for name, fwd in forwards}
    # The same rows again, a moment later: how far the host drifts between blocks with nothing changed (the
    # hooked rows can only come after both).
    for name, fwd in forwards:
        rows[name]["plain_again"] = timed(fwd, dev, flusher)
    events: Counter[str] = Counter()
    counting = [False]

    def count(event: str, _args: tuple) -> None:
        if counting[0]:
            events[event] += 1
    sys.addaudithook(count)
    from engine.evaluate.runner import Attempts

    Attempts()  # the runner's own hook, as installed before a candidate loads
    for name, fwd in forwards:
        events.clear()
        counting[0] = True
        fwd()
        timing.sync(dev)
        counting[0] = False
        rows[name]["audit_events_per_forward"] = dict(events.most_common(20))
        rows[name]["hooked"] = timed(fwd, dev, flusher)
        print(name, rows[name], file=sys.stderr)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    print(json.dumps({"device": name, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
