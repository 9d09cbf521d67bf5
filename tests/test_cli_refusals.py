"""What cannot work is said as a usage error, never a traceback, before anything is recorded: read-only
workspaces and task folders, a read-only `hiera report`, a task too big for this machine, paths that are not a
task, a CUDA kernel on the CPU; and the texts that named the wrong thing name the right one (a ModelNew's
syntax error in the user's file, `hiera-ls --help`)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from engine.cli import EXIT_USAGE, main
from engine.store import RunStore
from engine.task.probe import machine_bytes
from tests.cli_kit import ROOT, env, flat, hiera, needs_read_only
from tests.conftest import CANDIDATES, TASKS


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(TASKS / "scale_bias_relu.py", tmp_path / "task.py")
    return tmp_path


def _said(capsys) -> str:
    return flat(capsys.readouterr().err)


@pytest.mark.parametrize("name, make, words", [
    ("adir", lambda p: p.mkdir(), "adir: is a directory, not a task file"),
    ("kernel.cu", lambda p: p.write_text("__global__ void k() {}\n"),
     "kernel.cu: is a CUDA kernel, not a task (a task is a KernelBench-format Python file"),
    ("task.txt", lambda p: shutil.copy(TASKS / "scale_bias_relu.py", p),
     "task.txt: a task must be a Python file named *.py (it is imported as a module). To fix: rename it to task.py"),
    ("missing.py", lambda p: None, "missing.py: no such file"),
])
def test_a_path_that_is_not_a_task_file_is_named_for_what_it_is(folder, capsys, name, make, words):
    make(folder / name)
    assert main(["optimize", name, "--device", "cpu"]) == EXIT_USAGE
    err = _said(capsys)
    assert words in err and "To fix:" in err and "Traceback" not in err
    assert not (folder / ".hiera").exists()


def test_a_cu_candidate_on_the_cpu_and_a_candidate_folder_are_refused_before_a_run_is_recorded(folder, capsys):
    (folder / "k.cu").write_text("__global__ void k() {}\n")
    assert main(["eval", "task.py", "k.cu", "--device", "cpu"]) == EXIT_USAGE
    assert "k.cu: a CUDA kernel, and this evaluation is on the CPU" in _said(capsys)
    (folder / "kernels").mkdir()
    assert main(["eval", "task.py", "kernels", "--device", "cpu"]) == EXIT_USAGE
    assert "kernels: is a directory, not a candidate file" in _said(capsys)
    assert not (folder / ".hiera").exists()


BIG = '''import torch


class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2


def get_inputs():
    return [torch.empty({n})]


def get_init_inputs():
    return []
'''


def test_a_task_too_big_for_this_machine_is_named_at_load_with_its_size(folder, capsys):
    n = machine_bytes() // 4  # fp32: as many bytes as the machine has, before the output and a second copy
    (folder / "big.py").write_text(BIG.format(n=n))
    assert main(["optimize", "big.py", "--device", "cpu"]) == EXIT_USAGE
    err = _said(capsys)
    gib = n * 4 * 2 / 2**30  # the input and the output
    assert f"take {gib:.1f} GiB" in err and f"more than this machine's {machine_bytes() / 2**30:.1f} GiB" in err
    assert "make get_inputs() return smaller tensors" in err and "Traceback" not in err
    assert not (folder / ".hiera").exists()


@needs_read_only
@pytest.mark.parametrize("command", [["optimize", "task.py", "--device", "cpu"],
                                     ["eval", "task.py", "kernel.cpp", "--device", "cpu"]])
def test_a_read_only_workspace_is_a_usage_error_before_anything_starts(folder, command):
    shutil.copy(CANDIDATES / "scale_bias_relu.cpp", folder / "kernel.cpp")
    p = hiera(command, folder, read_only=(folder,))
    assert p.returncode == EXIT_USAGE, p.stderr[-2000:]
    err = flat(p.stderr)
    assert f"cannot keep the run's record in {folder / '.hiera'} (a read-only file system)" in err
    assert "give --workspace DIR" in err and "Traceback" not in err


@needs_read_only
def test_a_read_only_task_folder_is_refused_before_the_run_starts_not_after_it(tmp_path):
    tasks, workspace = tmp_path / "tasks", tmp_path / "ws"
    tasks.mkdir()
    workspace.mkdir()
    shutil.copy(TASKS / "scale_bias_relu.py", tasks / "task.py")
    p = hiera(["optimize", str(tasks / "task.py"), "--device", "cpu", "--workspace", str(workspace)], tmp_path,
              read_only=(tasks,))
    assert p.returncode == EXIT_USAGE, p.stderr[-2000:]
    err = flat(p.stderr)
    assert f"cannot write the result files in {tasks} (a read-only file system): give --results-dir DIR" in err
    assert "Traceback" not in err
    assert not (workspace / ".hiera").exists()  # no run was recorded, let alone recorded failed


@needs_read_only
def test_hiera_bench_with_a_read_only_out_folder_says_so(folder):
    (folder / "suite" / "cpu").mkdir(parents=True)
    shutil.copy(TASKS / "scale_bias_relu.py", folder / "suite" / "cpu" / "t.py")
    p = hiera(["bench", "suite", "--device", "cpu", "--out", "suite/out"], folder, read_only=(folder / "suite",))
    assert p.returncode == EXIT_USAGE and "cannot write in suite/out (a read-only file system): give --out DIR" \
        in flat(p.stderr)


@needs_read_only
def test_contract_into_a_read_only_folder_says_so(folder):
    (folder / "ro").mkdir()
    p = hiera(["contract", "task.py", "-o", "ro/contract"], folder, read_only=(folder / "ro",))
    assert p.returncode == EXIT_USAGE and "cannot write in ro/contract (a read-only file system): give -o DIR" \
        in flat(p.stderr)


@needs_read_only
def test_report_reads_a_workspace_it_cannot_write(tmp_path):
    store = RunStore.for_workspace(tmp_path)
    run_id = store.start_run("optimize", tmp_path / "t.py", "t", "h", {"budget": 2}, backend="expert", device="cpu")
    store.finish_run(run_id, "finished", {})
    store.close()
    for args in (["report", "--workspace", str(tmp_path)], ["report", "--list", "--workspace", str(tmp_path)]):
        p = hiera(args, tmp_path, read_only=(tmp_path,))
        assert p.returncode == 0, p.stderr[-2000:]
        assert run_id in p.stderr and "Traceback" not in p.stderr and "OperationalError" not in p.stderr


BAD_MODELNEW = '''import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *a):
        super().__init__()

    def forward(self, x, w, b)
        return x
'''


def test_a_modelnew_with_a_syntax_error_is_reported_against_the_users_file(folder):
    (folder / "my_model.py").write_text(BAD_MODELNEW)
    p = hiera(["eval", "task.py", "my_model.py", "--device", "cpu"], folder)
    assert p.returncode == 1, p.stderr[-2000:]
    err = flat(p.stderr)
    assert "SyntaxError: expected ':' (my_model.py, line 9)" in err and "candidate.py" not in err


def test_hiera_ls_help_prints_its_usage_and_exits_0():
    p = subprocess.run([sys.executable, "-m", "hiera_ls", "--help"], capture_output=True, text=True, timeout=60,
                       cwd=ROOT, env=env(), stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: hiera-ls") and "Language Server Protocol on stdin/stdout" in flat(p.stdout)
