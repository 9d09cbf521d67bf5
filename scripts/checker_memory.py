"""How much memory the trusted checker holds while it evaluates one candidate on a task with large inputs: the
reference's own forward submitted as a ModelNew (valid by construction), evaluated through the Evaluator API.

On a GPU the figure is the checker's own peak device memory for that evaluation (`extra.checker_peak_gib`, from
torch.cuda.max_memory_allocated in the checker); on the CPU, the peak resident memory of the largest process the
evaluation started (the checker's worker or the candidate's runner, getrusage of the children). Either is printed
beside the task's bytes of one input set, as "input sets held at the peak", with the verdict.

    python scripts/checker_memory.py TASK.py [--device cuda:0] [--out result.json]

KernelBench's level1/34_InstanceNorm (7 GiB of input, 7 of output) ran an 80 GB card out of memory in the
checker before the checker sized its copies to free memory (engine/evaluate/device_memory.py).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator  # noqa: E402
from engine.task.spec import load_task  # noqa: E402


def reference_as_modelnew(task: Path) -> str:
    """The task's own module with a ModelNew that is its Model unchanged: a candidate whose answer is the
    reference's. (Renaming the class broke modules that name it inside, `super(Model, self).__init__()`:
    level1/34_InstanceNorm on the H100, 2026-12-07.)"""
    return task.read_text() + '\n\nclass ModelNew(Model):\n    """The reference forward unchanged."""\n'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("task", type=Path)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--trials", type=int, default=10, help="timed calls (default 10)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    spec = load_task(args.task)
    set_bytes = sum(a.tensor.nbytes for a in spec.tensor_args if a.tensor is not None)
    t0 = time.perf_counter()
    cand = Candidate("reference", CandidateKind.MODELNEW, reference_as_modelnew(args.task), None)
    with tempfile.TemporaryDirectory() as work, \
            Evaluator(spec, Path(work), EvalSettings(device=args.device, timing_trials=args.trials)) as ev:
        [o] = ev.evaluate([cand])
    wall = time.perf_counter() - t0
    if args.device.startswith("cuda"):
        peak = o.extra.get("checker_peak_gib")
        peak_bytes = peak * 2**30 if isinstance(peak, (int, float)) else None
        what = "checker's peak device memory"
    else:
        peak_bytes = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
        what = "largest child's peak resident memory"
    row = {"task": spec.name, "device": args.device, "status": o.status.value, "reason": o.reason[:300],
           "input_set_gib": round(set_bytes / 2**30, 3),
           "peak_gib": round(peak_bytes / 2**30, 3) if peak_bytes else None,
           "sets_at_peak": round(peak_bytes / set_bytes, 1) if peak_bytes and set_bytes else None,
           "timing_pool_sets": o.extra.get("timing_pool_sets"), "wall_s": round(wall, 1), "measured": what}
    print(f"{'task':24} {'status':8} {'input set':>10} {'peak':>9} {'sets':>5} {'pool':>4} {'wall':>6}")
    print(f"{row['task'][:24]:24} {row['status']:8} {row['input_set_gib']:>8.3f} G {row['peak_gib'] or 0:>7.3f} G "
          f"{row['sets_at_peak'] or 0:>5} {row['timing_pool_sets'] or '-':>4} {row['wall_s']:>5}s   ({what})")
    if args.out:
        args.out.write_text(json.dumps(row, indent=1) + "\n")
    return 0 if o.status.value == "valid" else 1


if __name__ == "__main__":
    sys.exit(main())
