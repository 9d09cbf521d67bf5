"""The generators at bf16 and fp16 (issue 43): storage widened to fp32 on load and rounded on store exactly as
PyTorch converts (every one of the 65 536 bit patterns; CPU_HALF with the compiler's _Float16 and with the
portable fallback), and the generated C++ of bf16 and fp16 modules valid through the evaluator at their own
precision."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import torch

from contracts.precision import module_precision
from contracts.vocabulary import Space
from engine.agents.expert.codegen.cpu import CpuParams, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.storage import CPU_HALF
from engine.agents.expert.codegen.variants import FlatParams, GemmParams, RowParams, Variant
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.outcome import Precision
from engine.task.contract import write_contract
from engine.task.spec import load_task
from tests.nvcc_kit import assert_all_compile, compile_command, cublas_include, nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
CXX = shutil.which("g++") or shutil.which("c++")

HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <math.h>
%HALF%
// argv: none. stdin: n floats' bits (uint32); stdout: for every 16-bit pattern its bf16 and fp16 widening, then
// for every input float its bf16 and fp16 rounding.
int main() {
    for (uint32_t h = 0; h < 65536; ++h) {
        const float b = hiera_ld(hiera_bf16{(uint16_t)h}), f = hiera_ld(hiera_half{(uint16_t)h});
        printf("%08x %08x\n", __builtin_bit_cast(uint32_t, b), __builtin_bit_cast(uint32_t, f));
    }
    uint32_t u;
    while (scanf("%x", &u) == 1) {
        const float x = __builtin_bit_cast(float, u);
        printf("%04x %04x\n", hiera_to_bf16(x).bits, hiera_to_half(x).bits);
    }
    return 0;
}
"""


def _floats() -> torch.Tensor:
    """Rounding cases: every bf16 and fp16 value and the midpoints next to them, random floats, edges."""
    g = torch.Generator().manual_seed(0)
    halves = torch.arange(65536, dtype=torch.int32).to(torch.int16)
    grid = torch.cat([halves.view(torch.bfloat16).float(), halves.view(torch.float16).float()])
    grid = grid[torch.isfinite(grid)]
    mids = torch.cat([grid * (1 + 2.0 ** -9), grid * (1 + 2.0 ** -12), grid * (1 - 2.0 ** -12),
                      grid.nextafter(grid * 2)])
    rand = torch.randn(20000, generator=g) * torch.exp2(torch.randint(-30, 30, (20000,), generator=g).float())
    edges = torch.tensor([0.0, -0.0, 65504.0, 65519.0, 65520.0, 1e30, -1e-30, 6e-8, 3e-8, 2.9e-8, float("inf")])
    return torch.cat([grid, mids, rand, edges]).float()


