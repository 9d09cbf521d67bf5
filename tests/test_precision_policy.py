"""Precision from the module (contracts/precision.py): its dtypes or an autocast region decide the policy, the
tolerance is KernelBench's per dtype at least, and --precision may loosen it but never tighten it; end to end
on the CPU, a bf16 task is judged at bf16 and a candidate that accumulates in bf16 is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from contracts.precision import (
    PrecisionRefused,
    autocast_in_source,
    module_precision,
    resolve,
    tolerance_json,
)
from engine.evaluate.outcome import Precision
from engine.task.spec import Arg, TensorSpec

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tests" / "data" / "tasks"
CANDIDATES = ROOT / "tests" / "data" / "candidates"


def spec(*dtypes: str, out: str = "float32", graph: tuple[str, ...] = ()) -> SimpleNamespace:
    args = tuple(Arg(f"a{i}", "input" if i == 0 else "parameter", TensorSpec((4, 4), d)) for i, d in enumerate(dtypes))
    nodes = tuple(SimpleNamespace(name=f"n{i}", dtype=d) for i, d in enumerate(graph))
    return SimpleNamespace(args=args, outputs=(("out", TensorSpec((4, 4), out)),), graph=nodes, path=Path("x.py"))


def test_the_modules_dtypes_decide_its_policy():
    assert module_precision(spec("float32", "float32"), "").policy == "fp32"
    assert module_precision(spec("bfloat16", "bfloat16"), "").policy == "bf16"
    got = module_precision(spec("float32", "float16"), "")
    assert got.policy == "fp16" and "parameter 'a1' is float16" in got.why
    # A forward that casts inside: the graph's intermediates say so.
    assert module_precision(spec("float32", graph=("float32", "bfloat16")), "").policy == "bf16"
    # bf16 is the coarser of the two.
    assert module_precision(spec("float16", "bfloat16"), "").policy == "bf16"
    assert module_precision(spec("float64"), "").policy == "fp32"


AUTOCAST = '''
import torch
class Model(torch.nn.Module):
    def forward(self, x):
        with torch.no_grad(), {call}:
            return x @ x
'''


@pytest.mark.parametrize(("call", "dtype"), [
    ('torch.autocast("cuda", dtype=torch.bfloat16)', "bfloat16"),
    ('torch.autocast(device_type="cuda")', "float16"),
    ('torch.autocast("cpu")', "bfloat16"),
    ("torch.cuda.amp.autocast()", "float16"),
    ("torch.cpu.amp.autocast()", "bfloat16"),
    ('torch.autocast("cuda", torch.half)', "float16"),
])
def test_an_autocast_region_decides_the_policy_of_an_fp32_module(call, dtype):
    src = AUTOCAST.format(call=call)
    assert autocast_in_source(src) == (dtype, 5)
    got = module_precision(spec("float32"), src)
    assert got.policy == {"bfloat16": "bf16", "float16": "fp16"}[dtype] and "autocast" in got.why


def test_a_disabled_autocast_or_none_leaves_fp32():
    assert autocast_in_source(AUTOCAST.format(call='torch.autocast("cuda", enabled=False)')) is None
    assert autocast_in_source("def f(:") is None
    assert module_precision(spec("float32"), AUTOCAST.format(call="torch.enable_grad()")).policy == "fp32"


def test_an_override_may_loosen_never_tighten():
    bf16 = module_precision(spec("bfloat16"), "")
    fp32 = module_precision(spec("float32"), "")
    assert resolve(None, bf16)[0] == "bf16" and resolve("auto", fp32)[0] == "fp32"
    assert resolve("bf16", fp32)[0] == "bf16" and resolve("tf32", fp32)[0] == "tf32"
    for tighter in ("fp32", "tf32", "fp16"):
        with pytest.raises(PrecisionRefused, match="leave --precision out"):
            resolve(tighter, bf16)


def test_tolerances_meet_kernelbenchs_per_dtype():
    assert Precision.BF16.tolerance == Precision.FP16.tolerance == 1e-2 and Precision.FP32.tolerance == 1e-4
    # A bf16 output is never held tighter than its dtype's own 1e-2, whatever the policy; float64 keeps its own.
    assert Precision.FP32.tolerance_for("torch.bfloat16") == 1e-2
    assert Precision.BF16.tolerance_for("float64") == 1e-10
    t = tolerance_json("bf16")
    assert t["rtol"] <= t["kernelbench"]["rtol"] and t["atol"] <= t["kernelbench"]["atol"] and "accumulation" in t
    assert "accumulation" not in tolerance_json("fp32")


def _eval(args: list[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "eval", str(TASKS / "bf16_row_sum.py"), *args,
                           "--device", "cpu", "--workspace", str(tmp)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def test_a_bf16_task_is_judged_at_bf16_and_bf16_accumulation_is_refused(tmp_path):
    p = _eval([str(CANDIDATES / "bf16_row_sum_fp32_acc.py"), str(CANDIDATES / "bf16_row_sum_bf16_acc.py"),
               "--json", "--trials", "10"], tmp_path)
    lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 2, p.stderr[-2000:]
    honest, bf16_acc = lines
    assert honest["precision"] == bf16_acc["precision"] == "bf16"
    assert honest["status"] == "valid" and "inputs built to expose low-precision accumulation" in honest["reason"]
    assert bf16_acc["status"] == "incorrect", bf16_acc["reason"]
    assert "inputs built to expose low-precision accumulation" in bf16_acc["reason"]


def test_a_tighter_override_is_refused_before_anything_runs(tmp_path):
    p = _eval([str(CANDIDATES / "bf16_row_sum_fp32_acc.py"), "--precision", "fp32"], tmp_path)
    assert p.returncode == 2, p.stderr[-2000:]
    assert "computes in bf16" in p.stderr and "leave --precision out" in " ".join(p.stderr.split())


def test_every_display_of_a_figure_says_its_precision():
    """Hover, lens, the bench table and the eval table name the precision a figure was judged at."""
    from engine.bench_render import bench_markdown
    from engine.commands.common import outcome_table
    from engine.evaluate.outcome import Outcome, Status
    from engine.suite_bench import TaskResult
    from hiera_ls.modules import ModuleClass
    from hiera_ls.run_views import lens_summary, module_hover

    best = {"speedup": 1.42, "verdict": "faster", "candidate_ms": 1.0, "reference_ms": 1.42, "retimed": True,
            "spread": 0.05, "candidate_id": "c", "round": 1, "space": "pure_cuda", "direction": "M"}
    obj = {"best": best, "rounds": [{"direction": "M"}], "precision": "bf16", "device": "cuda:0"}
    assert lens_summary(obj) == "1.4× faster than eager at bf16 · chosen direction: M"
    hover = module_hover(ModuleClass("Model", "kernelbench", 0, 0, 6, 10), obj, None, None)
    assert "at bf16 (rtol 0.01, atol 0.01 x min(1, rms))" in hover.split("\n\n")[0]
    r = TaskResult("t", "t.py", "level1", valid=True, speedup=1.3, precision="bf16")
    old = TaskResult("u", "u.py", "level1", valid=True, speedup=1.1)
    md = bench_markdown([r, old], {}, "# bench")
    assert "| level1 | t | yes | bf16 | 1.30 |" in md and "measured before results recorded their precision" in md
    table = Console(width=200, record=True)
    table.print(outcome_table(Outcome("c", Status.VALID, "ok", precision=Precision.BF16), "c"))
    assert "bf16 (rtol 0.01, atol 0.01 x min(1, rms); meets KernelBench's 0.01)" in table.export_text()


def test_a_cast_variant_is_a_bf16_module_and_keeps_its_own_class(tmp_path):
    """scripts/make_precision_variants.py: the task's source unchanged plus a cast (a task calling
    super(Model, self).__init__() still builds), smaller sizes where asked, and the result probes as bf16."""
    from engine.task.spec import load_task

    src = tmp_path / "src" / "level1"
    src.mkdir(parents=True)
    (src / "t.py").write_text(
        "import torch\nfrom torch import nn\n\nrows = 4096\n\n\nclass Model(nn.Module):\n"
        "    def __init__(self, n):\n        super(Model, self).__init__()\n        self.fc = nn.Linear(n, n)\n\n"
        "    def forward(self, x, k):\n        return torch.relu(self.fc(x)) * k\n\n\n"
        "def get_inputs():\n    return [torch.randn(rows, 64), 3]\n\n\ndef get_init_inputs():\n    return [64]\n")
    p = subprocess.run([sys.executable, "scripts/make_precision_variants.py", str(tmp_path / "src"),
                        str(tmp_path / "out"), "--dtype", "bf16", "--set", "rows=8"], capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "out" / "level1" / "t.py"
    assert out.read_text().startswith((src / "t.py").read_text().rstrip())
    s = load_task(out)
    assert module_precision(s).policy == "bf16"
    assert s.args[0].tensor.shape == (8, 64) and s.args[0].tensor.dtype == "bfloat16"
    assert all(a.tensor.dtype == "bfloat16" for a in s.args if a.role == "parameter")


def test_optimize_on_the_cpu_gives_a_bf16_result_from_hieras_own_generators(tmp_path):
    """The issue's done-when on the CPU, small: `hiera optimize --device cpu` on a bf16 module gives a valid result
    recording "precision": "bf16" and its tolerance, its candidates hiera's own C++."""
    p = subprocess.run([sys.executable, "-m", "engine.cli", "optimize", str(TASKS / "expert_bf16_layernorm.py"),
                        "--device", "cpu", "--budget", "2", "--shapes", "off", "--trials", "10", "--keep-slower",
                        "--workspace", str(tmp_path), "--results-dir", str(tmp_path / "out"), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    res = json.loads(p.stdout.strip().splitlines()[-1])
    assert res["precision"] == "bf16" and res["tolerance"]["rtol"] == 0.01, p.stderr[-2000:]
    assert "accumulation" in res["tolerance"]
    outcomes = [o for r in res["rounds"] for o in r["outcomes"]]
    assert outcomes and all(o["status"] == "valid" for o in outcomes), outcomes
    assert res["best"] is not None and res["best"]["paths"]["cu"].endswith(".cpp")
