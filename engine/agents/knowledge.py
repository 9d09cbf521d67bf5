"""Knowledge base E: for each direction, the strategies available in each implementation space.

Data, not code: the LLM prompts quote it and the expert backend's planner chooses from it. An entry is
valid in its `min_space` and every larger space (spaces are nested). `needs` names conditions the run must
meet ("gpu": a CUDA device; "tf32": the tf32 precision policy). `fits` names the workload kinds it helps
(see engine/agents/expert/analysis.py), "any" for all.
"""

from __future__ import annotations

from dataclasses import dataclass

from contracts.vocabulary import Direction, Space


@dataclass(frozen=True)
class Entry:
    key: str
    direction: Direction
    min_space: Space
    title: str
    description: str
    needs: frozenset[str] = frozenset()
    fits: frozenset[str] = frozenset({"any"})

    def valid_in(self, space: Space, *, gpu: bool, tf32: bool) -> bool:
        if not space.allows(self.min_space):
            return False
        if "gpu" in self.needs and not gpu:
            return False
        return not ("tf32" in self.needs and not tf32)


_P, _L, _T = Space.PURE_CUDA, Space.CUDA_LIBRARIES, Space.LIBRARIES_PYTORCH
C, P, M, R, T = Direction.C, Direction.P, Direction.M, Direction.R, Direction.T

