"""The fused-attention candidates on a CUDA device, through the real evaluator: the rewrite alone (both mask
variants) and the CUDA-graph replay of the rewritten forward, in fp32 (SDPA's memory-efficient kernel). Run:
`pytest -m gpu tests/test_fused_attention_gpu.py -s` (the speedups are printed). Not bf16: SDPA keeps the scores
in fp32 where a bf16 module's matmul rounds them to bf16, and on the CPU that difference already put 577 of 524288
outputs of a 256-key attention outside the bf16 tolerance against the module's own forward."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from contracts.vocabulary import Space
from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator, Status
from engine.evaluate.outcome import Precision
from engine.task.spec import load_task

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")]

TASKS = Path(__file__).parent / "data" / "tasks"
VARIANTS = (TorchVariant("attention"), TorchVariant("attention", causal=False),
            TorchVariant("cudagraph", graph_over_attention=True))


def test_every_fused_attention_variant_is_valid_on_the_gpu(tmp_path: Path) -> None:
    precision = Precision.FP32
    spec = load_task(TASKS / "causal_self_attention.py")
    ev = Evaluator(spec, tmp_path / spec.name, EvalSettings(device="cuda:0", precision=precision),
                   cache_dir=tmp_path / "cache")
    try:
        cands = [Candidate(f"v{i}", CandidateKind.MODELNEW, modelnew_source(spec, v, strategy="R.fused_attention"),
                           Space.LIBRARIES_PYTORCH, origin="expert:torch") for i, v in enumerate(VARIANTS)]
        outcomes = ev.evaluate(cands)
    finally:
        ev.close()
    for v, o in zip(VARIANTS, outcomes):
        print(f"{precision.value} {v.label()}: {o.status.value} {o.speedup}")
    assert all(o.status is Status.VALID for o in outcomes), [o.reason for o in outcomes]
