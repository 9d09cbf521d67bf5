"""Epilogue fusion pairs a product only with a stage that reads it.

Regression: with three projections lowered one after another (q, k, v) and their bias adds after them,
the v product was fused with the *q* bias add (the next stage in order), which computed q's values from v's
product and left v's own product unwritten (on the H200 suite's self-attention task it did not compile)."""

from __future__ import annotations

from pathlib import Path

from engine.agents.expert.codegen import gemm as gemm_gen
from engine.agents.expert.ir import FusedStage, GemmStage, loads
from engine.agents.expert.lowering import lower
from engine.task.spec import load_task

TASK = '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.q = nn.Linear(64, 64)
        self.k = nn.Linear(64, 64)
        self.v = nn.Linear(64, 64)

    def forward(self, x):
        q = self.q(x).view(4, 32, 4, 16).transpose(1, 2)
        k = self.k(x).view(4, 32, 4, 16).transpose(1, 2)
        v = self.v(x).view(4, 32, 4, 16).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return (a @ v).transpose(1, 2).reshape(4, 32, 64)


def get_inputs():
    return [torch.randn(4, 32, 64)]


def get_init_inputs():
    return []
'''


def test_a_product_is_never_fused_with_a_stage_that_does_not_read_it(tmp_path: Path) -> None:
    f = tmp_path / "qkv.py"
    f.write_text(TASK)
    prog = lower(load_task(f))
    pairs = 0
    for k, st in enumerate(prog.stages[:-1]):
        if not isinstance(st, GemmStage):
            continue
        nxt = prog.stages[k + 1]
        epi = gemm_gen.epilogue_for(prog, st, nxt)
        reads = isinstance(nxt, FusedStage) and any(
            ld.view.buffer == st.out for _, e in nxt.outputs for ld in loads(e))
        if not reads:
            assert epi is None, f"stage {k} ({st.out}) fused with a stage that does not read it"
            pairs += 1
    assert pairs >= 1  # the task does have a product followed by another product's epilogue


MLP = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(32, 48)
        self.fc2 = nn.Linear(48, 48)
        self.fc3 = nn.Linear(48, 10)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def get_inputs():
    return [torch.randn(16, 32)]


def get_init_inputs():
    return []
'''


def test_consecutive_products_all_take_their_bias_and_relu_into_cublaslt(tmp_path: Path) -> None:
    from engine.agents.expert.codegen.cuda_program import cuda_source, fold_bias
    from engine.agents.expert.codegen.variants import GemmParams, Variant

    path = tmp_path / "mlp.py"
    path.write_text(MLP)
    spec = load_task(path)
    prog = lower(spec)
    folded = fold_bias(prog)  # each product's epilogue stage is folded away in turn
    assert [type(st).__name__ for st in folded.stages] == ["GemmStage"] * 3
    assert [st.activation for st in folded.stages] == ["relu", "relu", ""]
    assert all(st.bias is not None for st in folded.stages) and folded.stages[-1].out == "out"
    src = cuda_source(spec, prog, Variant(gemm=GemmParams("cublaslt", 0)), strategy="R.library_epilogue")
    assert src.count("CUBLASLT_EPILOGUE_RELU_BIAS") >= 2