ENTRIES: tuple[Entry, ...] = (
    # --- C: control flow and boundary specialization
    Entry("C.boundary_split", C, _P, "Split the bulk from the tail",
          "Run the full tiles/vectors without bounds checks and handle the ragged tail in a separate path, "
          "so the inner loop has no per-element branch.", fits=frozenset({"pointwise", "reduction", "gemm"})),
    Entry("C.branch_free", C, _P, "Branch-free inner loops",
          "Replace data-dependent branches (clamps, activations, masks) with selects/fmin/fmax so warps do "
          "not diverge."),
    Entry("C.specialize_shapes", C, _P, "Specialize on compile-time shapes",
          "Make the reduced dimension and vector width template parameters so loops unroll fully."),
    # --- P: parallelism
    Entry("P.grid_block_shape", P, _P, "Grid and block shape",
          "Size blocks to a multiple of 32 threads and the grid to several waves of the SM count; "
          "grid-stride loops for the remainder.", needs=frozenset({"gpu"})),
    Entry("P.rows_per_block", P, _P, "Rows per block / warps per row",
          "For row-wise work choose one warp per short row or one block per long row; several rows per "
          "block when rows are short.", fits=frozenset({"reduction"})),
    Entry("P.work_per_thread", P, _P, "Work per thread",
          "Give each thread several elements (ILP) to hide latency; balance against occupancy."),
    Entry("P.cpu_threads", P, _P, "Thread-level parallelism on the CPU",
          "Parallelize the outer loop with OpenMP and keep the inner loop vectorizable."),
    Entry("P.cuda_graph", P, _T, "CUDA-graph capture of the forward",
          "Capture the whole forward once and replay it: removes per-launch overhead of many small "
          "kernels.", needs=frozenset({"gpu"}), fits=frozenset({"launch_bound", "composite"})),
    # --- M: memory transactions
    Entry("M.coalesce", M, _P, "Coalesced access",
          "Consecutive threads touch consecutive addresses; transpose through shared memory when the "
          "natural order is strided.", fits=frozenset({"pointwise", "data_movement", "reduction", "stencil"})),
    Entry("M.vectorize_16B", M, _P, "16-byte vector access",
          "Load and store float4 (16 bytes) per thread when sizes and alignment allow; scalar tail.",
          fits=frozenset({"pointwise", "reduction", "data_movement"})),
    Entry("M.smem_transpose", M, _P, "Shared-memory tiled transpose",
          "When reads are strided along the output's last dim (a transpose/permute made contiguous), move "
          "tile x tile squares through shared memory (+1 padding column or XOR swizzle against bank "
          "conflicts): reads coalesced along the source's contiguous dim, writes along the output's.",
          needs=frozenset({"gpu"}), fits=frozenset({"data_movement", "pointwise"})),
    Entry("M.smem_padding", M, _P, "Pad shared memory against bank conflicts",
          "Pad each shared-memory row by one element (or swizzle) so a warp's accesses hit 32 banks.",
          needs=frozenset({"gpu"}), fits=frozenset({"data_movement", "gemm"})),
    Entry("M.channels_last", M, _T, "channels_last memory format",
          "Run convolutions in NHWC, the layout cuDNN's fastest kernels use.", needs=frozenset({"gpu"}),
          fits=frozenset({"conv"})),
    # --- R: reuse and pipelining
    Entry("R.fuse_pointwise", R, _P, "Fuse the pointwise chain",
          "One kernel reads each input once and writes each output once; intermediates stay in registers.",
          fits=frozenset({"pointwise", "composite"})),
    Entry("R.fuse_reduction", R, _P, "Single-pass row reduction",
          "Keep a row in registers/shared memory and do max, sum and normalize in one pass "
          "(online softmax / Welford), warp shuffles for the reductions.", fits=frozenset({"reduction"})),
    Entry("R.smem_tiling", R, _P, "Shared-memory tiling",
          "Tile the GEMM/conv operands into shared memory so each global element is read once per tile "
          "(a stencil: the output tile plus its halo).", needs=frozenset({"gpu"}), fits=frozenset({"gemm", "stencil"})),
    Entry("R.register_blocking", R, _P, "Register blocking",
          "Each thread computes a small output tile held in registers (outer products from shared memory; a "
          "stencil: several outputs along one axis, each loaded value reused across them).",
          fits=frozenset({"gemm", "stencil"})),
    Entry("R.double_buffer", R, _P, "Double buffering with cp.async",
          "Overlap the next tile's global->shared copy with the current tile's math.",
          needs=frozenset({"gpu"}), fits=frozenset({"gemm"})),
    Entry("R.library_epilogue", R, _L, "Library call + fused epilogue",
          "Keep the GEMM/conv in cuBLAS/cuDNN and fuse everything after it into one generated kernel.",
          needs=frozenset({"gpu"}), fits=frozenset({"gemm", "conv", "composite"})),
    Entry("R.cpu_blocking", R, _P, "Cache blocking on the CPU",
          "Block loops so the working set stays in L1/L2; keep the inner loop contiguous for SIMD.",
          fits=frozenset({"gemm"})),
    Entry("R.torch_compile", R, _T, "torch.compile (Inductor) fusion",
          "Let Inductor fuse the graph's pointwise and reduction ops; modes default, max-autotune.",
          fits=frozenset({"pointwise", "reduction", "composite", "gemm", "conv", "data_movement", "stencil"})),
    Entry("R.fused_attention", R, _T, "Fused attention (scaled_dot_product_attention)",
          "Rewrite hand-written attention, softmax(q @ k^T * scale [masked]) @ v, into PyTorch's "
          "scaled_dot_product_attention (flash / memory-efficient kernels): the L x S scores stay on chip instead "
          "of being written and read three times; a causal mask from the module's buffers becomes is_causal. The "
          "rest of the forward runs as written (a TorchDynamo capture, no Inductor compile).",
          fits=frozenset({"any"})),
    # --- T: tensor cores and instruction pipeline
    Entry("T.cublas_sgemm", T, _L, "cuBLAS SGEMM (strict fp32)",
          "Call cuBLAS/cuBLASLt with CUBLAS_COMPUTE_32F (no TF32): the best strict-fp32 GEMM there is.",
          needs=frozenset({"gpu"}), fits=frozenset({"gemm"})),
    Entry("T.split_tf32", T, _L, "3xTF32 split GEMM (fp32-accurate tensor cores)",
          "Split each fp32 operand into a TF32 high part (round to nearest) and a TF32 low part (the residual, "
          "rounded) in one small kernel, then hi*hi + hi*lo + lo*hi on the TF32 tensor cores with fp32 "
          "accumulation: cuBLASLt CUBLAS_COMPUTE_32F_FAST_TF32 over the split copies (the two small terms as one "
          "product over 2K, then the large one with beta = 1 and the bias/ReLU epilogue), or mma.sync tf32 with "
          "the split in registers. hi + lo keep about 22 bits, but the tensor cores' fp32 accumulation is not "
          "rounded to nearest: on an H200 the cuBLASLt route is 2-12x SGEMM's error, passes the strict fp32 "
          "check on typical layers (2.1-2.6x over SGEMM) and can miss it on large products of unscaled data; "
          "keep an SGEMM candidate beside it. Pays on compute-bound products.", needs=frozenset({"gpu"}),
          fits=frozenset({"gemm", "composite"})),
    Entry("T.tf32_tensor_cores", T, _L, "TF32 tensor cores",
          "cuBLASLt with CUBLAS_COMPUTE_32F_FAST_TF32, or mma.sync m16n8k8 tf32: only under the tf32 "
          "policy, recorded with the result.", needs=frozenset({"gpu", "tf32"}), fits=frozenset({"gemm", "conv"})),
    Entry("T.fast_math", T, _P, "Cheaper instructions",
          "Use exp2f/fmaf, precomputed reciprocals and fused multiply-adds; keep accuracy within tolerance."),
    Entry("T.cudnn_algos", T, _L, "cuDNN convolution algorithms",
          "Call cuDNN's convolution directly and choose among its algorithms (the fastest timed once per shape, "
          "or one by name) with FMA math under strict fp32; the ops after it in one generated kernel.",
          needs=frozenset({"gpu"}), fits=frozenset({"conv", "composite"})),
    Entry("T.cudnn_benchmark", T, _T, "cuDNN autotuning",
          "torch.backends.cudnn.benchmark = True picks the fastest convolution algorithm per shape.",
          needs=frozenset({"gpu"}), fits=frozenset({"conv", "stencil"})),
)


def strategies(direction: Direction, space: Space, *, gpu: bool, tf32: bool, kind: str = "any") -> list[Entry]:
    """Entries for a direction that are valid in a space and (when kind is given) fit the workload."""
    out = [e for e in ENTRIES if e.direction is direction and e.valid_in(space, gpu=gpu, tf32=tf32)]
    if kind != "any":
        fitting = [e for e in out if "any" in e.fits or kind in e.fits]
        out = fitting or out
    return out


def entry(key: str) -> Entry:
    for e in ENTRIES:
        if e.key == key:
            return e
    raise KeyError(key)


def as_prompt_text(space: Space, *, gpu: bool, tf32: bool) -> str:
    """The knowledge base as compact text for a prompt: per direction, the strategies valid in `space`."""
    lines = []
    for d in Direction:
        es = strategies(d, space, gpu=gpu, tf32=tf32)
        if not es:
            continue
        lines.append(f"{d.value} ({d.title}):")
        lines += [f"  - {e.key}: {e.title}. {e.description}" for e in es]
    return "\n".join(lines)
