"""The expert's CUDA kernels for pointwise chains, row stages (norms, softmax, logsumexp, reductions), products with
their epilogues and convolutions also take the batch at run time (issue 38): the kernels specialised to
get_inputs()'s shapes serve that batch unchanged, general kernels (the row or element count a kernel argument, the
grid sized when called; a product through cuBLAS told this call's M, or in the pure CUDA space the tiled kernel
told it; a tiled transpose walking its tiles grid-stride; a convolution through a cuDNN plan made for each batch
size met) any other in the range.

On a machine without a GPU: every variant's source compiles with nvcc, and the kernels run on the CPU through the
CUDA emulation (tests/cuda_emu.py) under the real evaluator, which checks them at batch sizes it draws for each
candidate. On a GPU (pytest -m gpu tests/test_runtime_batch_cuda.py): the exported ModelNew is built once per family
and called at five batch sizes, each matching the reference and served by the kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from contracts.shapes import Coverage
from contracts.vocabulary import Space
from engine.agents.expert.codegen.cuda_program import cuda_runtime_batch, cuda_source
from engine.agents.expert.codegen.runtime_batch import RuntimeBatch, programs_at_other_sizes
from engine.agents.expert.codegen.variants import FlatParams, GemmParams, RowParams, Variant
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.task.contract import write_contract
from engine.task.export import modelnew_source
from engine.task.spec import load_task
from tests.conftest import TASKS
from tests.cuda_emu import EMULATED_CALL_S
from tests.nvcc_kit import assert_all_compile, compile_command, cublas_include, nvcc
from tests.test_expert_rows import H200, emulated_rows
from tests.test_runtime_batch_cpu import FAMILIES, _call, _sizes

# The default variant, a split row (several blocks per row, partial results in the workspace), and a narrow
# streamed row with a two-vector pointwise loop: the three ways a row or element count enters the code.
VARIANTS = [Variant(transpose=None), Variant(row=RowParams(threads=64, split=3), transpose=None),
            Variant(flat=FlatParams(128, 4, 2), row=RowParams(threads=16, cache=False), transpose=None)]
# A product's ways to serve the given batch: cuBLAS, the tiled kernel with its epilogue fused in its store, cuBLASLt
# with the bias and ReLU folded into its call (the program rewritten), the 3xTF32 split. The general path is the
# same for all four: cuBLAS on the program as lowered.
GEMM_VARIANTS = [Variant(transpose=None),
                 Variant(gemm=GemmParams(impl="tiled", tile=(64, 64, 8, 4, 4)), transpose=None),
                 Variant(gemm=GemmParams(impl="cublaslt"), transpose=None),
                 Variant(gemm=GemmParams(impl="split_tf32"), transpose=None)]


# The CPU's families and, on CUDA only, convolutions through cuDNN (two convolutions with their epilogues).
CUDA_FAMILIES = {**FAMILIES, "convolution": "expert_conv_batched.py"}


def _general(task: Path, variant: Variant) -> tuple[object, str, RuntimeBatch]:
    spec = load_task(task)
    prog = lower(spec, convs=True)
    others = programs_at_other_sizes(spec, lambda s: lower(s, convs=True))
    assert not isinstance(others, str), others
    rb = cuda_runtime_batch(spec, prog, others, variant, H200)
    assert isinstance(rb, RuntimeBatch), rb
    return spec, cuda_source(spec, prog, variant, strategy="test", dev=H200, rb=rb), rb


def _compile_all(families: list[str], tmp_path: Path) -> None:
    jobs = []
    for family in families:
        name = CUDA_FAMILIES[family]
        for i, v in enumerate(GEMM_VARIANTS if family == "gemm epilogue" else VARIANTS):
            spec, src, _ = _general(TASKS / name, v)
            d = tmp_path / family.replace(" ", "_")
            write_contract(spec, d)  # type: ignore[arg-type]
            f = d / f"v{i}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


@pytest.mark.skipif(nvcc() is None, reason="nvcc not found")
def test_every_familys_general_kernels_compile_with_nvcc(tmp_path: Path) -> None:
    _compile_all([f for f in FAMILIES if f != "gemm epilogue"], tmp_path)


@pytest.mark.skipif(nvcc() is None or cublas_include() is None, reason="needs nvcc and cuBLAS headers")
def test_a_products_general_path_compiles_for_each_way_the_given_batch_is_served(tmp_path: Path) -> None:
    _compile_all(["gemm epilogue"], tmp_path)


@pytest.mark.skipif(nvcc() is None, reason="nvcc not found")
def test_a_convolutions_general_path_builds_and_links_against_cudnn(tmp_path: Path) -> None:
    from engine.evaluate import build as build_mod

    build_mod.cudnn_flags.cache_clear()
    if not build_mod.cudnn_flags():
        pytest.skip("no cudnn.h here (set CUDNN_HOME to an unpacked nvidia-cudnn wheel's nvidia/cudnn)")
    for task in ("expert_conv_batched.py", "expert_conv_block.py", "expert_conv_functional.py"):
        spec, src, _ = _general(TASKS / task, VARIANTS[0])
        cdir = tmp_path / spec.name / "contract"  # type: ignore[attr-defined]
        write_contract(spec, cdir)  # type: ignore[arg-type]
        cfg = build_mod.BuildConfig(cdir, tmp_path / spec.name / "cache", cuda_arch="90")  # type: ignore[attr-defined]
        res = build_mod.build_one(Candidate(task, CandidateKind.CUDA, src, Space.CUDA_LIBRARIES), cfg)
        assert res.ok and "warning" not in res.log.lower(), res.log[-2000:]


def test_a_convolutions_general_path_makes_a_plan_per_batch_size() -> None:
    """At the given batch the plan made once for it; at any other, one made for that size on its first call."""
    _, src, rb = _general(TASKS / "expert_conv_batched.py", VARIANTS[0])
    given, general = src.split("hiera_forward(")[1].split("} else {  // any other")
    assert "hiera_conv_plan0(hiera_dnn)" in given and "hiera_conv_plan2(hiera_dnn)" in given
    assert "hiera_conv_plan0_any(hiera_dnn, ((long long)hiera_nb * 1LL))" in general
    assert "hiera_conv_plan2_any(hiera_dnn, ((long long)hiera_nb * 1LL))" in general
    assert "static std::map<long long, HieraConvPlan0_any> plans;" in src
    assert "CUDNN_DATA_FLOAT, (int)n, 3, 12, 12" in src.split("hiera_conv_setup0_any")[1]
    assert rb.max_batch <= 2**31 - 1


def test_a_products_general_path_is_cublas_on_the_program_as_lowered_and_keeps_what_the_rewrites_dropped() -> None:
    """cuBLASLt's folded bias and ReLU (the lowered epilogue stage gone from the rewritten program) and the tiled
    kernel's fused store (the product's temporary gone) serve the given batch; at any other, cuBLAS writes the
    product into its temporary, sized for the call, and the epilogue stage runs as lowered."""
    for v in GEMM_VARIANTS:
        _, src, rb = _general(TASKS / FAMILIES["gemm epilogue"], v)
        given, general = src.split("hiera_forward(")[1].split("} else {  // any other")
        assert f"if (hiera_nb == {rb.batch})" in given
        assert "cublasSgemm(hiera_h, CUBLAS_OP_T, CUBLAS_OP_N, 160, (int)((long long)hiera_nb * 1LL), 192" in general
        assert "hiera_stage1_any<<<" in general and "p_tmp0" in general
        assert "float* p_tmp0 = hiera_ws + 0;" in src and "(size_t)hiera_nb * 160ull" in src
        assert rb.max_batch <= (2**31 - 1)  # cuBLAS's int M
    lt = _general(TASKS / FAMILIES["gemm epilogue"], GEMM_VARIANTS[2])[1]
    assert "cublasLtMatmul(" in lt.split("} else {")[0] and "RELU_BIAS" in lt


# Products in the pure CUDA space: M following the batch (a Linear), and a batched product whose count does.
PURE_PRODUCTS = [FAMILIES["gemm epilogue"], "expert_bmm_batched.py"]
TILED = GEMM_VARIANTS[1]


def _pure(task: str) -> tuple[object, str, RuntimeBatch]:
    from engine.agents.expert.generate import cuda_batch

    spec = load_task(TASKS / task)
    prog = lower(spec, convs=True)
    rb = cuda_batch(spec, prog, TILED, H200, libraries=False)
    assert isinstance(rb, RuntimeBatch), rb
    return spec, cuda_source(spec, prog, TILED, strategy="test", dev=H200, rb=rb, pure=True), rb


def test_a_product_in_the_pure_cuda_space_takes_the_batch_through_its_own_tiled_kernel() -> None:
    """Where the space allows no libraries the general path's product is the variant's tiled kernel taking the
    batch (its rows, or its batch count, the kernel's argument; the grid sized from it), its epilogue the stage
    as lowered after it: no library in the source, and the batch capped where the grid would overflow."""
    from engine.agents.expert.codegen.gemm import GRID_YZ

    _, src, rb = _pure(FAMILIES["gemm epilogue"])
    given, general = src.split("hiera_forward(")[1].split("} else {  // any other")
    assert "cublas" not in src.lower() and "hiera_stage0<<<" in given
    assert "hiera_stage0_any<<<dim3(3, (unsigned)((hiera_n + 63) / 64), 1)" in general
    assert "hiera_stage1_any<<<" in general and "if (m >= extent_n) break;" in src
    assert rb.max_batch == GRID_YZ * 64  # M's tiles in the grid's y
    _, src, rb = _pure("expert_bmm_batched.py")
    general = src.split("} else {  // any other")[1]
    assert "cublas" not in src.lower() and "dim3(1, 1, (unsigned)hiera_n)" in general
    assert rb.max_batch == GRID_YZ  # the batch count in the grid's z
    # with libraries allowed, the general path's product is cuBLAS (claimed in cuda_libraries)
    assert "cublasSgemm" in _general(TASKS / FAMILIES["gemm epilogue"], TILED)[1]


# Tiled transposes (the default variant's tiles) whose plane leaves the batch out: a batched transpose, and an
# NCHW -> NHWC permute with a bias (two batch dims, the batch and H).
TRANSPOSES = ["expert_transpose.py", "expert_permute_bias_relu.py"]


def test_a_tiled_transpose_takes_the_batch_walking_its_tiles_grid_stride() -> None:
    """The general path's transpose is the tiled kernel, its tile count from this call's elements; each block walks
    tiles grid-stride, with a barrier between tiles (the next tile's reads overwrite the shared memory)."""
    for task in TRANSPOSES:
        _, src, _ = _general(TASKS / task, Variant())
        general = src.split("} else {  // any other")[1]
        assert "hiera_stage0_any<<<(unsigned)g, dim3(32, 8)" in general, general
        kernel = src.split("hiera_stage0_any(")[1].split("\n}\n")[0]
        assert "for (idx_t tile = blockIdx.x; tile < tiles; tile += gridDim.x)" in kernel
        assert kernel.count("__syncthreads();") == 2 and "__shared__ float s0" in kernel


# The kernels of the pure CUDA space that take the batch beside the row and pointwise ones: the tiled product
# (both tasks with TILED), the tiled transpose (the default variant's tiles).
TILED_KERNELS = [(task, "product") for task in PURE_PRODUCTS] + [(task, "transpose") for task in TRANSPOSES]


def _tiled(task: str, kind: str) -> tuple[object, str, RuntimeBatch]:
    return _pure(task) if kind == "product" else _general(TASKS / task, Variant())


@pytest.mark.skipif(nvcc() is None, reason="nvcc not found")
def test_the_tiled_kernels_general_paths_compile_with_nvcc(tmp_path: Path) -> None:
    jobs = []
    for task, kind in TILED_KERNELS:
        spec, src, _ = _tiled(task, kind)
        d = tmp_path / f"{kind}_{task.removesuffix('.py')}"
        write_contract(spec, d)  # type: ignore[arg-type]
        f = d / "general.cu"
        f.write_text(src)
        jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


@pytest.mark.slow
@pytest.mark.parametrize("task,kind", TILED_KERNELS)
def test_the_tiled_kernels_general_paths_are_valid_at_the_sizes_the_checker_draws(task: str, kind: str,
                                                                                  tmp_path: Path) -> None:
    """Under the CUDA emulation, through the evaluator, in the pure CUDA space: the tiled kernel taking the batch
    is valid at every size drawn for it, so the file may serve 1 to 2B."""
    spec, src, _ = _tiled(task, kind)
    o: Any = _emulated(spec, src, Space.PURE_CUDA, tmp_path)
    b = spec.batch.size  # type: ignore[attr-defined]
    assert o.valid, o.reason
    assert o.shapes is not None and o.shapes.all_valid and o.shapes.drawn, o.shapes
    assert o.shapes.coverage == Coverage((1, 2 * b)), o.shapes


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


def _emulated(spec: object, src: str, space: Space, tmp_path: Path) -> object:
    """The source under the CPU emulation through the real evaluator: its outcome (checked at drawn sizes)."""
    cand = Candidate("emulated", CandidateKind.CPP, emulated_rows(src), space, origin="test:emulated")
    with Evaluator(spec, tmp_path, EvalSettings(device="cpu", timing_trials=3,  # type: ignore[arg-type]
                                                min_call_limit_s=EMULATED_CALL_S)) as ev:
        [o] = ev.evaluate([cand])
    return o


# One emulated candidate per family (the emulation runs a block's threads as OS threads, about a thousand times
# slower than a GPU: a split row of the softmax took 31 s a call on the loaded 2-core machine).
EMULATED = [("pointwise chain", 2), ("softmax", 0), ("reduction", 0), ("norm", 2),
            # a product: cuBLAS at the given batch and at the others; cuBLASLt with its folded epilogue at the given
            ("gemm epilogue", 0), ("gemm epilogue", 2), ("convolution", 0)]


@pytest.mark.slow
@pytest.mark.parametrize("family,variant", EMULATED)
def test_the_general_kernels_are_valid_at_the_sizes_the_checker_draws(family: str, variant: int,
                                                                      tmp_path: Path) -> None:
    """Under the CUDA emulation, through the evaluator: valid at the given shapes and at every batch size drawn
    for the candidate (1 and twice the batch among them), so the file may serve 1 to 2B."""
    spec, src, _ = _general(TASKS / CUDA_FAMILIES[family],
                            (GEMM_VARIANTS if family == "gemm epilogue" else VARIANTS)[variant])
    space = Space.CUDA_LIBRARIES if family in ("gemm epilogue", "convolution") else Space.PURE_CUDA
    o: Any = _emulated(spec, src, space, tmp_path)
    b = spec.batch.size  # type: ignore[attr-defined]
    assert o.valid, o.reason
    assert o.shapes is not None and o.shapes.all_valid and o.shapes.drawn, o.shapes
    # valid from 1 to 2B (what it serves also weighs its speed against eager's, which the emulation, thousands of
    # times slower than a GPU, says nothing about)
    assert o.shapes.coverage == Coverage((1, 2 * b)), o.shapes


def _caught_above_the_given_batch(shapes: Any, batch: int) -> None:
    """A kernel pinned to the given batch: every drawn size above it is found not valid (2B is always drawn),
    and what the exported file serves with the kernel stops at the given batch."""
    assert shapes is not None and shapes.drawn, shapes
    above = [c for c in shapes.checks if c.batch > batch]
    assert above and all(c.status != "valid" for c in above), shapes
    served = shapes.served.batch_range
    assert served is None or served[1] <= batch, shapes


@pytest.mark.slow
def test_a_general_kernel_that_ignores_its_row_count_is_caught_at_the_drawn_sizes(tmp_path: Path) -> None:
    """The softmax's general kernel with its row count pinned to the given batch's: right at the given shapes (the
    specialised kernels serve them), wrong at every drawn size above the given batch (rows past it are never
    computed). Below it the launch geometry comes from the real row count, so a size may well be right (CI drew 88
    of 128 and it was) or write past the end (caught by the canary or the crash); either way nothing past the
    given batch is served."""
    spec, src, rb = _general(TASKS / "expert_softmax.py", VARIANTS[0])
    pinned = src.replace("const idx_t n_rows) {", f"const idx_t n_rows_given) {{\n    const idx_t n_rows = {rb.batch};"
                         "\n    (void)n_rows_given;")
    assert pinned != src
    o: Any = _emulated(spec, pinned, Space.PURE_CUDA, tmp_path)
    assert o.valid, o.reason
    _caught_above_the_given_batch(o.shapes, rb.batch)


@pytest.mark.slow
def test_a_general_product_told_the_given_m_is_caught_at_the_drawn_sizes(tmp_path: Path) -> None:
    """The product's general path with M pinned to the given batch's (cuBLAS then multiplies the given rows, and the
    epilogue reads a product half-written or past what was computed): right at the given shapes, never served
    above them."""
    spec, src, rb = _general(TASKS / FAMILIES["gemm epilogue"], GEMM_VARIANTS[0])
    pinned = src.replace("(int)((long long)hiera_nb * 1LL)", f"(int){rb.batch}")
    assert pinned != src
    o: Any = _emulated(spec, pinned, Space.CUDA_LIBRARIES, tmp_path)
    assert o.valid, o.reason
    _caught_above_the_given_batch(o.shapes, rb.batch)


@pytest.mark.gpu
@pytest.mark.parametrize("family,variant", [(f, 0) for f in CUDA_FAMILIES] + [("gemm epilogue", i) for i in (1, 2, 3)])
def test_on_a_gpu_the_exported_kernel_serves_five_batch_sizes(family: str, variant: int, tmp_path: Path) -> None:
    task = tmp_path / CUDA_FAMILIES[family]
    task.write_text((TASKS / CUDA_FAMILIES[family]).read_text())
    spec, src, _ = _general(task, (GEMM_VARIANTS if family == "gemm epilogue" else VARIANTS)[variant])
    _serves_five_sizes_on_the_gpu(spec, src, tmp_path)


def _serves_five_sizes_on_the_gpu(spec: Any, src: str, tmp_path: Path) -> None:
    """The exported ModelNew's kernel serves 1, an odd size, the given batch, twice it and a prime, and leaves one
    past its range (1 to 2B) to the reference's forward."""
    b = spec.batch.size
    py = tmp_path / "exported.py"
    py.write_text(modelnew_source(spec, src, cuda=True, cover=Coverage((1, 2 * b))))
    rows, calls, err = _call(py, b, [*_sizes(b), 2 * b + 1], tmp_path / "ext", device="cuda")
    assert all(r["ok"] for r in rows), rows
    assert [r["kernel"] for r in rows] == [True] * 5 + [False], (rows, err[-2000:])
    assert calls == {"kernel": 5, "reference": 1}


@pytest.mark.gpu
@pytest.mark.parametrize("task,kind", TILED_KERNELS)
def test_on_a_gpu_the_tiled_kernels_exported_file_serves_five_batch_sizes(task: str, kind: str,
                                                                         tmp_path: Path) -> None:
    """The pure CUDA space's tiled product and the tiled transpose, taking the batch, on a GPU: the exported
    ModelNew's kernel serves five batch sizes (1, an odd one, the given one, twice it, a prime) and refuses one past
    its range (the reference's forward serves it)."""
    spec, src, _ = _tiled(task, kind)
    _serves_five_sizes_on_the_gpu(spec, src, tmp_path)
