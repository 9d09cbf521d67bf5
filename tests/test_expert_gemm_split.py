"""The 3xTF32 split GEMM (codegen/gemm_split.py), checked without a GPU.

The TF32 rounding is compiled and run on the CPU; whole candidates run under the CPU emulation of cuBLASLt
(tests/cuda_emu.py, tests/data/cublaslt_emu.h), whose FAST_TF32 mode truncates operands to TF32 as the tensor
cores do, verified by the real evaluator under the strict fp32 policy: the split passes, plain TF32 and a
split missing its small terms fail. The planner's choice and the nvcc build are checked too.
"""

from __future__ import annotations

import re
import struct
import subprocess
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert import ExpertBackend
from engine.agents.expert.codegen import gemm_split
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.variants import GemmParams, Variant
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.build import find_cxx
from engine.evaluate.outcome import Precision, Status
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec, load_task
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp
from tests.nvcc_kit import assert_all_compile, compile_command, cublas_include, nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
SPLIT = GemmParams("split_tf32")

# A batched product with A read transposed, K = 37 (no float4, operands not 256-byte aligned in the split copy),
# and one whose B is shared along one batch dim only (a stride-0 batch dim: B's split copy is per batch).
BMM_TRANSPOSED_A = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.sigmoid(torch.matmul(a.transpose(1, 2), b) * 0.5)


def get_inputs():
    return [torch.randn(3, 37, 20), torch.randn(3, 37, 28)]


def get_init_inputs():
    return []
'''
BROADCAST_B = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(2, 3, 20, 36), torch.randn(3, 36, 28)]


def get_init_inputs():
    return []
'''


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def _task(tmp_path: Path, name: str, src: str) -> TaskSpec:
    p = tmp_path / name
    p.write_text(src)
    return load_task(p)


def ctx_for(s: TaskSpec, precision: Precision = Precision.FP32) -> Context:
    return Context(s, Path("/nonexistent"), "cuda:0", {}, precision, 1, 3, tuple(Space), None, None, None)


# --- the split itself ----------------------------------------------------------------------------------------

_ROUND_MAIN = r"""
#include <cstdio>
#include <cstring>
#define __device__
#define __forceinline__ inline
static inline unsigned __float_as_uint(float x) { unsigned u; memcpy(&u, &x, 4); return u; }
static inline float __uint_as_float(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
%ROUND%
int main() {
    unsigned u;
    while (scanf("%x", &u) == 1) {
        float x = __uint_as_float(u), hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);
        printf("%08x %08x\n", __float_as_uint(hi), __float_as_uint(lo));
    }
}
"""


