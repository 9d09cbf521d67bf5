"""Time the files a user gets back (the exported ModelNew) against eager PyTorch, cudnn.benchmark off and on.

The suite's baseline is eager PyTorch as a task runs by default: cudnn.benchmark off, so cuDNN picks a
convolution algorithm by heuristic. hiera's cuDNN candidates measure the algorithms (cudnnFind...), which is
what `torch.backends.cudnn.benchmark = True` does for eager too. This script answers how much of a
convolution speedup that one flag would have given, and checks that each exported file builds with
load_inline where it is imported and matches Model.

    python scripts/bench_exported.py docs/bench/h200-suite 09_conv2d 05_conv_bn_relu ... --json OUT.json

Per task: the three variants are timed interleaved (each round times every variant), CUDA events around a
burst of calls, median over rounds. fp32 strict (TF32 off), as in the suite. Prints a table, writes JSON.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

import torch


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _burst_ms(fn, inputs, calls: int) -> float:
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn(*inputs)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls


def _kernels(fn, inputs) -> list[str]:
    """The GPU kernels one call launches (which convolution algorithm ran shows in their names)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*inputs)
        torch.cuda.synchronize()
    return [e.key[:90] for e in prof.key_averages() if e.device_type.name == "CUDA"]


def bench_task(result: Path, rounds: int, calls: int) -> dict:
    t0 = time.perf_counter()
    mod = _import(result)
    torch.manual_seed(0)
    init = mod.get_init_inputs()
    ref = mod.Model(*init).cuda().eval()
    new = mod.ModelNew(*init).cuda().eval()
    new.load_state_dict(ref.state_dict())
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]

    def eager(*a):
        torch.backends.cudnn.benchmark = False
        return ref(*a)

    def eager_benchmark(*a):
        torch.backends.cudnn.benchmark = True
        return ref(*a)

    variants = {"eager": eager, "eager_cudnn_benchmark": eager_benchmark, "hiera_export": new}
    with torch.no_grad():
        eager_benchmark(*inputs)  # first, so no heuristic choice made earlier in the process can be reused
        expected = eager(*inputs)
        got = new(*inputs)  # builds the extension (load_inline) on first use
        build_s = time.perf_counter() - t0
        err = (got - expected).abs().max().item()
        for fn in variants.values():  # warm-up
            for _ in range(3):
                fn(*inputs)
        torch.cuda.synchronize()
        kernels = {k: _kernels(fn, inputs) for k, fn in variants.items()}
        times: dict[str, list[float]] = {k: [] for k in variants}
        for _ in range(rounds):
            for k, fn in variants.items():
                times[k].append(_burst_ms(fn, inputs, calls))
    torch.backends.cudnn.benchmark = False
    ms = {k: statistics.median(v) for k, v in times.items()}
    return {"task": result.parent.name, "result": str(result), "ms": ms,
            "hiera_over_eager": ms["eager"] / ms["hiera_export"],
            "cudnn_benchmark_over_eager": ms["eager"] / ms["eager_cudnn_benchmark"],
            "hiera_over_cudnn_benchmark": ms["eager_cudnn_benchmark"] / ms["hiera_export"],
            "max_abs_error": err, "kernels": kernels, "build_and_first_call_s": build_s, "rounds": rounds,
            "calls_per_round": calls}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", type=Path, help="a bench --out folder (its results/<task>/<task>_hiera.py)")
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--benchmark-limit", type=int, default=None,
                    help="torch.backends.cudnn.benchmark_limit (PyTorch tries its top 10 by default; 0 = all)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("needs a CUDA device", file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if args.benchmark_limit is not None:
        torch.backends.cudnn.benchmark_limit = args.benchmark_limit
    rows = []
    for t in args.tasks:
        path = args.suite / "results" / t / f"{t}_hiera.py"
        try:
            rows.append(bench_task(path, args.rounds, args.calls))
        except Exception as e:  # one broken export must not hide the others' numbers
            rows.append({"task": t, "result": str(path), "error": f"{type(e).__name__}: {e}"[:2000]})
    print(f"{'task':<26} {'eager ms':>9} {'+benchmark':>10} {'hiera ms':>9} {'hiera/eager':>11} "
          f"{'bench/eager':>11} {'hiera/bench':>11} {'max err':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['task']:<26} FAILED: {r['error'][:300]}")
            continue
        m = r["ms"]
        print(f"{r['task']:<26} {m['eager']:>9.4f} {m['eager_cudnn_benchmark']:>10.4f} {m['hiera_export']:>9.4f} "
              f"{r['hiera_over_eager']:>10.2f}x {r['cudnn_benchmark_over_eager']:>10.2f}x "
              f"{r['hiera_over_cudnn_benchmark']:>10.2f}x {r['max_abs_error']:>8.1e}")
    if args.json:
        args.json.write_text(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                                         "cudnn": torch.backends.cudnn.version(),
                                         "benchmark_limit": torch.backends.cudnn.benchmark_limit, "tasks": rows},
                                        indent=1))
        for r in rows:
            for k, names in r.get("kernels", {}).items():
                print(f"  {r['task']} {k}: {', '.join(names[:4])}")
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
