"""The speed-of-light bound, on hand-computed cases: bytes that must move and FLOPs that must be done, counted
from the operator graph (and low where unsure), over given ceilings; and the trust decision on a time under it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from contracts.speed_of_light import STOP_FRACTION, Ceilings, SpeedOfLight, phrase
from engine.evaluate.speed_of_light import Bound, bound_of, check, suspect_flag, work_of
from engine.task.spec import Arg, GraphNode, TaskSpec, TensorSpec, load_task

TASKS = Path(__file__).parent / "data" / "tasks"

# Round numbers: 100 GB/s of memory, 1 TFLOP/s of fp32, no cache, nothing flushed needed.
CEIL = Ceilings(key="test", device="test device", dram_gbps=100.0, cache_gbps=None, cache_bytes=0, flush_bytes=0,
                fp32_gflops=1000.0, fp64_gflops=500.0)


def ref(name: str) -> dict[str, str]:
    return {"node": name}


def node(name: str, op: str, target: str, *args: Any, shape: tuple[int, ...] | None = None, dtype: str = "float32",
         kwargs: dict[str, Any] | None = None, config: dict[str, Any] | None = None) -> GraphNode:
    return GraphNode(name, op, target, tuple(args), kwargs or {}, config or {}, shape, dtype if shape else None)


def t(*shape: int, dtype: str = "float32") -> TensorSpec:
    return TensorSpec(tuple(shape), dtype)


def task(args: list[Arg], out: TensorSpec, nodes: list[GraphNode]) -> TaskSpec:
    return TaskSpec(Path("/hand.py"), "hand", tuple(args), (("out", out),), False, tuple(nodes), None)


def inp(name: str, spec: TensorSpec) -> Arg:
    return Arg(name, "input", spec)


def param(name: str, spec: TensorSpec) -> Arg:
    return Arg(name, "parameter", spec)


def bound(spec: TaskSpec, c: Ceilings = CEIL, precision: str = "fp32", on_gpu: bool = False) -> Bound:
    w = work_of(spec)
    assert not isinstance(w, str), w
    b = bound_of(w, c, precision, on_gpu)
    assert isinstance(b, Bound), b
    return b


def test_a_copy_moves_its_input_once_and_its_output_once_and_does_no_flops() -> None:
    n = 1024 * 1024
    spec = task([inp("x", t(1024, 1024))], t(1024, 1024), [
        node("x", "placeholder", "x", shape=(1024, 1024)),
        node("clone", "call_method", "clone", ref("x"), shape=(1024, 1024)),
        node("output", "output", "output", ref("clone"), shape=(1024, 1024))])
    b = bound(spec)
    assert (b.work.read_bytes, b.work.write_bytes, b.work.flops) == (4 * n, 4 * n, 0)
    assert b.kind == "memory" and b.ceiling == "memory 100 GB/s"
    assert b.ms == pytest.approx(8 * n / 100e9 * 1e3)  # 8 MiB at 100 GB/s: 0.0839 ms


def gemm_task() -> TaskSpec:
    """nn.Linear(512, 128) on a (256, 512) input."""
    return task([inp("x", t(256, 512)), param("fc.weight", t(128, 512)), param("fc.bias", t(128))], t(256, 128), [
        node("x", "placeholder", "x", shape=(256, 512)),
        node("fc", "call_module", "Linear:fc", ref("x"), shape=(256, 128),
             config={"in_features": 512, "out_features": 128}),
        node("output", "output", "output", ref("fc"), shape=(256, 128))])


def test_a_gemm_does_2mnk_flops_and_reads_its_operands_and_bias_once() -> None:
    b = bound(gemm_task())
    assert b.work.matrix_flops == 2 * 256 * 128 * 512
    assert b.work.read_bytes == (256 * 512 + 128 * 512 + 128) * 4
    assert b.work.write_bytes == 256 * 128 * 4
    assert b.kind == "compute" and b.ceiling == "fp32 FMA 1 TFLOP/s"
    assert b.ms == pytest.approx(2 * 256 * 128 * 512 / 1e12 * 1e3)  # 0.0336 ms
    assert b.memory_ms == pytest.approx((256 * 512 + 128 * 512 + 128 + 256 * 128) * 4 / 100e9 * 1e3)


def test_a_gemm_on_tensor_cores_counts_the_3xtf32_split_under_strict_fp32_and_tf32_when_allowed() -> None:
    c = replace(CEIL, tf32_gflops=9000.0)
    flops = 2 * 256 * 128 * 512
    strict = bound(gemm_task(), c, "fp32")
    assert strict.ceiling == "3xTF32 tensor cores 3 TFLOP/s" and strict.ms == pytest.approx(flops / 3e12 * 1e3)
    loose = bound(gemm_task(), c, "tf32")
    assert loose.compute_ceiling == "TF32 tensor cores 9 TFLOP/s"
    assert loose.compute_ms == pytest.approx(flops / 9e12 * 1e3)
    assert loose.kind == "memory"  # 3.7 us of TF32 products under 9.2 us of bytes
    # Where the split is slower than the FMA units, the FMA units bound it.
    slow = bound(gemm_task(), replace(CEIL, tf32_gflops=2400.0), "fp32")
    assert slow.ceiling == "fp32 FMA 1 TFLOP/s"


def test_a_row_sum_does_one_add_per_element_but_the_first_of_each_row() -> None:
    spec = task([inp("x", t(64, 1000))], t(64), [
        node("x", "placeholder", "x", shape=(64, 1000)),
        node("sum_1", "call_method", "sum", ref("x"), kwargs={"dim": 1}, shape=(64,)),
        node("output", "output", "output", ref("sum_1"), shape=(64,))])
    b = bound(spec, replace(CEIL, fp32_gflops=1.0))  # a slow FMA unit, so that the FLOPs bind
    assert b.work.flops == 64 * 1000 - 64
    assert b.work.bytes == 64 * 1000 * 4 + 64 * 4
    assert b.kind == "compute" and b.ms == pytest.approx(63936 / 1e9 * 1e3)
    assert b.memory_ms == pytest.approx(256256 / 100e9 * 1e3)


def epilogue_task() -> TaskSpec:
    """relu(x @ w.T + b) * 2 — a GEMM with a fused epilogue: the intermediates never have to reach memory."""
    return task([inp("x", t(128, 256)), param("w", t(64, 256)), param("b", t(64))], t(128, 64), [
        node("x", "placeholder", "x", shape=(128, 256)),
        node("w", "get_attr", "w", shape=(64, 256)),
        node("b", "get_attr", "b", shape=(64,)),
        node("wt", "call_function", "getattr", ref("w"), "T", shape=(256, 64)),
        node("matmul", "call_function", "matmul", ref("x"), ref("wt"), shape=(128, 64)),
        node("add", "call_function", "add", ref("matmul"), ref("b"), shape=(128, 64)),
        node("relu", "call_function", "relu", ref("add"), shape=(128, 64)),
        node("mul", "call_function", "mul", ref("relu"), 2, shape=(128, 64)),
        node("output", "output", "output", ref("mul"), shape=(128, 64))])


def test_a_fused_epilogue_counts_the_gemm_and_one_flop_per_element_per_op_and_no_intermediate_bytes() -> None:
    b = bound(epilogue_task())
    mn = 128 * 64
    assert b.work.matrix_flops == 2 * mn * 256
    assert b.work.other_flops == mn + mn  # the bias add and the relu; the scalar multiply folds into them
    assert b.work.read_bytes == (128 * 256 + 64 * 256 + 64) * 4
    assert b.work.write_bytes == mn * 4  # the output once: none of add, relu or mul is written


def test_a_product_that_is_only_summed_counts_no_product_flops_but_still_reads_its_operands() -> None:
    # sum(x @ W.T, 1) = x @ W.sum(0): a GEMV, not a GEMM (KernelBench's Gemm_Divide_Sum_Scaling).
    spec = task([inp("x", t(128, 256)), param("w", t(64, 256))], t(128, 1), [
        node("x", "placeholder", "x", shape=(128, 256)),
        node("w", "get_attr", "w", shape=(64, 256)),
        node("wt", "call_function", "getattr", ref("w"), "T", shape=(256, 64)),
        node("matmul", "call_function", "matmul", ref("x"), ref("wt"), shape=(128, 64)),
        node("div", "call_function", "truediv", ref("matmul"), 2, shape=(128, 64)),
        node("s", "call_function", "sum", ref("div"), kwargs={"dim": 1, "keepdim": True}, shape=(128, 1)),
        node("output", "output", "output", ref("s"), shape=(128, 1))])
    b = bound(spec)
    assert b.work.matrix_flops == 0
    assert b.work.read_bytes == (128 * 256 + 64 * 256) * 4
    assert any("reassociate" in n for n in b.work.notes)


def test_an_input_used_only_for_its_shape_or_in_part_counts_only_what_is_read() -> None:
    spec = task([inp("x", t(100, 40)), inp("y", t(100, 40))], t(100, 10), [
        node("x", "placeholder", "x", shape=(100, 40)),
        node("y", "placeholder", "y", shape=(100, 40)),
        node("z", "call_function", "zeros_like", ref("y"), shape=(100, 40)),
        node("add", "call_function", "add", ref("x"), ref("z"), shape=(100, 40)),
        node("part", "call_function", "getitem", ref("add"), [None, [0, 10, None]], shape=(100, 10)),
        node("output", "output", "output", ref("part"), shape=(100, 10))])
    b = bound(spec)
    # y: its shape only; x: through the add, a quarter of it is selected... but the add reads x whole.
    assert b.work.read_bytes == 100 * 40 * 4
    sliced = task([inp("x", t(100, 40))], t(100, 10), [
        node("x", "placeholder", "x", shape=(100, 40)),
        node("part", "call_function", "getitem", ref("x"), [None, [0, 10, None]], shape=(100, 10)),
        node("relu", "call_function", "relu", ref("part"), shape=(100, 10)),
        node("output", "output", "output", ref("relu"), shape=(100, 10))])
    assert bound(sliced).work.read_bytes == 100 * 10 * 4


def test_a_product_with_a_diagonal_operand_counts_no_dense_flops() -> None:
    spec = task([inp("a", t(256)), inp("b", t(256, 128))], t(256, 128), [
        node("a", "placeholder", "a", shape=(256,)),
        node("b", "placeholder", "b", shape=(256, 128)),
        node("d", "call_function", "diag", ref("a"), shape=(256, 256)),
        node("mm", "call_function", "matmul", ref("d"), ref("b"), shape=(256, 128)),
        node("output", "output", "output", ref("mm"), shape=(256, 128))])
    b = bound(spec)
    assert b.work.matrix_flops == 0 and b.work.read_bytes == (256 + 256 * 128) * 4


def test_the_probe_graph_of_a_real_task_gives_the_hand_count() -> None:
    spec = load_task(TASKS / "scale_bias_relu.py")  # relu(x * 0.5 + bias), x (256, 512), bias (512,)
    w = work_of(spec)
    assert not isinstance(w, str)
    n = 256 * 512
    assert (w.read_bytes, w.write_bytes) == ((n + 512) * 4, n * 4)
    assert w.flops == 2 * n  # the add of two tensors and the relu; the scalar multiply folds
    linear = load_task(TASKS / "small_linear.py")
    lw = work_of(linear)
    assert not isinstance(lw, str)
    gemm = next(n for n in linear.graph or () if n.op == "call_module")
    k = gemm.config["in_features"]
    out = 1
    for s in gemm.shape or ():
        out *= s
    assert lw.matrix_flops == 2 * out * k


def test_a_cache_keeps_writes_it_can_hold_out_of_dram_but_not_reads_after_a_flush() -> None:
    spec = task([inp("x", t(1024, 1024))], t(1024, 1024), [
        node("x", "placeholder", "x", shape=(1024, 1024)),
        node("neg", "call_function", "neg", ref("x"), shape=(1024, 1024)),
        node("output", "output", "output", ref("neg"), shape=(1024, 1024))])
    n = 4 * 1024 * 1024
    c = replace(CEIL, cache_bytes=n, flush_bytes=4 * n, cache_gbps=1000.0)
    b = bound(spec, c, on_gpu=True)
    assert b.memory_ms == pytest.approx(n / 100e9 * 1e3)  # the reads from DRAM; the writes fit the L2
    assert b.memory_ceiling == "DRAM 100 GB/s"
    unflushed = bound(spec, replace(c, flush_bytes=0), on_gpu=True)
    assert unflushed.memory_ms == pytest.approx(2 * n / 1000e9 * 1e3)  # nothing need reach DRAM: the L2 binds


def test_a_cache_rate_raised_to_the_memorys_is_not_named_as_the_caches() -> None:
    # The H100 (2026-12-07): the cache probe read under DRAM's rate and was raised to it (ceilings._memory), and a
    # 6 GB stream's bound then named "L2 3217 GB/s". The bound is the same; the ceiling is named for what it was.
    spec = task([inp("x", t(1024, 1024))], t(1024, 1024), [
        node("x", "placeholder", "x", shape=(1024, 1024)),
        node("neg", "call_function", "neg", ref("x"), shape=(1024, 1024)),
        node("output", "output", "output", ref("neg"), shape=(1024, 1024))])
    n = 4 * 1024 * 1024
    raised = replace(CEIL, cache_bytes=n // 8, flush_bytes=4 * n, cache_gbps=100.0)
    b = bound(spec, raised, on_gpu=True)
    assert b.memory_ms == pytest.approx(2 * n / 100e9 * 1e3)
    assert b.memory_ceiling == "DRAM 100 GB/s"
    measured = bound(spec, replace(raised, cache_gbps=84.0, dram_gbps=80.0), on_gpu=True)
    assert measured.memory_ceiling == "L2 84 GB/s"  # measured above DRAM, and it binds


def test_a_tiny_gpu_task_is_launch_bound_and_the_cpu_has_no_launch_floor() -> None:
    spec = task([inp("x", t(4))], t(4), [
        node("x", "placeholder", "x", shape=(4,)),
        node("relu", "call_function", "relu", ref("x"), shape=(4,)),
        node("output", "output", "output", ref("relu"), shape=(4,))])
    gpu = bound(spec, replace(CEIL, launch_us=2.0), on_gpu=True)
    assert gpu.kind == "launch" and gpu.ms == pytest.approx(0.002)
    assert bound(spec, replace(CEIL, launch_us=2.0), on_gpu=False).kind == "memory"


def test_a_time_faster_than_its_bound_beyond_its_spread_is_not_credited_and_says_why() -> None:
    b = replace(bound(gemm_task()), on_gpu=True)  # 0.0336 ms of FMA work
    assert check(b, b.ms * 0.95, 0.03) is None  # under the bound by less than the margin: a kernel past cuBLAS
    assert check(b, b.ms * 0.6, 0.4) is None  # under it, but within its own spread and the margin
    why = check(b, b.ms * 0.3, 0.03)
    assert why is not None and "33.6 MFLOP" in why and "fp32 FMA 1 TFLOP/s" in why and "10.1 us" in why
    flag = suspect_flag(b, b.ms * 0.3)
    assert flag.startswith("faster_than_light:") and "33554432 FLOPs" in flag and "918016 bytes" in flag
    # The CPU's margin is wider (shared machines, a clock that may read low): half the bound passes, a third not.
    cpu = replace(b, on_gpu=False)
    assert check(cpu, b.ms * 0.55, 0.0) is None and check(cpu, b.ms * 0.3, 0.0) is not None


def test_the_figure_is_the_bound_over_the_time_and_reads_as_a_share() -> None:
    b = bound(gemm_task())
    sol = b.figure(b.ms / 0.62)
    assert sol.fraction == pytest.approx(0.62) and sol.bound == "compute"
    assert phrase(sol) == "62% of speed of light, compute-bound"
    assert not sol.at_bound and b.figure(b.ms / STOP_FRACTION).at_bound
    assert SpeedOfLight.from_json(sol.to_json()) == sol
    assert set(sol.to_json()) >= {"bound", "bytes", "flops", "ceiling", "fraction"}


def test_ceilings_only_rise_when_merged() -> None:
    slow = replace(CEIL, dram_gbps=50.0, launch_us=3.0, how={"dram_gbps": "busy"})
    fast = replace(CEIL, dram_gbps=None, fp32_gflops=800.0, launch_us=2.0, how={"launch_us": "quiet"})
    m = slow.merged(fast)
    assert (m.dram_gbps, m.fp32_gflops, m.launch_us) == (50.0, 1000.0, 2.0)
    assert m.how == {"dram_gbps": "busy", "launch_us": "quiet"}
    assert Ceilings.from_json(m.to_json()) == m


# --- end to end: `hiera eval --json` on the CPU ---------------------------------------------------------------

def _eval_json(tmp: Path, ceilings_file: Path) -> tuple[int, dict[str, Any]]:
    import json
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "HIERA_CEILINGS": str(ceilings_file)}
    p = subprocess.run([sys.executable, "-m", "engine.cli", "eval", str(TASKS / "scale_bias_relu.py"),
                        str(Path(__file__).parent / "data" / "candidates" / "scale_bias_relu.cpp"), "--device", "cpu",
                        "--json", "--trials", "20"], cwd=tmp, capture_output=True, text=True, timeout=600, env=env)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert lines, p.stdout + p.stderr
    return p.returncode, json.loads(lines[-1])


def test_eval_measures_this_cpu_and_reports_the_figure_and_refuses_a_time_under_the_bound(tmp_path: Path) -> None:
    import json

    import torch

    from engine.evaluate.ceilings import device_key

    cache = tmp_path / "ceilings.json"
    code, honest = _eval_json(tmp_path, cache)
    assert code == 0 and honest["status"] == "valid"
    sol = honest["speed_of_light"]
    n = 256 * 512
    assert (sol["bound"], sol["bytes"], sol["flops"]) == ("memory", (2 * n + 512) * 4, 2 * n)
    assert 0 < sol["fraction"] == pytest.approx(sol["bound_ms"] / honest["candidate_ms"])
    measured = json.loads(cache.read_text())[device_key(torch.device("cpu"))[0]]
    assert measured["dram_gbps"] > 0 and "copy" in measured["how"]["dram_gbps"]  # measured here, not a default

    # The same honest kernel against ceilings a million times too slow: its time is under what they allow. No
    # cache either: a machine whose last-level cache outsizes the timing's flush (480 MiB against 64 MiB on one
    # host) may keep the inputs there, and its DRAM bound is rightly nothing.
    slow = {**measured, "dram_gbps": measured["dram_gbps"] * 1e-6, "cache_gbps": None, "cache_bytes": None,
            "pinned": True}
    pinned = tmp_path / "pinned.json"
    pinned.write_text(json.dumps({measured["key"]: slow}))
    code, refused = _eval_json(tmp_path, pinned)
    assert code == 1 and refused["status"] == "suspect" and refused["speedup"] is None
    (flag,) = [f for f in refused["flags"] if f.startswith("faster_than_light")]
    assert f"{(2 * n + 512) * 4} bytes" in flag and f"{2 * n} FLOPs" in flag and "GB/s" in flag
    assert "faster than this device can possibly run it" in refused["reason"]


def test_a_causally_masked_attention_counts_neither_product_whole() -> None:
    """att = (q @ k.T).masked_fill(causal == 0, -inf).softmax(-1) @ v: a causal kernel computes half the scores
    and skips the zeros softmax makes of the masked half, so neither product's dense count is a lower bound."""
    t_, d = 128, 64
    spec = task([inp("q", t(t_, d)), inp("k", t(t_, d)), inp("v", t(t_, d)), Arg("mask", "buffer", t(t_, t_))],
                t(t_, d), [
        node("q", "placeholder", "q", shape=(t_, d)), node("k", "placeholder", "k", shape=(t_, d)),
        node("v", "placeholder", "v", shape=(t_, d)), node("mask", "get_attr", "mask", shape=(t_, t_)),
        node("kt", "call_method", "transpose", ref("k"), -2, -1, shape=(d, t_)),
        node("att", "call_function", "matmul", ref("q"), ref("kt"), shape=(t_, t_)),
        node("eq", "call_function", "eq", ref("mask"), 0, shape=(t_, t_), dtype="bool"),
        node("masked", "call_method", "masked_fill", ref("att"), ref("eq"), float("-inf"), shape=(t_, t_)),
        node("p", "call_function", "softmax", ref("masked"), kwargs={"dim": -1}, shape=(t_, t_)),
        node("y", "call_function", "matmul", ref("p"), ref("v"), shape=(t_, d)),
        node("output", "output", "output", ref("y"), shape=(t_, d))])
    w = work_of(spec)
    assert not isinstance(w, str)
    assert w.matrix_flops == 0
    assert any("masked_fill" in n for n in w.notes) and any("att" in n for n in w.notes)
    # Unmasked, both products count: q @ k.T (2 T T d) and p @ v (2 T T d).
    plain = replace(spec, graph=tuple(
        replace(n, args=(ref("att"),)) if n.name == "p" else n for n in spec.graph or () if n.name not in
        ("eq", "masked")))
    pw = work_of(plain)
    assert not isinstance(pw, str) and pw.matrix_flops == 2 * (2 * t_ * t_ * d)


