"""KernelBench-format tasks: load one (in a subprocess) into a plain, typed description.

A task file defines `class Model(nn.Module)`, `get_inputs()` and `get_init_inputs()`. Loading runs
`engine.task.probe` in its own interpreter so that a broken, slow or hostile task never runs in the caller.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from contracts.shapes import bounds
from engine.exit_status import exit_text
from engine.task.source import check_source

# Loading a task runs it (import, get_init_inputs, Model(...), get_inputs, one forward) in a process of its own;
# past LOAD_TIMEOUT_S it is stopped and the load is a usage error naming the step it was in (`hiera optimize`,
# `eval`, `bench`: --load-timeout). From SLOW_LOAD_S on, a caller's on_slow hears where it is, every SLOW_LOAD_S.
LOAD_TIMEOUT_S = 120.0
SLOW_LOAD_S = 5.0


class TaskError(Exception):
    """A task file that cannot be used, with where and what to do."""

    def __init__(self, file: str, line: int | None, message: str, fix: str, kind: str = "task"):
        self.file, self.line, self.message, self.fix, self.kind = file, line, message, fix, kind
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}. To fix: {fix}.")


@dataclass(frozen=True)
class TensorSpec:
    shape: tuple[int, ...]
    dtype: str
    contiguous: bool = True
    min: float | None = None
    max: float | None = None

    @property
    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self) -> int:
        return {"float64": 8, "int64": 8, "float32": 4, "int32": 4, "float16": 2, "bfloat16": 2,
                "int16": 2, "int8": 1, "uint8": 1, "bool": 1}.get(self.dtype, 4)

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize


@dataclass(frozen=True)
class Arg:
    """One argument of the contract's forward, in contract order."""

    name: str  # Python-side name: forward parameter, qualified parameter/buffer name, or attribute
    role: str  # "input" | "parameter" | "buffer" | "scalar"
    tensor: TensorSpec | None  # None for scalars
    scalar_dtype: str | None = None  # "float64" | "int64" | "bool" for scalars
    scalar_value: Any = None  # value seen when probing (scalars only)

    @property
    def c_name(self) -> str:
        """A C identifier for this argument (fc.weight -> fc_weight)."""
        ident = "".join(c if c.isalnum() else "_" for c in self.name)
        return ident if not ident[0].isdigit() else "_" + ident


@dataclass(frozen=True)
class GraphNode:
    name: str
    op: str  # placeholder | call_function | call_method | call_module | get_attr | output
    target: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    config: dict[str, Any]
    shape: tuple[int, ...] | None
    dtype: str | None

    def operands(self) -> list[str]:
        """The names of the nodes this one reads (its args and kwargs, nested)."""
        return [r for a in (*self.args, *self.kwargs.values()) for r in _node_refs(a)]


def _node_refs(value: Any) -> Iterator[str]:
    """The names of the nodes a GraphNode argument refers to (its {"node": name} entries, inside lists, tuples and
    dicts too)."""
    if isinstance(value, dict):
        if "node" in value and len(value) == 1:
            yield value["node"]
        else:
            for v in value.values():
                yield from _node_refs(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _node_refs(v)


@dataclass(frozen=True)
class BatchDim:
    """The batch (dim 0 of every tensor input and every output) and what the reference accepts there
    (engine/task/probe.py _batch_dim, contracts/shapes.py)."""

    size: int  # at get_inputs()
    # The sizes of shapes.variant_sizes(size) the reference accepts: they bound the range (`bounds`) inside which
    # each candidate's check sizes are drawn (shapes.draw_sizes); never the sizes themselves.
    variants: tuple[int, ...]
    refused: dict[str, str]  # the others, with why
    # The fx graph at each of shapes.generic_sizes(size) (the expert lowers it there to see which of its code
    # follows the batch: codegen/runtime_batch.py).
    graphs: dict[int, tuple[GraphNode, ...]] = field(default_factory=dict)

    @property
    def bounds(self) -> tuple[int, int]:
        """The batch range the reference accepts around `size` (its ends seen accepted, no refusal inside)."""
        return bounds(self.size, self.variants, (int(s) for s in self.refused))


@dataclass(frozen=True)
class TaskSpec:
    path: Path
    source_hash: str
    args: tuple[Arg, ...]  # inputs, then parameters and buffers, then scalar constants
    outputs: tuple[tuple[str, TensorSpec], ...]
    output_is_tuple: bool
    graph: tuple[GraphNode, ...] | None
    trace_error: str | None
    init_inputs: tuple[Any, ...] = field(default=())
    batch: BatchDim | None = None  # None: the task fixes every shape
    batch_note: str = ""  # how the batch was found, or why there is none
    # The torch functions the forward calls, by name (probe._census: also where torch.fx cannot trace it).
    ops: frozenset[str] = frozenset()
    softmax_between_products: bool = False  # the census saw a softmax called between two matrix products

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def inputs(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.role == "input")

    @property
    def tensor_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.tensor is not None)

    @property
    def state_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.role in ("parameter", "buffer"))

    @property
    def scalar_args(self) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.role == "scalar")

    def at_batch(self, size: int) -> TaskSpec:
        """This task at another batch size: dim 0 of every tensor input and output changed, the graph traced
        at that size (None unless it is one of the generic sizes the probe traced)."""
        if self.batch is None:
            raise ValueError(f"task {self.name} has no batch dimension")

        def resized(t: TensorSpec) -> TensorSpec:
            return replace(t, shape=(size, *t.shape[1:]))

        args = tuple(replace(a, tensor=resized(a.tensor)) if a.role == "input" and a.tensor is not None else a
                     for a in self.args)
        return replace(self, args=args, outputs=tuple((n, resized(t)) for n, t in self.outputs),
                       graph=self.batch.graphs.get(size), batch=replace(self.batch, size=size))

    def batched(self, arg_name: str) -> bool:
        """Whether dim 0 of this tensor argument (or output) is the batch."""
        if self.batch is None:
            return False
        return any(n == arg_name for n, _ in self.outputs) or any(
            a.name == arg_name and a.role == "input" and a.tensor is not None for a in self.args)

    def min_bytes(self) -> int:
        """Bytes that must move at least once: every tensor argument read, every output written."""
        return sum(a.tensor.nbytes for a in self.tensor_args if a.tensor) + sum(
            t.nbytes for _, t in self.outputs)


