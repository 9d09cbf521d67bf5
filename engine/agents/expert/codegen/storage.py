"""How generated code reads and writes a buffer of each floating storage type (issue 43).

The generators' arithmetic is fp32 whatever the module's precision: a bf16 or fp16 buffer is widened to float
on every load (exact: both fit in a float) and rounded to nearest even on every store. That is what PyTorch's
own kernels do inside one operator (and its reductions and products accumulate in fp32); a fused kernel
differs from eager only in not rounding the intermediates between operators to bf16, which makes it more
accurate than the reference, never less. Temporaries stay fp32 unless a library call needs them in the
operands' type (codegen/cuda_program.py).

`ld(prog, name, ref)` wraps a C lvalue of buffer `name` (e.g. "p_x[i]") into a float expression, `st` writes a
float into one; fp32 buffers get the text they always had, so an fp32 program's code is unchanged. The two
targets spell the same helpers: `hiera_ld(x)` (overloaded per storage type) and `hiera_to_bf16(f)`,
`hiera_to_half(f)`, from CPU_HALF (C++, no library) or CUDA_HALF (cuda_bf16.h / cuda_fp16.h).
"""

from __future__ import annotations

from engine.agents.expert.ir import Program

HALF = ("bfloat16", "float16")
FLOATS = ("float32", *HALF)
C_TYPE = {
    "cpu": {"float32": "float", "bfloat16": "hiera_bf16", "float16": "hiera_half"},
    "cuda": {"float32": "float", "bfloat16": "__nv_bfloat16", "float16": "__half"},
}
TO = {"bfloat16": "hiera_to_bf16", "float16": "hiera_to_half"}
# CUDA's packed pair of each half type, and its conversions from and to float2.
PAIR = {"bfloat16": ("__nv_bfloat162", "__bfloat1622float2", "__floats2bfloat162_rn"),
        "float16": ("__half2", "__half22float2", "__floats2half2_rn")}


def dtype(prog: Program, name: str) -> str:
    return prog.buffer(name).dtype


def is_half(prog: Program, name: str) -> bool:
    return dtype(prog, name) in HALF


def has_half(prog: Program) -> bool:
    return any(b.dtype in HALF for b in prog.buffers)


def c_type(prog: Program, name: str, target: str) -> str:
    """The C element type of buffer `name` on `target` ("cpu" | "cuda")."""
    d = dtype(prog, name)
    if d not in C_TYPE[target]:
        raise ValueError(f"buffer {name} is {d}; the generators store float32, bfloat16 and float16")
    return C_TYPE[target][d]


def ld(prog: Program, name: str, ref: str) -> str:
    """A float expression of the element `ref` (an lvalue of buffer `name`)."""
    return f"hiera_ld({ref})" if is_half(prog, name) else ref


def st(prog: Program, name: str, ref: str, value: str) -> str:
    """The assignment of float `value` to the element `ref` of buffer `name` (no semicolon)."""
    d = dtype(prog, name)
    return f"{ref} = {TO[d]}({value})" if d in HALF else f"{ref} = {value}"


CPU_HALF = r"""
// bf16 and fp16 storage: widened to float on load (exact), rounded to nearest even on store; all arithmetic
// is fp32. Two distinct types, so hiera_ld picks the conversion by overload.
struct hiera_bf16 { uint16_t bits; };
struct hiera_half { uint16_t bits; };
static inline float hiera_ld(float x) { return x; }
static inline float hiera_ld(hiera_bf16 x) { return __builtin_bit_cast(float, (uint32_t)x.bits << 16); }
static inline hiera_bf16 hiera_to_bf16(float f) {
    const uint32_t u = __builtin_bit_cast(uint32_t, f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return hiera_bf16{(uint16_t)((u >> 16) | 0x40u)};  // NaN stays NaN
    return hiera_bf16{(uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16)};
}
#if defined(__FLT16_MAX__) && !defined(HIERA_SOFT_HALF)
// The compiler's own half type: F16C's vcvtph2ps/vcvtps2ph where -march=native has them.
static inline float hiera_ld(hiera_half x) { return (float)__builtin_bit_cast(_Float16, x.bits); }
static inline hiera_half hiera_to_half(float f) { return hiera_half{__builtin_bit_cast(uint16_t, (_Float16)f)}; }
#else
static inline float hiera_ld(hiera_half x) {
    const uint32_t h = x.bits, sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return __builtin_bit_cast(float, sign | 0x7f800000u | (m << 13));
    if (e != 0) return __builtin_bit_cast(float, sign | ((e + 112u) << 23) | (m << 13));
    const float sub = (float)m * 5.9604644775390625e-08f;  // m * 2^-24
    return sign ? -sub : sub;
}
static inline hiera_half hiera_to_half(float f) {
    const uint32_t u = __builtin_bit_cast(uint32_t, f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return hiera_half{(uint16_t)(sign | 0x7e00u)};
    if (a >= 0x477ff000u) return hiera_half{(uint16_t)(sign | 0x7c00u)};  // rounds to infinity
    if (a < 0x38800000u) {  // a half subnormal (or zero): m * 2^-24, rounded to nearest even
        const float v = __builtin_bit_cast(float, a) * 16777216.0f;
        const uint32_t r = (uint32_t)__builtin_rintf(v);
        return hiera_half{(uint16_t)(sign | r)};
    }
    const uint32_t b = a + 0xfffu + ((a >> 13) & 1u) - (112u << 23);
    return hiera_half{(uint16_t)(sign | (b >> 13))};
}
#endif
"""