def test_adding_a_dense_input_to_a_structured_one_leaves_it_dense() -> None:
    """x + pos(arange) @ W: the sum is dense, so the product counts whole."""
    spec = task([inp("x", t(16, 32)), param("w", t(32, 8))], t(16, 8), [
        node("x", "placeholder", "x", shape=(16, 32)), node("w", "get_attr", "w", shape=(32, 8)),
        node("pos", "call_function", "arange", 32, shape=(32,)),
        node("h", "call_function", "add", ref("x"), ref("pos"), shape=(16, 32)),
        node("y", "call_function", "matmul", ref("h"), ref("w"), shape=(16, 8)),
        node("output", "output", "output", ref("y"), shape=(16, 8))])
    w = work_of(spec)
    assert not isinstance(w, str) and w.matrix_flops == 2 * 16 * 8 * 32


def test_a_gather_by_indices_counts_none_of_the_table_it_reads_from() -> None:
    """table[idx]: which rows (and how many distinct ones) are read depends on the indices' values."""
    spec = task([inp("idx", t(64, dtype="int64")), param("table", t(1000, 32))], t(64, 32), [
        node("idx", "placeholder", "idx", shape=(64,), dtype="int64"),
        node("table", "get_attr", "table", shape=(1000, 32)),
        node("rows", "call_function", "getitem", ref("table"), ref("idx"), shape=(64, 32)),
        node("output", "output", "output", ref("rows"), shape=(64, 32))])
    w = work_of(spec)
    assert not isinstance(w, str) and w.read_bytes == 64 * 8  # the indices; none of the table
