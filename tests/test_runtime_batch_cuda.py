"""The expert's CUDA kernels for pointwise chains and row stages (norms, softmax, logsumexp, reductions) also take the
batch at run time (issue 38): the kernels specialised to get_inputs()'s shapes serve that batch unchanged, general
kernels (the row or element count a kernel argument, the grid sized when called) any other in the range.

On a machine without a GPU: every variant's source compiles with nvcc, and the kernels run on the CPU through the
CUDA emulation (tests/cuda_emu.py) under the real evaluator, which checks them at batch sizes it draws for each
candidate. On a GPU (pytest -m gpu tests/test_runtime_batch_cuda.py): the exported ModelNew is built once per family
and called at five batch sizes, each matching the reference and served by the kernel."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.shapes import Coverage
from contracts.vocabulary import Space
from engine.agents.expert.codegen.cuda_program import cuda_runtime_batch, cuda_source
from engine.agents.expert.codegen.runtime_batch import RuntimeBatch, programs_at_other_sizes
from engine.agents.expert.codegen.variants import FlatParams, RowParams, Variant
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.task.contract import write_contract
from engine.task.export import modelnew_source
from engine.task.spec import load_task
from tests.conftest import TASKS
from tests.cuda_emu import EMULATED_CALL_S
from tests.nvcc_kit import assert_all_compile, compile_command, nvcc
from tests.test_expert_rows import H200, emulated_rows
from tests.test_runtime_batch_cpu import FAMILIES, _call, _sizes

# The default variant, a split row (several blocks per row, partial results in the workspace), and a narrow
# streamed row with a two-vector pointwise loop: the three ways a row or element count enters the code.
VARIANTS = [Variant(transpose=None), Variant(row=RowParams(threads=64, split=3), transpose=None),
            Variant(flat=FlatParams(128, 4, 2), row=RowParams(threads=16, cache=False), transpose=None)]


def _general(task: Path, variant: Variant) -> tuple[object, str, RuntimeBatch]:
    spec = load_task(task)
    prog = lower(spec, convs=True)
    others = programs_at_other_sizes(spec, lambda s: lower(s, convs=True))
    assert not isinstance(others, str), others
    rb = cuda_runtime_batch(spec, prog, others, variant, H200)
    assert isinstance(rb, RuntimeBatch), rb
    return spec, cuda_source(spec, prog, variant, strategy="test", dev=H200, rb=rb), rb


@pytest.mark.skipif(nvcc() is None, reason="nvcc not found")
def test_every_familys_general_kernels_compile_with_nvcc(tmp_path: Path) -> None:
    jobs = []
    for family, name in FAMILIES.items():
        if family == "gemm epilogue":
            continue  # the CUDA products (cuBLAS, cuBLASLt, the tiled kernel) still take fixed sizes
        for i, v in enumerate(VARIANTS):
            spec, src, _ = _general(TASKS / name, v)
            d = tmp_path / family.replace(" ", "_")
            write_contract(spec, d)  # type: ignore[arg-type]
            f = d / f"v{i}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


def test_the_given_batch_runs_the_specialised_kernels_unchanged() -> None:
    """The general path is added beside the specialised one, not instead of it: at get_inputs()'s batch the code
    launches exactly the kernels the fixed-shape source has, so the verified shape's speed is untouched."""
    spec = load_task(TASKS / "expert_softmax.py")
    prog = lower(spec, convs=True)
    fixed = cuda_source(spec, prog, VARIANTS[0], strategy="test", dev=H200)
    _, src, rb = _general(TASKS / "expert_softmax.py", VARIANTS[0])
    fixed_kernels = fixed.split("__global__")[1:]
    assert all(k.split("\n}\n")[0] in src for k in fixed_kernels)
    assert f"if (hiera_nb == {rb.batch}) {{" in src and "hiera_stage0_any<<<" in src
    assert "x->sizes[0] != hiera_nb" in src and "x->sizes[0] != 128" not in src.split("hiera_forward")[1]


# One emulated candidate per family (the emulation runs a block's threads as OS threads, about a thousand times
# slower than a GPU: a split row of the softmax took 31 s a call on the loaded 2-core machine).
EMULATED = [("pointwise chain", 2), ("softmax", 0), ("reduction", 0), ("norm", 2)]


@pytest.mark.slow
@pytest.mark.parametrize("family,variant", EMULATED)
def test_the_general_kernels_are_valid_at_the_sizes_the_checker_draws(family: str, variant: int,
                                                                      tmp_path: Path) -> None:
    """Under the CUDA emulation, through the evaluator: valid at the given shapes and at every batch size drawn
    for the candidate (1 and twice the batch among them), so the file would serve 1 to 2B."""
    spec, src, _ = _general(TASKS / FAMILIES[family], VARIANTS[variant])
    cand = Candidate("general", CandidateKind.CPP, emulated_rows(src), Space.PURE_CUDA, origin="test:emulated")
    with Evaluator(spec, tmp_path, EvalSettings(device="cpu", timing_trials=3,  # type: ignore[arg-type]
                                                min_call_limit_s=EMULATED_CALL_S)) as ev:
        [o] = ev.evaluate([cand])
    b = spec.batch.size  # type: ignore[attr-defined]
    assert o.valid, o.reason
    assert o.shapes is not None and o.shapes.all_valid and o.shapes.drawn, o.shapes
    assert o.shapes.served == Coverage((1, 2 * b)), o.shapes


@pytest.mark.slow
def test_a_general_kernel_that_ignores_its_row_count_is_caught_at_the_drawn_sizes(tmp_path: Path) -> None:
    """The softmax's general kernel with its row count pinned to the given batch's: right at the given shapes (the
    specialised kernels serve them), wrong or past the end at every other size the checker draws."""
    spec, src, rb = _general(TASKS / "expert_softmax.py", VARIANTS[0])
    pinned = src.replace("const idx_t n_rows) {", f"const idx_t n_rows_given) {{\n    const idx_t n_rows = {rb.batch};"
                         "\n    (void)n_rows_given;")
    assert pinned != src
    cand = Candidate("pinned", CandidateKind.CPP, emulated_rows(pinned), Space.PURE_CUDA, origin="test:emulated")
    with Evaluator(spec, tmp_path, EvalSettings(device="cpu", timing_trials=3,  # type: ignore[arg-type]
                                                min_call_limit_s=EMULATED_CALL_S)) as ev:
        [o] = ev.evaluate([cand])
    assert o.valid, o.reason
    assert o.shapes is not None and not o.shapes.valid and o.shapes.served == Coverage(), o.shapes


@pytest.mark.gpu
@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "gemm epilogue"])
def test_on_a_gpu_the_exported_kernel_serves_five_batch_sizes(family: str, tmp_path: Path) -> None:
    task = tmp_path / FAMILIES[family]
    task.write_text((TASKS / FAMILIES[family]).read_text())
    spec, src, _ = _general(task, VARIANTS[0])
    b = spec.batch.size  # type: ignore[attr-defined]
    py = tmp_path / "exported.py"
    py.write_text(modelnew_source(spec, src, cuda=True, cover=Coverage((1, 2 * b))))  # type: ignore[arg-type]
    sizes = _sizes(b)
    rows, calls, err = _call(py, b, [*sizes, 2 * b + 1], tmp_path / "ext", device="cuda")
    assert all(r["ok"] for r in rows), rows
    assert [r["kernel"] for r in rows] == [True] * 5 + [False], (rows, err[-2000:])
    assert calls == {"kernel": 5, "reference": 1}
