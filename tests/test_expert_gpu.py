"""Expert backend on a CUDA device: one round of its candidates through the real evaluator.

Run on the H200: `pytest -m gpu tests/test_expert_gpu.py`. Every candidate the generator hands over (it
returns Invalid for what it refuses) must be valid: one valid candidate of k would let k - 1 broken variants
pass. The fusable tasks (a pointwise chain, a softmax) must beat eager PyTorch.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert import ExpertBackend
from engine.evaluate import Candidate, EvalSettings, Evaluator
from engine.evaluate.outcome import Outcome, Precision
from engine.task.spec import load_task

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")]

TASKS = Path(__file__).parent / "data" / "tasks"


def _round(task: str, tmp_path: Path, k: int, spaces: tuple[Space, ...] = tuple(Space)
           ) -> tuple[list[Candidate], list[Outcome], str]:
    spec = load_task(TASKS / task)
    be = ExpertBackend()
    with Evaluator(spec, tmp_path, EvalSettings(device="cuda:0", timing_trials=50)) as ev:
        info = ev.ensure_worker()
        ctx = Context(spec, ev.contract_dir, "cuda:0", info, Precision.FP32, 0, 3, spaces, None, None, None)
        choice = be.ssda.select_space(ctx)
        strategy = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
        cands = [c for c in be.oa.generate(ctx, choice.space, strategy, k) if isinstance(c, Candidate)]
        outs = ev.evaluate(cands)
    for c, o in zip(cands, outs):
        print(f"{task} {c.id} {o.status.value} {o.speedup} {c.note} {'' if o.valid else o.reason[:500]}")
    return cands, outs, strategy.name


def _all_valid(cands: list[Candidate], outs: list[Outcome]) -> None:
    """The generator made at least one candidate and every one it made is valid (the failures named)."""
    assert cands, "the generator made no candidate"
    assert len(outs) == len(cands), f"{len(cands)} candidates, {len(outs)} outcomes"
    bad = [(c.note, o.status.value, o.reason[:300]) for c, o in zip(cands, outs) if not o.valid]
    assert not bad, bad


@pytest.mark.parametrize("task", ["expert_gpu_chain.py", "expert_gpu_softmax.py"])
def test_fusable_task_candidates_are_all_valid_and_the_best_beats_eager(task: str, tmp_path: Path) -> None:
    cands, outs, _ = _round(task, tmp_path, k=3)
    _all_valid(cands, outs)
    assert max(o.speedup or 0.0 for o in outs) > 1.0


@pytest.mark.parametrize("task", ["expert_gpu_linear_ln.py", "expert_sum_middle.py", "expert_rmsnorm_rows.py"])
def test_generated_program_candidates_are_all_valid(task: str, tmp_path: Path) -> None:
    cands, outs, _ = _round(task, tmp_path, k=2)
    _all_valid(cands, outs)


def test_transposed_copy_gets_a_tiled_transpose_faster_than_eager(tmp_path: Path) -> None:
    """x.transpose(1, 2).contiguous(): eager and the flat gather read one sector per element; the
    shared-memory tiled transposes read and write coalesced, so the best of them beats eager."""
    cands, outs, strategy = _round("expert_gpu_transpose.py", tmp_path, k=6)
    assert strategy == "M.smem_transpose"
    assert all("__syncthreads" in c.source for c in cands)
    _all_valid(cands, outs)
    assert max(o.speedup or 0.0 for o in outs) > 1.0


def test_tiled_sgemm_with_fused_epilogue_is_valid_in_pure_cuda(tmp_path: Path) -> None:
    cands, outs, _strategy = _round("expert_linear_relu.py", tmp_path, k=2, spaces=(Space.PURE_CUDA,))
    assert all("cublas" not in c.source for c in cands)
    _all_valid(cands, outs)


def test_convolution_gets_valid_cudnn_candidates_with_the_epilogue_fused(tmp_path: Path) -> None:
    cands, outs, strategy = _round("expert_conv_relu.py", tmp_path, k=3)
    assert strategy in ("T.cudnn_algos", "R.library_epilogue")
    assert all("cudnnConvolutionForward" in c.source for c in cands)
    # find, find_exact and heuristic: each takes an algorithm cuDNN has for a 3x3 fp32 convolution with FMA math
    assert len(cands) == 3
    _all_valid(cands, outs)


def test_resnet_block_cudnn_candidates_are_valid(tmp_path: Path) -> None:
    cands, outs, _strategy = _round("expert_conv_block.py", tmp_path, k=3)
    _all_valid(cands, outs)


def test_torch_compile_modelnew_is_valid_in_the_worker(tmp_path: Path) -> None:
    """torch.compile candidates run inside the evaluator's worker (compile threads, graph-replay outputs)."""
    from contracts.vocabulary import Direction
    from engine.agents.base import Strategy

    spec = load_task(TASKS / "expert_chain.py")
    be = ExpertBackend()
    strategy = Strategy(Direction.R, Space.LIBRARIES_PYTORCH, "R.torch_compile", "torch.compile modes", (),
                        {"family": "torch", "focus": "compile"})
    with Evaluator(spec, tmp_path, EvalSettings(device="cuda:0", timing_trials=20)) as ev:
        info = ev.ensure_worker()
        ctx = Context(spec, ev.contract_dir, "cuda:0", info, Precision.FP32, 0, 3, tuple(Space), None, None,
                      None)
        cands = [c for c in be.oa.generate(ctx, Space.LIBRARIES_PYTORCH, strategy, 3) if isinstance(c, Candidate)]
        outs = ev.evaluate(cands)
    for c, o in zip(cands, outs):
        print(c.note, o.status.value, o.speedup, "" if o.valid else o.reason[:500])
    _all_valid(cands, outs)


@pytest.mark.parametrize(("task", "library"), [("expert_conv_relu.py", "cudnn"), ("expert_linear_relu.py", "cublas")])
def test_exported_library_kernel_builds_where_it_is_imported_and_matches_model(
        task: str, library: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file a user gets back builds with load_inline in their process: cuDNN (not in the toolkit's
    folders) must be found and linked, cuBLAS linked; then ModelNew must match Model."""
    import importlib.util

    from engine.task.export import modelnew_source

    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "ext"))
    cands, outs, _ = _round(task, tmp_path / "run", k=3, spaces=(Space.CUDA_LIBRARIES,))
    chosen = [c for c, o in zip(cands, outs) if o.valid and library in c.source]
    assert chosen, [(c.note, o.reason) for c, o in zip(cands, outs)]
    path = tmp_path / "exported_hiera.py"
    path.write_text(modelnew_source(load_task(TASKS / task), chosen[0].source, cuda=True))
    s = importlib.util.spec_from_file_location("exported_hiera", path)
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    torch.manual_seed(0)
    ref = mod.Model(*mod.get_init_inputs()).cuda().eval()
    new = mod.ModelNew(*mod.get_init_inputs()).cuda().eval()
    new.load_state_dict(ref.state_dict())
    inputs = [x.cuda() for x in mod.get_inputs()]
    with torch.no_grad():
        torch.testing.assert_close(new(*inputs), ref(*inputs), atol=1e-4, rtol=1e-4)
