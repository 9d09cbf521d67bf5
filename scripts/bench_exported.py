"""Time the files a user gets back (the exported ModelNew) against eager PyTorch, cudnn.benchmark off and on.

The suite's baseline is eager PyTorch as a task runs by default: cudnn.benchmark off, so cuDNN picks a
convolution algorithm by heuristic. hiera's cuDNN candidates measure the algorithms (cudnnFind...), which is
what `torch.backends.cudnn.benchmark = True` does for eager too. This script answers how much of a
convolution speedup that one flag would have given, and checks that each exported file builds with
load_inline where it is imported and matches Model.

    python scripts/bench_exported.py docs/bench/h200-suite 09_conv2d 05_conv_bn_relu ... --json OUT.json

Each variant runs in a process of its own: PyTorch caches a convolution's cuDNN plan per shape, and the
cache key does not include the benchmark flag, so a process that ran one mode would replay its plan in the
other. In the hiera process the export and eager (benchmark never set) are timed interleaved, so its ratio
is paired; the cudnn.benchmark ratio is across processes. CUDA events around a burst of calls, median over
rounds, fp32 strict (TF32 off) as in the suite. Prints a table (hiera/pair: over the eager timed in its own
process; bench/eager and hiera/bench: across processes) and the kernels each variant launched; writes JSON.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

VARIANTS = ("eager", "eager_cudnn_benchmark", "hiera_export")


def _import(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def measure(result: Path, variant: str, device: str, rounds: int, calls: int, benchmark_limit: int | None) -> dict:
    """One variant, in this process (the child's job)."""
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = variant == "eager_cudnn_benchmark"
    if benchmark_limit is not None:
        torch.backends.cudnn.benchmark_limit = benchmark_limit
    cuda = torch.device(device).type == "cuda"  # standalone: the exported file is measured without hiera
    mod = _import(result)
    torch.manual_seed(0)
    init = mod.get_init_inputs()
    ref = mod.Model(*init).to(device).eval()
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in mod.get_inputs()]
    timed = {"eager": ref}
    out: dict = {"variant": variant}
    with torch.no_grad():
        if variant == "hiera_export":
            new = mod.ModelNew(*init).to(device).eval()
            new.load_state_dict(ref.state_dict())
            t0 = time.perf_counter()
            got = new(*inputs)  # builds the extension (load_inline) on first use
            out["first_call_s"] = time.perf_counter() - t0
            out["max_abs_error"] = (got - ref(*inputs)).abs().max().item()
            timed["hiera_export"] = new
        for fn in timed.values():  # warm-up (cudnn.benchmark measures its algorithms on the first call)
            for _ in range(3):
                fn(*inputs)
        times: dict[str, list[float]] = {k: [] for k in timed}
        for _ in range(rounds):
            for k, fn in timed.items():
                times[k].append(_burst_ms(fn, inputs, calls, cuda))
        out["kernels"] = {k: _kernels(fn, inputs, cuda) for k, fn in timed.items()}
    out["ms"] = {k: statistics.median(v) for k, v in times.items()}
    return out


def _burst_ms(fn, inputs, calls: int, cuda: bool) -> float:
    import torch

    if not cuda:
        t0 = time.perf_counter()
        for _ in range(calls):
            fn(*inputs)
        return (time.perf_counter() - t0) * 1e3 / calls
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn(*inputs)
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / calls


def _kernels(fn, inputs, cuda: bool) -> list[str]:
    """The GPU kernels one call launches (which convolution algorithm ran shows in their names)."""
    if not cuda:
        return []
    import torch
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*inputs)
        torch.cuda.synchronize()
    return [e.key[:90] for e in prof.key_averages() if e.device_type.name == "CUDA"]


def run_child(args: argparse.Namespace, result: Path, variant: str) -> dict:
    cmd = [sys.executable, __file__, "--one", str(result), "--variant", variant, "--device", args.device,
           "--rounds", str(args.rounds), "--calls", str(args.calls)]
    if args.benchmark_limit is not None:
        cmd += ["--benchmark-limit", str(args.benchmark_limit)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"variant": variant, "error": f"timed out after {args.timeout} s"}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        return {"variant": variant, "error": (p.stderr or p.stdout)[-2000:]}
    return json.loads(lines[-1])