def _f(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def test_hi_and_lo_are_tf32_numbers_that_carry_22_bits_and_specials_pass(tmp_path: Path) -> None:
    src = tmp_path / "round.cpp"
    src.write_text(_ROUND_MAIN.replace("%ROUND%", gemm_split.TF32_ROUND))
    exe = tmp_path / "round"
    subprocess.run([find_cxx(), "-O2", str(src), "-o", str(exe)], check=True, capture_output=True, timeout=120)
    rng = np.random.default_rng(7)
    xs = list((rng.standard_normal(4000) * 10.0 ** rng.uniform(-30, 30, 4000)).astype(np.float32).view(np.uint32))
    specials = [0x7F800000, 0xFF800000, 0x7FC00001, 0x7F800001, 0x7F7FFFFF, 0x00000001, 0x3F801000, 0x3F803000]
    proc = subprocess.run([str(exe)], input="\n".join(f"{int(x):x}" for x in xs + specials), capture_output=True,
                          text=True, timeout=60, check=True)
    pairs = [tuple(int(w, 16) for w in ln.split()) for ln in proc.stdout.splitlines()]
    assert len(pairs) == len(xs) + len(specials)
    for x, (hi, lo) in zip(xs, pairs[:len(xs)]):
        assert hi & 0x1FFF == 0 and lo & 0x1FFF == 0  # both exact TF32 numbers: the tensor cores lose nothing
        fx, fhi, flo = _f(int(x)), _f(hi), _f(lo)
        assert abs(fx - fhi) <= 2.0 ** -11 * abs(fx)  # hi is x rounded to nearest at 11 significant bits
        assert abs(fx - (fhi + flo)) <= 2.0 ** -22 * abs(fx)  # hi + lo keep about 22 bits
    got = dict(zip(specials, pairs[len(xs):]))
    assert got[0x7F800000][0] == 0x7F800000 and got[0xFF800000][0] == 0xFF800000  # infinities pass
    assert got[0x7FC00001][0] == 0x7FC00001 and got[0x7F800001][0] == 0x7F800001  # NaNs stay NaN, payload kept
    assert got[0x7F7FFFFF][0] == 0x7F7FE000  # FLT_MAX does not round up to Inf
    assert got[0x3F801000][0] == 0x3F802000 and got[0x3F803000][0] == 0x3F804000  # ties away from zero


# --- whole candidates under the cuBLASLt emulation ---------------------------------------------------------

def _emulated(name: str, src: str) -> Candidate:
    return Candidate(name, CandidateKind.CPP, emulated_cpp(src), Space.CUDA_LIBRARIES, origin="test:emulated")


def test_split_candidates_pass_the_strict_check_where_plain_tf32_and_a_split_without_its_small_terms_fail(
        tmp_path: Path) -> None:
    s = spec("expert_linear_relu.py")  # x @ W^T + b, ReLU, * 0.5: B read transposed, bias+ReLU in the epilogue
    prog = lower(s)
    forms = [SPLIT, GemmParams("split_tf32", form="3k"), GemmParams("split_tf32", split_vec=False, lt_epilogue=False)]
    srcs = [cuda_source(s, prog, Variant(gemm=g), strategy="T.split_tf32") for g in forms]
    assert "CUBLASLT_EPILOGUE_RELU_BIAS" in srcs[0] and "CUBLASLT_EPILOGUE_RELU_BIAS" in srcs[1]
    # float4 split with a scalar twin for misaligned pointers; or the scalar split alone
    assert "hiera_stage0_split_scalar" in srcs[0] and "split_scalar" not in srcs[2]
    assert "CUBLASLT_EPILOGUE_BIAS" not in srcs[2]
    plain_tf32 = cuda_source(s, prog, Variant(gemm=GemmParams("cublaslt", 0)), strategy="T.tf32", tf32=True)
    # The same split with the small-terms product scaled to nothing: only hi*hi is left (TF32 accuracy).
    first = srcs[0].index("const float alpha = 1.0f, beta = 0.0f;")
    hi_only = srcs[0][:first] + srcs[0][first:].replace("alpha = 1.0f", "alpha = 0.0f", 1)
    cands = [_emulated(f"split{i}", src) for i, src in enumerate(srcs)]
    cands += [_emulated("tf32", plain_tf32), _emulated("hi_only", hi_only)]
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=3, min_call_limit_s=EMULATED_CALL_S)) as ev:
        outs = ev.evaluate(cands)
    assert all(o.status is Status.VALID for o in outs[:3]), [o.reason for o in outs[:3]]
    assert [o.status for o in outs[3:]] == [Status.INCORRECT] * 2, [o.reason for o in outs[3:]]


@pytest.mark.parametrize("name,src", [("bmm_transposed_a.py", BMM_TRANSPOSED_A), ("broadcast_b.py", BROADCAST_B)])
def test_batched_and_transposed_operands_split_correctly_under_emulation(tmp_path: Path, name: str, src: str) -> None:
    s = _task(tmp_path, name, src)
    prog = lower(s)
    (g,) = prog.gemms
    ca, cb = gemm_split.copies(g, "2+1")
    if name == "broadcast_b.py":
        assert g.batch == (2, 3) and cb.copies == 6 and ca.k_inner and not cb.k_inner
    else:
        assert ca.copies == cb.copies == 3 and not ca.k_inner  # A's K is its rows: the copy keeps that
    cands = [_emulated(f"{form}", cuda_source(s, prog, Variant(gemm=GemmParams("split_tf32", form=form)),
                                              strategy="T.split_tf32")) for form in ("2+1", "3k")]
    settings = EvalSettings(device="cpu", timing_trials=3, min_call_limit_s=EMULATED_CALL_S)
    with Evaluator(s, tmp_path / "eval", settings) as ev:
        outs = ev.evaluate(cands)
    assert all(o.status is Status.VALID for o in outs), [o.reason for o in outs]


