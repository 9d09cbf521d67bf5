"""Expert backend, row kernels at any length: how a row is walked follows from its length, the number of rows
and the device (registers when the row fits, a streamed loop otherwise, a row split over several blocks when
the rows cannot fill the device), the code size does not grow with the row, and every mode is numerically
right: the kernels run on the CPU through the CUDA emulation (tests/cuda_emu.py) with warp shuffles emulated
here, against PyTorch through the real evaluator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.reduction import UNROLL, row_plan
from engine.agents.expert.codegen.variants import RowParams, Variant
from engine.agents.expert.device import DeviceLimits, device_limits
from engine.agents.expert.ir import FusedStage, Load, Reduce, View
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.outcome import Status
from engine.task.spec import TaskSpec, load_task
from tests.conftest import TASKS
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp

H200 = device_limits({"sms": 132, "capability": "90"})

# Warp shuffles for the emulation: a block's threads run concurrently and the row kernels call every shuffle
# with the whole block converged, so a shuffle is a write to a per-block slot, a barrier, a read of the
# partner's slot and a barrier.
SHUFFLE = r"""
static float hiera_emu_lanes[1024];
static inline float hiera_emu_shfl_xor(float v, int o) {
    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    hiera_emu_lanes[t] = v;
    __syncthreads();
    const float r = hiera_emu_lanes[t ^ (unsigned)o];
    __syncthreads();
    return r;
}
"""


def emulated_rows(cuda_src: str) -> str:
    src = emulated_cpp(cuda_src.replace("__shfl_xor_sync(0xffffffffu, ", "hiera_emu_shfl_xor("))
    marker = "// ---- end of the emulation ----"
    return src.replace(marker, marker + SHUFFLE, 1)


def task(tmp: Path, name: str, body: str, inputs: str, args: str = "x") -> TaskSpec:
    f = tmp / f"{name}.py"
    f.write_text(f"import torch\nfrom torch import nn\n\n\nclass Model(nn.Module):\n    def forward(self, {args}):\n"
                 f"        {body}\n\n\ndef get_inputs():\n    return [{inputs}]\n\n\ndef get_init_inputs():\n"
                 "    return []\n")
    return load_task(f)


def row_stage(shape: tuple[int, ...], op: str = "sum") -> FusedStage:
    x = Load(shape, View.contiguous("x", shape))
    return FusedStage(shape, (("out", Reduce(shape[:-1] + (1,), op, x)),))


# --- planning: from the shapes and the device ---------------------------------------------------------------

def test_a_short_row_stays_in_registers_and_a_long_one_is_streamed() -> None:
    assert row_plan(row_stage((4096, 256)), RowParams(), H200).mode == "registers"
    long = row_plan(row_stage((4096, 393216)), RowParams(), H200)
    assert long.mode == "loop" and long.split == 1 and long.online


def test_few_long_rows_are_split_to_fill_the_device_and_the_split_follows_the_sm_count() -> None:
    big = row_plan(row_stage((16, 4 * 2**20)), RowParams(), H200)
    small = row_plan(row_stage((16, 4 * 2**20)), RowParams(), DeviceLimits(sm_count=16))
    assert big.mode == "split" and big.split * 16 >= H200.resident_blocks(big.t)
    assert small.split < big.split
    assert big.chunk % (big.t * big.vec) == 0 and big.chunk * big.split >= 4 * 2**20
    # a full reduction is one row: split too; many rows fill the device alone
    assert row_plan(row_stage((2**30,)), RowParams(), H200).mode == "split"
    assert row_plan(row_stage((4096, 393216)), RowParams(), H200).split == 1
    assert row_plan(row_stage((16, 4 * 2**20)), RowParams(split=1), H200).mode == "loop"


def test_generated_code_does_not_grow_with_the_row(tmp_path: Path) -> None:
    """The same softmax over rows of 4096 and of 4 million: the streamed loop is unrolled UNROLL times, so
    the sources are about the same size, and 64-bit indices appear once the element count needs them."""
    sizes = {}
    for d in (4096, 4 * 2**20):
        s = task(tmp_path, f"sm{d}", "return torch.softmax(x, dim=-1)", f"torch.randn(1024, {d}, device='meta')")
        src = cuda_source(s, lower(s), Variant(row=RowParams(cache=False)), strategy="t", dev=H200)
        assert f"#pragma unroll {UNROLL}" in src and "online statistics" in src
        sizes[d] = len(src)
        if d > 4096:
            assert "typedef unsigned long long idx_t" in src
    assert max(sizes.values()) < 1.2 * min(sizes.values())


# --- numerics under emulation ---------------------------------------------------------------------------------

ROW_VARIANTS = [
    RowParams(threads=64, cache=False),  # streamed, online statistics, block-wide combine
    RowParams(threads=8, rows_per_block=2, cache=False, online=False),  # streamed, exact two passes
    RowParams(threads=8, cache=False, split=3),  # split over 3 blocks per row (the last one ragged), online
    RowParams(threads=32, split=2, online=False),  # split, two passes, warp-wide combine
]
ROW_TASKS = {  # (body, inputs, args): a row length that is not a multiple of the block's vector, few rows
    "softmax": ("return torch.softmax(x, dim=-1)", "torch.randn(5, 1000)", "x"),
    "layer_norm": ("return torch.nn.functional.layer_norm(x, (264,), w, b)",
                   "torch.randn(3, 264), 1 + 0.1 * torch.randn(264), torch.randn(264)", "x, w, b"),
}


def _evaluate(s: TaskSpec, srcs: list[str], tmp: Path) -> list:
    cands = [Candidate(f"e{i}", CandidateKind.CPP, emulated_rows(src), Space.PURE_CUDA, origin="test:emulated")
             for i, src in enumerate(srcs)]
    with Evaluator(s, tmp, EvalSettings(device="cpu", timing_trials=3, min_call_limit_s=EMULATED_CALL_S)) as ev:
        return ev.evaluate(cands)


@pytest.mark.parametrize("name", sorted(ROW_TASKS))
def test_streamed_and_split_rows_are_correct_and_a_broken_combine_is_caught(name: str, tmp_path: Path) -> None:
    """Softmax (online max and sum) and LayerNorm (Welford mean and variance), streamed and split, with and
    without the online forms, match PyTorch at 1e-4; dropping the rescale of the running sum (or Chan's
    correction term) makes the candidate incorrect."""
    s = task(tmp_path, name, *ROW_TASKS[name])
    prog = lower(s)
    srcs = [cuda_source(s, prog, Variant(row=rp), strategy="t", dev=H200) for rp in ROW_VARIANTS]
    assert "online statistics" in srcs[0] and "online statistics" not in srcs[1]
    assert "split over 3 blocks" in srcs[2] and "split over 2 blocks" in srcs[3]
    broken = re.sub(r"dl \* dl \* \w+ \* f", "0.0f", srcs[2]) if name == "layer_norm" else \
        re.sub(r"\? (\w+) : \1 \* expf\(\w+ - mn\)\)", r"? \1 : \1)", srcs[2])
    assert broken != srcs[2]
    outs = _evaluate(s, [*srcs, broken], tmp_path)
    assert all(o.valid for o in outs[:-1]), [o.reason for o in outs]
    assert outs[-1].status is Status.INCORRECT, outs[-1].reason


def test_full_reductions_of_broadcast_and_ragged_inputs_are_correct(tmp_path: Path) -> None:
    """A hinge-style mean over a broadcast product (reduced last dim first, no copy of the product) and a
    Frobenius normalization over a ragged element count split over blocks."""
    hinge = task(tmp_path, "hinge", "return torch.mean(torch.clamp(1 - x * y, min=0))",
                 "torch.randn(64, 96), torch.randn(96)", "x, y")
    prog = lower(hinge)
    assert all(st.domain != (64 * 96,) for st in prog.fused), "the broadcast product must not be written out"
    fro = task(tmp_path, "fro", "return x / torch.norm(x, p='fro')", "torch.randn(4, 8, 33)")
    for s in (hinge, fro):
        srcs = [cuda_source(s, lower(s), Variant(row=rp), strategy="t", dev=H200)
                for rp in (RowParams(threads=64, split=3), RowParams(threads=32, cache=False))]
        outs = _evaluate(s, srcs, tmp_path / s.name)
        assert all(o.valid for o in outs), [o.reason for o in outs]


NORM_TASKS = {  # group norm with its affine map, instance norm without, a group norm over (N, C) only
    "group_norm": ("return torch.nn.functional.group_norm(x, 4, w, b)",
                   "torch.randn(3, 8, 5, 7), 1 + 0.1 * torch.randn(8), torch.randn(8)", "x, w, b"),
    "instance_norm": ("return torch.nn.functional.instance_norm(x)", "torch.randn(2, 3, 9, 11)", "x"),
    "group_norm_2d": ("return torch.nn.functional.group_norm(torch.relu(x), 2, w, b)",
                      "torch.randn(6, 12), torch.randn(12), torch.randn(12)", "x, w, b"),
}


@pytest.mark.parametrize("name", sorted(NORM_TASKS))
def test_group_and_instance_norm_lower_to_statistics_and_one_pointwise_pass(name: str, tmp_path: Path) -> None:
    """Group/instance norm: one row stage writes each group's mean and 1/std, one pointwise pass over
    (N, G, C/G, spatial) normalizes with the affine map; correct streamed and split under emulation."""
    s = task(tmp_path, name, *NORM_TASKS[name])
    prog = lower(s)
    rows = [st for st in prog.fused if st.has_reduction]
    assert len(rows) == 1 and len(rows[0].outputs) == 2 and len(prog.fused) == 2
    srcs = [cuda_source(s, prog, Variant(row=rp), strategy="t", dev=H200)
            for rp in (RowParams(threads=16, cache=False), RowParams(threads=8, split=2))]
    outs = _evaluate(s, srcs, tmp_path)
    assert all(o.valid for o in outs), [o.reason for o in outs]


def test_a_row_too_long_to_cache_in_a_1024_thread_blocks_registers_is_streamed() -> None:
    """A 1024-thread block leaves 64 registers a thread: a row of 32768 read through two loads (x and the bias) would
    cache 64 floats a thread and spill (the pre-flight's level2/56: 140-232 bytes a thread). It streams; smaller
    blocks keep the full REG_BUDGET."""
    from engine.agents.expert.codegen.reduction import REG_BUDGET, cache_budget

    assert cache_budget(1024) == 32 and cache_budget(512) == cache_budget(256) == REG_BUDGET
    spec = load_task(TASKS / "expert_bias_sigmoid_rowsum.py")
    [st] = [s for s in lower(spec).stages if isinstance(s, FusedStage) and s.has_reduction]
    whole = RowParams(split=1)  # a block per row (4 rows would be split across the device otherwise)
    plan = row_plan(st, whole, H200)
    assert (plan.t, plan.mode) == (1024, "loop"), plan
    # what it would cache is exactly REG_BUDGET (cached under the budget alone, as before), twice a 1024-thread's
    assert plan.nv * plan.vec * 2 == REG_BUDGET == 2 * cache_budget(plan.t)
