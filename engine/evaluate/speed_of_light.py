"""The speed-of-light bound of a task on a device, and the trust decision it makes (checker side: trusted).

The bound is a *lower* bound on the time of any correct implementation, computed from the task's operator graph
(TaskSpec.graph, traced by the probe from the user's task, never from a candidate) and the device's measured
ceilings (engine/evaluate/ceilings.py):

- memory: the bytes that must move at least once: every output written, every input, parameter and buffer the
  outputs depend on by value read (one used only for its shape counts nothing; one read only in part counts the
  part), over the memory ceilings. The timing flushes the caches before each timed call, so reads come from DRAM;
  writes up to the cache's size may still sit in it when the call's end is timed, so only the rest must reach
  DRAM. Everything passes through the cache, at the cache's rate.
- compute: the FLOPs that must be done at the precision allowed, over the fastest unit allowed to do them:
  matrix products (GEMM, convolution, attention) on the tensor cores where the policy allows them (strict fp32:
  the 3xTF32 split, three TF32 products per product, or fp32 FMA, whichever is faster; `--precision tf32`:
  TF32), everything else on the FMA units. The two run on different units, so the larger of the two times.
- launch (GPU): the least time a timed call that runs anything at all takes.

Where the least work is not certain the count is made smaller, never larger, and says so in `notes`: a bound too
high would call an honest kernel impossible. So a product whose result is only summed (sum(x @ W) = x @ sum(W)),
or feeds another product with nothing nonlinear between (reassociation), counts only what no reassociation can
avoid; a convolution counts one multiply-add per output and input channel (Winograd and FFT convolutions skip
multiplications of the direct count); an operand built from a structured matrix (diag, tril, expand, zeros)
counts no product FLOPs; an operator the table does not know counts no FLOPs.

`check` is the trust decision: a candidate timed faster than its bound, beyond its timing's own spread and the
ceilings' own margin, is not credited (caching, skipped work and forged clocks all end up faster than physics).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from math import prod

from contracts.speed_of_light import Ceilings, SpeedOfLight, duration, quantity
from engine.task.spec import GraphNode, TaskSpec

# A measured ceiling is the fastest rate hiera's own probes reached (torch's copy, cuBLAS's GEMM, a jiterator FMA
# chain); a hand-written kernel may beat one by a little (a read kernel past torch's copy, a GEMM past cuBLAS).
# A time is refused only when it beats its bound by more than this beyond its own spread. On the CPU the
# ceilings are measured on a machine others share, and the per-call clock may read up to 1.25x low (the
# back-to-back floor allows that much): twice the bound.
MARGIN_GPU = 0.25
MARGIN_CPU = 1.0
SUSPECT_FLAG = "faster_than_light"

# --- the operator vocabulary, as the bound needs it ---------------------------------------------------------------

# Read only for their shape: their inputs' values are not needed.
SHAPE_ONLY = frozenset({"size", "dim", "numel", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
                        "randn_like", "randint_like", "new_zeros", "new_ones", "new_empty", "new_full"})
# getattr(x, name): a view for these names, a shape query for the rest (x.shape, x.dtype).
_VIEW_ATTRS = frozenset({"T", "mT", "H", "mH", "real"})
# Value-preserving views and copies: every element of the input is (or may be) needed, once.
VIEWS = frozenset({"view", "reshape", "flatten", "unflatten", "transpose", "permute", "t", "contiguous", "unsqueeze",
                   "squeeze", "clone", "to", "float", "double", "half", "bfloat16", "type", "type_as", "view_as",
                   "reshape_as", "detach", "flip", "roll", "pad", "cat", "concat", "concatenate", "stack", "movedim",
                   "swapaxes", "dropout", "alpha_dropout", "feature_alpha_dropout", "identity"})
VIEW_MODULES = frozenset({"Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
                          "AlphaDropout"})
# Repeat values: a product over them has structure (equal rows) a kernel may exploit.
REPEATS = frozenset({"expand", "expand_as", "repeat", "broadcast_to", "repeat_interleave", "tile"})
# Select part of their input (a tuple's element, a slice, a gather).
SELECTS = frozenset({"getitem", "narrow", "select", "index_select", "gather", "take", "masked_select", "diagonal",
                     "take_along_dim"})
# Keep part of their input and replace the rest (a causal mask over attention scores): a kernel may never compute
# or read the part they drop, so neither a product before them nor an input read through them counts whole.
MASKS = frozenset({"where", "masked_fill", "masked_fill_", "masked_scatter", "tril", "triu", "tril_", "triu_"})
_GATHERS = frozenset({"index_select", "gather", "take", "masked_select", "take_along_dim"})
# Split their input into a tuple whose elements do not overlap.
SPLITS = frozenset({"chunk", "split", "unbind", "tensor_split", "split_with_sizes"})
# Make a matrix with structure: a product with one is cheaper than its dense count.
STRUCTURED = frozenset({"diag", "diag_embed", "diagflat", "tril", "triu", "eye", "zeros", "ones", "full", "arange",
                        "linspace", "one_hot", "zeros_like", "ones_like", "full_like", "empty", "empty_like"})
# Linear in every tensor operand: a product's result through these may be reassociated or summed early.
LINEAR = frozenset({"add", "iadd", "radd", "sub", "isub", "rsub", "mul", "imul", "multiply", "div", "truediv",
                    "itruediv", "divide", "true_divide", "neg", "negative", "cumsum", "batch_norm"})
LINEAR_MODULES = frozenset({"BatchNorm1d", "BatchNorm2d", "BatchNorm3d"})  # per-channel affine in evaluation
# Reductions that are linear: a product summed this way may be summed first (sum(x @ W, 1) = x @ W.sum(0)).
LINEAR_REDUCTIONS = frozenset({"sum", "mean", "avg_pool1d", "avg_pool2d", "avg_pool3d", "adaptive_avg_pool1d",
                               "adaptive_avg_pool2d", "adaptive_avg_pool3d", "trace"})
LINEAR_REDUCTION_MODULES = frozenset({"AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
                                      "AdaptiveAvgPool3d"})
# Reductions and normalizations: at least one operation per element they reduce.
REDUCTIONS = frozenset({"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "logsumexp", "softmax",
                        "log_softmax", "layer_norm", "group_norm", "instance_norm", "var", "std", "norm", "normalize",
                        "prod", "cumsum", "cumprod", "cummax", "cummin", "rms_norm", "mse_loss", "l1_loss",
                        "cross_entropy", "nll_loss", "kl_div", "smooth_l1_loss", "huber_loss", "cosine_similarity",
                        "binary_cross_entropy", "binary_cross_entropy_with_logits", "triplet_margin_loss",
                        "hinge_embedding_loss", "margin_ranking_loss", "all", "any", "count_nonzero", "var_mean",
                        "std_mean", "logcumsumexp"})
REDUCTION_MODULES = frozenset({"Softmax", "LogSoftmax", "LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d",
                               "InstanceNorm3d", "RMSNorm", "MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss",
                               "KLDivLoss", "SmoothL1Loss", "HuberLoss", "CosineSimilarity", "BCELoss",
                               "BCEWithLogitsLoss", "TripletMarginLoss", "HingeEmbeddingLoss", "MarginRankingLoss"})
POOLS = frozenset({"max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
                   "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
                   "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d"})
POOL_MODULES = frozenset({"MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
                          "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
                          "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d"})
GEMMS = frozenset({"matmul", "mm", "bmm", "addmm", "linear", "baddbmm", "addbmm", "mv", "addmv", "dot", "vdot",
                   "inner", "outer", "ger", "einsum", "tensordot", "bilinear", "chain_matmul", "multi_dot"})
CONVS = frozenset({"conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"})
CONV_MODULES = frozenset({"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"})
# Modules that read their parameters only in part (a lookup table's rows).
PARTIAL_PARAM_MODULES = frozenset({"Embedding", "EmbeddingBag"})
# Pointwise functions that cost at least one operation per element whatever their operands (binary ones with a
# constant operand fold into a neighbour and count nothing).
_BINARY = frozenset({"add", "iadd", "radd", "sub", "isub", "rsub", "mul", "imul", "multiply", "div", "truediv",
                     "itruediv", "divide", "true_divide", "pow", "maximum", "minimum", "fmax", "fmin", "atan2",
                     "fmod", "remainder", "gt", "lt", "ge", "le", "eq", "ne", "logical_and", "logical_or", "where",
                     "lerp", "addcmul", "addcdiv", "copysign", "hypot"})
_UNARY = frozenset({"relu", "relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "sigmoid", "silu", "mish",
                    "softplus", "softsign", "tanhshrink", "hardswish", "hardsigmoid", "hardtanh", "tanh", "exp",
                    "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "abs", "reciprocal", "square",
                    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "erf", "erfc", "floor", "ceil",
                    "round", "trunc", "frac", "sign", "logical_not", "clamp", "clip", "clamp_min", "clamp_max",
                    "nan_to_num", "threshold", "softshrink", "hardshrink", "logsigmoid", "glu", "prelu", "rrelu",
                    "sigmoid_", "relu_", "tanh_"})
ACTIVATION_MODULES = frozenset({"ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "Sigmoid", "SiLU", "Mish",
                                "Softplus", "Softsign", "Tanhshrink", "Hardswish", "Hardsigmoid", "Hardtanh", "Tanh",
                                "Threshold", "Softshrink", "Hardshrink", "LogSigmoid", "GLU", "PReLU", "RReLU"})
_SDPA = "scaled_dot_product_attention"


def _name(n: GraphNode) -> str:
    """The operator's name: a function or method name, or a module's type ('Linear' of 'Linear:fc')."""
    return n.target.split(":", 1)[0] if n.op == "call_module" else n.target



def _shape_only(n: GraphNode) -> bool:
    if n.op in ("call_function", "call_method") and n.target == "getattr":
        return not (len(n.args) > 1 and n.args[1] in _VIEW_ATTRS)
    return n.op in ("call_function", "call_method") and n.target in SHAPE_ONLY


def _is_view(n: GraphNode) -> bool:
    if n.op == "call_module":
        return _name(n) in VIEW_MODULES
    if n.target == "getattr":
        return len(n.args) > 1 and n.args[1] in _VIEW_ATTRS
    return n.target in VIEWS or n.target in REPEATS


def _numel(shape: Iterable[int] | None) -> int:
    return prod(shape) if shape is not None else 0


_ITEMSIZE = {"float64": 8, "int64": 8, "complex64": 8, "float32": 4, "int32": 4, "float16": 2, "bfloat16": 2,
             "int16": 2, "int8": 1, "uint8": 1, "bool": 1}


# --- what must be done ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Work:
    """What any correct implementation of the task must do, counted from its graph (low where unsure)."""

    read_bytes: int  # inputs, parameters and buffers the outputs depend on by value
    write_bytes: int  # every output, once
    matrix_flops: int  # products (GEMM, convolution, attention), at the products' precision
    other_flops: int  # reductions, pooling, pointwise
    matrix_dtype: str | None  # the products' dtype (the widest, where they differ)
    dtype: str  # the task's floating dtype (its outputs'), for the other FLOPs' rate
    notes: tuple[str, ...] = ()

    @property
    def bytes(self) -> int:
        return self.read_bytes + self.write_bytes

    @property
    def flops(self) -> int:
        return self.matrix_flops + self.other_flops


class _Graph:
    """The task's graph with the relations the counts need: who uses whom, and which nodes the outputs need."""

    def __init__(self, spec: TaskSpec):
        assert spec.graph is not None
        self.spec = spec
        self.nodes = {n.name: n for n in spec.graph}
        self.order = [n.name for n in spec.graph]
        self.users: dict[str, list[str]] = {k: [] for k in self.nodes}
        for n in spec.graph:
            for r in n.operands():
                if r in self.users:
                    self.users[r].append(n.name)
        self.live = self._live()

    def _live(self) -> set[str]:
        """Nodes whose values the outputs depend on (a shape query makes its input's shape live, not its value)."""
        live: set[str] = set()
        stack = [n for n in self.order if self.nodes[n].op == "output"]
        while stack:
            name = stack.pop()
            if name in live:
                continue
            live.add(name)
            n = self.nodes[name]
            if _shape_only(n):
                continue
            stack += [r for r in n.operands() if r in self.nodes]
        return live

    def shape(self, name: str) -> tuple[int, ...] | None:
        n = self.nodes.get(name)
        return tuple(n.shape) if n is not None and n.shape is not None else None

    def live_users(self, name: str) -> list[GraphNode]:
        return [self.nodes[u] for u in dict.fromkeys(self.users.get(name, ())) if u in self.live]


