"""The back-to-back floor on the lent GPU (engine/evaluate/back_to_back.py): honest candidates and the
rewritten-reply attack, each evaluated REPEATS times, one JSON line per outcome (status, figures, flags, the
burst). From the repo root, after `. scripts/device_env.sh`:
    python3 scripts/h200_back_to_back.py REPEATS > $OUT/b2b.jsonl
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import test_attacks_cpu as kit
from tests.conftest import DATA, TASKS

CASES = [
    ("relu_positive.py", ["reply_divide_ms.py", "honest_relu.py", "burst_skip.py"]),
    ("scale_bias_relu.py", [str(DATA / "gpu" / "scale_bias_relu.cu"), "honest_scale_bias_relu.py"]),
    ("big_scale_bias_relu.py", [str(DATA / "gpu" / "scale_bias_relu.cu"), "honest_scale_bias_relu.py"]),
]


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for run in range(repeats):
        for task, names in CASES:
            t0 = time.time()
            with tempfile.TemporaryDirectory() as d, kit.arena_at(Path(d)) as a:
                outs = kit.evaluate_api(a, TASKS / task, [(n, None) for n in names], device="cuda:0")
            for k, o in outs.items():
                print(json.dumps({"run": run, "task": task, "cand": k, "status": o.status.value,
                                  "speedup": o.speedup, "flags": list(o.flags), "reason": o.reason[:300],
                                  "cand_ms": getattr(o.candidate, "median_ms", None),
                                  "ref_ms": getattr(o.reference, "median_ms", None),
                                  "back_to_back": o.extra.get("back_to_back"), "gap": o.extra.get("timing_gap")}),
                      flush=True)
            print(json.dumps({"run": run, "task": task, "seconds": round(time.time() - t0, 1)}), flush=True)


if __name__ == "__main__":
    main()
