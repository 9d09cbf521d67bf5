"""The knobs one generated candidate is made of: a variant is a point in this small design space.

Zero means "let the generator's heuristic choose" (from the row length, the element count, ...), so a
variant can pin the knob its strategy is about and leave the others sensible.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FlatParams:
    """Fused pointwise kernels: a grid-stride loop over vectors of `vec` elements."""

    block: int = 256  # threads per block
    vec: int = 4  # elements per vector access (4 = float4, 16 bytes)
    ilp: int = 1  # vectors per thread per loop trip (independent loads in flight)
    grid_cap: int = 0  # at most this many blocks per SM of the device (0: one vector per thread, no cap)

    def label(self) -> str:
        cap = f" grid<={self.grid_cap}/SM" if self.grid_cap else ""
        return f"block {self.block}, vec {self.vec}, ilp {self.ilp}{cap}"


@dataclass(frozen=True)
class RowParams:
    """Row kernels: `threads` threads cooperate on one row, `rows_per_block` rows per block."""

    threads: int = 0  # threads per row: 1, 2 .. 32 (warp shuffles only) or 64 .. 1024 (+ shared memory)
    rows_per_block: int = 0  # 0: heuristic (1 for threads > 32)
    vec: int = 4  # float4 access along the row when the row length allows
    cache: bool = True  # keep the row's inputs in registers across passes (one read of global memory)
    scale: float = 1.0  # multiplies the heuristic's threads per row (0.5: fewer, wider-ILP threads)
    split: int = 0  # blocks per row: 0 from the device (split when the rows cannot fill it), 1 never, N forced
    online: bool = True  # streamed rows: one-pass (online) statistics where the exact form takes two passes

    def label(self) -> str:
        t = f"{self.threads}" if self.threads else (f"auto x{self.scale:g}" if self.scale != 1 else "auto")
        rpb = f", {self.rows_per_block} rows/block" if self.rows_per_block else ""
        split = "" if self.split == 0 else ", rows whole" if self.split == 1 else f", {self.split} blocks/row"
        online = "" if self.online else ", two-pass statistics"
        return f"threads/row {t}{rpb}, vec {self.vec}, {'registers' if self.cache else 're-read'}{split}{online}"


@dataclass(frozen=True)
class GemmParams:
    """Matrix products: a library call or the generated tiled kernel."""

    impl: str = "cublas"  # cublas | cublaslt | tiled | split_tf32 (3xTF32 on cuBLASLt: codegen/gemm_split.py)
    algo: int = 0  # cuBLASLt: index into the heuristic's ranked algorithms
    tile: tuple[int, int, int, int, int] = (128, 128, 8, 8, 8)  # tiled: BM, BN, BK, TM, TN
    lt_epilogue: bool = True  # cuBLASLt: fold a bias (+ReLU) epilogue into the library call
    fuse_epilogue: bool = True  # tiled: apply the following pointwise stage in the GEMM's store
    form: str = "2+1"  # split_tf32: "2+1" (small terms over 2K, then the large one) or "3k" (one product)
    split_vec: bool = True  # split_tf32: float4 in the split kernel where the shapes allow

    def label(self) -> str:
        if self.impl == "tiled":
            bm, bn, bk, tm, tn = self.tile
            return f"tiled SGEMM {bm}x{bn}x{bk}, {tm}x{tn}/thread" + (", fused epilogue" if self.fuse_epilogue else "")
        if self.impl == "split_tf32":
            return (f"3xTF32 split ({self.form}) on cuBLASLt algo #{self.algo}"
                    + (" + bias epilogue" if self.lt_epilogue else "") + ("" if self.split_vec else ", scalar split"))
        if self.impl == "cublaslt":
            return f"cuBLASLt algo #{self.algo}" + (" + bias epilogue" if self.lt_epilogue else "")
        return "cublasSgemm"


@dataclass(frozen=True)
class ConvParams:
    """Convolutions through cuDNN: how the algorithm is chosen, once per shape, on the first call."""

    # find: time every algorithm cuDNN offers and take the fastest (cudnnFindConvolutionForwardAlgorithm);
    # find_exact: the same among the sum-of-products algorithms only (no FFT or Winograd rounding);
    # heuristic: cuDNN's own first guess, no timing (cudnnGetConvolutionForwardAlgorithm_v7);
    # or one algorithm by name (implicit_gemm, implicit_precomp_gemm, gemm, fft, fft_tiling, winograd,
    # winograd_nonfused), a candidate that fails when cuDNN has no kernel for it at this shape.
    algo: str = "find"

    def label(self) -> str:
        return {"find": "cuDNN fastest measured algorithm", "heuristic": "cuDNN heuristic algorithm",
                "find_exact": "cuDNN fastest measured GEMM-family algorithm"}.get(self.algo,
                                                                             f"cuDNN algorithm {self.algo}")


@dataclass(frozen=True)
class TransposeParams:
    """Tiled transposes (stages whose reads are strided along the output's last dim): a tile x tile square of
    the swapped plane goes through shared memory, read coalesced along one dim and written along the other."""

    tile: int = 32  # 32 or 64: the square each block moves
    rows: int = 8  # threadIdx.y extent (threadIdx.x is one warp, 32): tile*tile/(32*rows) elements per thread
    swizzle: bool = False  # XOR-swizzled columns instead of the +1 padding column against bank conflicts

    def label(self) -> str:
        per = self.tile * self.tile // (32 * self.rows)
        return (f"transpose tile {self.tile}x{self.tile}, block 32x{self.rows} ({per}/thread), "
                f"{'xor swizzle' if self.swizzle else 'pad +1'}")


@dataclass(frozen=True)
class Variant:
    flat: FlatParams = field(default_factory=FlatParams)
    row: RowParams = field(default_factory=RowParams)
    gemm: GemmParams = field(default_factory=GemmParams)
    # Stages that read transposed go through the tiled transpose by default; None: the flat gather kernel
    # (strided reads), kept as the plain fallback.
    transpose: TransposeParams | None = field(default_factory=TransposeParams)
    conv: ConvParams = field(default_factory=ConvParams)

    def label(self, parts: tuple[str, ...] = ("flat", "row", "gemm")) -> str:
        out = []
        if "conv" in parts:
            out.append(self.conv.label())
        if "transpose" in parts:
            out.append(self.transpose.label() if self.transpose else "transpose as a strided gather")
        if "gemm" in parts:
            out.append(self.gemm.label())
        if "row" in parts:
            out.append(self.row.label())
        if "flat" in parts:
            out.append(self.flat.label())
        return "; ".join(out)