def bench_task(args: argparse.Namespace, task: str) -> dict:
    result = args.suite / "results" / task / f"{task}_hiera.py"
    runs = {v: run_child(args, result, v) for v in args.variants}
    row: dict = {"task": task, "result": str(result), "runs": runs}
    errors = [f"{v}: {r['error']}" for v, r in runs.items() if "error" in r]
    if errors:
        row["error"] = "; ".join(errors)
        return row
    # Each process times its own variant under "eager" (the Model) or "hiera_export".
    ms = {v: r["ms"]["hiera_export" if v == "hiera_export" else "eager"] for v, r in runs.items()}
    row["ms"] = ms
    if "eager_cudnn_benchmark" in ms and "eager" in ms:
        row["cudnn_benchmark_over_eager"] = ms["eager"] / ms["eager_cudnn_benchmark"]
        a, b = runs["eager"]["kernels"]["eager"], runs["eager_cudnn_benchmark"]["kernels"]["eager"]
        if a and b:  # (no kernel names off the GPU)
            row["same_kernels_with_benchmark"] = a == b
    if "hiera_export" in ms:
        h = runs["hiera_export"]
        row["hiera_over_paired_eager"] = h["ms"]["eager"] / ms["hiera_export"]
        row["max_abs_error"] = h["max_abs_error"]
        if "eager_cudnn_benchmark" in ms:
            row["hiera_over_cudnn_benchmark"] = ms["eager_cudnn_benchmark"] / ms["hiera_export"]
    return row


def _table(rows: list[dict]) -> None:
    def x(v: float | None) -> str:
        return f"{v:.2f}x" if v else "-"

    print(f"{'task':<24} {'eager ms':>9} {'+benchmark':>10} {'hiera ms':>9} {'hiera/pair':>11} "
          f"{'bench/eager':>11} {'hiera/bench':>11} {'same kernels':>12}")
    for r in rows:
        if "error" in r:
            print(f"{r['task']:<24} FAILED: {r['error'][:400]}")
            continue
        f = {v: f"{r['ms'][v]:.4f}" if v in r["ms"] else "-" for v in VARIANTS}
        print(f"{r['task']:<24} {f['eager']:>9} {f['eager_cudnn_benchmark']:>10} {f['hiera_export']:>9} "
              f"{x(r.get('hiera_over_paired_eager')):>11} {x(r.get('cudnn_benchmark_over_eager')):>11} "
              f"{x(r.get('hiera_over_cudnn_benchmark')):>11} {r.get('same_kernels_with_benchmark', '-')!s:>12}")
    for r in rows:
        for v, run in r.get("runs", {}).items():
            for who, names in run.get("kernels", {}).items():
                if not names or (who == "eager" and v == "hiera_export"):
                    continue
                print(f"  {r['task']} {v if who == 'eager' else who}: {', '.join(names[:4])}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", type=Path, nargs="?", help="a bench --out folder (its results/<task>/<task>_hiera.py)")
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--benchmark-limit", type=int, default=None,
                    help="torch.backends.cudnn.benchmark_limit (PyTorch tries its top 10 by default; 0 = all)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per variant process")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # child: measure one variant of one file
    ap.add_argument("--variant", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.variant, args.device, args.rounds, args.calls, args.benchmark_limit)))
        return 0
    args.variants = [v for v in args.variants.split(",") if v]
    bad = [v for v in args.variants if v not in VARIANTS]
    if bad or not args.suite or not args.tasks:
        ap.error(f"unknown variant(s) {bad}" if bad else "give a suite folder and at least one task")
    rows = [bench_task(args, t) for t in args.tasks]
    _table(rows)
    if args.json:
        import torch

        args.json.write_text(json.dumps({"device": args.device, "device_name": torch.cuda.get_device_name()
                                         if torch.cuda.is_available() else "cpu", "torch": torch.__version__,
                                         "benchmark_limit": args.benchmark_limit, "tasks": rows}, indent=1))
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
