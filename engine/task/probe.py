"""Run in a subprocess: import a KernelBench-format task, run it once, describe it as JSON.

A task whose tensors pass 256 MB is described from a run on the meta device (shapes only, no memory, no
arithmetic); a smaller one runs on the CPU under an address-space cap (60% of the machine's memory), and if
its forward needs more (an fp64 convolution's im2col) it is described on the meta device too. Either way the
JSON then says "described_on": "meta" and carries no value ranges.

Usage: python -m engine.task.probe TASK.py OUT.json

Never imported by the caller: a task is user code (it may crash, hang or print), so `engine.task.spec`
starts this module in its own interpreter with a time limit and reads OUT.json back. Every failure is
written as {"ok": false, "error": {...}} naming the file, the line and what to add or fix.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import math
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from engine.task.source import REQUIRED, missing_message

# Attributes every nn.Module has; they are not the task's scalar constants.
_MODULE_BOOKKEEPING = {"training", "dump_patches", "call_super_init"}


def _error(kind: str, path: Path, line: int | None, message: str, fix: str) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": kind, "file": str(path), "line": line, "message": message,
                                   "fix": fix}}


def _out_of_memory(e: BaseException) -> bool:
    text = str(e).lower()
    return isinstance(e, MemoryError) or "out of memory" in text or "can't allocate memory" in text \
        or "not enough memory" in text


def _raised(kind: str, path: Path, e: Exception, where: str, fix: str) -> dict[str, Any]:
    """`where` raised e: the error names that function; running out of memory gets its own fix."""
    if _out_of_memory(e):
        fix = (f"{where} asks for more memory than this machine has; make its tensors smaller "
               "(hiera runs a task of up to 256 MB once on the CPU to describe it)")
    return _error(kind, path, _task_line(e.__traceback__, path), f"{where} raised {type(e).__name__}: {e}", fix)


def _forward_fix(model: Any, inputs: list[Any], e: Exception, path: Path) -> str:
    """What to do about a forward that raised: the inputs do not fit its signature (a count to change), or
    they do and its own code raised on them (the line to fix)."""
    try:
        inspect.signature(model.forward).bind(*inputs)
    except TypeError:
        return (f"make Model.forward accept the {len(inputs)} input(s) get_inputs() returns, in that order (or "
                "make get_inputs() return what forward takes)")
    line = _task_line(e.__traceback__, path)
    where = f"at line {line}" if line else "inside it"
    return (f"the forward's own code raised {where} on the inputs get_inputs() returns: fix the forward there, or "
            "make get_inputs() return the shapes and dtypes it expects")


def _a_list(fn: Any, kind: str, path: Path, name: str, fix: str, list_fix: str,
            ) -> tuple[list[Any], dict[str, Any] | None]:
    """fn() as a list, or the error naming fn: it raised, or it returned something other than a list."""
    try:
        value = fn()
    except Exception as e:
        return [], _raised(kind, path, e, name, fix)
    if not isinstance(value, (list, tuple)):
        return [], _error(kind, path, _def_line(fn), f"{name} returned a {type(value).__name__}; expected a list",
                          list_fix)
    return list(value), None


def _def_line(fn: Any) -> int | None:
    code = getattr(fn, "__code__", None)
    return code.co_firstlineno if code is not None else None


def _no_mark(step: str) -> None:
    pass


# The torch functions whose order the census keeps (what a softmax between two matrix products is seen by).
_SEQUENCED = frozenset({"matmul", "__matmul__", "__rmatmul__", "bmm", "softmax"})
SEQUENCE_MAX = 10000


def _census(ops: set[str]) -> Any:
    """A context in which every torch function the forward calls is recorded by name in `ops` ('matmul',
    '__matmul__', 'softmax', 'linear', ...): what the forward computes, also where torch.fx cannot trace it
    (`B, T, C = x.size()`), for rules that look for a pattern of operators (the expert's fused attention). The
    order of the products and softmaxes is kept too (the mode's `sequence`, at most SEQUENCE_MAX). Only the
    forward's own calls are seen, not those inside a torch function."""
    from torch.overrides import TorchFunctionMode

    class Census(TorchFunctionMode):
        def __init__(self) -> None:
            super().__init__()
            self.sequence: list[str] = []

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            name = str(getattr(func, "__name__", func))
            ops.add(name)
            if name in _SEQUENCED and len(self.sequence) < SEQUENCE_MAX:
                self.sequence.append(name)
            return func(*args, **(kwargs or {}))

    return Census()


def softmax_between_products(sequence: list[str]) -> bool:
    """Whether a softmax was called after a matrix product and before another: attention's order of calls."""
    products = ("matmul", "__matmul__", "__rmatmul__", "bmm")
    for i, name in enumerate(sequence):
        if name == "softmax" and any(n in products for n in sequence[:i]) and \
                any(n in products for n in sequence[i + 1:]):
            return True
    return False


def _task_line(tb: Any, path: Path) -> int | None:
    """The deepest traceback frame inside the task file: where the user should look."""
    line = None
    for frame in traceback.extract_tb(tb):
        if Path(frame.filename).resolve() == path.resolve():
            line = frame.lineno
    return line


def _describe_value(v: Any) -> dict[str, Any]:
    import torch

    if isinstance(v, torch.Tensor):
        d: dict[str, Any] = {
            "kind": "tensor", "shape": list(v.shape), "dtype": str(v.dtype).replace("torch.", ""),
            "strides": list(v.stride()), "contiguous": v.is_contiguous(), "device": v.device.type,
        }
        if v.numel() and not v.is_meta and v.dtype != torch.bool:
            vf = v.detach().float() if v.is_floating_point() else v.detach().double()
            d["min"] = float(vf.min())
            d["max"] = float(vf.max())
            d["finite"] = bool(torch.isfinite(vf).all())
        return d
    if isinstance(v, bool):
        return {"kind": "scalar", "dtype": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "scalar", "dtype": "int64", "value": v}
    if isinstance(v, float):
        return {"kind": "scalar", "dtype": "float64", "value": v if math.isfinite(v) else str(v)}
    return {"kind": "other", "type": type(v).__name__, "repr": _said(v)}


def _said(v: Any) -> str:
    """A value get_inputs() may not return, in a few words: a list or dict of tensors by what it holds (its repr
    would print the tensors' numbers)."""
    if isinstance(v, (list, tuple, dict)):
        items = list(v.values()) if isinstance(v, dict) else list(v)
        kinds = sorted({type(x).__name__ for x in items})
        return f"{len(items)} item{'s' if len(items) != 1 else ''}: {', '.join(kinds) or 'none'}"
    return repr(v)[:200]


def _graph(model: Any, inputs: list[Any]) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The operator graph by torch.fx with shapes propagated; (None, why) when it does not trace."""
    import torch
    from torch.fx.passes.shape_prop import ShapeProp

    try:
        gm = torch.fx.symbolic_trace(model)
        ShapeProp(gm).propagate(*inputs)
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"
    nodes = []
    modules = dict(gm.named_modules())
    for n in gm.graph.nodes:
        meta = n.meta.get("tensor_meta")
        target = n.target
        if n.op == "call_module":
            target_desc = f"{type(modules[n.target]).__name__}:{n.target}"
            mod_cfg = {k: v for k, v in vars(modules[n.target]).items()
                       if not k.startswith("_") and isinstance(v, (int, float, bool, tuple, str))
                       and k not in _MODULE_BOOKKEEPING}
        else:
            target_desc = getattr(target, "__name__", str(target))
            mod_cfg = {}

        def arg(a: Any) -> Any:
            if isinstance(a, torch.fx.Node):
                return {"node": a.name}
            if isinstance(a, (list, tuple)):
                return [arg(x) for x in a]
            if isinstance(a, (int, float, bool, str)) or a is None:
                return a
            return repr(a)

        entry = {"name": n.name, "op": n.op, "target": target_desc,
                 "args": [arg(a) for a in n.args], "kwargs": {k: arg(v) for k, v in n.kwargs.items()},
                 "config": {k: list(v) if isinstance(v, tuple) else v for k, v in mod_cfg.items()}}
        if meta is not None and hasattr(meta, "shape"):
            entry["shape"] = list(meta.shape)
            entry["dtype"] = str(meta.dtype).replace("torch.", "")
        nodes.append(entry)
    return nodes, None


def probe(path: Path, mark: Any = _no_mark) -> dict[str, Any]:
    if not path.is_file():
        return _error("missing", path, None, f"{path} does not exist", "pass the path of a task .py file")
    src = path.read_text()
    try:
        compile(src, str(path), "exec")
    except SyntaxError as e:
        return _error("syntax", path, e.lineno, f"syntax error: {e.msg}", "fix the syntax at that line")

    spec = importlib.util.spec_from_file_location(f"hiera_task_{abs(hash(str(path)))}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    mark("import")
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        return _error("import", path, _task_line(e.__traceback__, path),
                      f"importing the task raised {type(e).__name__}: {e}",
                      "make the file importable on its own (no side effects that need other files)")

    missing = [n for n in REQUIRED if not hasattr(module, n)]
    if missing:
        return _error("format", path, None, *missing_message(missing))

    import torch

    # Each call is its own step, so an error names the function that failed and says what to do about that
    # one (mark: the step is written down first, for a process killed mid-step, e.g. out of memory).
    mark("get_init_inputs")
    torch.manual_seed(0)
    init_inputs, failed = _a_list(
        module.get_init_inputs, "init_inputs", path, "get_init_inputs()",
        "make get_init_inputs() return the list of Model's constructor arguments ([] for none)",
        "return a list of Model's constructor arguments from get_init_inputs() ([] for none)")
    if failed:
        return failed
    # Shapes first, on the meta device (no memory, no arithmetic): KernelBench's tasks ship inputs of
    # 6-9 GB, which on the CPU took 75-90 s per description on this project's 2-core machine, or more
    # memory than it has (a 6.4 GB sigmoid was killed). A task that large is described from the meta
    # run; a small one, or one the meta device cannot run, is run for real as before (its value ranges go
    # into the contract's notes).
    described = _on_meta(module, init_inputs, mark)
    size = _nbytes(*described[:3]) if described is not None else 0
    # The task runs on its device, which may hold more than this machine's memory (an H200 has 141 GB):
    # only a size no machine holds is refused here, before anything is allocated.
    if size > max(machine_bytes(), UNHOLDABLE_BYTES):
        return _error("inputs", path, _def_line(module.get_inputs),
                      f"get_inputs() and the model ask for {size / 2**30:.1f} GiB of tensors in all, more than "
                      f"this machine's {machine_bytes() / 2**30:.0f} GiB of memory or any GPU's",
                      "get_inputs() asks for more memory than this machine has; make its tensors smaller")
    on_meta = False  # described from a meta-device run (shapes only, no values)
    ops = set(described[3]) if described is not None else set()  # the forward's torch functions (_census)
    attention_order = bool(described[4]) if described is not None else False  # softmax_between_products
    real: tuple[Any, float] | None = None  # the model run for real, and its forward's seconds
    if described is not None and described[2] is not None and size > REAL_RUN_BYTES:
        model, inputs, out, _, _ = described
        on_meta = True
    else:
        mark("__init__")
        try:
            model = module.Model(*init_inputs)
            model.eval()
        except Exception as e:
            return _raised("init", path, e, "Model.__init__",
                           f"make Model.__init__ accept what get_init_inputs() returns ({len(init_inputs)} "
                           "argument(s)) and build the module from them")
        mark("get_inputs")
        torch.manual_seed(1)
        inputs, failed = _a_list(module.get_inputs, "inputs", path, "get_inputs()",
                                 "make get_inputs() return the forward's inputs: a list of tensors and numbers",
                                 "return a list of the forward's inputs from get_inputs() (`return [x]`, not "
                                 "`return x`)")
        if failed:
            return failed
        mark("forward")
        try:
            t_forward = time.perf_counter()
            with torch.no_grad(), _census(ops) as census:
                out = model(*inputs)
            attention_order = softmax_between_products(census.sequence)
            real = (model, time.perf_counter() - t_forward)
        except Exception as e:
            fallback = None
            if _out_of_memory(e):
                # A small task whose CPU kernels still need more memory than the CPU has (an fp64
                # convolution goes through im2col on the CPU) is described on the meta device too.
                fallback = _meta_forward(model, inputs)
            if fallback is None:
                return _raised("forward", path, e, "Model.forward", _forward_fix(model, inputs, e, path))
            out, on_meta = fallback, True
    mark("describe")

    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    if not outs or not all(isinstance(o, torch.Tensor) for o in outs):
        return _error("forward", path, None,
                      f"forward returned {type(out).__name__}; expected a tensor or a tuple of tensors",
                      "return tensors from forward")

    sig = inspect.signature(module.Model.forward)
    names = [p for p in sig.parameters if p != "self"]
    has_varargs = any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    if has_varargs or len(names) < len(inputs):
        names = [f"input{i}" for i in range(len(inputs))]
    input_desc = [{"name": names[i], **_describe_value(v)} for i, v in enumerate(inputs)]

    params = [{"name": n, **_describe_value(p.detach())} for n, p in model.named_parameters()]
    buffers = [{"name": n, **_describe_value(b)} for n, b in model.named_buffers()]
    scalars = [
        {"name": k, **_describe_value(v)} for k, v in vars(model).items()
        if not k.startswith("_") and k not in _MODULE_BOOKKEEPING
        and isinstance(v, (int, float, bool)) and not isinstance(v, torch.Tensor)
    ]
    if on_meta:
        graph, trace_error = _graph(model.to("meta"), [_to_meta(x) for x in inputs])
    else:
        graph, trace_error = _graph(model, inputs)
    batch, batch_note = _batch_dim(described, inputs, outs, None if on_meta else real)
    return {
        "ok": True,
        "path": str(path.resolve()),
        "init_inputs": [_describe_value(v) for v in init_inputs],
        "inputs": input_desc,
        "parameters": params,
        "buffers": buffers,
        "scalars": scalars,
        "outputs": [{"name": f"out{i}" if len(outs) > 1 else "out", **_describe_value(o)}
                    for i, o in enumerate(outs)],
        "output_is_tuple": isinstance(out, (tuple, list)),
        "graph": graph,
        "trace_error": trace_error,
        "ops": sorted(ops),
        "softmax_between_products": attention_order,
        "batch": batch,
        "batch_note": batch_note,
        "torch_version": torch.__version__,
        **({"described_on": "meta"} if on_meta else {}),
    }


# Above this many bytes of inputs, parameters and outputs a task is described from its meta-device run.
REAL_RUN_BYTES = 256 << 20
# More than any one machine or GPU holds (2 TiB).
UNHOLDABLE_BYTES = 1 << 41


def machine_bytes() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def _on_meta(module: Any, init_inputs: list[Any], mark: Any
             ) -> tuple[Any, list[Any], Any, set[str], bool] | None:
    """(model, inputs, output) built and run on the meta device, or None when any of it fails there
    (data-dependent code, .item(), an operator without a meta kernel): the real run then says what. The
    output is None, the forward not run, when the parameters and inputs alone are small (the real run follows).
    The steps are marked as in the real run, so a task that hangs or dies here is named the same way."""
    import torch

    try:
        with torch.device("meta"):
            torch.manual_seed(0)
            mark("__init__")
            model = module.Model(*init_inputs)
            model.eval()
            mark("get_inputs")
            inputs = module.get_inputs()
            if not isinstance(inputs, (list, tuple)):
                return None
            inputs = list(inputs)
            if _nbytes(model, inputs, None) <= REAL_RUN_BYTES // 2:
                # Small enough to run for real: the forward on the meta device is skipped here (a recurrent
                # layer runs there step by step: 11 s for a 6-layer LSTM of 512 steps on the 2-core machine,
                # where the real forward takes 0.3 s). Whether it runs there at all, _batch_dim finds out.
                return model, inputs, None, set(), False
            mark("forward")
            ops: set[str] = set()
            with torch.no_grad(), _census(ops) as census:
                out = model(*inputs)
    except Exception:
        return None
    tensors = [*inputs, *(out if isinstance(out, (tuple, list)) else [out])]
    if not all(t.is_meta for t in tensors if isinstance(t, torch.Tensor)):
        return None
    return model, inputs, out, ops, softmax_between_products(census.sequence)


def _nbytes(model: Any, inputs: list[Any], out: Any) -> int:
    import torch

    outs = [] if out is None else list(out) if isinstance(out, (tuple, list)) else [out]
    values = [*inputs, *outs, *model.parameters(), *model.buffers()]
    return sum(v.numel() * v.element_size() for v in values if isinstance(v, torch.Tensor))


def _to_meta(x: Any) -> Any:
    return x.to("meta") if hasattr(x, "to") and hasattr(x, "is_meta") else x


def _meta_forward(model: Any, inputs: list[Any]) -> Any | None:
    """The forward on the meta device (a copy of the model), or None when it does not run there."""
    import copy

    import torch

    try:
        with torch.no_grad():
            return copy.deepcopy(model).to("meta")(*[_to_meta(x) for x in inputs])
    except Exception:
        return None


def _batch_dim(described: tuple[Any, list[Any], Any, set[str], bool] | None, inputs: list[Any], outs: list[Any],
               real: tuple[Any, float] | None = None) -> tuple[dict[str, Any] | None, str]:
    """The batch dimension (issue 29): dim 0, when every tensor input and every output has the same size B
    there, and the reference, run on the meta device with that size changed, accepts it and returns
    outputs that follow it (the other dims unchanged). Returns ({"size": B, "variants": [sizes it accepts
    among contracts.shapes.variant_sizes(B)], "refused": {size: why}, "graphs": {size: the fx graph at
    that size, for each of generic_sizes(B)}}, a note), or (None, why there is none)."""
    import torch

    from contracts.shapes import bounds, generic_sizes, variant_sizes

    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    if not tensors:
        return None, "no tensor input"
    sizes = {x.shape[0] if x.dim() else None for x in tensors} | {o.shape[0] if o.dim() else None for o in outs}
    if len(sizes) != 1 or None in sizes:
        return None, "no dimension 0 shared by every tensor input and every output"
    (b,) = sizes
    if described is None:
        return None, "the reference does not run on the meta device, so other batch sizes were not tried"
    model = described[0]
    accepted: list[int] = []
    refused: dict[str, str] = {}
    graphs: dict[str, Any] = {}

    def at(s: int) -> list[Any]:
        return [torch.empty((s, *x.shape[1:]), dtype=x.dtype, device="meta") if isinstance(x, torch.Tensor) else x
                for x in inputs]

    def real_at(s: int) -> list[Any]:
        return [(torch.rand if x.is_floating_point() else torch.zeros)((s, *x.shape[1:]), dtype=x.dtype)
                if isinstance(x, torch.Tensor) else x for x in inputs]

    def follows(s: int) -> str:
        # A size whose real forward is cheap (estimated from the task's own, linear in the batch) runs for real
        # on this machine: the meta device runs a recurrent layer step by step, 5-19 s a size where the real
        # run takes a tenth of a second.
        on_real = real is not None and real[1] * s / b < REAL_SIZE_S
        try:
            with torch.no_grad():
                got = real[0](*real_at(s)) if on_real else model(*at(s))  # type: ignore[index]
        except Exception as e:
            return f"the reference raised {type(e).__name__}: {str(e)[:160]}"
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        want = [(s, *o.shape[1:]) for o in outs]
        if [tuple(g.shape) if isinstance(g, torch.Tensor) else None for g in got] != want:
            return "its outputs do not follow the batch size"
        return ""

    # The meta device runs a recurrent layer step by step (a 6-layer LSTM of 512 steps: 19 s a size on the 2-core
    # machine, 131 s for the sizes below): sizes are tried within META_BUDGET_S and the rest are not tried.
    t0 = time.perf_counter()

    def in_budget() -> bool:
        return time.perf_counter() - t0 < META_BUDGET_S

    for s in variant_sizes(b):
        why = follows(s) if in_budget() else (f"not tried: running the reference on the meta device took over "
                                              f"{META_BUDGET_S:g} s for the sizes before it")
        if why:
            refused[str(s)] = why
        else:
            accepted.append(s)
    if not accepted:
        return None, f"the module fixes the batch size {b}: " + "; ".join(f"{s}: {w}" for s, w in refused.items())
    for s in generic_sizes(b):
        if in_budget() and not follows(s):
            graph, _why = _graph(model, at(s))
            if graph is not None:
                graphs[str(s)] = graph
    # The range, not the sizes tried: the note is in the contract a candidate reads (issue 38).
    lo, hi = bounds(b, accepted, (int(s) for s in refused))
    note = f"dim 0 of every tensor input and output is the batch ({b}); the reference accepts it from {lo} to {hi}"
    return {"size": b, "variants": accepted, "refused": refused, "graphs": graphs}, note


META_BUDGET_S = 10.0  # the batch-size check's time on the meta device (_batch_dim)
REAL_SIZE_S = 2.0  # a batch size whose real forward should take less than this is tried for real (_batch_dim)

STEP_SUFFIX = ".step"  # beside OUT.json: the task function running now (read when the process dies)


def _limit_memory() -> None:
    """Address space capped at 60% of the machine's memory: a forward that asks for more fails at once with
    an out-of-memory error (and is described on the meta device) instead of the kernel killing the probe."""
    import resource

    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = int(0.6 * machine_bytes())
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ValueError, OSError):
        pass


def main() -> None:
    _limit_memory()
    task, out = Path(sys.argv[1]), Path(sys.argv[2])
    step = out.with_name(out.name + STEP_SUFFIX)
    try:
        result = probe(task, lambda name: step.write_text(name))
    except BaseException as e:  # the task may raise anything, SystemExit included
        result = _error("internal", task, _task_line(e.__traceback__, task),
                        f"{type(e).__name__}: {e}", "see the traceback: " + traceback.format_exc()[-800:])
    out.write_text(json.dumps(result))


if __name__ == "__main__":
    main()
