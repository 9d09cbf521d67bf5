"""The device as a value (contracts/device.py): parsed once where it enters, text only at process boundaries."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from contracts.device import CPU, Device
from engine.evaluate.pipeline import EvalSettings

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("text", "kind", "index", "shown"), [
    ("cpu", "cpu", 0, "cpu"), ("cuda", "cuda", 0, "cuda:0"), ("cuda:3", "cuda", 3, "cuda:3"),
    (" cuda:1 ", "cuda", 1, "cuda:1")])
def test_a_device_parses_and_writes_back_as_text(text, kind, index, shown):
    d = Device.parse(text)
    assert (d.kind, d.index, str(d)) == (kind, index, shown)
    assert Device.parse(str(d)) == d and d.is_cuda == (kind == "cuda")


# ("gpu" is left out: a parameter named so makes the test a gpu-marked one, skipped here: tests/conftest.py)
@pytest.mark.parametrize("text", ["auto", "tpu", "cuda:x", "cpu:1", "cuda:-1", ""])
def test_anything_else_is_refused_with_what_a_device_is(text):
    with pytest.raises(ValueError, match="expected cpu, cuda or cuda:N"):
        Device.parse(text)


def test_the_settings_and_the_agents_context_hold_a_device_whatever_they_were_given():
    assert EvalSettings(device="cuda:2").device == Device("cuda", 2)
    assert EvalSettings().device == CPU


def test_no_one_decodes_a_device_string_by_hand():
    """The device was a string decoded with startswith("cuda") in 12 places (issue 26)."""
    found = []
    for path in [*REPO.glob("engine/**/*.py"), *REPO.glob("contracts/**/*.py"), *REPO.glob("hiera_ls/**/*.py")]:
        if path.name == "device.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
                    and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in ("cuda", "cpu")):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not found, found


def test_the_run_s_device_and_its_name_are_two_fields_and_every_view_joins_them_alike() -> None:
    from contracts.runrecord import RunResult, RunStarted
    from contracts.wording import device_words, is_cpu

    assert device_words("cuda:0", "NVIDIA H200") == "cuda:0 (NVIDIA H200)"
    assert device_words("cpu", None) == "cpu" and device_words(None, None) == "?"
    # a record from before the two were apart holds the whole label in `device`: it reads as it did
    assert device_words("cuda:0 (NVIDIA H200)", None) == "cuda:0 (NVIDIA H200)"
    assert device_words("cuda:0 (NVIDIA H200)", "NVIDIA H200") == "cuda:0 (NVIDIA H200)"
    assert is_cpu("cpu") and is_cpu("cpu (x86_64)") and not is_cpu("cuda:0") and not is_cpu("cuda:0 (NVIDIA H200)")
    started = RunStarted("r", "t.py", "cuda:0", 1, 1, 1, "expert", "s", "d", None, "NVIDIA H200")
    assert started.device == "cuda:0" and started.device_name == "NVIDIA H200"
    old = RunResult.from_json({"run_id": "r", "status": "finished", "task": "t.py", "device": "cpu (x86_64)"})
    assert old.device_name is None and device_words(old.device, old.device_name) == "cpu (x86_64)"
    new = RunResult.from_json({**old.to_json(), "device": "cpu", "device_name": "x86_64"})
    assert RunResult.from_json(new.to_json()).device_name == "x86_64"
