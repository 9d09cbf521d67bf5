"""Attention written by hand, rewritten into the framework's fused attention: a TorchDynamo backend.

A module that computes `softmax(q @ k^T * scale [masked]) @ v` with separate operators materialises the L x S
score matrix and reads it three times (the product, the softmax, the second product); PyTorch's
scaled_dot_product_attention (flash / memory-efficient kernels on a GPU, a flash kernel on the CPU) keeps it
on chip. This backend receives the forward's graph from TorchDynamo, which captures what torch.fx cannot
(`B, T, C = x.size()`, `math.sqrt(k.size(-1))`), finds each such chain by its operators and shapes, and
replaces it with one scaled_dot_product_attention call; everything else runs as the reference wrote it,
eagerly (no Inductor: the capture takes about a second, not a compile's minute).

What is matched, from the softmax outwards (each intermediate used by the chain alone):
  scores = q @ B            (matmul / bmm / @; k is B with its last two dims swapped)
  scores * c, scores / c    (Python numbers; their product is SDPA's `scale`)
  masked_fill(m, -inf)      -> a boolean keep mask (a finite fill replaces the scores: a row it masks whole
                            averages v, which no mask of SDPA's does, so it is left as written)
  scores + a                (a tensor not computed from the scores: an additive float mask, scaled as it was)
  softmax(dim=-1), then an inactive dropout (p = 0 or training False), then @ v.
A mask computed from nothing but shapes and constants, or from the module's own buffers, that is lower
triangular when captured is passed as `is_causal=True` when `causal` is asked for (the flash kernels then skip
the masked half); otherwise it is passed as it is. A buffer such a decision was made on is pinned
(StateTensors.pin): a module whose buffer then holds anything else (another instance, a load_state_dict) is not
served by the capture (StateTensors.unchanged; the candidate runs the reference's forward for it instead).

Written to be embedded verbatim in a candidate file (engine/agents/expert/codegen/torch_variants.py): it imports
torch and the standard library only, and names nothing of hiera's.
"""

import operator
import weakref

import torch


def _name(node):
    """An fx node's operator as one word: 'matmul', 'softmax', 'mul', ... ('' for placeholders and outputs)."""
    if node.op == "call_method":
        return str(node.target)
    if node.op == "call_function":
        target = node.target
        special = {operator.matmul: "matmul", operator.mul: "mul", operator.truediv: "div",
                   operator.add: "add", operator.getitem: "getitem"}
        if target in special:
            return special[target]
        return getattr(target, "__name__", str(target))
    return ""


_MATMUL = {"matmul", "bmm", "__matmul__"}
_MUL = {"mul", "__mul__", "__rmul__", "multiply"}
_DIV = {"div", "__truediv__", "true_divide", "truediv"}
_ADD = {"add", "__add__", "__radd__"}
# An additive mask value that masks as -inf does where a row keeps its diagonal (0 added there): its exp() after
# the row's max is taken away underflows to 0 in fp32. Read only to find an additive mask causal.
_MASKED_AT_MOST = -1e4


def _shape(node):
    value = node.meta.get("example_value") if isinstance(node, torch.fx.Node) else None
    return tuple(value.shape) if isinstance(value, torch.Tensor) else None


def _dtype(node):
    value = node.meta.get("example_value") if isinstance(node, torch.fx.Node) else None
    return value.dtype if isinstance(value, torch.Tensor) else None


def _arg(node, index, key, default=None):
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(key, default)


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _ancestors(node):
    """`node` and every node it is computed from."""
    seen, stack = set(), [node]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            stack.extend(n.all_input_nodes)
    return seen


def _placeholders_of(node):
    return [n for n in _ancestors(node) if n.op == "placeholder"]


def _cast(node):
    """A dtype conversion and nothing else: x.float(), x.half(), x.bfloat16(), x.type_as(y), x.to(dtype)."""
    name = _name(node)
    if name in ("float", "half", "bfloat16") and len(node.args) == 1 and not node.kwargs:
        return True
    if name == "type_as" and len(node.args) == 2 and not node.kwargs:
        return True
    return name == "to" and len(node.args) == 2 and isinstance(node.args[1], torch.dtype) and not node.kwargs


def _inactive_dropout(node):
    if _name(node) != "dropout":
        return False
    p, training = _arg(node, 1, "p", 0.5), _arg(node, 2, "training", True)
    return (_number(p) and p == 0) or training is False