def test_a_segment_off_cublaslts_assumed_alignment_is_declared_to_it(tmp_path: Path) -> None:
    lin = lower(spec("expert_linear_relu.py"))
    setups, _ = gemm_split.split_products(lin, lin.gemms[0], 0, "2+1", 0)
    assert "MIN_ALIGNMENT" not in "".join(setups)  # K = 192: A's hi half starts 768 bytes in
    bmm = lower(_task(tmp_path, "b.py", BMM_TRANSPOSED_A))
    st = bmm.gemms[0]
    setups, _ = gemm_split.split_products(bmm, st, 0, "2+1", 0)
    # A's hi half starts K * M = 740 floats (2960 bytes) in: 16-byte aligned; the library's B is our A.
    assert gemm_split.copies(st, "2+1")[0].seg_offset == 740
    assert "uint32_t alB = 16;" in setups[1] and "MIN_ALIGNMENT" not in setups[0]


def test_unknown_form_is_a_clear_error() -> None:
    s = spec("expert_linear_relu.py")
    with pytest.raises(ValueError, match="unknown 3xTF32 form 'fast'"):
        cuda_source(s, lower(s), Variant(gemm=GemmParams("split_tf32", form="fast")), strategy="T.split_tf32")


# --- planning ------------------------------------------------------------------------------------------------

BIG_LINEAR = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 1024)

    def forward(self, x):
        return torch.relu(self.fc(x))


def get_inputs():
    return [torch.randn(1024, 1024)]


def get_init_inputs():
    return []
'''


def test_planner_tries_the_split_first_for_a_gemm_bound_task_under_strict_fp32_only(tmp_path: Path) -> None:
    be = ExpertBackend()
    big = _task(tmp_path, "big_linear.py", BIG_LINEAR)  # 1024^3: 2.1 GFLOP
    ctx = ctx_for(big)
    scores = be.ssda.score_directions(ctx, Space.CUDA_LIBRARIES)
    strategy = be.spa.plan(ctx, Space.CUDA_LIBRARIES, scores)
    assert strategy.name == "T.split_tf32" and strategy.direction.value == "T", strategy
    cands = be.oa.generate(ctx, Space.CUDA_LIBRARIES, strategy, 6)
    assert len(cands) == 6 and len({c.source for c in cands}) == 6
    assert all(isinstance(c, Candidate) and c.space is Space.CUDA_LIBRARIES for c in cands)
    split = [c for c in cands if "hiera_tf32_rn" in c.source and "CUBLAS_COMPUTE_32F_FAST_TF32" in c.source]
    # Five splits (the two forms first) and, third, the strict SGEMM call as the round's floor.
    assert len(split) == 5 and cands[0] in split and cands[1] in split
    assert "FAST_TF32" not in cands[2].source and "CUBLAS_COMPUTE_32F," in cands[2].source
    # The tf32 policy has plain TF32 for that; a product too small to pay for the split gets SGEMM first.
    tf32 = ctx_for(big, Precision.TF32)
    assert be.spa.plan(tf32, Space.CUDA_LIBRARIES, be.ssda.score_directions(tf32, Space.CUDA_LIBRARIES)).name \
        != "T.split_tf32"
    small = ctx_for(spec("expert_linear_relu.py"))  # 5.9 MFLOP
    assert be.spa.plan(small, Space.CUDA_LIBRARIES, be.ssda.score_directions(small, Space.CUDA_LIBRARIES)).name \
        != "T.split_tf32"
    pure = Context(big, Path("/nonexistent"), "cuda:0", {}, Precision.FP32, 1, 3, (Space.PURE_CUDA,), None, None,
                   None)
    assert be.spa.plan(pure, Space.PURE_CUDA, be.ssda.score_directions(pure, Space.PURE_CUDA)).name != "T.split_tf32"


# --- building --------------------------------------------------------------------------------------------------

@pytest.mark.skipif(nvcc() is None or cublas_include() is None, reason="needs nvcc and cuBLAS headers")
def test_split_candidates_compile_with_nvcc_without_warnings(tmp_path: Path) -> None:
    jobs = []
    for name, s in (("linear", spec("expert_linear_relu.py")), ("bmm", _task(tmp_path, "b.py", BMM_TRANSPOSED_A)),
                    ("bcast", _task(tmp_path, "c.py", BROADCAST_B))):
        d = tmp_path / name
        write_contract(s, d)
        for form in ("2+1", "3k"):
            src = cuda_source(s, lower(s), Variant(gemm=GemmParams("split_tf32", form=form)), strategy="T.split_tf32")
            f = d / f"{re.sub(r'[^0-9a-z]', '', form)}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)
