"""Task loading (in a subprocess, with actionable errors) and the frozen contract files."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest
import torch

from engine.evaluate.build import BuildConfig, build_one
from engine.task.contract import write_contract
from engine.task.spec import TaskError, load_task
from tests.conftest import CANDIDATES, TASKS
from tests.evalkit import candidate


def write(tmp_path, text, name="task.py"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_syntax_error_names_the_file_and_line(tmp_path):
    p = write(tmp_path, "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x)\n        return x\n")
    with pytest.raises(TaskError) as e:
        load_task(p)
    assert e.value.line == 4 and str(p) in str(e.value) and "syntax" in e.value.message


def test_missing_get_inputs_says_what_to_add(tmp_path):
    p = write(tmp_path, "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x\n"
                        "def get_init_inputs():\n    return []\n")
    with pytest.raises(TaskError) as e:
        load_task(p)
    assert "get_inputs" in e.value.message and "def get_inputs()" in e.value.fix


def test_a_list_of_tensors_among_the_inputs_is_said_by_what_it_holds(tmp_path):
    p = write(tmp_path, "import torch\nclass Model(torch.nn.Module):\n    def forward(self, xs):\n"
                        "        return xs[0] + xs[1]\n"
                        "def get_inputs():\n    return [[torch.ones(2, 5), torch.ones(2, 5)]]\n"
                        "def get_init_inputs():\n    return []\n")
    with pytest.raises(TaskError) as e:
        load_task(p)
    assert "a list (2 items: Tensor)" in e.value.message and "tensor(" not in e.value.message
    assert "separate arguments" in e.value.fix


def test_model_failing_on_its_own_inputs_names_the_line(tmp_path):
    p = write(tmp_path, "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                        "        return x @ torch.ones(3, 3)\n"
                        "def get_inputs():\n    return [torch.ones(2, 5)]\ndef get_init_inputs():\n    return []\n")
    with pytest.raises(TaskError) as e:
        load_task(p)
    assert e.value.line == 4 and e.value.kind == "forward"


def test_a_task_that_kills_its_process_is_reported_not_fatal(tmp_path):
    # a file that looks like a task (its text passes engine/task/source.py) and dies on import
    p = write(tmp_path, "import os\nos._exit(9)\nclass Model:\n    pass\ndef get_inputs():\n    return []\n"
                        "def get_init_inputs():\n    return []\n")
    with pytest.raises(TaskError) as e:
        load_task(p)
    assert "died" in e.value.message


def test_contract_orders_inputs_then_parameters_then_scalars():
    spec = load_task(TASKS / "scale_bias_relu.py")
    assert [(a.name, a.role) for a in spec.args] == [("x", "input"), ("bias", "parameter"), ("scale", "scalar")]
    assert spec.outputs[0][1].shape == (256, 512)
    assert spec.graph is not None and any(n.target == "relu" for n in spec.graph)


def test_contract_files_are_written_and_describe_every_argument(tmp_path):
    spec = load_task(TASKS / "small_linear.py")
    paths = write_contract(spec, tmp_path / "c")
    sem = json.loads(paths["semantics"].read_text())
    roles = {a["name"]: (a["role"], a["shape"]) for a in sem["args"]}
    assert roles == {"x": ("input", [128, 512]), "fc.weight": ("parameter", [256, 512]),
                     "fc.bias": ("parameter", [256])}
    header = paths["header"].read_text()
    assert "const hiera_tensor* fc_weight" in header and "hiera_tensor* out" in header
    assert "PYBIND11_MODULE" in paths["binding"].read_text()
    assert paths["groundtruth"].read_text() == (TASKS / "small_linear.py").read_text()


def test_torch_demo_holds_the_reference_parameters_and_runs_the_candidate(tmp_path, monkeypatch):
    spec = load_task(TASKS / "scale_bias_relu.py")
    paths = write_contract(spec, tmp_path / "c")
    lib = build_one(candidate(CANDIDATES / "scale_bias_relu.cpp"), BuildConfig(tmp_path / "c", tmp_path / "cache"))
    assert lib.ok, lib.log
    monkeypatch.syspath_prepend(str(tmp_path / "c"))
    s = importlib.util.spec_from_file_location("torch_demo", paths["demo"])
    demo = importlib.util.module_from_spec(s)
    s.loader.exec_module(demo)
    torch.manual_seed(3)
    ref = demo.Model(*demo.get_init_inputs())
    new = demo.ModelNew(*demo.get_init_inputs(), library_path=lib.artifact)
    assert set(new.state_dict()) == set(ref.state_dict())
    new.load_state_dict(ref.state_dict())
    x = demo.get_inputs()[0]
    torch.testing.assert_close(new(x), ref(x))
    sys.modules.pop("groundtruth", None)


def test_a_task_with_gigabytes_of_inputs_is_described_from_the_meta_device(tmp_path):
    # 2 GiB of input and as much output: sized on the meta device, never allocated or run on the CPU (so no
    # value range is seen); the graph is traced all the same.
    p = write(tmp_path, "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n"
                        "        return torch.sigmoid(x) * 2\n\n"
                        "def get_inputs():\n    return [torch.rand(2**14, 2**15)]\n\n"
                        "def get_init_inputs():\n    return []\n")
    spec = load_task(p)
    (x,) = spec.inputs
    assert x.tensor.shape == (2**14, 2**15) and x.tensor.min is None
    assert spec.outputs[0][1].shape == (2**14, 2**15) and spec.graph is not None and spec.trace_error is None
    small = load_task(TASKS / "relu_positive.py")
    assert small.inputs[0].tensor.min is not None  # a small task still runs for real: its values are seen
