"""What the expert knows about operators: their family, and the C code of the pointwise ones.

fx names an operator by its target: call_function/call_method targets are function names ("relu", "add",
"softmax"), call_module targets are "ModuleType:qualified.name" (see engine/task/probe.py). Python operators
trace to the same names as the torch functions (operator.add -> "add", operator.truediv -> "truediv").

The C templates reproduce PyTorch's fp32 formulas (ATen's CUDA/CPU kernels), so fused kernels match the
reference within the strict 1e-4 tolerance: exact GELU through erff, the tanh GELU with x*x*x as ATen
writes it, softplus with its threshold, and so on. They are valid in both CUDA and C++ (the C++
preamble defines rsqrtf).
"""

from __future__ import annotations

import math
from collections.abc import Callable

# --- arguments -------------------------------------------------------------------------------------------

def int_tuple(v: object, d: int) -> tuple[int, ...] | None:
    """A size argument of a d-dim operator (kernel, stride, padding, dilation) as d ints: an int, a list of d
    or a list of one, as torch takes them; None for anything else."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return (v,) * d
    if isinstance(v, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return tuple(v) if len(v) == d else (tuple(v) * d if len(v) == 1 else None)
    return None


# --- families --------------------------------------------------------------------------------------------

GEMM_FUNCS = frozenset({"matmul", "mm", "bmm", "addmm", "linear", "baddbmm", "einsum"})
GEMM_MODULES = frozenset({"Linear", "Bilinear"})
CONV_MODULES = frozenset({"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"})
CONV_FUNCS = frozenset({"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"})
POOL_MODULES = frozenset({"MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d"})
POOL_FUNCS = frozenset({"max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d"})

# Reductions and normalizations (functions/methods, then modules).
REDUCTION_FUNCS = frozenset({
    "sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "logsumexp", "softmax", "log_softmax",
    "layer_norm", "batch_norm", "group_norm", "instance_norm", "var", "std", "norm", "normalize", "prod",
    "cross_entropy", "nll_loss", "mse_loss", "cumsum", "adaptive_avg_pool2d", "adaptive_avg_pool1d",
    "rms_norm",
})
REDUCTION_MODULES = frozenset({
    "Softmax", "LogSoftmax", "LayerNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm",
    "InstanceNorm1d", "InstanceNorm2d", "RMSNorm", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
    "CrossEntropyLoss", "MSELoss",
})

DATA_MOVEMENT = frozenset({
    "view", "reshape", "flatten", "unflatten", "transpose", "permute", "t", "contiguous", "unsqueeze",
    "squeeze", "expand", "expand_as", "cat", "stack", "chunk", "split", "getitem", "narrow", "clone",
    "repeat", "flip", "roll", "to", "float", "type_as", "view_as", "reshape_as", "detach", "pad",
})
DATA_MOVEMENT_MODULES = frozenset({"Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d", "Dropout2d",
                                   "AlphaDropout"})

# Integer bookkeeping that fx records as nodes (x.size(0), x.shape, x.dim()).
META = frozenset({"size", "dim", "getattr", "numel"})


# --- pointwise C templates ---------------------------------------------------------------------------------

def c_float(v: float) -> str:
    """A float literal that reads back as the same fp32 value."""
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "(-INFINITY)"
    text = repr(float(v))
    if "e" not in text and "." not in text:
        text += ".0"
    return f"{text}f" if not text.startswith("-") else f"({text}f)"


_SQRT1_2 = "0.707106781186547524f"
_GELU_TANH_BETA = "0.797884560802865355f"  # sqrt(2) * (2/sqrt(pi)) * 0.5, as ATen computes kBeta


def _gelu(x: str, approximate: str) -> str:
    if approximate == "tanh":
        return (f"(0.5f * {x} * (1.0f + tanhf({_GELU_TANH_BETA} * ({x} + 0.044715f * {x} * {x} * {x}))))")
    return f"({x} * 0.5f * (1.0f + erff({x} * {_SQRT1_2})))"


def _softplus(x: str, beta: float, threshold: float) -> str:
    b = c_float(beta)
    return (f"(({x}) * {b} > {c_float(threshold)} ? ({x}) : log1pf(expf(({x}) * {b})) / {b})")


# Unary ops: name -> (arity of params, template(x, params)). x is a C variable name (no side effects).
UNARY: dict[str, Callable[[str, tuple[float, ...]], str]] = {
    "relu": lambda x, p: f"({x} > 0.0f ? {x} : 0.0f)",
    "relu6": lambda x, p: f"fminf(fmaxf({x}, 0.0f), 6.0f)",
    "leaky_relu": lambda x, p: f"({x} > 0.0f ? {x} : {x} * {c_float(p[0] if p else 0.01)})",
    "elu": lambda x, p: f"({x} > 0.0f ? {x} : {c_float(p[0] if p else 1.0)} * expm1f({x}))",
    "selu": lambda x, p: (f"(1.0507009873554804934193349852946f * ({x} > 0.0f ? {x} : "
                          f"1.6732632423543772848170429916717f * expm1f({x})))"),
    "celu": lambda x, p: (f"({x} > 0.0f ? {x} : {c_float(p[0] if p else 1.0)} * "
                          f"expm1f({x} / {c_float(p[0] if p else 1.0)}))"),
    "gelu": lambda x, p: _gelu(x, "none"),
    "gelu_tanh": lambda x, p: _gelu(x, "tanh"),
    "sigmoid": lambda x, p: f"(1.0f / (1.0f + expf(-{x})))",
    "silu": lambda x, p: f"({x} / (1.0f + expf(-{x})))",
    "mish": lambda x, p: f"({x} * tanhf(log1pf(expf({x}))))",
    "softplus": lambda x, p: _softplus(x, p[0] if p else 1.0, p[1] if len(p) > 1 else 20.0),
    "softsign": lambda x, p: f"({x} / (1.0f + fabsf({x})))",
    "tanhshrink": lambda x, p: f"({x} - tanhf({x}))",
    "hardswish": lambda x, p: f"({x} * fminf(fmaxf({x} + 3.0f, 0.0f), 6.0f) / 6.0f)",
    "hardsigmoid": lambda x, p: f"(fminf(fmaxf({x} + 3.0f, 0.0f), 6.0f) / 6.0f)",
    "hardtanh": lambda x, p: f"fminf(fmaxf({x}, {c_float(p[0])}), {c_float(p[1])})",
    "clamp": lambda x, p: f"fminf(fmaxf({x}, {c_float(p[0])}), {c_float(p[1])})",
    "clamp_min": lambda x, p: f"fmaxf({x}, {c_float(p[0])})",
    "clamp_max": lambda x, p: f"fminf({x}, {c_float(p[0])})",
    "tanh": lambda x, p: f"tanhf({x})",
    "exp": lambda x, p: f"expf({x})",
    "exp2": lambda x, p: f"exp2f({x})",
    "expm1": lambda x, p: f"expm1f({x})",
    "log": lambda x, p: f"logf({x})",
    "log2": lambda x, p: f"log2f({x})",
    "log10": lambda x, p: f"log10f({x})",
    "log1p": lambda x, p: f"log1pf({x})",
    "sqrt": lambda x, p: f"sqrtf({x})",
    "rsqrt": lambda x, p: f"rsqrtf({x})",
    "abs": lambda x, p: f"fabsf({x})",
    "neg": lambda x, p: f"(-{x})",
    "reciprocal": lambda x, p: f"(1.0f / {x})",
    "square": lambda x, p: f"({x} * {x})",
    "sin": lambda x, p: f"sinf({x})",
    "cos": lambda x, p: f"cosf({x})",
    "tan": lambda x, p: f"tanf({x})",
    "asin": lambda x, p: f"asinf({x})",
    "acos": lambda x, p: f"acosf({x})",
    "atan": lambda x, p: f"atanf({x})",
    "sinh": lambda x, p: f"sinhf({x})",
    "cosh": lambda x, p: f"coshf({x})",
    "erf": lambda x, p: f"erff({x})",
    "erfc": lambda x, p: f"erfcf({x})",
    "floor": lambda x, p: f"floorf({x})",
    "ceil": lambda x, p: f"ceilf({x})",
    "round": lambda x, p: f"rintf({x})",
    "trunc": lambda x, p: f"truncf({x})",
    "frac": lambda x, p: f"({x} - truncf({x}))",
    "sign": lambda x, p: f"(float)(({x} > 0.0f) - ({x} < 0.0f))",
    "logical_not": lambda x, p: f"({x} == 0.0f ? 1.0f : 0.0f)",
    "powc": lambda x, p: f"powf({x}, {c_float(p[0])})",
    "identity": lambda x, p: f"{x}",
}

BINARY: dict[str, Callable[[str, str], str]] = {
    "add": lambda a, b: f"({a} + {b})",
    "sub": lambda a, b: f"({a} - {b})",
    "mul": lambda a, b: f"({a} * {b})",
    "div": lambda a, b: f"({a} / {b})",
    "pow": lambda a, b: f"powf({a}, {b})",
    "maximum": lambda a, b: f"fmaxf({a}, {b})",
    "minimum": lambda a, b: f"fminf({a}, {b})",
    "atan2": lambda a, b: f"atan2f({a}, {b})",
    "fmod": lambda a, b: f"fmodf({a}, {b})",
    "gt": lambda a, b: f"(({a} > {b}) ? 1.0f : 0.0f)",
    "lt": lambda a, b: f"(({a} < {b}) ? 1.0f : 0.0f)",
    "ge": lambda a, b: f"(({a} >= {b}) ? 1.0f : 0.0f)",
    "le": lambda a, b: f"(({a} <= {b}) ? 1.0f : 0.0f)",
    "eq": lambda a, b: f"(({a} == {b}) ? 1.0f : 0.0f)",
    "ne": lambda a, b: f"(({a} != {b}) ? 1.0f : 0.0f)",
    "logical_and": lambda a, b: f"((({a}) != 0.0f && ({b}) != 0.0f) ? 1.0f : 0.0f)",
    "logical_or": lambda a, b: f"((({a}) != 0.0f || ({b}) != 0.0f) ? 1.0f : 0.0f)",
}

# Transcendental ops cost special-function-unit time; the analysis counts them as heavier FLOPs.
TRANSCENDENTAL = frozenset({
    "gelu", "gelu_tanh", "sigmoid", "silu", "mish", "softplus", "tanh", "exp", "exp2", "expm1", "log",
    "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "erf", "erfc", "elu", "selu", "celu", "powc", "pow", "tanhshrink",
})

# fx names -> canonical pointwise op names (function/method spellings).
UNARY_ALIASES: dict[str, str] = {
    "relu": "relu", "relu_": "relu", "relu6": "relu6", "leaky_relu": "leaky_relu", "elu": "elu", "selu": "selu",
    "celu": "celu", "gelu": "gelu", "sigmoid": "sigmoid", "silu": "silu", "mish": "mish", "softplus": "softplus",
    "softsign": "softsign", "tanhshrink": "tanhshrink", "hardswish": "hardswish", "hardsigmoid": "hardsigmoid",
    "hardtanh": "hardtanh", "tanh": "tanh", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log",
    "log2": "log2", "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "rsqrt": "rsqrt", "abs": "abs",
    "neg": "neg", "negative": "neg", "reciprocal": "reciprocal", "square": "square", "sin": "sin", "cos": "cos",
    "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh", "erf": "erf",
    "erfc": "erfc", "floor": "floor", "ceil": "ceil", "round": "round", "trunc": "trunc", "frac": "frac",
    "sign": "sign", "logical_not": "logical_not", "swish": "silu",
}
BINARY_ALIASES: dict[str, str] = {
    "add": "add", "iadd": "add", "radd": "add", "sub": "sub", "isub": "sub", "rsub": "rsub", "mul": "mul",
    "imul": "mul", "multiply": "mul", "div": "div", "truediv": "div", "divide": "div", "true_divide": "div",
    "itruediv": "div", "pow": "pow", "maximum": "maximum", "minimum": "minimum", "fmax": "maximum",
    "fmin": "minimum", "atan2": "atan2", "fmod": "fmod", "gt": "gt", "lt": "lt", "ge": "ge", "le": "le",
    "eq": "eq", "ne": "ne", "greater": "gt", "less": "lt", "logical_and": "logical_and",
    "logical_or": "logical_or", "and_": "logical_and", "or_": "logical_or",
}
CLAMP_NAMES = frozenset({"clamp", "clip", "clamp_", "clamp_min", "clamp_max"})
OTHER_POINTWISE = frozenset({"where", "dropout", "alpha_dropout", "feature_alpha_dropout", "lerp", "addcmul",
                             "addcdiv", "nan_to_num"})

# Activation modules: module type -> (op name, config keys giving its params in order).
ACTIVATION_MODULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ReLU": ("relu", ()), "ReLU6": ("relu6", ()), "LeakyReLU": ("leaky_relu", ("negative_slope",)),
    "ELU": ("elu", ("alpha",)), "SELU": ("selu", ()), "CELU": ("celu", ("alpha",)), "GELU": ("gelu", ()),
    "Sigmoid": ("sigmoid", ()), "SiLU": ("silu", ()), "Mish": ("mish", ()),
    "Softplus": ("softplus", ("beta", "threshold")), "Softsign": ("softsign", ()),
    "Tanhshrink": ("tanhshrink", ()), "Hardswish": ("hardswish", ()), "Hardsigmoid": ("hardsigmoid", ()),
    "Hardtanh": ("hardtanh", ("min_val", "max_val")), "Tanh": ("tanh", ()),
}

POINTWISE_NAMES = (frozenset(UNARY_ALIASES) | frozenset(BINARY_ALIASES) | CLAMP_NAMES | OTHER_POINTWISE)


def family(op: str, target: str) -> str:
    """The family of one fx node: gemm | conv | pool | pointwise | reduction | data_movement | meta | io | other."""
    if op in ("placeholder", "get_attr", "output"):
        return "io"
    if op == "call_module":
        mtype = target.split(":", 1)[0]
        if mtype in GEMM_MODULES:
            return "gemm"
        if mtype in CONV_MODULES:
            return "conv"
        if mtype in POOL_MODULES:
            return "pool"
        if mtype in REDUCTION_MODULES:
            return "reduction"
        if mtype in ACTIVATION_MODULES:
            return "pointwise"
        if mtype in DATA_MOVEMENT_MODULES:
            return "data_movement"
        return "other"
    name = target
    if name in GEMM_FUNCS:
        return "gemm"
    if name in CONV_FUNCS:
        return "conv"
    if name in POOL_FUNCS:
        return "pool"
    if name in REDUCTION_FUNCS:
        return "reduction"
    if name in POINTWISE_NAMES:
        return "pointwise"
    if name in DATA_MOVEMENT:
        return "data_movement"
    if name in META:
        return "meta"
    return "other"
