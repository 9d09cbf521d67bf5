"""Fast, plain failures (issue 37): usage errors that need no torch are said before torch is imported (they took
8-12 s: a bad --device, a file with no Model, a misconfigured LLM), a binary or non-UTF-8 task file is a usage
error (it was an internal UnicodeDecodeError traceback), and a task that hangs while loading says where it is
within seconds and stops at a limit the user sets (--load-timeout; a hanging forward printed nothing for 300 s).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Runs one command in a fresh interpreter and says whether torch was imported by the time it returned.
PROBE = ("import sys, json; from engine.cli import main; rc = main(sys.argv[1:]); "
         "print(json.dumps({'rc': rc, 'torch': 'torch' in sys.modules}))")


def run(args: list[str], cwd: Path, timeout: float = 60) -> tuple[dict, str, float]:
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True,
                       timeout=timeout, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(cwd)})
    wall = time.monotonic() - t0
    return json.loads(p.stdout.strip().splitlines()[-1]), " ".join(p.stderr.split()), wall


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    example = (REPO / "examples" / "fused_gelu_scale.py").read_text()
    out = {"example": tmp_path / "task.py", "binary": tmp_path / "binary.py", "latin1": tmp_path / "latin1.py",
           "no_model": tmp_path / "no_model.py", "syntax": tmp_path / "syntax.py"}
    out["example"].write_text(example)
    out["binary"].write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)))
    out["latin1"].write_bytes("# caf\xe9\n".encode("latin-1") + example.encode())
    out["no_model"].write_text("import torch\n\ndef get_inputs():\n    return [torch.rand(4)]\n")
    out["syntax"].write_text("class Model(:\n    pass\n")
    return out


@pytest.mark.parametrize("case, args, said", [
    ("device", ["optimize", "{example}", "--device", "tpu"], "--device tpu: expected cpu, cuda, cuda:N or auto"),
    ("binary", ["optimize", "{binary}", "--device", "cpu"], "is a binary file (a NUL byte at offset 7), not Python "
                                                            "source"),
    ("latin1", ["optimize", "{latin1}", "--device", "cpu"], "latin1.py:1: is not UTF-8 text (byte 0xe9 at offset 5"),
    ("no_model", ["optimize", "{no_model}", "--device", "cpu"], "not a KernelBench task: missing Model, "
                                                                "get_init_inputs"),
    ("syntax", ["optimize", "{syntax}", "--device", "cpu"], "syntax.py:1: syntax error"),
    ("llm", ["optimize", "{example}", "--device", "cpu", "--backend", "llm"], "no LLM model configured"),
    ("eval_binary", ["eval", "{binary}", "k.cpp", "--device", "cpu"], "is a binary file"),
])
def test_usage_errors_are_said_before_torch_is_imported(tmp_path: Path, files: dict[str, Path], case: str,
                                                        args: list[str], said: str) -> None:
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in args] + ["--workspace", str(tmp_path / "ws")]
    got, err, wall = run(argv, tmp_path)
    assert got["rc"] == 2 and said in err, (got, err)
    assert "Traceback" not in err and "UnicodeDecodeError" not in err
    # The measure that holds on a loaded machine: torch never loaded (it is what took seconds). The wall time is
    # the interpreter's start and hiera's own imports: 0.3-0.4 s on the 2-core machine at load 3-4.
    assert got["torch"] is False, f"{case}: torch was imported before the usage error"
    assert wall < 5.0, wall
    assert not (tmp_path / "ws").exists()  # nothing recorded


def test_the_same_task_checks_the_probe_makes_agree(files: dict[str, Path]) -> None:
    """The text check (engine/task/source.py) says what the probe says of a file with no Model, in the same
    words, and lets a real task through."""
    from engine.task.source import check_source

    assert check_source(files["example"]) is None
    problem = check_source(files["no_model"])
    assert problem is not None and problem.message == "not a KernelBench task: missing Model, get_init_inputs"
    assert "add `class Model(nn.Module)`" in problem.fix
    # a name it cannot see bound is never refused here
    star = files["no_model"].with_name("star.py")
    star.write_text("from somewhere import *\n")
    assert check_source(star) is None


HANG = '''import time
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        while True:
            time.sleep(1)


def get_inputs():
    return [torch.rand(4)]


def get_init_inputs():
    return []
'''


def test_a_task_that_hangs_while_loading_says_where_within_seconds_and_stops_at_its_limit(tmp_path: Path) -> None:
    task = tmp_path / "hangs.py"
    task.write_text(HANG)
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu",
                             "--workspace", str(tmp_path / "ws"), "--load-timeout", "20"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    first_note = None
    lines = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        if first_note is None and "still in" in line:
            first_note = time.monotonic() - t0
    proc.wait(60)
    wall = time.monotonic() - t0
    err = " ".join("".join(lines).split())
    assert proc.returncode == 2, err
    assert first_note is not None and first_note < 15, (first_note, err)  # said within seconds, not at the end
    assert "still in Model.forward after" in err and "--load-timeout SECONDS" in err, err
    assert "loading and running the task took over 20 s (it was in Model.forward; the limit is --load-timeout)" in err
    assert wall < 45, wall  # the limit holds (the interpreter's start and torch's import are inside it)
