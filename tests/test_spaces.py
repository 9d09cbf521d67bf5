"""The implementation-space check: nested spaces, comments ignored, offending lines named."""

from __future__ import annotations

from contracts.spaces import Space, check_native_source, check_python_source, smallest_space


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
    from contracts.export import modelnew_source
    from contracts.task import load_task
    from tests.conftest import CANDIDATES, TASKS

    spec = load_task(TASKS / "scale_bias_relu.py")
    src = modelnew_source(spec, (CANDIDATES / "scale_bias_relu.cpp").read_text(), cuda=False)
    assert check_python_source(src, Space.PURE_CUDA) == []
