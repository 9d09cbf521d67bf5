"""`hiera export` checks the kernel before it writes anything: it compiles alone against the task's contract and
defines hiera_forward, the entry point the exported module calls; a kernel it cannot check here is written
with the reason said."""

from __future__ import annotations

import json
import shutil

import pytest
import torch

from engine.cli import EXIT_INVALID, EXIT_OK, main
from engine.evaluate.build import ToolchainMissing, find_nvcc
from tests.cli_kit import flat
from tests.conftest import CANDIDATES, DATA, TASKS


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(TASKS / "scale_bias_relu.py", tmp_path / "task.py")
    return tmp_path


def _written(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("task_hiera"))


def test_a_kernel_without_hiera_forward_is_refused_and_nothing_is_written(folder, capsys):
    source = (CANDIDATES / "scale_bias_relu.cpp").read_text().replace("hiera_forward", "scale_bias_relu")
    (folder / "wrong.cpp").write_text(source)
    assert main(["export", "task.py", "wrong.cpp"]) == EXIT_INVALID
    err = flat(capsys.readouterr().err)
    assert "not exported: wrong.cpp: it compiles but defines no `hiera_forward`" in err and "nothing was written" in err
    assert _written(folder) == []


def test_a_kernel_that_does_not_compile_is_refused_with_the_error_at_the_users_line(folder, capsys):
    shutil.copy(CANDIDATES / "broken_syntax.cpp", folder / "broken.cpp")
    line = next(i for i, text in enumerate((folder / "broken.cpp").read_text().splitlines(), 1) if "return" in text)
    assert main(["export", "task.py", "broken.cpp", "--json"]) == EXIT_INVALID
    out, err = capsys.readouterr()
    assert f"broken.cpp:{line}:" in flat(err) and "cpu_source" not in err
    assert json.loads(out)["status"] == "invalid" and f"broken.cpp:{line}:" in json.loads(out)["reason"]
    assert _written(folder) == []


def test_a_kernel_that_checks_is_written_and_says_what_was_checked(folder, capsys):
    shutil.copy(CANDIDATES / "scale_bias_relu.cpp", folder / "kernel.cpp")
    assert main(["export", "task.py", "kernel.cpp"]) == EXIT_OK
    err = flat(capsys.readouterr().err)
    assert "checked: compiled alone against the task's contract and defines hiera_forward" in err
    # No run here verified this kernel at batch sizes drawn for it: the file serves get_inputs()'s shapes alone.
    assert ("its kernel serves only the shapes of get_inputs() (batch 256): no run in this workspace verified this "
            "kernel at batch sizes drawn for it") in err
    assert "x float32[256 x 512]" in (folder / "task_hiera.py").read_text()
    assert _written(folder) == ["task_hiera.cpp", "task_hiera.py"]
    assert not (folder / ".hiera").exists()  # the check's build is a scratch folder's


def _nvcc() -> bool:
    try:
        find_nvcc()
    except ToolchainMissing:
        return False
    return True


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU machine the .cu is checked and can run there")
def test_a_cuda_kernel_on_a_machine_without_a_gpu_says_what_could_be_checked(folder, capsys):
    shutil.copy(DATA / "gpu" / "scale_bias_relu.cu", folder / "kernel.cu")
    assert main(["export", "task.py", "kernel.cu", "--json"]) == EXIT_OK
    said = json.loads(capsys.readouterr().out)
    if _nvcc():  # compiled with nvcc, which needs no GPU; not run
        assert said["checked"] and "not run: this machine has no CUDA device" in said["check"]
    else:
        assert not said["checked"] and said["check"].startswith("not checked: nvcc not found")
    assert _written(folder) == ["task_hiera.cu", "task_hiera.py"]