def _tensor(d: dict[str, Any]) -> TensorSpec:
    return TensorSpec(tuple(d["shape"]), d["dtype"], d.get("contiguous", True), d.get("min"), d.get("max"))


def spec_from_probe(path: Path, raw: dict[str, Any]) -> TaskSpec:
    args: list[Arg] = []
    for d in raw["inputs"]:
        if d["kind"] == "tensor":
            args.append(Arg(d["name"], "input", _tensor(d)))
        elif d["kind"] == "scalar":
            args.append(Arg(d["name"], "scalar", None, d["dtype"], d["value"]))
        else:
            raise TaskError(str(path), None, f"get_inputs() returns a {d['type']} ({d['repr']}) among its inputs",
                            "return only tensors and Python numbers from get_inputs(), one per forward argument "
                            "(a list of tensors: pass them as separate arguments)")
    args += [Arg(d["name"], "parameter", _tensor(d)) for d in raw["parameters"]]
    args += [Arg(d["name"], "buffer", _tensor(d)) for d in raw["buffers"]]
    args += [Arg(d["name"], "scalar", None, d["dtype"], d["value"]) for d in raw["scalars"]]
    graph = _graph(raw["graph"]) if raw.get("graph") is not None else None
    batch = None
    if raw.get("batch"):
        d = raw["batch"]
        batch = BatchDim(int(d["size"]), tuple(int(s) for s in d["variants"]), dict(d.get("refused", {})),
                         {int(s): _graph(g) for s, g in d.get("graphs", {}).items()})
    return TaskSpec(
        path=path.resolve(),
        source_hash=hashlib.sha256(path.read_bytes()).hexdigest()[:16],
        args=tuple(args),
        outputs=tuple((d["name"], _tensor(d)) for d in raw["outputs"]),
        output_is_tuple=raw["output_is_tuple"],
        graph=graph,
        trace_error=raw.get("trace_error"),
        init_inputs=tuple(d.get("value", d.get("repr")) for d in raw["init_inputs"]),
        batch=batch,
        batch_note=str(raw.get("batch_note", "")),
        ops=frozenset(raw.get("ops", ())),
        softmax_between_products=bool(raw.get("softmax_between_products")),
    )


def _graph(nodes: list[dict[str, Any]]) -> tuple[GraphNode, ...]:
    return tuple(GraphNode(n["name"], n["op"], n["target"], tuple(n["args"]), n["kwargs"], n.get("config", {}),
                           tuple(n["shape"]) if "shape" in n else None, n.get("dtype")) for n in nodes)


# What each step of engine.task.probe runs, and what to do when the task's process dies or hangs there.
_STEPS = {
    "import": ("importing the task file", "make the file import quickly on its own"),
    "get_init_inputs": ("get_init_inputs()", "make get_init_inputs() return Model's constructor arguments quickly"),
    "__init__": ("Model.__init__", "make Model(*get_init_inputs()) build quickly and within this machine's memory"),
    "get_inputs": ("get_inputs()", "make get_inputs() return tensors that fit in this machine's memory, quickly"),
    "forward": ("Model.forward", "make Model.forward finish quickly on the CPU, within this machine's memory"),
    "describe": ("describing the task (tracing its graph)", "run `python TASK.py` to see the crash"),
}


