"""libraries + PyTorch candidates: whole ModelNew files around the task's own Model.

Each file embeds the task's source verbatim (so it loads by path with nothing beside it) and defines
`class ModelNew(Model)`: subclassing keeps every parameter and buffer under the reference's name, so the
evaluator loads the reference's weights into it. The variants change only how the reference forward
runs:

- compile: torch.compile (Inductor) in one of its modes. Modes that replay CUDA graphs return outputs
  that the next replay overwrites, so those outputs are cloned before they are returned.
- cudagraph: the forward captured once into a CUDA graph and replayed: inputs are copied into static
  buffers, the output is cloned out (a fresh tensor every call, never a buffer the next call reuses).
- cudnn: cuDNN autotuning (benchmark mode) and optionally channels_last, scoped to this model's own
  forward so the reference's timing is left as it is; fp32 policy flags are never touched.
- attention: the forward captured by TorchDynamo with a backend of hiera's (attention_rewrite.py, embedded in
  the file) that rewrites hand-written attention into scaled_dot_product_attention and runs the rest eagerly.
"""

from __future__ import annotations

import inspect
import textwrap
from dataclasses import dataclass

from engine.agents.expert.codegen import attention_rewrite
from engine.task.spec import TaskSpec


@dataclass(frozen=True)
class TorchVariant:
    kind: str  # compile | cudagraph | cudnn | attention | eager
    mode: str = "default"  # torch.compile mode
    channels_last: bool = False
    benchmark: bool = True
    graph_over_compile: bool = False  # cudagraph: capture the compiled forward (mode default)
    graph_over_attention: bool = False  # cudagraph: capture the forward with its attention rewritten
    causal: bool = True  # attention: a mask from the module's state found lower triangular becomes is_causal

    def label(self) -> str:
        if self.kind == "attention":
            return ("scaled_dot_product_attention for hand-written attention (TorchDynamo, no Inductor; "
                    + ("causal masks found" if self.causal else "masks passed as written") + ")")
        if self.kind == "compile":
            return f"torch.compile(mode={self.mode!r})"
        if self.kind == "cudagraph" and self.graph_over_attention:  # the task's forward itself: no cuDNN flags
            return "CUDA graph replay over scaled_dot_product_attention for hand-written attention"
        if self.kind == "cudagraph":
            extra = " over torch.compile" if self.graph_over_compile else ""
            return f"CUDA graph replay{extra}" + (" + cudnn.benchmark" if self.benchmark else "")
        if self.kind == "cudnn":
            return ("channels_last + " if self.channels_last else "") + "cudnn.benchmark"
        return "reference forward (eager)"


_HEADER = '''
# =====================================================================================================
# hiera expert candidate ({label}); strategy {strategy}.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out
'''

_COMPILE = '''

class ModelNew(Model):
    """The reference forward compiled by Inductor, mode {mode!r}."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = None

    def _hiera_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        if self._hiera_compiled is None:
            # One compile thread: no worker pool left running in the evaluator's process.
            import torch._inductor.config as _cfg
            _cfg.compile_threads = 1
            self._hiera_compiled = _hiera_torch.compile(self._hiera_forward, mode={mode!r}, dynamic=False)
{call}
'''

_COMPILE_PLAIN_CALL = "        return self._hiera_compiled(*inputs)"
# Modes that replay CUDA graphs own their outputs: the next replay overwrites them, so clone them out.
_COMPILE_GRAPH_CALL = """        if inputs and isinstance(inputs[0], _hiera_torch.Tensor) and inputs[0].is_cuda:
            _hiera_torch.compiler.cudagraph_mark_step_begin()
        return _hiera_clone(self._hiera_compiled(*inputs))"""

_CUDAGRAPH = '''

class ModelNew(Model):
    """The reference forward captured once into a CUDA graph and replayed ({label})."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_graph = None
        self._hiera_key = None
        self._hiera_fn = None

    def _hiera_forward(self, *inputs):
        with {flags}:
            return Model.forward(self, *inputs)

    def _hiera_capture(self, inputs):
        fn = self._hiera_forward{over_compile}
        self._hiera_in = [x.clone() if isinstance(x, _hiera_torch.Tensor) else x for x in inputs]
        side = _hiera_torch.cuda.Stream()
        side.wait_stream(_hiera_torch.cuda.current_stream())
        with _hiera_torch.cuda.stream(side):
            for _ in range(3):  # warm-up: library handles, workspaces and autotuning happen outside the graph
                fn(*self._hiera_in){after_warmup}
        _hiera_torch.cuda.current_stream().wait_stream(side)
        graph = _hiera_torch.cuda.CUDAGraph()
        with _hiera_torch.cuda.graph(graph):
            self._hiera_out = fn(*self._hiera_in)
        self._hiera_graph = graph

    def forward(self, *inputs):
        tensors = [x for x in inputs if isinstance(x, _hiera_torch.Tensor)]
        if not tensors or not tensors[0].is_cuda:
            return self._hiera_forward(*inputs){check_state}
        key = tuple((tuple(x.shape), x.dtype, x.device) if isinstance(x, _hiera_torch.Tensor) else x
                    for x in inputs)
        if self._hiera_graph is None or key != self._hiera_key:
            self._hiera_capture(inputs)
            self._hiera_key = key
        for dst, src in zip(self._hiera_in, inputs):
            if isinstance(src, _hiera_torch.Tensor):
                dst.copy_(src)
        self._hiera_graph.replay()
        return _hiera_clone(self._hiera_out)
'''

