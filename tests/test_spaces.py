"""The implementation-space check: nested spaces, comments ignored, offending lines named."""

from __future__ import annotations

from engine.task.spaces import Space, check_native_source, check_python_source, smallest_space


def test_spaces_are_nested():
    assert Space.LIBRARIES_PYTORCH.allows(Space.PURE_CUDA)
    assert Space.CUDA_LIBRARIES.allows(Space.PURE_CUDA)
    assert not Space.PURE_CUDA.allows(Space.CUDA_LIBRARIES)


def test_cublas_call_violates_pure_cuda_but_not_libraries():
    src = '#include "hiera_contract.h"\n// cublasSgemm( in a comment is fine\nint f() { cublasSgemm(h); }\n'
    [v] = check_native_source(src, Space.PURE_CUDA)
    assert v.line == 3 and v.needs is Space.CUDA_LIBRARIES
    assert check_native_source(src, Space.CUDA_LIBRARIES) == []


def test_a_library_looked_up_by_name_at_run_time_violates_pure_cuda():
    # The library and symbol names are strings, which the checks above ignore; the lookup itself is code.
    src = ('#include <dlfcn.h>\nvoid* h = dlopen("libcublas.so.13", RTLD_NOW);\n'
           'auto g = (gemm_fn)dlsym (h, "cublasSgemm_v2");\n')
    assert [v.line for v in check_native_source(src, Space.PURE_CUDA)] == [1, 2, 3]
    assert check_native_source(src, Space.CUDA_LIBRARIES) == []


def test_aten_in_a_cu_needs_libraries_pytorch():
    src = "#include <torch/extension.h>\nauto y = at::matmul(a, b);\n"
    lines = [v.line for v in check_native_source(src, Space.CUDA_LIBRARIES)]
    assert lines == [1, 2]
    assert smallest_space(src, python=False) is Space.LIBRARIES_PYTORCH


def test_python_forward_calling_torch_ops_needs_libraries_pytorch():
    src = (
        "import torch\nfrom torch import nn\n\nclass ModelNew(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n\n"
        "    def forward(self, x):\n        y = torch.empty_like(x)\n        return self.fc(torch.relu(x))\n"
    )
    found = {(v.line, v.what) for v in check_python_source(src, Space.PURE_CUDA)}
    assert (11, "the PyTorch call torch.relu()") in found
    assert any(line == 11 and "self.fc" in what for line, what in found)
    assert all(line != 10 for line, _ in found)  # torch.empty_like is allocation


def test_exported_contract_modelnew_stays_in_pure_cuda(tmp_path):
    from engine.task.export import modelnew_source
    from engine.task.spec import load_task
    from tests.conftest import CANDIDATES, TASKS

    spec = load_task(TASKS / "scale_bias_relu.py")
    src = modelnew_source(spec, (CANDIDATES / "scale_bias_relu.cpp").read_text(), cuda=False)
    assert check_python_source(src, Space.PURE_CUDA) == []


# --- plumbing through the standard library is not a tensor method; torch behind those names still is -------------

PLUMBING_FORWARD = '''import hashlib
import os
import os.path as osp
import subprocess
from os import path

import torch
from torch import nn

_ext = None


class ModelNew(nn.Module):
    def forward(self, x):
        where = os.path.join(os.environ.get("HOME", "/tmp"), "k.so")
        with open(where, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if not osp.exists(where) or not path.isfile(where):
            subprocess.run(["true"], check=False)
        out = torch.empty_like(x)
        _ext.forward(x, out, digest)
        return out
'''


def test_calls_on_standard_library_modules_and_files_are_not_tensor_methods():
    assert check_python_source(PLUMBING_FORWARD, Space.PURE_CUDA) == []


def with_forward(body: str, head: str = "import os\nimport subprocess\n", tail: str = "") -> str:
    """A pure-CUDA ModelNew whose forward returns `body` (`x` its input), with `head` before it, `tail` after it."""
    return (f"{head}import torch\nfrom torch import nn\n\n\nclass ModelNew(nn.Module):\n"
            f"    def forward(self, x):\n{tail}        return {body}\n")


