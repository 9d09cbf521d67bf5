"""A valid contract candidate exports as a self-contained KernelBench ModelNew that builds and matches Model."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest
import torch

from engine.cli import main
from engine.task.export import first_import_note, modelnew_source
from engine.task.spec import load_task
from tests.conftest import CANDIDATES, TASKS, fake_cudnn


def test_exported_cpu_modelnew_builds_once_matches_the_reference_and_says_what_the_first_import_costs(
        tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    shutil.copy(CANDIDATES / "scale_bias_relu.cpp", tmp_path / "kernel.cpp")
    assert main(["export", str(task), str(tmp_path / "kernel.cpp")]) == 0
    said = " ".join(capfd.readouterr().err.split())
    out = tmp_path / "scale_bias_relu_hiera.py"
    assert f"{out.name}: {first_import_note(False)}" in said  # the CLI says it when it writes the file
    assert " ".join(out.read_text().split('"""')[1].split()).count(first_import_note(False)) == 1  # so does the file

    s = importlib.util.spec_from_file_location("exported", out)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)  # defines Model, get_inputs, get_init_inputs and ModelNew in one file
    torch.manual_seed(0)
    ref = mod.Model(*mod.get_init_inputs())
    new = mod.ModelNew(*mod.get_init_inputs())
    new.load_state_dict(ref.state_dict())
    x = mod.get_inputs()[0]
    torch.testing.assert_close(new(x), ref(x), atol=1e-5, rtol=1e-5)
    assert set(new.state_dict()) == set(ref.state_dict())
    first = capfd.readouterr().err
    assert "compiling the hiera kernel (first import on this machine" in first and str(tmp_path / "ext") in first

    # A new process finds the build in the cache: nothing compiles, and loading takes about a second.
    path = str(out)
    probe = (f"import importlib.util, time; s = importlib.util.spec_from_file_location('again', {path!r}); "
             "m = importlib.util.module_from_spec(s); s.loader.exec_module(m); t = time.perf_counter(); "
             "m._extension(); print(time.perf_counter() - t)")
    again = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                           env={**os.environ, "TORCH_EXTENSIONS_DIR": str(tmp_path / "ext")})
    assert again.returncode == 0, again.stderr[-2000:]
    assert "compiling" not in again.stderr and float(again.stdout.strip()) < 5.0


def _import(path, name="exported"):
    s = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    return mod


def _load_inline_arguments(tmp_path, source: str, monkeypatch) -> tuple[dict, object]:
    """What the exported file passes to load_inline for a CUDA kernel `source`, and (as "kernel_cmd") the command
    it compiles the kernel with where no verified library is embedded (both builds faked)."""
    tmp_path.mkdir(exist_ok=True)
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    out = tmp_path / "scale_bias_relu_hiera.py"
    out.write_text(modelnew_source(load_task(task), source, cuda=True))
    mod = _import(out)
    seen: dict = {}
    monkeypatch.setattr(mod, "load_inline", lambda **kw: seen.update(kw) or object())
    monkeypatch.setattr(mod.torch.cuda, "get_device_capability", lambda *a: (9, 0))

    def compiled(cmd, **kw):
        seen["kernel_cmd"] = cmd
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(mod.subprocess, "run", compiled)
    mod._extension()
    return seen, mod


def test_exported_cudnn_kernel_builds_against_the_cudnn_found_where_it_is_loaded(tmp_path, monkeypatch):
    """cuDNN is not in the toolkit folders load_inline searches: the exported file finds it (here, the wheel
    layout under CUDNN_HOME with only the versioned library) and names it to the compiler and linker."""
    root = fake_cudnn(tmp_path / "cudnn")
    monkeypatch.setenv("CUDNN_HOME", str(root))
    kernel = "#include <cudnn.h>\nint f(cudnnHandle_t* h) { return cudnnCreate(h); }\n"
    kw, _ = _load_inline_arguments(tmp_path, kernel, monkeypatch)
    cmd = kw["kernel_cmd"]  # the kernel is compiled by the verified recipe, against the cuDNN found here
    assert f"-I{root / 'include'}" in cmd
    assert cmd[-3:] == [f"-L{root / 'lib'}", "-l:libcudnn.so.9", f"-Wl,-rpath,{root / 'lib'}"], cmd


def test_exported_cudnn_kernel_without_cudnn_says_what_to_install(tmp_path, monkeypatch):
    kernel = "int f(cudnnHandle_t* h) { return cudnnCreate(h); }\n"
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    out = tmp_path / "scale_bias_relu_hiera.py"
    out.write_text(modelnew_source(load_task(task), kernel, cuda=True))
    mod = _import(out)  # importing the file (Model, get_inputs) needs no cuDNN; building the kernel does
    monkeypatch.setattr(mod, "find_cudnn", lambda: None)
    with pytest.raises(ImportError, match=r"no cudnn\.h was found.*CUDNN_HOME"):
        mod._extension()


def test_exported_cublas_kernels_link_their_libraries(tmp_path, monkeypatch):
    kw, _ = _load_inline_arguments(tmp_path, "void f(cublasLtHandle_t* h) { cublasLtCreate(h); }\n", monkeypatch)
    assert kw["kernel_cmd"][-2:] == ["-lcublasLt", "-lcublas"], kw["kernel_cmd"]
    assert kw["extra_ldflags"][0].endswith("kernel.so")  # the binding links the kernel's library, as it is
    kw, _ = _load_inline_arguments(tmp_path / "b", "void f(cublasHandle_t h) { cublasSgemm(h); }\n", monkeypatch)
    assert kw["kernel_cmd"][-1] == "-lcublas" and "-lcublasLt" not in kw["kernel_cmd"]
