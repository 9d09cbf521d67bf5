"""The run's opener (engine/agents/expert/opener.py): a CUDA-graph replay of the task's own forward, first in round 1,
played only on a GPU, where libraries + PyTorch are allowed, and on a module of many operators or a block layer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert import ExpertBackend
from engine.agents.expert.generate import source_identity
from engine.agents.expert.opener import opener, wanted
from engine.evaluate.outcome import CandidateKind, Precision
from engine.task.spec import load_task
from tests.conftest import TASKS


@pytest.fixture(scope="module")
def specs():
    return {name: load_task(TASKS / f"{name}.py") for name in ("small_mlp_block", "scale_bias_relu")}


def _ctx(spec, device="cuda:0", spaces=tuple(Space)):
    return Context(spec, Path("/tmp/contract"), device, {"sms": 132}, Precision.FP32, 1, 3, spaces, None, None, None)


def test_a_block_of_layers_on_a_gpu_opens_with_its_forward_as_a_cuda_graph(specs):
    c = opener(_ctx(specs["small_mlp_block"]), origin="expert:torch")
    assert c is not None and c.kind is CandidateKind.MODELNEW and c.space is Space.LIBRARIES_PYTORCH
    assert "CUDAGraph" in c.source and "class ModelNew(Model)" in c.source
    compile(c.source, "opener.py", "exec")  # a file the runner can import


def test_no_opener_on_the_cpu_in_a_fixed_cuda_space_or_for_a_few_operators(specs):
    assert not wanted(_ctx(specs["small_mlp_block"], device="cpu"))
    assert not wanted(_ctx(specs["small_mlp_block"], spaces=(Space.PURE_CUDA,)))
    assert not wanted(_ctx(specs["scale_bias_relu"]))  # three pointwise operators: a graph gains nothing
    untraced = replace(specs["scale_bias_relu"], graph=None)  # fx could not trace it: a whole model, mostly
    assert wanted(_ctx(untraced))


def test_the_expert_does_not_generate_the_opener_again_in_a_later_round(specs):
    backend = ExpertBackend()
    ctx = _ctx(specs["small_mlp_block"])
    c = backend.opener(ctx)
    assert c is not None
    space = Space.LIBRARIES_PYTORCH
    strategy = backend.spa.plan(ctx, space, backend.ssda.score_directions(ctx, space))
    later = [g for g in backend.oa.generate(ctx, space, strategy, 6) if hasattr(g, "source")]
    assert later and source_identity(c.source) not in {source_identity(g.source) for g in later}
