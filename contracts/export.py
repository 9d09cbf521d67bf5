"""Export a valid candidate as a self-contained KernelBench `ModelNew` file.

The file embeds the contract header, the candidate source and the torch binding (`cpp_source.cpp`) as
strings and builds them with `torch.utils.cpp_extension.load_inline`, so any KernelBench harness can
`exec` it with no other file present. The `.cu` written beside it is the same kernel, for reading and
profiling.

That build compiles the torch headers and takes tens of seconds, so it happens once per machine: its folder
is named for a hash of what is compiled (sources, flags, torch and Python versions) under
$TORCH_EXTENSIONS_DIR (default ~/.cache/torch_extensions/hiera), and a later import in any process finds it
built there (ninja sees nothing changed) and loads it in about a second. The file says so in its docstring,
and on stderr while it compiles.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from contracts.contract import ADOPT_REFERENCE, binding_source, contract_header
from contracts.libraries import find_cudnn, libraries_called
from contracts.task import TaskSpec


def _inline_header(source: str, header: str) -> str:
    return re.sub(r'#\s*include\s*"hiera_contract\.h"', lambda _m: header, source)


# What the first import costs (measured: `hiera export` of tests/data/candidates/scale_bias_relu.cpp, then a
# fresh `python -c "import ...; _extension()"` with an empty TORCH_EXTENSIONS_DIR on a shared 2-core CPU:
# 18.7-31.5 s first, 0.006 s second; a CUDA kernel adds nvcc and the CUDA headers: 32-34 s where issue 17
# measured it).
FIRST_BUILD = {False: "20-35 s for a C++ kernel on a 2-core CPU", True: "30-35 s for a CUDA kernel"}
CACHE_RULE = "$TORCH_EXTENSIONS_DIR/hiera_<task>_<hash> (default ~/.cache/torch_extensions/hiera/...)"


def first_import_note(cuda: bool) -> str:
    """What a user should know before importing an exported file (said by the file and by the CLI)."""
    return (f"its first import on a machine compiles the kernel ({FIRST_BUILD[cuda]}) into {CACHE_RULE}; "
            "later imports, in any process, load that build in about a second")


def modelnew_source(spec: TaskSpec, candidate_source: str, *, cuda: bool, note: str = "") -> str:
    header = contract_header(spec).replace("#pragma once\n", "")
    kernel = _inline_header(candidate_source, "// (contract header inlined above)")
    binding = _inline_header(binding_source(spec), "").replace("#include <torch/extension.h>\n", "")
    scalars = [a.name for a in spec.scalar_args]
    call_args = []
    n_inputs = 0
    for a in spec.args:
        if a.role == "input":
            call_args.append(f"inputs[{n_inputs}]")
            n_inputs += 1
        elif a.role in ("parameter", "buffer"):
            call_args.append(f"state[{a.name!r}]")
        else:
            call_args.append(f"self._scalars[{a.name!r}]")
    unpack = "out = outs[0]" if not spec.output_is_tuple else "out = tuple(outs)"
    cuda_kw = "cuda_sources=[_HEADER + _KERNEL], extra_cuda_cflags=['-O3', '-lineinfo']," if cuda else ""
    cpp_sources = "[_HEADER + _BINDING]" if cuda else "[_HEADER + _KERNEL + _BINDING]"
    cflags = "['-O3', '-DHIERA_WITH_CUDA']" if cuda else "['-O3', '-fopenmp']"
    libraries = libraries_called(candidate_source) if cuda else []
    ldflags = repr([f"-l{name}" for name in libraries if name != "cudnn"]) if cuda else "['-fopenmp']"
    includes = "[]"
    cudnn_search = find_flags = ""
    if "cudnn" in libraries:
        # cuDNN is not in the toolkit folders load_inline searches: find it where this file is built.
        includes, ldflags = "cudnn_includes", f"{ldflags} + cudnn_ldflags"
        cudnn_search = _CUDNN_SEARCH.format(find_cudnn=inspect.getsource(find_cudnn))
        find_flags = "\n        cudnn_includes, cudnn_ldflags = _cudnn_build_flags()"
    return f'''"""ModelNew for task '{spec.name}', exported by hiera. {note}

Self-contained: the kernel, the contract header and the binding are embedded below and compiled with
torch.utils.cpp_extension.load_inline on first use. Same constructor and forward signature as Model.