def _swapped_last_two(node):
    """k when `node` is k with its last two dims swapped by transpose/permute/mT, else None."""
    nd = len(_shape(node) or ())
    name = _name(node)
    if name == "transpose" and len(node.args) >= 3:
        dims = {d % nd for d in node.args[1:3] if isinstance(d, int)} if nd else set()
        if dims == {nd - 2, nd - 1}:
            return node.args[0]
    if name == "permute" and nd:
        dims = node.args[1:] if len(node.args) > 2 else node.args[1] if len(node.args) == 2 else ()
        dims = [d % nd for d in dims] if all(isinstance(d, int) for d in dims) else []
        if dims == [*range(nd - 2), nd - 1, nd - 2]:
            return node.args[0]
    if name == "getattr" and len(node.args) == 2 and node.args[1] == "mT":
        return node.args[0]
    return None


class _Match:
    def __init__(self, first, second, q, kt, v, scale, fills, adds, chain):
        self.first, self.second, self.q, self.kt, self.v = first, second, q, kt, v
        self.scale, self.fills, self.adds = scale, fills, adds
        self.chain = chain  # the chain's own nodes, from the second product back to the first: replaced whole


def _match(softmax):
    """The attention chain around this softmax node, or None."""
    x = _arg(softmax, 0, "input")
    dim = _arg(softmax, 1, "dim")
    shape = _shape(softmax)
    if not isinstance(x, torch.fx.Node) or shape is None or len(shape) < 2 or not isinstance(dim, int):
        return None
    if dim % len(shape) != len(shape) - 1 or softmax.kwargs.get("dtype") is not None:
        return None
    if any(isinstance(a, torch.dtype) for a in softmax.args[2:]):
        return None  # softmax(x, dim, dtype) given by position
    # forward: softmax -> [a cast back to v's dtype] -> [inactive dropout] -> @ v
    after = softmax
    chain = [softmax]
    users = list(after.users)
    if len(users) == 1 and _cast(users[0]):
        after = users[0]  # softmax(scores.float()).type_as(q): checked against v's dtype below
        chain.insert(0, after)
        users = list(after.users)
    if len(users) == 1 and _inactive_dropout(users[0]):
        after = users[0]
        chain.insert(0, after)
        users = list(after.users)
    if len(users) != 1 or _name(users[0]) not in _MATMUL or users[0].args[0] is not after:
        return None
    second = users[0]
    chain.insert(0, second)
    v = second.args[1] if len(second.args) > 1 else None
    # backward: the ops between the first product and the softmax, nearest the softmax first
    ops, cur = [], x
    while isinstance(cur, torch.fx.Node) and _name(cur) not in _MATMUL:
        if len(cur.users) != 1:
            return None
        chain.append(cur)
        name = _name(cur)
        if _cast(cur) and _dtype(cur) == torch.float32:  # scores upcast for the softmax (the flash kernels'
            cur = cur.args[0]  # own accumulation is fp32)
            continue
        if name in _MUL | _DIV and len(cur.args) == 2:
            a, b = cur.args
            if name in _MUL and _number(a) and isinstance(b, torch.fx.Node):
                a, b = b, a
            if not (isinstance(a, torch.fx.Node) and _number(b)) or (name in _DIV and b == 0):
                return None
            if cur.kwargs:
                return None
            ops.append(("scale", float(b) if name in _MUL else 1.0 / float(b)))
            cur = a
        elif name == "masked_fill" and len(cur.args) == 3:
            src, mask, value = cur.args
            if not (isinstance(mask, torch.fx.Node) and _number(value) and value == float("-inf")):
                return None
            ops.append(("fill", mask))
            cur = src
        elif name in _ADD and len(cur.args) == 2 and not cur.kwargs:
            a, b = cur.args
            if not (isinstance(a, torch.fx.Node) and isinstance(b, torch.fx.Node)):
                return None
            scores, other = (a, b) if _leads_to_matmul(a) else (b, a)
            if not _leads_to_matmul(scores) or _dtype(other) is None or not _dtype(other).is_floating_point:
                return None
            ops.append(("add", other))
            cur = scores
        else:
            return None
    first = cur
    if not isinstance(first, torch.fx.Node) or len(first.users) != 1 or len(first.args) != 2:
        return None
    chain.append(first)
    q, kt = first.args
    if any(first in _ancestors(node) for kind, node in ops if kind in ("fill", "add")):
        return None  # a mask computed from the scores themselves is no mask SDPA can take
    shapes = [_shape(t) if isinstance(t, torch.fx.Node) else None for t in (q, kt, v)]
    if any(s is None for s in shapes):
        return None
    sq, skt, sv = shapes
    if not (len(sq) == len(skt) == len(sv) >= 3) or not (sq[:-2] == skt[:-2] == sv[:-2]):
        return None
    if sq[-1] != skt[-2] or skt[-1] != sv[-2]:
        return None
    if _shape(softmax)[:-2] != sq[:-2]:
        return None  # a mask broadcast the scores wider than q: SDPA's output could not take that shape
    dtypes = {_dtype(q), _dtype(kt), _dtype(v), _dtype(after)}
    if len(dtypes) != 1 or not next(iter(dtypes)).is_floating_point:
        return None
    # The scale applies to the raw scores; an additive mask is scaled by the factors applied after it, and a
    # boolean one only survives factors > 0 (-inf times a negative number is +inf).
    scale, fills, adds = 1.0, [], []
    for kind, what in reversed(ops):  # nearest the first product first
        if kind == "scale":
            if what <= 0 and fills:
                return None
            scale *= what
            adds = [(node, factor * what) for node, factor in adds]
        elif kind == "fill":
            fills.append(what)
        else:
            adds.append((what, 1.0))
    if scale <= 0:
        return None
    return _Match(first, second, q, kt, v, scale, fills, adds, chain)