@pytest.mark.skipif(CXX is None, reason="no C++ compiler")
@pytest.mark.parametrize("soft", [False, True], ids=["Float16", "portable"])
def test_storage_conversions_are_pytorchs(soft: bool, tmp_path: Path) -> None:
    src = tmp_path / "h.cpp"
    src.write_text(HARNESS.replace("%HALF%", CPU_HALF))
    exe = tmp_path / "h"
    flags = ["-DHIERA_SOFT_HALF"] if soft else []
    subprocess.run([CXX, "-O2", "-march=native", "-std=c++17", *flags, str(src), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    xs = _floats()
    bits = xs.view(torch.int32).tolist()
    out = subprocess.run([str(exe)], input="\n".join(f"{b & 0xffffffff:x}" for b in bits), capture_output=True,
                         text=True, check=True).stdout.split("\n")
    widened = torch.tensor([[int(w, 16) for w in ln.split()] for ln in out[:65536]], dtype=torch.int64)
    halves = torch.arange(65536, dtype=torch.int32).to(torch.int16)
    for col, dt in ((0, torch.bfloat16), (1, torch.float16)):
        want = halves.view(dt).float()
        got = widened[:, col].to(torch.int32).view(torch.float32)
        same = (got == want) | (torch.isnan(got) & torch.isnan(want))
        assert bool(same.all()), f"{dt}: {int((~same).sum())} patterns widen differently"
    rounded = torch.tensor([[int(w, 16) for w in ln.split()] for ln in out[65536:] if ln], dtype=torch.int32)
    for col, dt in ((0, torch.bfloat16), (1, torch.float16)):
        want = xs.to(dt)
        got = rounded[:, col].to(torch.int16).view(dt)
        same = (got.view(torch.int16) == want.view(torch.int16)) | (torch.isnan(got) & torch.isnan(want))
        bad = (~same).nonzero().flatten()[:5].tolist()
        assert not bad, f"{dt}: {xs[bad].tolist()} round to {got[bad].tolist()}, torch {want[bad].tolist()}"


LOW = [("expert_bf16_linear_relu.py", Precision.BF16), ("expert_bf16_layernorm.py", Precision.BF16),
       ("expert_fp16_softmax_chain.py", Precision.FP16)]


@pytest.mark.parametrize(("task", "precision"), LOW, ids=[t for t, _ in LOW])
def test_cpu_candidate_at_the_modules_precision_is_valid(task: str, precision: Precision, tmp_path: Path) -> None:
    """A bf16 product with its epilogue, a bf16 layer norm, an fp16 softmax chain: the generated C++ (loads
    widened, fp32 arithmetic and accumulation, stores rounded) is valid at the module's own precision, the
    accumulation trial included."""
    s = load_task(TASKS / task)
    assert module_precision(s).policy == precision.value
    src = cpu_source(s, lower(s), CpuParams(), strategy="R.fuse_pointwise")
    assert "hiera_ld(" in src and ("hiera_to_bf16(" in src or "hiera_to_half(" in src)
    cand = Candidate("c0", CandidateKind.CPP, src, Space.PURE_CUDA, origin="expert:cpu")
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", precision=precision, timing_trials=10)) as ev:
        (out,) = ev.evaluate([cand])
    assert out.valid, out.reason
    assert "inputs built to expose low-precision accumulation" in out.reason and out.precision is precision


def _cuda_variants() -> list[Variant]:
    out = [Variant(FlatParams(256, 4, 2), RowParams(), GemmParams("tiled")),
           Variant(FlatParams(256, 4, 2), RowParams(), GemmParams("tiled"), transpose=None),
           Variant(FlatParams(128, 1, 1), RowParams(vec=1, cache=False, scale=2.0),
                   GemmParams("tiled", tile=(64, 64, 8, 4, 4), fuse_epilogue=False)),
           Variant(FlatParams(256, 2, 2), RowParams(split=4), GemmParams("tiled"))]
    if cublas_include() is not None:
        out += [Variant(FlatParams(), RowParams(threads=32, rows_per_block=4), GemmParams("cublas")),
                Variant(FlatParams(), RowParams(), GemmParams("cublaslt", 1)),
                Variant(FlatParams(), RowParams(cache=False), GemmParams("cublaslt", 0, lt_epilogue=False))]
    return out


@pytest.mark.skipif(nvcc() is None, reason="nvcc is not installed here")
def test_cuda_sources_at_the_modules_precision_compile(tmp_path: Path) -> None:
    """Pointwise (packed-half vectors), row reductions (registers, streamed, split), the tiled transpose, the tiled
    product and, where
    cuBLAS's headers are, cublasGemmEx and cuBLASLt on bf16/fp16 operands: every variant compiles for sm_90
    without a warning."""
    jobs = []
    for task, precision in [*LOW, ("expert_autocast_linear_gelu.py", Precision.BF16),
                            ("expert_bf16_permute_bias_relu.py", Precision.BF16)]:
        s = load_task(TASKS / task)
        assert module_precision(s).policy == precision.value
        d = tmp_path / s.name
        write_contract(s, d)
        prog = lower(s)
        seen = set()
        for i, v in enumerate(_cuda_variants()):
            src = cuda_source(s, prog, v, strategy="test", policy=precision.value)
            if src in seen:
                continue
            seen.add(src)
            f = d / f"v{i}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


def test_half_code_is_what_the_precision_asks_for() -> None:
    """The bf16 product multiplies halves with fp32 accumulation and no reduced-precision reductions; the fp16
    softmax loads packed halves; the autocast module's fp32 product runs on bf16 tensor cores, as autocast's."""
    s = load_task(TASKS / "expert_bf16_linear_relu.py")
    src = cuda_source(s, lower(s), Variant(gemm=GemmParams("cublas")), strategy="t", policy="bf16")
    assert "cublasGemmEx(" in src and "CUDA_R_16BF" in src and "CUBLAS_COMPUTE_32F," in src
    assert "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION" in src and "__nv_bfloat16* p_tmp0" in src
    lt = cuda_source(s, lower(s), Variant(gemm=GemmParams("cublaslt", 0)), strategy="t", policy="bf16")
    assert "CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE" in lt and "CUBLASLT_EPILOGUE_RELU_BIAS" in lt
    s = load_task(TASKS / "expert_fp16_softmax_chain.py")
    src = cuda_source(s, lower(s), Variant(row=RowParams(threads=32)), strategy="t", policy="fp16")
    assert "hiera_ld4(&p_x[" in src and "const __half* __restrict__ p_x" in src
    s = load_task(TASKS / "expert_autocast_linear_gelu.py")
    src = cuda_source(s, lower(s), Variant(gemm=GemmParams("cublas")), strategy="t", policy="bf16")
    assert "CUBLAS_COMPUTE_32F_FAST_16BF" in src and "cuda_bf16.h" not in src
    with pytest.raises(ValueError, match="3xTF32"):
        cuda_source(s, lower(s), Variant(gemm=GemmParams("split_tf32")), strategy="t", policy="bf16")
