"""`hiera profile`: exit 2 with the reason when profiling is unavailable, and the human report's layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from contracts.device import Device
from engine.cli import EXIT_USAGE, main
from engine.commands.profile import render
from engine.profile.ncu import NOT_FOUND
from tests.test_profile_metrics import sample_profile
from tests.test_profile_ncu import fake_ncu, no_ncu  # noqa: F401  (fixtures)

TASK = Path(__file__).resolve().parents[1] / "tools" / "ncu" / "torch_target" / "scale_bias.py"


def test_profile_without_ncu_exits_2_with_the_actionable_message(no_ncu, tmp_path, capsys, monkeypatch):  # noqa: F811
    import engine.commands.profile as cmd

    # A GPU machine: ncu is what is missing.
    monkeypatch.setattr(cmd, "device_or_exit", lambda device: Device("cuda", 0))
    rc = main(["profile", str(TASK), "--json", "--workspace", str(tmp_path)])
    out, err = capsys.readouterr()
    assert rc == EXIT_USAGE
    assert json.loads(out) == {"status": "unavailable", "reason": NOT_FOUND}
    assert "ncu not found on PATH" in err


def test_profile_on_a_cpu_machine_without_ncu_names_the_device_not_ncu(no_ncu, tmp_path, capsys):  # noqa: F811
    rc = main(["profile", str(TASK), "--device", "cpu", "--json", "--workspace", str(tmp_path)])
    out, err = capsys.readouterr()
    assert rc == EXIT_USAGE
    assert "the device here is cpu" in json.loads(out)["reason"] and "ncu not found" not in err


def test_profile_on_the_cpu_exits_2_before_building_anything(fake_ncu, tmp_path, capsys):  # noqa: F811
    rc = main(["profile", str(TASK), "--device", "cpu", "--ncu", str(fake_ncu), "--workspace", str(tmp_path)])
    err = " ".join(capsys.readouterr().err.split())
    assert rc == EXIT_USAGE
    assert "hiera profile needs an NVIDIA GPU" in err and "the device here is cpu (--device cpu)" in err
    assert not (tmp_path / ".hiera").exists()
    assert not (fake_ncu.parent / "calls.jsonl").exists()  # ncu was never run


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU machine --device auto is the GPU")
def test_profile_on_a_machine_without_a_gpu_names_the_device_not_ncu(no_ncu, tmp_path, capsys):  # noqa: F811
    rc = main(["profile", str(TASK), "--workspace", str(tmp_path)])  # auto: this machine has no CUDA device
    err = " ".join(capsys.readouterr().err.split())
    assert rc == EXIT_USAGE
    assert "the device here is cpu (this machine has no CUDA device)" in err and "ncu" not in err
    assert not (tmp_path / ".hiera").exists()


def test_report_shows_kernels_directions_and_hot_lines(capsys):
    render(sample_profile(kernels=1, lines=2))
    err = capsys.readouterr().err
    assert "kernel kernel_0" in err and "32.0 sectors/request" in err
    assert "directions" in err and "M 0.84" in err
    assert "ncu's top advice: UncoalescedGlobalAccess -> M" in err
    assert "hot lines" in err and "cand.cu:10" in err and "long_scoreboard" in err
    assert "out[i] = in[i * stride]" in err  # source text is printed literally, not read as rich markup


def test_report_shows_only_the_lines_that_matter(capsys):
    from tests.test_profile_fixtures import FIXTURES, load

    if "divergent" not in FIXTURES:
        return
    render(load("divergent", "csv"))
    err = capsys.readouterr().err
    assert "divergent.cu:13" in err and "divergent.cu:18" in err  # a divergent branch; 16% of the samples
    assert "divergent.cu:22" not in err and "divergent.cu:11" not in err  # 0.2% and 0% of the samples