def _leads_to_matmul(node):
    """Whether `node` is (a chain of single-use scale/mask ops over) a matrix product."""
    cur = node
    while isinstance(cur, torch.fx.Node):
        name = _name(cur)
        if name in _MATMUL:
            return True
        if name in _MUL | _DIV | _ADD or name == "masked_fill" or _cast(cur):
            cur = next((a for a in cur.args if isinstance(a, torch.fx.Node)), None)
            continue
        return False
    return False


def _is_causal_mask(keep, length, source):
    """Whether the boolean keep mask `keep` (a concrete tensor) is tril(ones(L, S)) in every broadcast slice."""
    if keep is None or keep.dtype != torch.bool or keep.dim() < 2 or tuple(keep.shape[-2:]) != (length, source):
        return False
    tril = torch.ones(length, source, dtype=torch.bool, device=keep.device).tril()
    return bool((keep == tril).all())


class StateTensors:
    """The buffers of the modules a backend serves, held weakly (a tensor's id alone could be a later input's, once
    the module is gone), and those a capture's decision was made on, pinned to the value it saw."""

    def __init__(self):
        self._refs = {}  # id -> (weak reference, the buffer's name in its module)
        self._pinned = {}  # name -> the value a decision was made on
        self._verified = weakref.WeakKeyDictionary()  # module -> {name: (tensor, its version) found equal}

    def add_module(self, module):
        for name, t in module.named_buffers():
            self._refs[id(t)] = (weakref.ref(t), name)

    def holds(self, t):
        entry = self._refs.get(id(t))
        return entry is not None and entry[0]() is t

    def pin(self, t):
        """A capture decided something on buffer `t`'s value: a module is served only while its own holds it."""
        self._pinned[self._refs[id(t)][1]] = t.detach().clone()

    def unchanged(self, module):
        """Whether `module`'s pinned buffers hold the values the captures' decisions were made on: compared once
        per buffer and version (an in-place write, load_state_dict included, bumps the version)."""
        if not self._pinned:
            return True
        seen = self._verified.setdefault(module, {})
        for name, value in self._pinned.items():
            try:
                t = module.get_buffer(name)
            except AttributeError:
                return False
            known = seen.get(name)
            if known is not None and known[0] is t and known[1] == t._version:
                continue
            if t.shape != value.shape or t.dtype != value.dtype or not torch.equal(t, value.to(t.device)):
                return False
            seen[name] = (t, t._version)
        return True


