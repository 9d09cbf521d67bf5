"""Stencils (bench/stencil, issue 19's RQ3 case) and the fp64 precision policy, on this machine (no GPU).

- Recognition: which convolutions are stencils (one channel or depthwise, stride 1, 2-D/3-D, fp32/fp64), and
  the reason the others are not (a sum across channels is a GEMM).
- Planning: a stencil task goes to pure CUDA with the stencil generator; M/R/P name its knobs; the PyTorch-level
  candidates (cuDNN autotuning, torch.compile) stay on offer.
- Numerics: the generated kernels run on the CPU under the CUDA emulation (tests/cuda_emu.py) and are judged by
  the real evaluator against the fp64 reference, with the fp64 tolerance.
- The fp64 policy: a candidate that computes in fp32 on an fp64 task is rejected, one in fp64 accepted.
- nvcc builds the generated sources (compile-only) where it is installed.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
import torch

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert import ExpertBackend
from engine.agents.expert.codegen import stencil_cuda as gen
from engine.agents.expert.codegen.stencil_cuda import StencilParams, stencil_source, stencil_variants
from engine.agents.expert.stencil_recognize import SMEM_STATIC, StencilSpec, recognize, tile_bytes
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator, verify
from engine.evaluate.outcome import FP64_TOLERANCE, Precision, Status
from engine.task.spec import TaskSpec, load_task
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp
from tests.nvcc_kit import assert_all_compile, compile_command, nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
BENCH = Path(__file__).parent.parent / "bench" / "stencil"


@cache
def spec(path: Path) -> TaskSpec:
    return load_task(path)


def stencil_of(path: Path) -> StencilSpec:
    st = recognize(spec(path))
    assert isinstance(st, StencilSpec), st
    return st


def ctx_for(s: TaskSpec, spaces: tuple[Space, ...] = tuple(Space)) -> Context:
    return Context(s, Path("/nonexistent"), "cuda:0", {}, Precision.FP32, 1, 3, spaces, None, None, None)


def _task(tmp: Path, name: str, body: str, x: str) -> Path:
    f = tmp / f"{name}.py"
    f.write_text(f'"""{name}."""\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n'
                 f"class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n{body}\n\n"
                 f"def get_inputs():\n    return [{x}]\n\n\ndef get_init_inputs():\n    return []\n")
    return f


# --- recognition ----------------------------------------------------------------------------------------------

def test_the_suites_stencils_are_recognised_with_their_shapes() -> None:
    st = stencil_of(BENCH / "01_box2d_r3.py")
    assert (st.dtype, st.dims, st.grid, st.kernel, st.padding, st.planes) == \
        ("float64", 2, (10240, 10240), (7, 7), (3, 3), 1)
    assert st.out_grid == (10240, 10240) and st.points == 49
    st3 = stencil_of(BENCH / "04_box3d_r1.py")
    assert (st3.dims, st3.grid, st3.kernel) == (3, (512, 512, 512), (3, 3, 3))
    dw = stencil_of(TASKS / "stencil_weighted2d_small.py")  # nn.Conv2d, padding='same', depthwise, bias
    assert (dw.channels, dw.batch, dw.kernel, dw.padding, dw.bias) == (3, 2, (5, 5), (2, 2), "conv_bias")


def test_a_sum_across_channels_is_not_a_stencil() -> None:
    why = recognize(spec(BENCH / "06_multichannel_conv.py"))
    assert isinstance(why, str) and "across channels" in why and "GEMM" in why


@pytest.mark.parametrize("body,why", [
    ("        self.register_buffer('w', torch.ones(1, 1, 3, 3))\n\n    def forward(self, x):\n"
     "        return F.conv2d(x, self.w, stride=2, padding=1)", "stride"),
    ("        self.register_buffer('w', torch.ones(1, 1, 3, 3))\n\n    def forward(self, x):\n"
     "        return torch.relu(F.conv2d(x, self.w, padding=1))", "single"),
    ("        self.register_buffer('w', torch.ones(1, 1, 3, 3))\n\n    def forward(self, x):\n"
     "        return F.conv2d(x, self.w, padding=1, dilation=2)", "dilation"),
])
def test_what_is_not_a_stencil_says_why(tmp_path: Path, body: str, why: str) -> None:
    f = _task(tmp_path, "not_stencil", body, "torch.randn(1, 1, 16, 16)")
    r = recognize(load_task(f))
    assert isinstance(r, str) and why in r, r


def test_wide_kernels_get_small_tiles_and_too_wide_ones_are_refused(tmp_path: Path) -> None:
    def task(k: int) -> Path:
        return _task(tmp_path, f"wide{k}", f"        self.register_buffer('w', torch.rand(1, 1, {k}, {k}, {k}, "
                     f"dtype=torch.float64))\n\n    def forward(self, x):\n        return F.conv3d(x, self.w, "
                     f"padding={k // 2})", "torch.randn(1, 1, 24, 24, 40, dtype=torch.float64)")
    st = recognize(load_task(task(9)))
    assert isinstance(st, StencilSpec)
    vs = stencil_variants(st, "tile")
    # The usual 32x8x4 tile with a 9^3 fp64 halo takes 61 KB: only smaller tiles are offered, each within 48 KB.
    assert vs and StencilParams(32, 8, 4) not in vs
    assert all(tile_bytes(st, v.bx, v.by, v.rb) <= SMEM_STATIC for v in vs)
    why = recognize(load_task(task(13)))
    assert isinstance(why, str) and "too large" in why


# --- planning and generation ----------------------------------------------------------------------------------

def test_a_stencil_goes_to_pure_cuda_with_the_stencil_generator_and_k_distinct_variants() -> None:
    s = spec(BENCH / "01_box2d_r3.py")
    be = ExpertBackend()
    ctx = ctx_for(s)
    choice = be.ssda.select_space(ctx)
    assert choice.space is Space.PURE_CUDA and "stencil" in choice.rationale
    scores = be.ssda.score_directions(ctx, choice.space)
    top = max(scores.scores, key=lambda d: scores.scores[d])
    assert top.value == "R"
    st = be.spa.plan(ctx, choice.space, scores)
    assert st.params["family"] == "stencil" and st.name == "R.register_blocking"
    cands = be.oa.generate(ctx, choice.space, st, 4)
    assert len(cands) == 4 and all(isinstance(c, Candidate) for c in cands)
    assert all(c.kind is CandidateKind.CUDA and c.space is Space.PURE_CUDA for c in cands)
    assert len({c.source for c in cands}) == 4
    src = cands[0].source
    assert "__shared__ double s[" in src and "__constant__ double hiera_w[49]" in src
    code = "\n".join(ln for ln in src.splitlines() if not ln.startswith("//"))
    assert "cudaMemcpyToSymbolAsync" in code and "fma(" in code and "cudnn" not in code and "float" not in code


def test_directions_map_to_the_stencil_knobs_and_the_library_stays_on_offer() -> None:
    from engine.agents.expert import planner
    from engine.agents.expert.space_direction import workload

    s = spec(BENCH / "01_box2d_r3.py")
    ctx = ctx_for(s)
    w = workload(ctx)
    assert planner.family("M.coalesce", w, ctx) == ("stencil", "tile")
    assert planner.family("R.register_blocking", w, ctx) == ("stencil", "rblock")
    assert planner.family("P.grid_block_shape", w, ctx) == ("stencil", "occupancy")
    be = ExpertBackend()
    lib = ctx_for(s, spaces=(Space.LIBRARIES_PYTORCH,))
    st = be.spa.plan(lib, Space.LIBRARIES_PYTORCH, be.ssda.score_directions(lib, Space.LIBRARIES_PYTORCH))
    cands = [c for c in be.oa.generate(lib, Space.LIBRARIES_PYTORCH, st, 6) if isinstance(c, Candidate)]
    assert cands and st.params["family"] in ("stencil", "torch")
    # In the libraries space the planner still leads with the generated kernel, and the PyTorch-level
    # candidates (cuDNN autotuning, torch.compile) follow it in the ranking of spaces.
    from engine.agents.expert.space_direction import space_ranking

    ranking = [r.space for r in space_ranking(w, True)]
    assert ranking[0] is Space.PURE_CUDA and Space.LIBRARIES_PYTORCH in ranking


def test_the_multichannel_conv_is_left_to_the_library() -> None:
    s = spec(BENCH / "06_multichannel_conv.py")
    be = ExpertBackend()
    ctx = ctx_for(s)
    choice = be.ssda.select_space(ctx)
    assert choice.space is Space.LIBRARIES_PYTORCH
    st = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
    assert st.params["family"] == "torch"


def test_every_suite_stencil_has_variants_and_large_kernels_keep_the_window_loop_rolled(monkeypatch) -> None:
    for f in sorted(BENCH.glob("0[1-5]_*.py")):
        st = stencil_of(f)
        for focus in ("tile", "rblock", "occupancy"):
            vs = stencil_variants(st, focus)
            assert len(vs) >= 6, (f.name, focus)
            for v in vs:
                gen.check(st, v)
    st = stencil_of(BENCH / "03_box2d_r5.py")
    src = stencil_source(spec(BENCH / "03_box2d_r5.py"), st, StencilParams(32, 8, 16), strategy="t")
    assert "#pragma unroll 1" not in src  # 16 x 121 FMAs: unrolled
    monkeypatch.setattr(gen, "MAX_UNROLLED", 1000)
    src = stencil_source(spec(BENCH / "03_box2d_r5.py"), st, StencilParams(32, 8, 16), strategy="t")
    assert "#pragma unroll 1" in src  # past the bound the window loop stays rolled
    with pytest.raises(ValueError, match="shared memory"):
        gen.check(st, StencilParams(128, 8, 16))


# --- numerics under the CUDA emulation, judged by the real evaluator (fp64 tolerance) --------------------------

def _emulated(path: Path, variants: list[StencilParams]) -> list[Candidate]:
    s, st = spec(path), stencil_of(path)
    return [Candidate(f"e{i}", CandidateKind.CPP, emulated_cpp(stencil_source(s, st, v, strategy="t")),
                      Space.PURE_CUDA, origin="test:emulated") for i, v in enumerate(variants)]


@pytest.mark.parametrize("task,variants", [
    ("stencil_box2d_small.py", [StencilParams(32, 8, 8), StencilParams(32, 4, 3, uniform=False),
                                StencilParams(64, 2, 16)]),
    ("stencil_weighted2d_small.py", [StencilParams(32, 4, 4), StencilParams(32, 2, 8, uniform=False)]),
    ("stencil_box3d_small.py", [StencilParams(32, 4, 4), StencilParams(32, 8, 2, uniform=False)]),
])
def test_generated_stencils_are_correct_in_fp64_under_the_emulation(tmp_path: Path, task: str,
                                                                    variants: list[StencilParams]) -> None:
    cands = _emulated(TASKS / task, variants)
    settings = EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)
    with Evaluator(spec(TASKS / task), tmp_path, settings) as ev:
        outs = ev.evaluate(cands)
    assert all(o.valid for o in outs), [o.reason for o in outs]


def test_a_rolled_window_loop_is_correct_too(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(gen, "MAX_UNROLLED", 8)
    cands = _emulated(TASKS / "stencil_weighted2d_small.py", [StencilParams(32, 4, 4, uniform=False)])
    assert "#pragma unroll 1" in cands[0].source
    with Evaluator(spec(TASKS / "stencil_weighted2d_small.py"), tmp_path,
                   EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        (out,) = ev.evaluate(cands)
    assert out.valid, out.reason


# --- the fp64 precision policy ---------------------------------------------------------------------------------

CPU_STENCIL = r"""
#include "hiera_contract.h"
// A 7x7 stencil over one plane on the CPU, accumulated in ACC and stored as double.
extern "C" int hiera_forward(const hiera_tensor* x, const hiera_tensor* weight, int64_t radius, hiera_tensor* out,
                             void* stream) {
    (void)stream; (void)radius;
    const double* xp = (const double*)x->data;
    const double* wp = (const double*)weight->data;
    double* yp = (double*)out->data;
    const int H = (int)x->sizes[2], W = (int)x->sizes[3], R = 3;
    for (int i = 0; i < H; ++i)
        for (int j = 0; j < W; ++j) {
            ACC acc = 0;
            for (int a = 0; a < 2 * R + 1; ++a)
                for (int b = 0; b < 2 * R + 1; ++b) {
                    const int y = i + a - R, z = j + b - R;
                    if (y >= 0 && y < H && z >= 0 && z < W) acc += (ACC)wp[a * 7 + b] * (ACC)xp[y * W + z];
                }
            yp[i * W + j] = (double)acc;
        }
    return 0;
}
"""


def test_fp64_outputs_get_the_fp64_tolerance_under_either_policy() -> None:
    for p in Precision:
        assert p.tolerance_for(torch.float64) == FP64_TOLERANCE
        assert p.tolerance_for("float64") == FP64_TOLERANCE
        assert p.tolerance_for(torch.float32) == p.tolerance
    x = torch.randn(1, 1, 64, 64, dtype=torch.float64)
    w = torch.full((1, 1, 7, 7), 1 / 49, dtype=torch.float64)
    ref = torch.nn.functional.conv2d(x, w, padding=3)
    in_fp32 = torch.nn.functional.conv2d(x.float(), w.float(), padding=3).double()
    other_order = torch.nn.functional.conv2d(x.flip(-1), w, padding=3).flip(-1)  # same sum, another order
    assert verify.compare(in_fp32, ref, Precision.FP32.tolerance, "out") is None  # fp32's tolerance lets it pass
    assert verify.compare(in_fp32, ref, FP64_TOLERANCE, "out") is not None
    assert verify.compare(other_order, ref, FP64_TOLERANCE, "out") is None


def test_an_fp32_candidate_on_an_fp64_task_is_rejected_and_an_fp64_one_accepted(tmp_path: Path) -> None:
    s = spec(TASKS / "stencil_box2d_small.py")
    cands = [Candidate("fp64", CandidateKind.CPP, "#define ACC double\n" + CPU_STENCIL, Space.PURE_CUDA),
             Candidate("fp32", CandidateKind.CPP, "#define ACC float\n" + CPU_STENCIL, Space.PURE_CUDA)]
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        ok, low = ev.evaluate(cands)
    assert ok.valid, ok.reason
    assert low.status is Status.INCORRECT and "rtol=1e-10" in low.reason, low.reason


def test_the_off_distribution_shift_of_an_fp64_input_is_taken_in_fp64() -> None:
    from engine.evaluate.off_distribution import TRANSFORMS

    x = torch.randn(1000, dtype=torch.float64) * 1e3 + 0.1
    shifted = dict(TRANSFORMS)["shifted by its standard deviation"](x)
    centred = dict(TRANSFORMS)["centred (mean subtracted)"](x)
    assert shifted.dtype == torch.float64 and torch.equal(shifted, x + x.std())
    assert torch.equal(centred, x - x.mean())


# --- nvcc -------------------------------------------------------------------------------------------------------

@pytest.mark.skipif(nvcc() is None, reason="nvcc is not installed")
def test_generated_stencils_compile_with_nvcc(tmp_path: Path) -> None:
    from engine.task.contract import write_contract

    jobs = []
    for path, variants in ((TASKS / "stencil_weighted2d_small.py", [StencilParams(32, 4, 4)]),
                           (BENCH / "03_box2d_r5.py", [StencilParams(32, 8, 16, uniform=False)]),
                           (BENCH / "04_box3d_r1.py", [StencilParams(32, 8, 8)])):
        s, st = spec(path), stencil_of(path)
        d = tmp_path / path.stem
        write_contract(s, d)
        for i, v in enumerate(variants):
            src = stencil_source(s, st, replace(v), strategy="t")
            f = d / f"v{i}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)
