"""What back-to-back calls (engine/evaluate/back_to_back.py) cost and what they find: honest candidates and the
rewritten-reply attack, each evaluated with the bursts and without them (`back_to_back=False`), REPEATS times in
one evaluator per task and mode. Prints a table (median over the repeats) and writes every outcome as JSON.

    python3 scripts/bench_back_to_back.py --device cpu --repeats 3 --out b2b-cpu.json
    python3 scripts/bench_back_to_back.py --device cuda:0 --repeats 3 --out $OUT/b2b-h200.json   # the lent GPU
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from contracts.device import Device
from engine.evaluate import EvalSettings, Evaluator
from engine.task.spec import load_task
from tests.conftest import DATA, TASKS
from tests.evalkit import candidate

ATTACKS = DATA / "attacks"


def cases(gpu: bool) -> list[tuple[str, list[Path]]]:
    native = DATA / "gpu" / "scale_bias_relu.cu" if gpu else ATTACKS / "honest_relu.cpp"
    relu = ["honest_relu.py", "reply_divide_ms.py"] + ([] if gpu else ["honest_relu.cpp"])
    return [("relu_positive.py", [ATTACKS / n for n in relu]),
            ("scale_bias_relu.py", [ATTACKS / "honest_scale_bias_relu.py"] + ([native] if gpu else [])),
            ("big_scale_bias_relu.py", [ATTACKS / "honest_scale_bias_relu.py"] + ([native] if gpu else []))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path("b2b.json"))
    args = ap.parse_args()
    rows = []
    for task, cands in cases(Device.parse(args.device).is_cuda):
        spec = load_task(TASKS / task)
        for bursts in (False, None):
            tmp = Path(tempfile.mkdtemp(prefix="b2b-"))
            try:
                settings = EvalSettings(device=args.device, back_to_back=bursts, request_timeout_s=300)
                with Evaluator(spec, tmp / spec.name, settings, cache_dir=tmp / "cache") as ev:
                    for rep in range(args.repeats):
                        for path in cands:
                            t0 = time.perf_counter()
                            [o] = ev.evaluate([candidate(path)])
                            b = o.extra.get("back_to_back") or {}
                            rows.append({"task": task, "candidate": path.name, "bursts": bursts is None, "repeat": rep,
                                         "seconds": round(time.perf_counter() - t0, 3), "status": o.status.value,
                                         "speedup": o.speedup, "candidate_ms": o.candidate and o.candidate.median_ms,
                                         "reference_ms": o.reference and o.reference.median_ms,
                                         "reported_ms": o.extra.get("runner_reported_ms"), "back_to_back": b or None,
                                         "flags": list(o.flags)})
                            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    args.out.write_text(json.dumps({"device": args.device, "rows": rows}, indent=1))
    med = statistics.median
    print(f"{'task':24} {'candidate':26} {'bursts':6} {'s/cand':>7} {'status':8} {'speedup':>8} {'cand ms':>9} "
          f"{'burst ms':>9} {'calls':>5}  flags")
    keys = sorted({(r["task"], r["candidate"], r["bursts"]) for r in rows}, key=lambda k: (k[0], k[1], k[2]))
    for task, cand, bursts in keys:
        rs = [r for r in rows if (r["task"], r["candidate"], r["bursts"]) == (task, cand, bursts)]
        b = [r["back_to_back"]["candidate_ms"] for r in rs if r["back_to_back"]]
        flags = sorted({f.split(":")[0] for r in rs for f in r["flags"]})
        sp = [r["speedup"] for r in rs if r["speedup"]]
        cm = [r["candidate_ms"] for r in rs if r["candidate_ms"]]
        print(f"{task:24} {cand:26} {'yes' if bursts else 'no':6} {med([r['seconds'] for r in rs]):7.2f} "
              f"{'/'.join(sorted({r['status'] for r in rs})):8} {med(sp) if sp else float('nan'):8.3f} "
              f"{med(cm) if cm else float('nan'):9.4f} {med(b) if b else float('nan'):9.4f} "
              f"{rs[0]['back_to_back']['calls'] if rs[0]['back_to_back'] else '-':>5}  {','.join(flags)}")


if __name__ == "__main__":
    main()