CUDA_HALF = r"""
#include <cuda_bf16.h>
#include <cuda_fp16.h>
// bf16 and fp16 storage: widened to float on load, rounded to nearest even on store; all arithmetic is fp32.
__device__ __forceinline__ float hiera_ld(float x) { return x; }
__device__ __forceinline__ float hiera_ld(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float hiera_ld(__half x) { return __half2float(x); }
__device__ __forceinline__ __nv_bfloat16 hiera_to_bf16(float f) { return __float2bfloat16_rn(f); }
__device__ __forceinline__ __half hiera_to_half(float f) { return __float2half_rn(f); }
"""


def vtype(vec: int) -> str:
    """The float vector a vector access of `vec` elements yields: lanes .x .y (.z .w)."""
    return {2: "float2", 4: "float4"}[vec]


def vload(prog: Program, name: str, ptr: str, vec: int) -> str:
    """A float2/float4 expression of the `vec` elements of buffer `name` from pointer expression `ptr` on: one
    8- or 16-byte load of fp32, or of packed halves (hiera_ld2/hiera_ld4: 4 or 8 bytes, widened)."""
    if is_half(prog, name):
        return f"hiera_ld{vec}({ptr})"
    return f"*reinterpret_cast<const {vtype(vec)}*>({ptr})"


def vstore(prog: Program, name: str, ptr: str, vec: int, vals: list[str]) -> str:
    """The statement writing `vals` (vec floats) to the elements from pointer expression `ptr` on."""
    packed = f"make_{vtype(vec)}({', '.join(vals)})"
    if is_half(prog, name):
        return f"hiera_st{vec}({ptr}, {packed});"
    return f"*reinterpret_cast<{vtype(vec)}*>({ptr}) = {packed};"


# Vector access of packed halves (CUDA): two halves are one __nv_bfloat162 / __half2, converted as a pair.
CUDA_HALF_VECTORS = r"""
#define HIERA_HALF_VECTORS(T, T2, TO_F2, FROM_F2)                                                   \
    __device__ __forceinline__ float2 hiera_ld2(const T* p) {                                       \
        return TO_F2(*reinterpret_cast<const T2*>(p));                                              \
    }                                                                                               \
    __device__ __forceinline__ float4 hiera_ld4(const T* p) {                                       \
        const uint2 u = *reinterpret_cast<const uint2*>(p);                                         \
        const float2 a = TO_F2(*reinterpret_cast<const T2*>(&u.x));                                 \
        const float2 b = TO_F2(*reinterpret_cast<const T2*>(&u.y));                                 \
        return make_float4(a.x, a.y, b.x, b.y);                                                     \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st2(T* p, float2 v) {                                     \
        *reinterpret_cast<T2*>(p) = FROM_F2(v.x, v.y);                                              \
    }                                                                                               \
    __device__ __forceinline__ void hiera_st4(T* p, float4 v) {                                     \
        T2 a = FROM_F2(v.x, v.y), b = FROM_F2(v.z, v.w);                                            \
        uint2 u;                                                                                    \
        u.x = *reinterpret_cast<const unsigned int*>(&a);                                           \
        u.y = *reinterpret_cast<const unsigned int*>(&b);                                           \
        *reinterpret_cast<uint2*>(p) = u;                                                           \
    }
HIERA_HALF_VECTORS(__nv_bfloat16, __nv_bfloat162, __bfloat1622float2, __floats2bfloat162_rn)
HIERA_HALF_VECTORS(__half, __half2, __half22float2, __floats2half2_rn)
"""
