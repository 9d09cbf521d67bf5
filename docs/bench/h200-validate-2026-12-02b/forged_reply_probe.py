import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, ".")
from tests import test_attacks_cpu as kit
from tests.conftest import TASKS
for i in range(int(sys.argv[1])):
    with tempfile.TemporaryDirectory() as d, kit.arena_at(Path(d)) as a:
        t0 = time.time()
        outs = kit.evaluate_api(a, TASKS / "relu_positive.py", [("reply_divide_ms.py", None), ("honest_relu.py", None)], device="cuda:0")
    for k, o in outs.items():
        print(json.dumps({"run": i, "cand": k, "status": o.status.value, "speedup": o.speedup, "flags": o.flags,
                          "gap": o.extra.get("timing_gap"), "reason": o.reason[:400],
                          "cand_ms": getattr(o.candidate, "median_ms", None), "ref_ms": getattr(o.reference, "median_ms", None)}), flush=True)
    print("took", round(time.time() - t0, 1), flush=True)
