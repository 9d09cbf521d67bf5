"""Benchmark of the evaluator itself: build time per candidate, verification/timing overhead, and the
evaluator's timing of a known kernel against an independent measurement (triton.testing.do_bench).

    python scripts/bench_evaluator.py [--device cuda:0] [--builds 12] [--out results.json]

Prints a table and writes JSON. On a machine without a GPU only the build part runs (compile only).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "tests" / "data" / "tasks" / "big_scale_bias_relu.py"
KERNEL = ROOT / "tests" / "data" / "gpu" / "scale_bias_relu.cu"


def variants(n: int) -> list[str]:
    """n distinct small candidates (a different block size constant each, so nothing is cached)."""
    src = KERNEL.read_text()
    return [src.replace("(n4 + 255) / 256", f"(n4 + {64 * (i + 1) - 1}) / {64 * (i + 1)}")
            .replace("blocks, 256, 0", f"blocks, {64 * (i + 1)}, 0") for i in range(n)]


def build_times(n: int, arch: str | None, contract_dir: Path) -> dict[str, object]:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind

    with tempfile.TemporaryDirectory() as cache:
        cfg = BuildConfig(contract_dir, Path(cache), cuda_arch=arch, jobs=1)
        secs = []
        for i, src in enumerate(variants(n)):
            b = build_one(Candidate(f"v{i}", CandidateKind.CUDA, src), cfg)
            if not b.ok:
                raise RuntimeError(b.log)
            secs.append(b.seconds)
    return {"n": n, "median_s": statistics.median(secs), "min_s": min(secs), "max_s": max(secs), "all_s": secs}


def torch_header_build_time(arch: str | None, contract_dir: Path, n: int = 2) -> dict[str, object]:
    """The same candidate with `#include <torch/extension.h>` at the top, compiled to an object (-c) with
    torch's include paths: the compile cost every candidate would pay in a load_inline design."""
    from torch.utils.cpp_extension import include_paths

    from engine.evaluate.build import find_nvcc

    secs = []
    with tempfile.TemporaryDirectory() as d:
        for i, src in enumerate(variants(n)):
            f = Path(d) / f"t{i}.cu"
            f.write_text("#include <torch/extension.h>\n" + src)
            arch_flags = [f"-gencode=arch=compute_{arch},code=sm_{arch}"] if arch else []
            cmd = [find_nvcc(), "-O3", "-std=c++17", "-lineinfo", *arch_flags, "-Xcompiler", "-fPIC", "-c",
                   f"-I{contract_dir}", *[f"-I{p}" for p in include_paths()], f"-I{sysconfig.get_paths()['include']}",
                   str(f), "-o", str(f) + ".o"]
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            secs.append(time.perf_counter() - t0)
            if p.returncode != 0:
                return {"n": i, "error": p.stderr[-800:]}
    return {"n": n, "median_s": statistics.median(secs), "all_s": secs}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--builds", type=int, default=12)
    ap.add_argument("--torch-header-builds", type=int, default=2, help="0 skips the (minute-long) comparison")
    ap.add_argument("--out", default="bench_evaluator.json")
    args = ap.parse_args()

    import torch

    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    gpu = torch.cuda.is_available()
    arch = None
    if gpu:
        p = torch.cuda.get_device_properties(0)
        arch = f"{p.major}{p.minor}"
    spec = load_task(TASK)
    work = Path(tempfile.mkdtemp(prefix="hiera-bench-eval-"))
    write_contract(spec, work / "contract")
    result: dict[str, object] = {
        "date": time.strftime("%Y-%m-%d"), "host": platform.node(), "cpus": __import__("os").cpu_count(),
        "gpu": torch.cuda.get_device_name(0) if gpu else None, "torch": torch.__version__,
    }
    result["build_plain"] = build_times(args.builds, arch, work / "contract")
    result["build_torch_header"] = (torch_header_build_time(arch, work / "contract", args.torch_header_builds)
                                    if args.torch_header_builds else {"n": 0, "skipped": True})

    if gpu:
        from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
        from engine.evaluate.native import NativeForward

        with Evaluator(spec, work, EvalSettings(device=args.device), cache_dir=work / "cache") as ev:
            cand = Candidate("known", CandidateKind.CUDA, KERNEL.read_text())
            t0 = time.perf_counter()
            [o] = ev.evaluate([cand])
            wall = time.perf_counter() - t0
            assert o.valid, o.reason
            from engine.evaluate.build import build_one

            lib = build_one(cand, ev.build_config).artifact
        result["evaluation"] = {
            "wall_s": wall, "build_s": o.build_s, "verify_s": o.verify_s, "time_s": o.time_s,
            "candidate_median_ms": o.candidate.median_ms, "reference_median_ms": o.reference.median_ms,
            "candidate_spread": o.candidate.spread, "trials": o.candidate.trials,
            "kernel_time_in_timing_s": (o.candidate.median_ms + o.reference.median_ms) * o.candidate.trials / 1e3,
        }
        # Independent measurement of the same kernel: triton's do_bench (CUDA events, its own L2 flush).
        import triton.testing

        from engine.task.contract import contract_layout

        torch.manual_seed(0)
        module = __import__("importlib").import_module
        task = module("importlib.util").spec_from_file_location("t", TASK)
        mod = module("importlib.util").module_from_spec(task)
        task.loader.exec_module(mod)
        model = mod.Model(*mod.get_init_inputs()).cuda()
        x = mod.get_inputs()[0].cuda()
        native = NativeForward(lib, contract_layout(spec))
        state = dict(model.state_dict())
        fn = lambda: native([x], state, {"scale": model.scale})  # noqa: E731
        ref = lambda: model(x)  # noqa: E731
        result["do_bench"] = {
            "candidate_median_ms": triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median"),
            "reference_median_ms": triton.testing.do_bench(ref, warmup=25, rep=200, return_mode="median"),
        }
    Path(args.out).write_text(json.dumps(result, indent=2))

    bp, bt = result["build_plain"], result["build_torch_header"]
    print(f"{'measure':<48} {'value':>12}")
    label = f"build, contract .cu alone (median of {bp['n']})"
    print(f"{label:<48} {bp['median_s']:>10.2f} s")
    if "median_s" in bt:
        label = f"compile with torch/extension.h (median of {bt['n']})"
        print(f"{label:<48} {bt['median_s']:>10.2f} s")
    if gpu:
        e, d = result["evaluation"], result["do_bench"]
        print(f"{'evaluation wall (build+verify+time)':<48} {e['wall_s']:>10.2f} s")
        print(f"{'  verify (5 trials)':<48} {e['verify_s']:>10.2f} s")
        print(f"{'  time (100 interleaved trials)':<48} {e['time_s']:>10.2f} s")
        print(f"{'  of which kernels ran':<48} {e['kernel_time_in_timing_s']:>10.3f} s")
        print(f"{'candidate median: evaluator':<48} {e['candidate_median_ms']:>9.4f} ms")
        print(f"{'candidate median: triton do_bench':<48} {d['candidate_median_ms']:>9.4f} ms")
        print(f"{'reference median: evaluator':<48} {e['reference_median_ms']:>9.4f} ms")
        print(f"{'reference median: triton do_bench':<48} {d['reference_median_ms']:>9.4f} ms")


if __name__ == "__main__":
    main()