{_wrapped("Build time: " + first_import_note(cuda) + ".")}
"""

import hashlib
import os
import sys
import time

import torch
from torch import nn
from torch.utils.cpp_extension import load_inline
{cudnn_search}
_HEADER = r"""
{header}
"""

_KERNEL = r"""
{kernel}
"""

_BINDING = r"""
{binding}
"""

_ext = None

# The build is kept in a folder named for everything it depends on, so any later process finds it built. These
# are module-level statements: the space check of a pure-CUDA ModelNew reads the calls made in its functions.
_KEY = hashlib.sha256("|".join([_HEADER, _KERNEL, _BINDING, {(cflags + includes + ldflags)!r}, torch.__version__,
                                str(torch.version.cuda), sys.version]).encode()).hexdigest()[:16]
_NAME = "hiera_{_c_ident(spec.name)}_" + _KEY
_FOLDER = os.path.join(os.environ.get("TORCH_EXTENSIONS_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "torch_extensions", "hiera"), _NAME)
_FRESH = not os.path.exists(os.path.join(_FOLDER, _NAME + ".so"))
_make_folder, _clock = os.makedirs, time.perf_counter


def _extension():
    global _ext
    if _ext is None:{find_flags}
        if _FRESH:
            print(f"{{__name__}}: compiling the hiera kernel (first import on this machine: {FIRST_BUILD[cuda]}); "
                  f"kept in {{_FOLDER}}", file=sys.stderr, flush=True)
        _make_folder(_FOLDER, exist_ok=True)
        t0 = _clock()
        _ext = load_inline(
            name=_NAME,
            cpp_sources={cpp_sources},
            {cuda_kw}
            extra_cflags={cflags},
            extra_include_paths={includes},
            extra_ldflags={ldflags},
            build_directory=_FOLDER,
            verbose=False,
        )
        if _FRESH:
            print(f"{{__name__}}: compiled in {{_clock() - t0:.0f}} s", file=sys.stderr, flush=True)
    return _ext


{_reference_source(spec)}


class ModelNew(nn.Module):
    def __init__(self, *init_inputs):
        super().__init__()
{ADOPT_REFERENCE}
        self._scalars = {{k: getattr(reference, k) for k in {scalars!r}}}

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        outs = _extension().forward({", ".join(call_args)})
        {unpack}
        return out
'''


# Embedded in an exported file whose kernel calls cuDNN (find_cudnn is contracts/libraries.py's, verbatim).
_CUDNN_SEARCH = '''from pathlib import Path


{find_cudnn}

def _cudnn_build_flags():
    """([include folder], linker flags) for cuDNN on this machine; a clear error when it is missing."""
    found = find_cudnn()
    if found is None:
        raise ImportError("this kernel calls cuDNN, and no cudnn.h was found: install the nvidia-cudnn wheel "
                          "that matches your PyTorch, or set CUDNN_HOME to a cuDNN folder with include/ and lib/")
    include, libdir, lib = found
    return [include], ([f"-L{{libdir}}", f"-l{{lib}}", f"-Wl,-rpath,{{libdir}}"] if libdir else ["-lcudnn"])
'''


def _wrapped(text: str) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, 108))


def _c_ident(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def _reference_source(spec: TaskSpec) -> str:
    """The task's own source (Model, get_inputs, get_init_inputs), so the file stands alone."""
    return "# --- the reference task, verbatim ---\n" + spec.path.read_text()


def free_path(path: Path) -> Path:
    """path, or path with -2, -3, ... before the suffix: results never overwrite an existing file."""
    if not path.exists():
        return path
    n = 2
    while True:
        p = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not p.exists():
            return p
        n += 1


def free_pair(directory: Path, stem: str, suffix: str) -> tuple[Path, Path]:
    """<stem>.py and <stem><suffix> in directory, numbered (-2, -3, ...) until neither exists."""
    n = 1
    while True:
        tag = "" if n == 1 else f"-{n}"
        py, src = directory / f"{stem}{tag}.py", directory / f"{stem}{tag}{suffix}"
        if not py.exists() and not src.exists():
            return py, src
        n += 1


def result_paths(spec: TaskSpec, suffix: str = ".cu", directory: Path | None = None) -> tuple[Path, Path]:
    """Free names beside the task: <task>_hiera.py and <task>_hiera.cu (numbered when taken)."""
    return free_pair(directory or spec.path.parent, f"{spec.path.stem}_hiera", suffix)
