"""What the sandbox and the checker/runner split cost per candidate, and whether timings still agree.

    python scripts/bench_sandbox.py TASK CANDIDATE [--device cpu|cuda:0] [--repeat 3] [--out FILE.json]

Evaluates the same candidate `--repeat` times with the sandbox on and off (the split into a trusted checker
and a runner process stays either way), alternating, and prints per mode the median of: runner start and
load, verification, timing, the whole evaluation, and the candidate's and the reference's median times.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.evaluate.pipeline import EvalSettings, Evaluator, candidate_from_file
from engine.task.spec import load_task


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task")
    ap.add_argument("candidate")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    spec = load_task(Path(args.task))
    cand = candidate_from_file(Path(args.candidate), args.device)
    rows: dict[str, list[dict[str, float]]] = {"sandbox": [], "no sandbox": []}
    work = Path(tempfile.mkdtemp(prefix="hiera-bench-sandbox-"))
    evaluators = {mode: Evaluator(spec, work / mode.replace(" ", "_"),
                                  EvalSettings(device=args.device, sandbox=(mode == "sandbox")),
                                  cache_dir=work / "cache") for mode in rows}
    try:
        for _ in range(args.repeat):
            for mode, ev in evaluators.items():
                t0 = time.perf_counter()
                [o] = ev.evaluate([cand])
                wall = time.perf_counter() - t0
                if not o.valid:
                    raise SystemExit(f"{mode}: {o.status.value}: {o.reason}")
                rows[mode].append({"start_and_load_s": float(o.extra.get("load_s") or 0.0),
                                   "verify_s": float(o.verify_s or 0.0), "time_s": float(o.time_s or 0.0),
                                   "evaluation_s": wall, "candidate_ms": o.candidate.median_ms,  # type: ignore[union-attr]
                                   "reference_ms": o.reference.median_ms,  # type: ignore[union-attr]
                                   "trials": float(o.candidate.trials)})  # type: ignore[union-attr]
    finally:
        for ev in evaluators.values():
            ev.close()
    summary = {mode: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for mode, rs in rows.items()}
    out = {"date": time.strftime("%Y-%m-%d"), "host": platform.node(), "device": args.device, "task": args.task,
           "candidate": args.candidate, "repeat": args.repeat, "median": summary, "runs": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2))
    keys = list(next(iter(summary.values())))
    print(f"{'':<12}" + "".join(f"{k:>18}" for k in keys))
    for mode, s in summary.items():
        print(f"{mode:<12}" + "".join(f"{s[k]:>18.4g}" for k in keys))


if __name__ == "__main__":
    main()