def _arg_reads(g: _Graph, node: GraphNode, nbytes: int, itemsize: int) -> int:
    """Bytes of one argument (a placeholder or get_attr node) that must be read: all of it when a live operator
    uses its value whole; the largest part a live selection reads when it is only selected from; none when only
    its shape is used."""
    seen: set[str] = set()
    frontier = [node.name]
    partial = 0
    split_parts: dict[str, int] = {}
    while frontier:
        name = frontier.pop()
        if name in seen:
            continue
        seen.add(name)
        for u in g.live_users(name):
            if _shape_only(u):
                continue
            if _is_view(u):
                frontier.append(u.name)
            elif u.op != "call_module" and u.target in SPLITS:
                for part in g.live_users(u.name):  # each element of the tuple a live getitem takes
                    split_parts[u.name] = split_parts.get(u.name, 0) + _numel(part.shape) * itemsize
            elif u.op != "call_module" and u.target in SELECTS:
                refs = u.operands()
                if refs and refs[0] != name:
                    return nbytes  # the indices of a selection are read whole
                # A slice reads what it selects; a gather by values (indices, a mask) may read any part, repeats
                # included, so it counts nothing.
                by_value = u.target in _GATHERS or any(r != name for r in refs)
                partial = max(partial, 0 if by_value else _numel(u.shape) * itemsize)
            elif u.op != "call_module" and u.target in MASKS:
                continue  # which part is kept depends on values: none of it counted
            else:
                return nbytes
    return min(nbytes, max([partial, *split_parts.values()]))