# Sources a user may pass where a task belongs: kernels are candidates, judged against a task.
_KERNEL_SUFFIXES = {".cu": "a CUDA kernel", ".cuh": "a CUDA header", ".cpp": "a C++ source", ".cc": "a C++ source",
                    ".cxx": "a C++ source", ".h": "a C/C++ header"}


def check_task_path(path: Path) -> None:
    """Refuse, before anything runs, a path that cannot be a task: missing, a folder, or not a .py file.

    The task is imported as a Python module (here and by the evaluator), so its name must end in .py."""
    if path.is_dir():
        raise TaskError(str(path), None, "is a directory, not a task file",
                        "pass one task's .py file (`hiera bench DIR` runs every task in a folder)")
    if not path.exists():
        raise TaskError(str(path), None, "no such file", "pass the path of a KernelBench-format .py file")
    if not path.is_file():
        raise TaskError(str(path), None, "is not a regular file", "pass the path of a KernelBench-format .py file")
    suffix = path.suffix.lower()
    if suffix in _KERNEL_SUFFIXES:
        raise TaskError(str(path), None, f"is {_KERNEL_SUFFIXES[suffix]}, not a task (a task is a KernelBench-format "
                        "Python file: class Model, get_inputs, get_init_inputs)",
                        f"pass the task's .py file; to judge this kernel against it: hiera eval TASK.py {path.name}")
    if path.suffix != ".py":
        raise TaskError(str(path), None, "a task must be a Python file named *.py (it is imported as a module)",
                        f"rename it to {path.with_suffix('.py').name}" if path.suffix else
                        f"rename it to {path.name}.py")


def check_task_text(path: Path) -> None:
    """Refuse at once, before any process imports it, a task file whose text cannot be a task
    (engine/task/source.py: binary, not UTF-8, not Python, no Model/get_inputs/get_init_inputs)."""
    problem = check_source(path)
    if problem is not None:
        raise TaskError(str(path), problem.line, problem.message, problem.fix, problem.kind)


def probe_task(path: Path | str, timeout_s: float = 300.0,
               on_slow: Callable[[str, float, float], None] | None = None) -> dict[str, Any]:
    """Raw JSON description of a task, produced in a subprocess. Raises TaskError. on_slow(step, seconds, limit):
    told every SLOW_LOAD_S while the task is still loading (the step: 'Model.forward', ...)."""
    from engine.task.probe import STEP_SUFFIX

    path = Path(path)
    check_task_path(path)
    check_task_text(path)
    with tempfile.TemporaryDirectory(prefix="hiera-probe-") as tmp:
        out = Path(tmp) / "probe.json"
        step_file = out.with_name(out.name + STEP_SUFFIX)

        def step() -> tuple[str, str]:
            name = step_file.read_text() if step_file.exists() else "import"
            return _STEPS.get(name, (name, "run `python TASK.py` to see the crash"))

        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                            os.environ.get("PYTHONPATH", "")]))
        proc = subprocess.Popen([sys.executable, "-m", "engine.task.probe", str(path.resolve()), str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                cwd=str(path.parent))
        t0 = time.monotonic()
        told = t0
        while True:
            now = time.monotonic()
            left = t0 + timeout_s - now
            try:
                # communicate() again after its timeout loses no output (the task may print a lot meanwhile)
                _stdout, stderr = proc.communicate(timeout=max(0.05, min(left, told + SLOW_LOAD_S - now)))
                break
            except subprocess.TimeoutExpired:
                now = time.monotonic()
                if now - t0 >= timeout_s:
                    proc.kill()
                    proc.communicate()
                    where, fix = step()
                    raise TaskError(str(path), None, f"loading and running the task took over {timeout_s:.0f} s "
                                                     f"(it was in {where}; the limit is --load-timeout)",
                                    f"{fix}, or give it longer with --load-timeout SECONDS") from None
                if on_slow is not None and now - told >= SLOW_LOAD_S:
                    told = now
                    on_slow(step()[0], now - t0, timeout_s)
        if not out.exists():
            where, fix = step()
            tail = (stderr or "").strip()[-600:]
            raise TaskError(str(path), None,
                            f"the task's process died ({exit_text(proc.returncode, oom_hint=True)}) in {where}, "
                            "before describing it"
                            + (f": {tail}" if tail else ""), fix)
        raw = json.loads(out.read_text())
    if not raw["ok"]:
        e = raw["error"]
        raise TaskError(e["file"], e["line"], e["message"], e["fix"], e["kind"])
    return raw


def load_task(path: Path | str, timeout_s: float = 300.0,
              on_slow: Callable[[str, float, float], None] | None = None) -> TaskSpec:
    path = Path(path)
    return spec_from_probe(path, probe_task(path, timeout_s, on_slow))
