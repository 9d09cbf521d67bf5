"""A device's speed-of-light ceilings, measured, and the bound checked against eager PyTorch on real tasks.

1. Measures the ceilings the speed-of-light bound divides by (engine/evaluate/ceilings.py, the thorough variant:
   twice the repetitions of the checker's first measurement), prints them with how each was measured, and merges
   them into hiera's cache (`--no-save`: leave the cache alone).
2. For each task given (default: tests/data/tasks' GPU-sized tasks on a GPU, small ones on the CPU) computes the
   bound from its graph (engine/evaluate/speed_of_light.py) and times the task's own eager module the way the
   checker times the reference (cache flushed before each call; CUDA events or perf_counter), and prints the
   fraction. Eager PyTorch is an honest implementation: a fraction over 1 beyond its spread and the margin means
   the bound is wrong (too many bytes or FLOPs counted, or a ceiling measured low), and is marked REFUSED.

    python3 scripts/bench_ceilings.py --device cpu --out ceilings-cpu.json
    python3 scripts/bench_ceilings.py --device cuda:0 --out $OUT/ceilings-h100.json --tasks /path/kernelbench-dev

Exit status 1 when any task's eager time would be refused (the bound is not a lower bound there), else 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch

from contracts.speed_of_light import phrase, quantity
from engine.evaluate import ceilings
from engine.evaluate.outcome import Precision
from engine.evaluate.speed_of_light import Bound, bound_for, check
from engine.evaluate.task_module import import_file, set_precision
from engine.evaluate.timing import CacheFlusher, time_call
from engine.task.spec import load_task

TASKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "tasks"
GPU_TASKS = ("big_scale_bias_relu.py", "expert_gpu_chain.py", "expert_gpu_softmax.py", "expert_gpu_transpose.py",
             "expert_gpu_linear_ln.py", "stencil_gpu_box2d_r3.py")
CPU_TASKS = ("scale_bias_relu.py", "expert_chain.py", "expert_softmax.py", "small_linear.py", "expert_transpose.py",
             "stencil_box2d_small.py")


def task_files(given: list[str], gpu: bool) -> list[Path]:
    if not given:
        return [TASKS / n for n in (GPU_TASKS if gpu else CPU_TASKS)]
    out: list[Path] = []
    for g in given:
        p = Path(g)
        out += sorted(x for x in p.rglob("*.py") if x.name[0].isdigit() or x.parent == p) if p.is_dir() else [p]
    return out


def time_eager(path: Path, device: torch.device, calls: int) -> tuple[float, float]:
    """(median ms, spread) of the task's own module, timed as the checker times the reference."""
    mod = import_file(path, f"hiera_bench_task_{abs(hash(path))}")
    torch.manual_seed(0)
    model = mod.Model(*mod.get_init_inputs()).to(device).eval()
    with torch.device(device):
        inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]
    flusher = CacheFlusher(device)
    samples = []
    with torch.no_grad():
        for _ in range(3):
            model(*inputs)
        for _ in range(calls):
            ms, _ = time_call(lambda: model(*inputs), device, flusher.flush)
            samples.append(ms)
    if device.type == "cuda":
        torch.cuda.empty_cache()
    q = statistics.quantiles(samples, n=4)
    med = statistics.median(samples)
    return med, (q[2] - q[0]) / med if med > 0 else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda:0" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", type=Path, default=Path("ceilings.json"))
    ap.add_argument("--tasks", nargs="*", default=[], help="task files or folders (default: hiera's own test tasks)")
    ap.add_argument("--precision", default="fp32", choices=["fp32", "tf32"])
    ap.add_argument("--calls", type=int, default=20, help="timed eager calls per task (default: 20)")
    ap.add_argument("--no-save", action="store_true", help="do not merge the measurement into hiera's cache")
    args = ap.parse_args()
    device = torch.device(args.device)
    if device.type == "cuda":
        torch.cuda.set_device(device)
    t0 = time.perf_counter()
    flush = CacheFlusher(device).buf.numel()
    measured = ceilings.measure(device, flush, thorough=True)
    cached = measured if args.no_save else ceilings.save(measured)
    print(f"ceilings of {measured.device}, measured in {measured.seconds:.1f} s")
    for label, value, how in measured.rows():
        print(f"  {label:22} {value:>22}   {how}")
    if cached is not measured:
        print(f"  in hiera's cache ({ceilings.cache_path()}), each the fastest ever measured here: {cached.summary()}")
    set_precision(Precision(args.precision))
    rows = []
    refused = 0
    for path in task_files(args.tasks, device.type == "cuda"):
        row: dict[str, object] = {"task": str(path)}
        try:
            spec = load_task(path)
            b = bound_for(spec, cached, args.precision, device.type == "cuda")
            if not isinstance(b, Bound):
                row["bound"] = b
                print(f"{path.name:48} {b}")
                rows.append(row)
                continue
            med, spread = time_eager(path, device, args.calls)
        except Exception as e:  # one task that cannot run says why; the others go on
            row["error"] = f"{type(e).__name__}: {e}"[:300]
            print(f"{path.name:48} error: {row['error']}")
            rows.append(row)
            continue
        sol = b.figure(med)
        why = check(b, med, spread)
        refused += why is not None
        row.update(sol.to_json(), eager_ms=med, spread=spread, refused=why, describe=b.describe())
        rows.append(row)
        print(f"{path.name:48} {phrase(sol):40} bound {b.ms:.4g} ms vs eager {med:.4g} ms (±{spread:.0%}); "
              f"{quantity(sol.bytes, 'B')}, {quantity(sol.flops, 'FLOP')} at {sol.ceiling}"
              + ("   REFUSED: the bound is not a lower bound here" if why else ""))
    doc = {"device": measured.device, "measured": measured.to_json(), "cached": cached.to_json(),
           "precision": args.precision, "tasks": rows, "refused": refused,
           "seconds": round(time.perf_counter() - t0, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, default=str))
    print(f"wrote {args.out} ({doc['seconds']} s); {refused} eager time(s) under the bound beyond the margin")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
