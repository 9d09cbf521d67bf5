"""A valid contract candidate exports as a self-contained KernelBench ModelNew that builds and matches Model."""

from __future__ import annotations

import importlib.util
import shutil

import torch

from contracts.export import modelnew_source
from contracts.task import load_task
from tests.conftest import CANDIDATES, TASKS


def test_exported_cpu_modelnew_builds_with_load_inline_and_matches_the_reference(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    spec = load_task(task)
    out = tmp_path / "scale_bias_relu_hiera.py"
    out.write_text(modelnew_source(spec, (CANDIDATES / "scale_bias_relu.cpp").read_text(), cuda=False))

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