# Each hides a PyTorch operator behind a name the check trusts as plumbing (an imported module, or a file). Where
# the name is torch, subprocess.select is torch.select and os.path.split is torch.split: real attributes of both, so
# that each case is caught by what it is about, not by the attribute's absence. Not here: a name assigned at module
# level (os = torch) is a module-level helper, which the check skips whatever its name, as it did before plumbing
# names were trusted.
HIDDEN = {
    "a torch alias named subprocess": with_forward("subprocess.select(x, 0, 0)", head="import torch as subprocess\n"),
    "rebound in forward": with_forward("subprocess.select(x, 0, 0)", tail="        subprocess = torch\n"),
    "a parameter": with_forward("subprocess.select(x, 0, 0)").replace("(self, x)", "(self, x, subprocess=torch)"),
    "a loop variable": with_forward("y", tail="        for subprocess in [torch]:\n"
                                    "            y = subprocess.select(x, 0, 0)\n"),
    "imported twice, once as torch": with_forward("subprocess.select(x, 0, 0)",
                                                  head="import subprocess\nimport torch as subprocess\n"),
    "from-imported as torch": with_forward("path.split(x, 1)",  # torch.functional.split
                                           head="from os import path\nfrom torch import functional as path\n"),
    "an attribute the module does not have": with_forward("os.matmul(x, x)"),
    "a real attribute replaced": with_forward("os.path.join(x, x)", head="import os\nimport torch\n"
                                              "os.path.join = torch.add\n"),
    "a real attribute replaced through a local": with_forward(
        "os.path.join(x, x)", head="import os\nimport torch\np = os.path\np.join = torch.add\n"),
    "a real attribute replaced through self": with_forward(
        "os.path.join(x, x)", tail="        self.p = os.path\n        self.p.join = torch.add\n"),
    "a real attribute replaced by setattr": with_forward("os.path.join(x, x)", head="import os\nimport torch\n"
                                                         "setattr(os.path, 'join', torch.add)\n"),
    "a module's dict": with_forward("os.path.join(x, x)", head="import os\nimport torch\n"
                                    "os.path.__dict__['join'] = torch.add\n"),
    "sys.modules": with_forward("hashlib.sha256(x, x)", head="import sys\nimport types\nimport torch\n"
                                "sys.modules['hashlib'] = types.SimpleNamespace(sha256=torch.add)\n"
                                "import hashlib\n"),
    "sys.modules imported by name": with_forward("hashlib.sha256(x, x)", head="from sys import modules\nimport types\n"
                                                 "import torch\n"
                                                 "modules.update(hashlib=types.SimpleNamespace(sha256=torch.add))\n"
                                                 "import hashlib\n"),
    "setattr through an alias of builtins": with_forward("os.path.join(x, x)", head="import builtins as b\nimport os\n"
                                                         "import torch\nb.setattr(os.path, 'join', torch.add)\n"),
    "exec": with_forward("subprocess.select(x, 0, 0)", head="import subprocess\nimport torch\n"
                         "exec('subprocess = torch')\n"),
    "a star import": with_forward("subprocess.select(x, 0, 0)", head="import subprocess\nfrom torch import *\n"),
    "a file name rebound": with_forward(
        "f.mode(0)", tail="        with open('/dev/null') as f:\n            pass\n        f = x\n"),  # Tensor.mode
    "open rebound": with_forward("y", head="import contextlib\nopen = contextlib.nullcontext\n",
                                 tail="        with open(x) as f:\n            y = f.mode(0)\n"),
    "a module outside the plumbing": with_forward("operator.matmul(x, x)", head="import operator\n"),
}


def test_torch_behind_a_plumbing_name_is_still_a_violation():
    for why, src in HIDDEN.items():
        compile(src, why, "exec")  # each is Python
        found = check_python_source(src, Space.PURE_CUDA)
        assert found, f"{why}: no violation in\n{src}"
    # The control: the same forward through the real module is plumbing, not a violation.
    assert check_python_source(with_forward("os.path.join('a', 'b')"), Space.PURE_CUDA) == []