def _reads(g: _Graph, notes: list[str]) -> int:
    spec = g.spec
    by_name = {a.name: a for a in spec.tensor_args}
    total = 0
    counted: set[str] = set()
    for n in g.nodes.values():
        if n.op in ("placeholder", "get_attr") and n.target in by_name:
            a = by_name[n.target]
            assert a.tensor is not None
            got = _arg_reads(g, n, a.tensor.nbytes, a.tensor.itemsize)
            if got < a.tensor.nbytes:
                notes.append(f"{a.name}: {quantity(got, 'B')} of {quantity(a.tensor.nbytes, 'B')} counted (the "
                             f"outputs need {'part of it' if got else 'only its shape, or nothing of it'})")
            total += got
            counted.add(a.name)
    for n in g.nodes.values():  # a module's parameters and buffers, read by it
        if n.op != "call_module" or n.name not in g.live:
            continue
        qual = n.target.split(":", 1)[1] if ":" in n.target else n.target
        mine = [a for a in spec.tensor_args if a.name.startswith(qual + ".") and a.name not in counted]
        if _name(n) in PARTIAL_PARAM_MODULES:
            if mine:
                notes.append(f"{qual}: a lookup table read in part; its rows are not counted")
            counted.update(a.name for a in mine)
            continue
        for a in mine:
            assert a.tensor is not None
            total += a.tensor.nbytes
            counted.add(a.name)
    return total