def fuse_attention(gm, example_inputs, *, causal=True, state=None):
    """Rewrite every attention chain in `gm` (a TorchDynamo graph) into scaled_dot_product_attention. Returns
    the descriptions of what was rewritten (empty: nothing matched, the graph unchanged). `state` (StateTensors):
    the module's parameters and buffers; a mask computed from them alone (or from nothing) may be found causal."""
    graph = gm.graph
    matches = [m for m in (_match(n) for n in list(graph.nodes) if _name(n) == "softmax") if m is not None]
    if not matches:
        return []
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    buffers = {p: x for p, x in zip(placeholders, example_inputs) if state is not None and state.holds(x)}

    def constant(m):
        # Every mask of the chain computed from the module's buffers or from nothing: its value now is its value
        # (the buffers it read are pinned below).
        nodes = [*m.fills, *(a for a, _ in m.adds)]
        return bool(nodes) and all(p in buffers for n in nodes for p in _placeholders_of(n))

    found = [m for m in matches if causal and constant(m)]
    values = _values(gm, example_inputs, [n for m in found for n in (*m.fills, *(a for a, _ in m.adds))]) \
        if found else {}
    said = []
    for m in matches:
        length, source = _shape(m.first)[-2:]
        is_causal = m in found and _is_causal_mask(_kept(m, values), length, source)
        if is_causal:
            for p in {p for n in [*m.fills, *(a for a, _ in m.adds)] for p in _placeholders_of(n)}:
                state.pin(buffers[p])
        with graph.inserting_before(m.second):
            k = _swapped_last_two(m.kt) or graph.call_method("transpose", (m.kt, -2, -1))
            mask = None if is_causal else _mask_node(graph, m)
            q, v = m.q, m.v
            three = len(_shape(m.q)) == 3  # SDPA's fused kernels take (batch, heads, L, E): one head added
            if three:
                q, k, v = (graph.call_method("unsqueeze", (t, 1)) for t in (q, k, v))
                if mask is not None and max(len(_shape(n) or ()) for n in [*m.fills, *(a for a, _ in m.adds)]) >= 3:
                    mask = graph.call_method("unsqueeze", (mask, -3))
            out = graph.call_function(torch.nn.functional.scaled_dot_product_attention, (q, k, v),
                                      {"attn_mask": mask, "dropout_p": 0.0, "is_causal": is_causal,
                                       "scale": m.scale})
            if three:
                out = graph.call_method("squeeze", (out, 1))
        m.second.replace_all_uses_with(out)
        masked = "causal" if is_causal else "masked" if mask is not None else "unmasked"
        said.append(f"softmax({m.q.name} @ {m.kt.name} x {m.scale:.6g}, {masked}) @ {m.v.name} "
                    f"[{length} x {source}] -> scaled_dot_product_attention(is_causal={is_causal})")
        # Only the chain's own nodes go (not a dead-code pass over the graph: fx takes in-place methods such as
        # masked_fill_ or add_ on a buffer for pure, and would drop them).
        for node in m.chain:
            if not node.users:
                graph.erase_node(node)
    graph.lint()
    gm.recompile()
    return said


def _kept(m, values):
    """Which scores the chain's masks keep (a concrete boolean tensor), or None when an additive mask adds anything
    but 0 (kept) or a value whose exp() is 0 (masked) somewhere: a bias, not a mask."""
    keep = None
    for f in m.fills:
        kept = ~values[f]
        keep = kept if keep is None else keep & kept
    if m.adds:
        total = None
        for node, factor in m.adds:
            term = values[node].float() * factor
            total = term if total is None else total + term
        if not bool(((total == 0) | (total <= _MASKED_AT_MOST)).all()):
            return None
        keep = (total == 0) if keep is None else keep & (total == 0)
    return keep


def _mask_node(graph, m):
    """SDPA's attn_mask for the chain's masks, as graph nodes: the boolean keep mask of its fills, or the sum of its
    additive masks (each scaled as it was, in q's dtype) with the fills' positions at -inf; None without masks."""
    keep = None
    for fill in m.fills:
        kept = graph.call_method("logical_not", (fill,))
        keep = kept if keep is None else graph.call_function(torch.logical_and, (keep, kept))
    if not m.adds:
        return keep
    mask = None
    for node, factor in m.adds:
        term = node if factor == 1.0 else graph.call_function(operator.mul, (node, factor))
        mask = term if mask is None else graph.call_function(operator.add, (mask, term))
    if keep is not None:
        mask = graph.call_method("masked_fill", (mask, graph.call_method("logical_not", (keep,)), float("-inf")))
    if any(_dtype(node) != _dtype(m.q) for node, _ in m.adds):
        mask = graph.call_method("to", (mask, _dtype(m.q)))  # SDPA takes a float mask in the query's dtype
    return mask


def _values(gm, example_inputs, nodes):
    """The concrete values of `nodes` on the example inputs, running only the nodes they are computed from."""
    needed = set()
    for n in nodes:
        needed |= _ancestors(n)
    interpreter = torch.fx.Interpreter(gm)
    inputs = iter(example_inputs)
    with torch.no_grad():
        for n in gm.graph.nodes:  # only what the masks are computed from: nothing else of the forward runs twice
            value = next(inputs) if n.op == "placeholder" else None
            if n in needed:
                interpreter.env[n] = value if n.op == "placeholder" else interpreter.run_node(n)
    return {n: interpreter.env[n] for n in nodes}


def backend(state, *, causal=True, said=None):
    """A TorchDynamo backend: each captured graph with its attention chains rewritten, run eagerly. `state`
    (StateTensors) holds the served modules' parameters and buffers; `said` (a list) collects what was
    rewritten. One backend for every module of the process: TorchDynamo reuses a graph only for the backend
    it was captured with (a new one per module captured each again, and past its cache's 8 entries ran the
    forward unrewritten)."""
    notes = said if said is not None else []

    def compile_graph(gm, example_inputs):
        notes.extend(fuse_attention(gm, example_inputs, causal=causal, state=state))
        return gm.forward

    return compile_graph
