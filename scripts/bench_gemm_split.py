"""The 3xTF32 split GEMM on a GPU: accuracy against fp64 next to cuBLAS SGEMM, and speed against eager.

Two steps, so that the GPU call only builds and runs (docs/bench/gemm-split-h200/README.md has the commands):

  prepare DIR [--kb KB_DIR]   on any machine: task files (synthetic shapes, the suite's GEMM-bound tasks, and
                              optionally a folder of KernelBench-style tasks), each lowered and generated as the
                              expert backend does (the split GEMM in both forms, the strict-fp32 cuBLASLt SGEMM
                              library candidate, torch.compile for some), contracts and a manifest.json
  run DIR --out OUT           on the GPU: builds every candidate with the evaluator's own build, then
                              1. accuracy: the split product, cuBLAS SGEMM and plain TF32 against a float64
                                 reference, over K 256..32768, operand scales 1e-3..1e3 and cancelling inputs;
                              2. speed and the strict check: each task through the evaluator's own checker
                                 (the strict fp32 policy on 5 trials and the off-distribution variants; each
                                 candidate in a sandboxed runner, the reference timed by the checker, L2
                                 flushed, CUDA events, medians), eager being the reference;
                              writes OUT/gemm_split.json as it goes and prints the tables last.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

# --- the cases -----------------------------------------------------------------------------------------------

MATMUL_TASK = '''"""{doc}"""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    return [torch.randn({a}), torch.randn({b})]


def get_init_inputs():
    return []
'''

LINEAR_RELU_TASK = '''"""Linear {fin} -> {fout} with bias, then ReLU, on {rows} rows (cuBLASLt's bias+ReLU epilogue)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear({fin}, {fout})

    def forward(self, x):
        return torch.relu(self.fc(x))


def get_inputs():
    return [torch.randn({rows}, {fin})]


def get_init_inputs():
    return []
'''

# (name, group, A shape, B shape): square, tall-skinny, large-K and batched products.
SHAPES = [
    ("square_512", "square", (512, 512), (512, 512)),
    ("square_1024", "square", (1024, 1024), (1024, 1024)),
    ("square_2048", "square", (2048, 2048), (2048, 2048)),
    ("square_4096", "square", (4096, 4096), (4096, 4096)),
    ("tall_65536x1024x256", "tall-skinny", (65536, 1024), (1024, 256)),
    ("tall_32768x512x512", "tall-skinny", (32768, 512), (512, 512)),
    ("largek_1024x32768x1024", "large-K", (1024, 32768), (32768, 1024)),
    ("largek_256x65536x256", "large-K", (256, 65536), (65536, 256)),
    ("bmm_32x1024", "batched", (32, 1024, 1024), (32, 1024, 1024)),
    ("bmm_256x256", "batched", (256, 256, 256), (256, 256, 256)),
]
ACC_K = (256, 1024, 4096, 16384, 32768)
ACC_MN = 512
SUITE = ["level1/01_gemm_square.py", "level1/02_batched_matmul.py", "level1/03_gemm_transposed_b.py",
         "level2/01_linear_relu_scale.py", "level2/02_linear_gelu_residual.py", "level2/03_linear_softmax.py",
         "level2/04_linear_layernorm.py", "level2/07_matmul_sigmoid_sum.py", "level2/08_linear_dropout_tanh_clamp.py",
         "level2/09_gemm_scale_swish.py", "level2/10_linear_maxout_center_gelu.py", "level3/01_mlp.py",
         "level3/02_self_attention.py"]
# KernelBench-style tasks (from --kb) whose time is in matrix products; the rest of such a folder is not GEMM-bound.
KB = ["level1/2_Standard_matrix_multiplication_.py", "level1/97_ScaledDotProductAttention.py",
      "level2/14_Gemm_Divide_Sum_Scaling.py", "level2/30_Gemm_GroupNorm_Hardtanh.py",
      "level2/40_Matmul_Scaling_ResidualAdd.py", "level2/56_Matmul_Sigmoid_Sum.py",
      "level2/66_Matmul_Dropout_Softmax.py",
      "level2/76_Gemm_Add_ReLU.py", "level2/84_Gemm_BatchNorm_Scaling_Softmax.py", "level2/86_Matmul_Divide_GELU.py",
      "level2/88_Gemm_GroupNorm_Swish_Multiply_Swish.py", "level2/9_Matmul_Subtract_Multiply_ReLU.py",
      "level3/3_DeepNarrowMLP.py", "level3/31_VisionAttention.py", "level3/50_ReLUSelfAttention.py"]
# Plain TF32 as a control (the strict check should refuse it) on a few tasks of each kind.
TF32_CONTROL = {"square_4096", "linear_relu_8192x4096x4096", "level2/01_linear_relu_scale.py",
                "level2/09_gemm_scale_swish.py", "level3/01_mlp.py", "level2/76_Gemm_Add_ReLU.py",
                "level1/2_Standard_matrix_multiplication_.py"}
# torch.compile (mode default) where Inductor has an epilogue to fuse (a bare product is cuBLAS's there too).
COMPILE_FOR = {"linear_relu_8192x4096x4096", "level2/01_linear_relu_scale.py", "level3/01_mlp.py"}


def _variants() -> dict[str, Any]:
    from engine.agents.expert.codegen.variants import GemmParams, Variant

    return {"split": Variant(gemm=GemmParams("split_tf32")),
            "split3k": Variant(gemm=GemmParams("split_tf32", form="3k")),
            "sgemm": Variant(gemm=GemmParams("cublaslt", 0))}


def prepare(root: Path, kb: Path | None, repo: Path) -> None:
    from engine.agents.expert.codegen.cuda_program import cuda_source
    from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
    from engine.agents.expert.codegen.variants import GemmParams, Variant
    from engine.agents.expert.lowering import lower
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    tasks = root / "tasks"
    if root.exists():
        shutil.rmtree(root)
    tasks.mkdir(parents=True)
    files: list[tuple[str, str, Path]] = []
    for name, group, a, b in SHAPES:
        p = tasks / f"{name}.py"
        p.write_text(MATMUL_TASK.format(doc=f"{group} product {a} @ {b}", a=", ".join(map(str, a)),
                                        b=", ".join(map(str, b))))
        files.append((name, group, p))
    p = tasks / "linear_relu_8192x4096x4096.py"
    p.write_text(LINEAR_RELU_TASK.format(rows=8192, fin=4096, fout=4096))
    files.append(("linear_relu_8192x4096x4096", "epilogue", p))
    for k in ACC_K:
        p = tasks / f"acc_k{k}.py"
        p.write_text(MATMUL_TASK.format(doc=f"accuracy case, K = {k}", a=f"{ACC_MN}, {k}", b=f"{k}, {ACC_MN}"))
        files.append((f"acc_k{k}", "accuracy", p))
    for rel in SUITE:
        dst = tasks / "suite" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo / "bench" / rel, dst)
        files.append((rel, "suite", dst))
    if kb is not None:
        for rel in KB:
            f = kb / rel
            if not f.exists():
                continue
            dst = tasks / "kb" / f.parent.name / f.name
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, dst)
            files.append((f"{f.parent.name}/{f.name}", "kernelbench-dev", dst))
    cases = []
    for name, group, path in files:
        try:
            spec = load_task(path)
            prog = lower(spec)
        except Exception as e:  # a task outside the generators (Unsupported, ...) is reported
            print(f"skip {name}: {type(e).__name__}: {str(e)[:120]}")
            continue
        if not prog.gemms:
            print(f"skip {name}: no matrix product after lowering")
            continue
        flops = sum(g.flops for g in prog.gemms)
        cdir = root / "contracts" / name.replace("/", "__")
        write_contract(spec, cdir)
        cands = []
        for vid, v in _variants().items():
            if group == "accuracy" and vid == "sgemm":
                continue
            strategy = "T.split_tf32" if vid.startswith("split") else "R.library_epilogue"
            src = cuda_source(spec, prog, v, strategy=strategy)
            f = cdir / f"{vid}.cu"
            f.write_text(src)
            cands.append({"id": vid, "kind": "cuda", "file": str(f.relative_to(root))})
        if name in TF32_CONTROL:
            # Plain TF32 (the tf32 policy's library call) as a control: what the strict check makes of it.
            f = cdir / "tf32.cu"
            f.write_text(cuda_source(spec, prog, Variant(gemm=GemmParams("cublaslt", 0)),
                                     strategy="T.tf32_tensor_cores", tf32=True))
            cands.append({"id": "tf32", "kind": "cuda", "file": str(f.relative_to(root))})
        if name in COMPILE_FOR:
            f = cdir / "compile.py"
            f.write_text(modelnew_source(spec, TorchVariant("compile", "default"), strategy="R.torch_compile"))
            cands.append({"id": "compile", "kind": "modelnew", "file": str(f.relative_to(root))})
        shapes = [f"{g.m}x{g.n}x{g.k}" + (f" batch {'x'.join(map(str, g.batch))}" if g.batch else "")
                  for g in prog.gemms]
        cases.append({"name": name, "group": group, "task": str(path.relative_to(root)),
                      "contract": str(cdir.relative_to(root)), "layout": contract_layout(spec), "gflop": flops / 1e9,
                      "gemms": shapes, "stages": len(prog.stages), "candidates": cands})
        print(f"prepared {name}: {len(cands)} candidates, {flops / 1e9:.3g} GFLOP in {len(prog.gemms)} product(s)")
    (root / "manifest.json").write_text(json.dumps({"cases": cases}, indent=1))


# --- on the GPU ------------------------------------------------------------------------------------------------

def _library_env() -> None:
    """cuBLAS headers and libraries for nvcc: the toolkit's, else the nvidia-cublas wheel torch depends on."""
    if Path("/usr/local/cuda/include/cublas_v2.h").exists():
        return
    for p in sys.path:
        for sub in ("cu13", "cublas", "cu12"):
            inc = Path(p) / "nvidia" / sub / "include"
            if (inc / "cublas_v2.h").exists():
                lib = inc.parent / "lib"
                for so in ("libcublas", "libcublasLt"):
                    link = lib / f"{so}.so"
                    versioned = sorted(lib.glob(f"{so}.so.*"))
                    if not link.exists() and versioned:
                        tmp = Path("/tmp/hiera-cublas-lib")
                        tmp.mkdir(exist_ok=True)
                        if not (tmp / f"{so}.so").exists():
                            (tmp / f"{so}.so").symlink_to(versioned[0])
                        lib = tmp
                os.environ["CPATH"] = f"{inc}:{os.environ.get('CPATH', '')}"
                os.environ["LIBRARY_PATH"] = f"{lib}:{inc.parent / 'lib'}:{os.environ.get('LIBRARY_PATH', '')}"
                return


def build_all(root: Path, cases: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind

    jobs = []
    for c in cases:
        cfg = BuildConfig(root / c["contract"], root / "build-cache", cuda_arch="90")
        for cand in c["candidates"]:
            if cand["kind"] == "cuda":
                src = (root / cand["file"]).read_text()
                jobs.append((c["name"], cand["id"], Candidate(cand["id"], CandidateKind.CUDA, src), cfg))
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max(os.cpu_count() or 1, 1)) as pool:
        results = list(pool.map(lambda j: build_one(j[2], j[3]), jobs))
    built = {}
    for (case, cid, _, _), r in zip(jobs, results):
        if r.ok:
            built[(case, cid)] = r.artifact
        else:
            print(f"BUILD FAILED {case} {cid}: {r.log[:600]}")
    print(f"built {len(built)} of {len(jobs)} candidates in {time.perf_counter() - t0:.1f} s")
    return built


def _errors(c: Any, ref: Any, bound: Any) -> dict[str, float]:
    import torch

    d = (c.double() - ref).abs()
    return {"norm": float(torch.linalg.norm(d) / torch.linalg.norm(ref)),
            "max": float(d.max() / ref.abs().max()),
            "comp": float((d / bound.clamp_min(1e-300)).max())}


def _inputs(kind: str, k: int, gen: Any) -> tuple[Any, Any]:
    import torch

    m = n = ACC_MN
    dev = "cuda"

    def randn(*s: int) -> Any:
        return torch.randn(*s, device=dev, generator=gen)

    if kind.startswith("randn"):
        sa, sb = {"randn": (1.0, 1.0), "randn 1e-3": (1e-3, 1e-3), "randn 1e3": (1e3, 1e3),
                  "randn 1e-3 x 1e3": (1e-3, 1e3)}[kind]
        return randn(m, k) * sa, randn(k, n) * sb
    if kind == "uniform":  # all positive: no cancellation, the largest sums
        return torch.rand(m, k, device=dev, generator=gen), torch.rand(k, n, device=dev, generator=gen)
    if kind == "cancel 1e-3":  # [X | X] @ [Y ; -Y + 1e-3 Z]: the result is 1000x smaller than its terms
        x, y = randn(m, k // 2), randn(k // 2, n)
        return torch.cat([x, x], 1), torch.cat([y, -y + 1e-3 * randn(k // 2, n)], 0)
    if kind == "offset 100":  # rows 100 + noise against zero-mean columns: the 100 * sum(b) part cancels
        b = randn(k, n)
        return 100.0 + randn(m, k), b - b.mean(0, keepdim=True)
    raise ValueError(kind)


ACC_KINDS = ("randn", "randn 1e-3", "randn 1e3", "randn 1e-3 x 1e3", "uniform", "cancel 1e-3", "offset 100")


def accuracy(root: Path, cases: list[dict[str, Any]], built: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    import torch

    from engine.evaluate.native import NativeForward

    rows = []
    gen = torch.Generator(device="cuda").manual_seed(2026)
    for c in cases:
        if c["group"] != "accuracy":
            continue
        k = int(c["name"][len("acc_k"):])
        fns = {cid: NativeForward(built[(c["name"], cid)], c["layout"])
               for cid in ("split", "split3k") if (c["name"], cid) in built}
        for kind in ACC_KINDS:
            a, b = _inputs(kind, k, gen)
            ref = a.double() @ b.double()
            bound = a.double().abs() @ b.double().abs()
            torch.backends.cuda.matmul.allow_tf32 = False
            sgemm = a @ b
            torch.backends.cuda.matmul.allow_tf32 = True
            tf32 = a @ b
            torch.backends.cuda.matmul.allow_tf32 = False
            row: dict[str, Any] = {"k": k, "inputs": kind, "sgemm": _errors(sgemm, ref, bound),
                                   "tf32": _errors(tf32, ref, bound)}
            for cid, fn in fns.items():
                out = fn([a, b], {}, {})
                torch.cuda.synchronize()
                row[cid] = _errors(out, ref, bound)
                # The strict policy's check, against the fp32 reference as the evaluator does it.
                row[cid]["strict_ok"] = bool(torch.allclose(out.double(), sgemm.double(), atol=1e-4, rtol=1e-4))
            row["tf32"]["strict_ok"] = bool(torch.allclose(tf32.double(), sgemm.double(), atol=1e-4, rtol=1e-4))
            rows.append(row)
    return rows


def speed(root: Path, cases: list[dict[str, Any]], built: dict[tuple[str, str], str], deadline: float,
          results: dict[str, Any], save: Any) -> None:
    import torch

    from engine.evaluate.checker import Checker
    from engine.evaluate.requests import EvalRequest

    for c in cases:
        if c["group"] == "accuracy":
            continue
        if time.perf_counter() > deadline:
            print(f"time budget spent: {c['name']} and later cases not run")
            results["not_run"].append(c["name"])
            continue
        t0 = time.perf_counter()
        big = c["gflop"] > 200
        entry: dict[str, Any] = {"name": c["name"], "group": c["group"], "gflop": c["gflop"], "gemms": c["gemms"],
                                 "candidates": {}}
        try:
            # The trusted checker the evaluator's worker runs: each candidate in its own sandboxed runner.
            sess = Checker(str(root / c["task"]), "cuda:0", "fp32", str(root / "checker" / c["name"]))
        except Exception as e:  # reported per case
            entry["error"] = f"{type(e).__name__}: {str(e)[:300]}"
            results["speed"].append(entry)
            continue
        for cand in c["candidates"]:
            art = built.get((c["name"], cand["id"])) if cand["kind"] == "cuda" else str(root / cand["file"])
            if art is None:
                entry["candidates"][cand["id"]] = {"status": "build_failed"}
                continue
            req = EvalRequest(f"{c['name']}:{cand['id']}", cand["kind"], art,
                              c["layout"] if cand["kind"] == "cuda" else None, correctness_trials=5,
                              timing_trials=15 if big else 30)
            rep = sess.evaluate(req)
            e: dict[str, Any] = {"status": rep.status.value, "reason": rep.reason[:300]}
            if rep.candidate is not None and rep.reference is not None:
                e.update(ms=rep.candidate.median_ms, eager_ms=rep.reference.median_ms,
                         speedup=rep.reference.median_ms / rep.candidate.median_ms,
                         spread=rep.candidate.spread, eager_spread=rep.reference.spread)
            if rep.error is not None:
                e["max_abs"] = rep.error.max_abs
            entry["candidates"][cand["id"]] = e
        entry["seconds"] = time.perf_counter() - t0
        sess.close()
        del sess  # its cached inputs and references hold device memory
        gc.collect()
        torch.cuda.empty_cache()
        results["speed"].append(entry)
        save()
        print(f"{c['name']}: " + ", ".join(f"{k} {v.get('speedup', 0):.2f}x ({v['status']})"
                                           for k, v in entry["candidates"].items()) + f"  [{entry['seconds']:.0f} s]")


def accumulation_probe() -> list[dict[str, Any]]:
    """The tensor cores' fp32 accumulation alone: operands that are TF32 numbers already (so every product is
    exact and no input is rounded), multiplied by cuBLAS with TF32 allowed and by SGEMM, against float64."""
    import torch

    rows = []
    gen = torch.Generator(device="cuda").manual_seed(11)
    for kind in ("randn", "uniform"):
        for k in ACC_K:
            a, b = _inputs(kind, k, gen)
            a = (a.view(torch.int32) & ~0x1FFF).view(torch.float32)  # exact TF32 numbers
            b = (b.view(torch.int32) & ~0x1FFF).view(torch.float32)
            ref = a.double() @ b.double()
            bound = a.double().abs() @ b.double().abs()
            row: dict[str, Any] = {"inputs": kind, "k": k}
            for name, tf32 in (("sgemm", False), ("tf32_cores", True)):
                torch.backends.cuda.matmul.allow_tf32 = tf32
                row[name] = _errors(a @ b, ref, bound)
            torch.backends.cuda.matmul.allow_tf32 = False
            rows.append(row)
    return rows


def table(results: dict[str, Any]) -> str:
    out = ["", "== accuracy against float64 (M = N = 512): error of the split over SGEMM's, per metric",
           f"{'K':>6} {'inputs':<18} {'sgemm norm':>10} {'split norm':>10} {'3k norm':>9} {'tf32 norm':>9} "
           f"{'ratio norm':>10} {'ratio max':>9} {'ratio comp':>10} {'strict':>6}"]
    for r in results["accuracy"]:
        s, sp = r["sgemm"], r.get("split", {})
        ratio = {m: sp.get(m, float("nan")) / s[m] if s[m] > 0 else float("nan") for m in ("norm", "max", "comp")}
        out.append(f"{r['k']:>6} {r['inputs']:<18} {s['norm']:>10.2e} {sp.get('norm', float('nan')):>10.2e} "
                   f"{r.get('split3k', {}).get('norm', float('nan')):>9.2e} {r['tf32']['norm']:>9.2e} "
                   f"{ratio['norm']:>10.2f} {ratio['max']:>9.2f} {ratio['comp']:>10.2f} "
                   f"{'ok' if sp.get('strict_ok') else 'FAIL':>6}")
    if results.get("accumulation"):
        out += ["", "== accumulation alone (operands exact TF32 numbers): normwise error against float64",
                f"{'inputs':<8} {'K':>6} {'sgemm':>10} {'tf32 cores':>10} {'ratio':>7}"]
        out += [f"{r['inputs']:<8} {r['k']:>6} {r['sgemm']['norm']:>10.2e} {r['tf32_cores']['norm']:>10.2e} "
                f"{r['tf32_cores']['norm'] / r['sgemm']['norm']:>7.1f}" for r in results["accumulation"]]
    out += ["", "== speed (strict fp32, evaluator's checker: 5 trials and the off-distribution variants, "
                "sandboxed runner, L2 flushed, medians)",
            f"{'case':<42} {'GFLOP':>7} {'eager ms':>9} {'split':>7} {'3k':>7} {'sgemm':>7} {'compile':>7} "
            f"{'tf32':>7}  status"]
    for e in results["speed"]:
        cs = e["candidates"]
        eager = next((v["eager_ms"] for v in cs.values() if "eager_ms" in v), float("nan"))

        def sp(cid: str, cs: dict[str, Any] = cs) -> str:
            v = cs.get(cid)
            return f"{v['speedup']:.2f}x" if v and "speedup" in v else ("-" if v is None else v["status"][:7])

        bad = [f"{k}: {v['status']}" for k, v in cs.items() if v["status"] != "valid"]
        out.append(f"{e['name'][:42]:<42} {e['gflop']:>7.1f} {eager:>9.3f} {sp('split'):>7} {sp('split3k'):>7} "
                   f"{sp('sgemm'):>7} {sp('compile'):>7} {sp('tf32'):>7}  {'; '.join(bad) or 'all valid'}"
                   + (f" {e['error']}" if "error" in e else ""))
    return "\n".join(out)


def run(root: Path, out: Path, budget_s: float, groups: set[str] | None, skip_accuracy: bool,
        manifest: str = "manifest.json") -> None:
    import torch

    t_start = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    cases = json.loads((root / manifest).read_text())["cases"]
    if groups:
        cases = [c for c in cases if c["group"] in groups or (c["group"] == "accuracy" and not skip_accuracy)]
    if skip_accuracy:
        cases = [c for c in cases if c["group"] != "accuracy"]
    _library_env()
    props = torch.cuda.get_device_properties(0)
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "device": props.name,
                               "torch": torch.__version__, "accuracy": [], "speed": [], "not_run": []}

    def save() -> None:
        (out / "gemm_split.json").write_text(json.dumps(results, indent=1))

    built = build_all(root, cases)
    results["built"] = len(built)
    results["accuracy"] = accuracy(root, cases, built)
    results["accumulation"] = accumulation_probe()
    save()
    speed(root, cases, built, t_start + budget_s, results, save)
    results["seconds"] = time.perf_counter() - t_start
    save()
    print(table(results))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir", type=Path)
    p.add_argument("--kb", type=Path, default=None, help="a folder of level*/ task files to add")
    r = sub.add_parser("run")
    r.add_argument("dir", type=Path)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--budget-s", type=float, default=300.0, help="no new speed case starts after this")
    r.add_argument("--groups", default="", help="comma-separated case groups to run (default: all)")
    r.add_argument("--skip-accuracy", action="store_true")
    r.add_argument("--manifest", default="manifest.json", help="the cases file inside DIR")
    t = sub.add_parser("table")
    t.add_argument("json", type=Path)
    a = ap.parse_args()
    if a.cmd == "prepare":
        prepare(a.dir, a.kb, Path(__file__).resolve().parent.parent)
    elif a.cmd == "run":
        run(a.dir, a.out, a.budget_s, set(filter(None, a.groups.split(","))) or None, a.skip_accuracy,
            a.manifest)
    else:
        print(table(json.loads(a.json.read_text())))


if __name__ == "__main__":
    main()
