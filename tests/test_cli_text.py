"""What the CLI prints keeps its text: hints and reasons are not read as rich markup, build errors point at
the user's file and line at any terminal width, and a task error names the function that failed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import EXIT_USAGE, console, main, outcome_table, reason_text, user_build_log
from engine.commands.optimize import HumanProgress
from engine.evaluate.outcome import Outcome, Status
from engine.task.spec import TaskError, load_task
from tests.conftest import CANDIDATES, TASKS

ROOT = Path(__file__).resolve().parents[1]
MARKUP = "[bold]kept[/bold] [torch.rand(...), ...] [red]"


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_missing_get_inputs_hint_prints_its_code_literally(tmp_path, capsys):
    task = tmp_path / "no_inputs.py"
    task.write_text("import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
                    "def get_init_inputs():\n    return []\n")
    assert main(["contract", str(task), "-o", str(tmp_path / "c")]) == EXIT_USAGE
    err = flat(capsys.readouterr().err)
    assert "add `def get_inputs(): return [torch.rand(...), ...]` (the forward's inputs)" in err


def test_reasons_flags_and_devices_in_an_outcome_are_printed_literally(capsys):
    o = Outcome("c", Status.INCORRECT, f"wrong: {MARKUP}", flags=(MARKUP,), device=f"cpu {MARKUP}")
    console.print(outcome_table(o, f"title {MARKUP}"))
    err = capsys.readouterr().err
    assert err.count("[torch.rand(...), ...]") == 4 and err.count("[bold]kept[/bold]") == 4


def test_progress_lines_print_notices_strategies_and_reasons_literally(capsys):
    progress = HumanProgress(1)
    events = [
        {"event": "run_started", "run_id": "r", "device": "cpu", "backend": "expert", "run_dir": "/tmp/r"},
        {"event": "notice", "message": f"note {MARKUP}"},
        {"event": "round_started", "round": 1, "space": "pure_cuda", "scores": {"R": 0.5}, "direction": "R",
         "strategy": f"s {MARKUP}", "rationale": f"why {MARKUP}"},
        {"event": "candidate_finished", "round": 1, "index": 1, "of": 1, "candidate_id": "c", "status": "incorrect",
         "reason": f"reason {MARKUP}", "speedup": None, "best": None},
        {"event": "result"},
    ]
    for e in events:
        progress(e)
    err = flat(capsys.readouterr().err)
    for word in ("note", "s", "why", "reason"):
        assert f"{word} {MARKUP}" in err


def test_a_build_log_names_the_users_file_and_keeps_the_line_numbers():
    log = ("/w/.hiera/cache/build/1fb6c0d2e3a4b5c6d7e8f9a0/cpu_source.cpp: In function 'int hiera_forward()':\n"
           "/w/.hiera/cache/build/1fb6c0d2e3a4b5c6d7e8f9a0/cpu_source.cpp:5:5: error: expected ';' before 'return'\n"
           "/w/.hiera/tasks/t-1/contract/hiera_contract.h:12:3: note: declared here")
    shown = user_build_log(log, "my_kernel.cpp")
    assert "my_kernel.cpp: In function" in shown and "my_kernel.cpp:5:5: error: expected ';'" in shown
    assert "cache/build" not in shown and "hiera_contract.h:12:3" in shown
    brief = reason_text({"status": "build_failed", "reason": log}, "k.cu")
    assert brief == "k.cpp:5:5: error: expected ';' before 'return'".replace("k.cpp", "k.cu")


@pytest.mark.parametrize("columns", ["40", "200"])
def test_eval_shows_a_build_error_at_the_users_file_and_line_at_any_width(tmp_path, columns):
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    shutil.copy(CANDIDATES / "broken_syntax.cpp", tmp_path / "my_kernel.cpp")
    line = next(i for i, text in enumerate((tmp_path / "my_kernel.cpp").read_text().splitlines(), 1)
                if "return" in text)  # g++: expected ';' before 'return'
    env = {**os.environ, "COLUMNS": columns, "PYTHONPATH": str(ROOT)}
    human = subprocess.run([sys.executable, "-m", "engine.cli", "eval", task.name, "my_kernel.cpp", "--device", "cpu"],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert human.returncode == 1, human.stderr[-2000:]
    assert any(f"my_kernel.cpp:{line}:" in ln for ln in human.stderr.splitlines()), human.stderr
    assert "cpu_source" not in human.stderr and "…" not in human.stderr
    if columns == "200":
        js = subprocess.run([sys.executable, "-m", "engine.cli", "eval", task.name, "my_kernel.cpp", "--device", "cpu",
                             "--json"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
        assert f"my_kernel.cpp:{line}:" in json.loads(js.stdout)["reason"] and "cpu_source" not in js.stdout


TASK = '''import os
import torch


class Model(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        {init}

    def forward(self, x):
        {forward}


def get_inputs():
    {inputs}


def get_init_inputs():
    {init_inputs}
'''
OK = {"init": "self.n = n", "forward": "return x * self.n", "inputs": "return [torch.ones(4)]",
      "init_inputs": "return [2]"}
CASES = {
    "get_init_inputs": ({"init_inputs": "raise ValueError('no sizes')"},
                        "get_init_inputs() raised ValueError: no sizes", "make get_init_inputs() return"),
    "__init__": ({"init": "raise TypeError('bad n')"}, "Model.__init__ raised TypeError: bad n",
                 "make Model.__init__ accept what get_init_inputs() returns (1 argument(s))"),
    # Sized on the meta device first: found too big before anything is allocated.
    "get_inputs_memory": ({"inputs": "return [torch.empty(2**45)]"}, "more than this machine's",
                          "get_inputs() asks for more memory than this machine has"),
    "get_inputs_tensor": ({"inputs": "return torch.ones(4)"}, "get_inputs() returned a Tensor; expected a list",
                          "`return [x]`, not `return x`"),
    # The inputs fit forward's signature and its own code raised: the hint is about that code, not the count.
    "forward": ({"forward": "return x @ torch.ones(3, 3)"}, "Model.forward raised RuntimeError",
                "the forward's own code raised at line 11 on the inputs get_inputs() returns: fix the forward there"),
    "forward_arity": ({"inputs": "return [torch.ones(4), torch.ones(4)]"}, "Model.forward raised TypeError",
                      "make Model.forward accept the 2 input(s) get_inputs() returns, in that order"),
    "killed": ({"inputs": "os.kill(os.getpid(), 9)"}, "died (killed by signal SIGKILL, often the system running out of "
               "memory) in get_inputs()", "make get_inputs() return tensors that fit in this machine's memory"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_task_error_names_the_function_that_failed_and_what_to_do_there(tmp_path, case):
    change, message, fix = CASES[case]
    task = tmp_path / "task.py"
    task.write_text(TASK.format(**{**OK, **change}))
    with pytest.raises(TaskError) as err:
        load_task(task)
    assert message in err.value.message and fix in err.value.fix, str(err.value)
    if case in ("get_init_inputs", "__init__", "forward"):  # the line that raised, in the task file
        code = next(iter(change.values()))
        wanted = next(i for i, text in enumerate(task.read_text().splitlines(), 1) if code in text)
        assert err.value.line == wanted