_CUDNN = '''

class ModelNew(Model):
    """The reference forward with {label}, scoped to this model's own calls."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if {channels_last}:
            self.to(memory_format=_hiera_torch.channels_last)

    def forward(self, *inputs):
        if {channels_last}:
            inputs = tuple(x.contiguous(memory_format=_hiera_torch.channels_last)
                           if isinstance(x, _hiera_torch.Tensor) and x.dim() == 4 else x for x in inputs)
        with {flags}:
            out = Model.forward(self, *inputs)
        if {channels_last}:
            out = (type(out)(o.contiguous() for o in out) if isinstance(out, (tuple, list)) else out.contiguous())
        return out
'''

# Only in the variant that compiles: a file that calls torch.compile is one of the compile candidates
# (outcome.Candidate.hieras_compile: compiled ahead, priced by its compile).
_OVER_COMPILE = """
        import torch._inductor.config as _cfg
        _cfg.compile_threads = 1
        fn = _hiera_torch.compile(self._hiera_forward, mode="default", dynamic=False)"""

_ATTENTION_PRELUDE = '''


def _hiera_attention_module():
{module}
    return StateTensors, backend


_HieraStateTensors, _hiera_attention_backend = _hiera_attention_module()
# One backend for the process (TorchDynamo reuses a graph it captured for one ModelNew for the next: its
# parameters and buffers are the graph's inputs), with what its captures rewrote, one line per attention.
_hiera_state = _HieraStateTensors()
_hiera_fused = []
_hiera_backend = _hiera_attention_backend(_hiera_state, causal={causal}, said=_hiera_fused)
_hiera_told = []


def _hiera_changed(model, inputs):
    """A module whose buffers no longer hold what a capture decided on (a causal mask): its reference forward."""
    if not _hiera_told:
        _hiera_told.append(True)
        import sys
        print("hiera: a buffer the attention rewrite found causal holds other values in this module; running the "
              "reference's own forward for it", file=sys.stderr)
    return Model.forward(model, *inputs)
'''

_NO_ATTENTION = ("no hand-written attention found to rewrite: no softmax(q @ k^T) @ v chain in the forward's captured "
                 "graph, so this candidate is the reference unchanged")

# The CUDA graph replay of the forward with its attention rewritten (attention: the capture happens in the warm-up).
_OVER_ATTENTION = """
        _hiera_state.add_module(self)
        # The task's forward itself (not _hiera_forward's cuDNN-flags context, which TorchDynamo would break at).
        fn = _hiera_torch.compile(Model.forward.__get__(self), backend=_hiera_backend, dynamic=False)"""
_CHECK_STATE = """
        if not _hiera_state.unchanged(self):
            return _hiera_changed(self, inputs)"""
_AFTER_ATTENTION = f"""
        if not _hiera_fused:
            raise RuntimeError({_NO_ATTENTION!r})"""

_ATTENTION = '''

class ModelNew(Model):
    """The reference forward with its hand-written attention rewritten into scaled_dot_product_attention
    ({label}); everything else runs as the reference wrote it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_fn = None

    def _hiera_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        if not _hiera_state.unchanged(self):
            return _hiera_changed(self, inputs)
        if self._hiera_fn is None:
            _hiera_state.add_module(self)
            # A custom backend: TorchDynamo's capture only, no Inductor (about a second, not a compile).
            self._hiera_fn = _hiera_torch.compile(self._hiera_forward, backend=_hiera_backend, dynamic=False)
        out = self._hiera_fn(*inputs)
        if not _hiera_fused:
            raise RuntimeError({no_attention!r})
        return out
'''

_EAGER = '''

class ModelNew(Model):
    """The reference forward unchanged: a valid baseline when nothing faster applies."""
'''

# cuDNN flags scoped to a call; allow_tf32 passes the current value through (the fp32 policy stays).
_FLAGS = ("_hiera_torch.backends.cudnn.flags(enabled=True, benchmark={benchmark}, deterministic=False, "
          "allow_tf32=_hiera_torch.backends.cudnn.allow_tf32)")


def modelnew_source(spec: TaskSpec, variant: TorchVariant, *, strategy: str) -> str:
    task_src = spec.path.read_text()
    head = task_src.rstrip() + "\n" + _HEADER.format(label=variant.label(), strategy=strategy)
    flags = _FLAGS.format(benchmark=variant.benchmark)
    if variant.kind == "compile":
        graphs = variant.mode in ("max-autotune", "reduce-overhead")
        body = _COMPILE.format(mode=variant.mode, call=_COMPILE_GRAPH_CALL if graphs else _COMPILE_PLAIN_CALL)
    elif variant.kind == "cudagraph":
        over = _OVER_COMPILE if variant.graph_over_compile else _OVER_ATTENTION if variant.graph_over_attention else ""
        body = _CUDAGRAPH.format(label=variant.label(), flags=flags, over_compile=over,
                                 after_warmup=_AFTER_ATTENTION if variant.graph_over_attention else "",
                                 check_state=_CHECK_STATE if variant.graph_over_attention else "")
        if variant.graph_over_attention:
            body = _ATTENTION_PRELUDE.format(causal=variant.causal, module=_attention_module()) + body
    elif variant.kind == "attention":
        body = (_ATTENTION_PRELUDE.format(causal=variant.causal, module=_attention_module())
                + _ATTENTION.format(label=variant.label(), no_attention=_NO_ATTENTION))
    elif variant.kind == "cudnn":
        body = _CUDNN.format(label=variant.label(), flags=flags, channels_last=variant.channels_last)
    else:
        body = _EAGER
    return head + body


def _attention_module() -> str:
    """attention_rewrite.py's source, indented into the body of a function: the candidate file carries it whole
    (the runner has no hiera to import) without its names meeting the task's."""
    return textwrap.indent(inspect.getsource(attention_rewrite), "    ")