@dataclass(frozen=True)
class _Product:
    """A matrix product node: the FLOPs of its dense count and its inner (summed-over) dimension."""

    flops: int
    inner: int
    dtype: str | None


def _product(g: _Graph, n: GraphNode) -> _Product | None:
    name = _name(n)
    out = _numel(n.shape)
    ops = [g.shape(r) for r in n.operands()]
    if n.op == "call_module" and name in ("Linear", "LazyLinear"):
        k = n.config.get("in_features") or (ops[0][-1] if ops and ops[0] else 0)
        return _Product(2 * out * int(k), int(k), n.dtype)
    if n.op == "call_module" and name in CONV_MODULES:
        groups = int(n.config.get("groups") or 1)
        cin, cout = int(n.config.get("in_channels") or 0), int(n.config.get("out_channels") or 0)
        if name.startswith("ConvTranspose"):
            # Every input element meets every output channel of its group at least once.
            return _Product(2 * _numel(ops[0] if ops else None) * (cout // groups), cin // groups, n.dtype)
        return _Product(2 * out * (cin // groups), cin // groups, n.dtype)
    if n.op == "call_module":
        return None
    if name in CONVS:
        w = ops[1] if len(ops) > 1 else None
        groups = n.kwargs.get("groups", n.args[6] if len(n.args) > 6 else 1)
        groups = groups if isinstance(groups, int) and groups > 0 else 1
        if not w or len(w) < 2:
            return None
        if name.startswith("conv_transpose"):
            return _Product(2 * _numel(ops[0]) * w[1], w[0] // groups, n.dtype)
        return _Product(2 * out * w[1], w[1], n.dtype)
    if name == _SDPA and len(ops) >= 3 and all(ops[:3]):
        q, k, v = ops[0], ops[1], ops[2]
        assert q is not None and k is not None and v is not None
        pairs = _numel(q[:-1]) * k[-2]  # every query against every key
        flops = 2 * pairs * q[-1] + 2 * pairs * v[-1]
        if n.kwargs.get("is_causal") is True:
            flops //= 2  # a causal mask needs only the lower triangle
        return _Product(flops, min(q[-1], k[-2]), n.dtype)
    if name in ("matmul", "mm", "bmm", "mv", "dot", "vdot", "inner"):
        a = ops[0] if ops else None
        if not a:
            return None
        return _Product(2 * max(out, 1) * a[-1], a[-1], n.dtype)
    if name in ("addmm", "baddbmm", "addmv"):
        a = ops[1] if len(ops) > 1 else None
        return _Product(2 * out * a[-1], a[-1], n.dtype) if a else None
    if name == "linear":
        a = ops[0] if ops else None
        return _Product(2 * out * a[-1], a[-1], n.dtype) if a else None
    return None  # einsum, tensordot, bilinear, ...: not counted


_ADDS = frozenset({"add", "iadd", "radd", "sub", "isub", "rsub"})


def _structured(g: _Graph, name: str, memo: dict[str, str | None] | None = None) -> str | None:
    """The operator that may give an operand structure a kernel can exploit (zeros, repeats, a triangle), or None.

    Structure starts at a structured constructor, a repeat or a mask (a causal mask's -inf becomes softmax's exact
    zeros, so the product after it has a triangle of zeros to skip); it survives views, pointwise and row
    operators (softmax, dropout), a product of it with anything (zeros times x are zeros), but not an addition of
    a dense operand, nor a matrix product (diag(a) @ B is dense)."""
    memo = memo if memo is not None else {}
    if name in memo:
        return memo[name]
    memo[name] = None  # a cycle cannot happen in fx, but a revisit must not recurse
    n = g.nodes.get(name)
    found: str | None = None
    if n is None or n.op in ("placeholder", "get_attr", "output") or _product(g, n) is not None:
        found = None
    elif n.op != "call_module" and (n.target in STRUCTURED or n.target in REPEATS or n.target in MASKS):
        found = n.target
    elif not _shape_only(n):
        tensors = [r for r in n.operands() if r in g.nodes]
        marks = [_structured(g, r, memo) for r in tensors]
        if n.op != "call_module" and n.target in _ADDS:
            dense = [r for r, m in zip(tensors, marks) if m is None and g.shape(r) is not None]
            found = next((m for m in marks if m), None) if not dense else None
        else:
            found = next((m for m in marks if m), None)
    memo[name] = found
    return found


def _needed_whole(g: _Graph, name: str) -> bool:
    """Whether a product's every element is needed on its own: some path from it reaches an output or a
    nonlinear operator through linear ones. Paths into another product (reassociation), a linear reduction
    (sum first), a selection (part of it) or a mask (a causal one drops half) do not need it whole."""
    stack, seen = [name], set()
    while stack:
        cur = stack.pop()
        if cur in seen:
            continue
        seen.add(cur)
        for u in g.live_users(cur):
            uname = _name(u)
            if u.op == "output":
                return True
            if _product(g, u) is not None:
                continue
            if u.op == "call_module":
                if uname in LINEAR_REDUCTION_MODULES:
                    continue
                if uname in VIEW_MODULES or uname in LINEAR_MODULES:
                    stack.append(u.name)
                    continue
                return True
            if uname in LINEAR_REDUCTIONS or uname in SELECTS or uname in MASKS:
                continue
            if _is_view(u) or uname in LINEAR or uname in SPLITS:
                stack.append(u.name)
                continue
            if _shape_only(u):
                continue
            return True
    return False


def _chain_inner(g: _Graph, n: GraphNode, inner: int, memo: dict[str, int]) -> int:
    """The least inner dimension along the products that feed this one through linear operators: a chain
    A(BC) may be computed (AB)C, and either order's last product has an inner dimension of the chain."""
    if n.name in memo:
        return memo[n.name]
    memo[n.name] = inner
    best = inner
    stack, seen = list(n.operands()), set()
    while stack:
        cur = stack.pop()
        if cur in seen or cur not in g.nodes:
            continue
        seen.add(cur)
        m = g.nodes[cur]
        p = _product(g, m)
        if p is not None:
            best = min(best, _chain_inner(g, m, p.inner, memo))
            continue
        linear = (_is_view(m) or (m.op == "call_module" and _name(m) in LINEAR_MODULES)
                  or (m.op != "call_module" and (m.target in LINEAR or m.target in SPLITS or m.target == "getitem")))
        if linear:
            stack += m.operands()
    memo[n.name] = best
    return best


def _other_flops(g: _Graph, n: GraphNode) -> int:
    name = _name(n)
    out = _numel(n.shape)
    biggest = max((_numel(g.shape(r)) for r in n.operands()), default=0)
    if n.op == "call_module":
        if name in POOL_MODULES:
            return out
        if name in REDUCTION_MODULES:
            return max(biggest - out, 0) or biggest
        if name in ACTIVATION_MODULES:
            return out
        return 0
    if name in POOLS:
        return out
    if name in REDUCTIONS:
        return max(biggest - out, 0) or biggest  # n-1 operations per output; a same-size one (softmax) n
    if name in _UNARY:
        return out
    if name in _BINARY:
        tensors = [r for r in n.operands() if g.shape(r) is not None]
        return out if len(tensors) >= 2 else 0
    return 0


_KNOWN = (VIEWS | REPEATS | SELECTS | MASKS | SPLITS | STRUCTURED | LINEAR | LINEAR_REDUCTIONS | REDUCTIONS | POOLS
          | _BINARY | _UNARY | SHAPE_ONLY | {"getattr"})
_KNOWN_MODULES = (VIEW_MODULES | LINEAR_MODULES | LINEAR_REDUCTION_MODULES | REDUCTION_MODULES | POOL_MODULES
                  | ACTIVATION_MODULES | CONV_MODULES | {"Linear", "LazyLinear"})


def _unknown(n: GraphNode) -> bool:
    """An operator the table does not know (its FLOPs are not counted, and the bound says so)."""
    if n.op == "call_module":
        return _name(n) not in _KNOWN_MODULES
    return n.op in ("call_function", "call_method") and _name(n) not in _KNOWN


# What a count leaves out, one note per kind (a network of 50 convolutions gets one line, not 50).
_SKIP_NOTES = {
    "structured": "no product FLOPs counted for {names}: an operand with structure (a diagonal, a triangle, a mask's "
                  "zeros, repeated or constant values) needs fewer than its dense count",
    "absorbed": "no product FLOPs counted for {names}: the result is only summed, selected from, masked or "
                "multiplied again with nothing nonlinear between, so a kernel may skip or reassociate them",
    "chained": "products counted at the least inner dimension of their chain (reassociation): {names}",
    "conv": "convolution FLOPs counted as one multiply-add per output and input channel ({n}: {names}): Winograd and "
            "FFT algorithms skip part of the direct count",
}


def _listed(names: list[str], most: int = 3) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


def work_of(spec: TaskSpec) -> Work | str:
    """What the task must do, or why no bound can be given (a graph that did not trace)."""
    if spec.graph is None:
        return f"no speed of light: the task's graph could not be traced ({spec.trace_error or 'unknown'})"
    g = _Graph(spec)
    notes: list[str] = []
    reads = _reads(g, notes)
    writes = sum(t.nbytes for _, t in spec.outputs)
    matrix = other = 0
    dtypes: list[str] = []
    memo: dict[str, int] = {}
    uncounted: set[str] = set()
    skipped: dict[str, list[str]] = {k: [] for k in _SKIP_NOTES}
    structure_memo: dict[str, str | None] = {}
    for name in g.order:
        n = g.nodes[name]
        if name not in g.live or n.op in ("placeholder", "get_attr", "output"):
            continue
        p = _product(g, n)
        if p is None:
            fl = _other_flops(g, n)
            other += fl
            if not fl and _unknown(n):
                uncounted.add(_name(n))
            continue
        operands = n.operands()[:2] if n.op != "call_module" else []
        if _name(n) in ("addmm", "baddbmm", "addmv"):
            operands = n.operands()[1:3]
        structure = next((s for r in operands if (s := _structured(g, r, structure_memo))), None)
        if structure:
            skipped["structured"].append(f"{name} ({structure})")
            continue
        if not _needed_whole(g, name):
            skipped["absorbed"].append(name)
            continue
        inner = _chain_inner(g, n, p.inner, memo)
        if inner < p.inner:
            skipped["chained"].append(f"{name} ({inner} of {p.inner})")
        if _name(n) in CONV_MODULES or _name(n) in CONVS:
            skipped["conv"].append(name)
        matrix += p.flops * inner // p.inner if p.inner else 0
        if n.dtype:
            dtypes.append(n.dtype)
    for key, names in skipped.items():
        if names:
            notes.append(_SKIP_NOTES[key].format(names=_listed(names), n=len(names)))
    if uncounted:
        notes.append("no FLOPs counted for " + _listed(sorted(uncounted)))
    out_dtypes = [t.dtype for _, t in spec.outputs if t.dtype.startswith(("float", "bfloat"))]
    dtype = max(out_dtypes, key=lambda d: _ITEMSIZE.get(d, 4), default="float32")
    matrix_dtype = max(dtypes, key=lambda d: _ITEMSIZE.get(d, 4), default=None)
    return Work(reads, writes, matrix, other, matrix_dtype, dtype, tuple(notes))


# --- the bound --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bound:
    """The task's lower bound on this device: each of the three, which binds, and in words."""

    work: Work
    memory_ms: float
    compute_ms: float
    launch_ms: float
    memory_ceiling: str
    compute_ceiling: str
    launch_ceiling: str
    on_gpu: bool

    @property
    def kind(self) -> str:
        return max((("memory", self.memory_ms), ("compute", self.compute_ms), ("launch", self.launch_ms)),
                   key=lambda t: t[1])[0]

    @property
    def ms(self) -> float:
        return max(self.memory_ms, self.compute_ms, self.launch_ms)

    @property
    def ceiling(self) -> str:
        return {"memory": self.memory_ceiling, "compute": self.compute_ceiling, "launch": self.launch_ceiling}[
            self.kind]

    def figure(self, time_ms: float) -> SpeedOfLight:
        """The figure of one timed call's median against this bound."""
        return SpeedOfLight(self.kind, self.work.bytes, self.work.flops, self.ceiling,
                            self.ms / time_ms if time_ms > 0 else 0.0, self.ms, time_ms, self.work.notes)

    def describe(self) -> str:
        """'memory 0.954 ms (3.07 GB at DRAM 3220 GB/s); compute 0.1 us (...); launch 2.1 us'."""
        w = self.work
        parts = [f"memory {duration(self.memory_ms)} ({quantity(w.bytes, 'B')} at {self.memory_ceiling})",
                 f"compute {duration(self.compute_ms)} ({quantity(w.flops, 'FLOP')} at {self.compute_ceiling})"]
        if self.on_gpu:
            parts.append(f"launch {duration(self.launch_ms)}")
        return "; ".join(parts)


def _matrix_rate(c: Ceilings, dtype: str | None, precision: str) -> tuple[float | None, str]:
    """(GFLOP/s, words) of the fastest unit the policy allows for products of this dtype."""
    if dtype == "float64":
        return c.fp64_gflops, "fp64"
    if dtype in ("bfloat16", "float16"):
        rate = c.bf16_gflops if dtype == "bfloat16" else c.fp16_gflops
        return rate, f"{'bf16' if dtype == 'bfloat16' else 'fp16'} tensor cores"
    fp32 = c.fp32_gflops
    if c.tf32_gflops is None:
        return fp32, "fp32 FMA"
    if precision == "tf32":
        return (c.tf32_gflops, "TF32 tensor cores") if c.tf32_gflops > (fp32 or 0) else (fp32, "fp32 FMA")
    split = c.tf32_gflops / 3  # strict fp32 allows the 3xTF32 split: three TF32 products per product
    return (split, "3xTF32 tensor cores") if split > (fp32 or 0) else (fp32, "fp32 FMA")


def _rate_words(gflops: float, what: str) -> str:
    return f"{what} {gflops / 1e3:.3g} TFLOP/s" if gflops >= 1e3 else f"{what} {gflops:.3g} GFLOP/s"


def bound_of(work: Work, c: Ceilings, precision: str, on_gpu: bool) -> Bound | str:
    """The bound from what the task must do and what the device can do, or why there is none."""
    if not c.dram_gbps:
        return "no speed of light: this device's memory bandwidth was not measured"
    cache = c.cache_bytes or 0
    # The timing's flush (at least twice the cache) leaves no input in it; a smaller flush may leave a cache's worth.
    reads_dram = work.read_bytes if (c.flush_bytes or 0) >= 2 * cache else max(work.read_bytes - cache, 0)
    writes_dram = max(work.write_bytes - cache, 0)
    dram_ms = (reads_dram + writes_dram) / (c.dram_gbps * 1e9) * 1e3
    cache_ms = work.bytes / (c.cache_gbps * 1e9) * 1e3 if c.cache_gbps else 0.0
    mem_name = ("DRAM", "L2") if on_gpu else ("memory", "cache")
    # A cache rate no higher than the memory's was not measured as the cache's: its probe read under the
    # memory's rate and was raised to it (ceilings._memory; on the H100 a 6 MiB copy is bound by its launch).
    # The bound is the same; the ceiling is named for what was measured.
    cache_name = mem_name[1] if (c.cache_gbps or 0) > c.dram_gbps else mem_name[0]
    if cache_ms > dram_ms:
        memory_ms, memory_ceiling = cache_ms, f"{cache_name} {c.cache_gbps:.4g} GB/s"
    else:
        memory_ms, memory_ceiling = dram_ms, f"{mem_name[0]} {c.dram_gbps:.4g} GB/s"
    notes = list(work.notes)
    rate, words = _matrix_rate(c, work.matrix_dtype, precision)
    matrix_ms = 0.0
    if work.matrix_flops and rate:
        matrix_ms = work.matrix_flops / (rate * 1e9) * 1e3
    elif work.matrix_flops:
        notes.append(f"no {words} rate measured here: the products' FLOPs bound nothing")
    simt = c.fp64_gflops if work.dtype == "float64" else c.fp32_gflops
    if simt and work.dtype in ("bfloat16", "float16"):
        simt *= 2  # paired half-precision instructions
    other_ms = work.other_flops / (simt * 1e9) * 1e3 if simt and work.other_flops else 0.0
    simt_words = "fp64" if work.dtype == "float64" else "fp32 FMA"
    if matrix_ms >= other_ms:
        compute_ms, compute_ceiling = matrix_ms, _rate_words(rate or 0.0, words)
    else:
        compute_ms, compute_ceiling = other_ms, _rate_words(simt or 0.0, simt_words)
    launch_ms = (c.launch_us or 0.0) / 1e3 if on_gpu else 0.0
    launch_ceiling = f"launch floor {c.launch_us:.3g} us" if on_gpu and c.launch_us else "no launch floor"
    return Bound(replace(work, notes=tuple(notes)), memory_ms, compute_ms, launch_ms, memory_ceiling,
                 compute_ceiling, launch_ceiling, on_gpu)


def bound_for(spec: TaskSpec, c: Ceilings | None, precision: str, on_gpu: bool) -> Bound | str:
    if c is None:
        return "no speed of light: this device's ceilings were not measured (HIERA_CEILINGS=off)"
    w = work_of(spec)
    return w if isinstance(w, str) else bound_of(w, c, precision, on_gpu)


# --- the trust decision ------------------------------------------------------------------------------------------

def margin(on_gpu: bool) -> float:
    return MARGIN_GPU if on_gpu else MARGIN_CPU


def check(b: Bound, median_ms: float, spread: float) -> str | None:
    """Why a time cannot be credited (faster than the bound beyond its own spread and the ceilings' margin),
    naming the bytes, the FLOPs, the ceiling and the time; None for a time physics allows."""
    slow_end = median_ms * (1 + max(spread, 0.0))
    m = margin(b.on_gpu)
    if slow_end * (1 + m) >= b.ms:
        return None
    return (f"timed at {duration(median_ms)} a call (spread {spread:.0%}), faster than this device can possibly "
            f"run it: it must move {quantity(b.work.bytes, 'B')} and do {quantity(b.work.flops, 'FLOP')}, which take "
            f"at least {duration(b.ms)} at {b.ceiling} ({b.describe()}), {b.ms / median_ms:.2g}x its time, beyond "
            f"its spread and the ceilings' {m:.0%} margin; not credited: a time under physics' means cached results, "
            "skipped work or a forged clock")


def suspect_flag(b: Bound, median_ms: float) -> str:
    return (f"{SUSPECT_FLAG}: {b.work.bytes} bytes, {b.work.flops} FLOPs at {b.ceiling}: bound {duration(b.ms)}, "
            f"timed {duration(median_ms)}")
