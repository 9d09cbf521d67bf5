"""Hand-written attention rewritten into scaled_dot_product_attention (codegen/attention_rewrite.py): what the
rewrite matches and refuses, that its outputs are the reference's, how the expert offers it (from the probe's
census of what the forward calls, also where torch.fx cannot trace the module), and the candidate through the real
evaluator on the CPU."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert import ExpertBackend
from engine.agents.expert.analysis import attention_hint
from engine.agents.expert.codegen import attention_rewrite as ar
from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
from engine.evaluate import Status
from engine.evaluate.outcome import Candidate, CandidateKind, Precision
from engine.task.compile_calls import captures_only, compiles_with_inductor
from engine.task.contract import write_contract
from engine.task.export import first_call_note
from engine.task.spec import load_task
from tests.evalkit import evaluator

TASKS = Path(__file__).parent / "data" / "tasks"


def _rewritten(model: nn.Module, *inputs: torch.Tensor, causal: bool = True) -> tuple[list[str], float]:
    """What the backend rewrote in the model's forward, and the largest difference from the reference's output."""
    said: list[str] = []
    state = ar.StateTensors()
    state.add_module(model)
    torch._dynamo.reset()
    fn = torch.compile(model.forward, backend=ar.backend(state, causal=causal, said=said), dynamic=False)
    with torch.no_grad():
        want, got = model(*inputs), fn(*inputs)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    return said, max(float((a - b).abs().max()) for a, b in zip(want, got))


class _Causal(nn.Module):
    """The test task's forward with the mask given: from a buffer (`buffer`) or as an input."""

    def __init__(self, mask: torch.Tensor | None):
        super().__init__()
        self.register_buffer("mask", mask)

    def forward(self, q, k, v, mask=None):
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill((self.mask if mask is None else mask) == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v


def _qkv(b=2, h=3, t=16, e=8):
    torch.manual_seed(0)
    return torch.randn(b, h, t, e), torch.randn(b, h, t, e), torch.randn(b, h, t, e)


def test_a_causal_mask_from_a_buffer_becomes_is_causal_and_the_output_is_the_references() -> None:
    model = _Causal(torch.tril(torch.ones(16, 16))).eval()
    said, err = _rewritten(model, *_qkv())
    assert len(said) == 1 and "is_causal=True" in said[0], said
    assert err < 1e-5
    said, err = _rewritten(model, *_qkv(), causal=False)  # the other variant passes the mask as written
    assert len(said) == 1 and "masked" in said[0] and "is_causal=False" in said[0] and err < 1e-5, said


def test_a_mask_that_is_an_input_is_never_taken_for_causal_even_when_it_is_lower_triangular_now() -> None:
    """The next call's mask may be anything: only the module's own state (or a constant) is read at capture."""
    model = _Causal(None).eval()
    said, err = _rewritten(model, *_qkv(), torch.tril(torch.ones(16, 16)))
    assert len(said) == 1 and "is_causal=False" in said[0] and err < 1e-5, said


def test_a_buffer_mask_that_is_not_lower_triangular_is_passed_as_written() -> None:
    band = torch.tril(torch.ones(16, 16)) * torch.triu(torch.ones(16, 16), diagonal=-3)  # a sliding window
    said, err = _rewritten(_Causal(band).eval(), *_qkv())
    assert len(said) == 1 and "is_causal=False" in said[0] and err < 1e-5, said


class _Llama(nn.Module):
    """LLaMA's layout: scores divided by sqrt(d), an additive causal mask built in the forward (-inf above the
    diagonal), the softmax taken in fp32 and cast back to the query's dtype; or (`bias`) a finite additive bias from
    a buffer, which is no mask and stays as written."""

    def __init__(self, bias: torch.Tensor | None = None):
        super().__init__()
        self.register_buffer("bias", bias)

    def forward(self, q, k, v):
        t = q.shape[-2]
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(q.shape[-1])
        mask = torch.full((t, t), float("-inf")).triu(1) if self.bias is None else self.bias
        scores = F.softmax((scores + mask).float(), dim=-1).type_as(q)
        return torch.matmul(scores, v)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_an_additive_causal_mask_and_a_softmax_upcast_to_fp32_become_is_causal(dtype) -> None:
    q, k, v = (t.to(dtype) for t in _qkv())
    said, err = _rewritten(_Llama(), q, k, v)
    assert len(said) == 1 and "is_causal=True" in said[0], said
    assert err < (1e-5 if dtype == torch.float32 else 2e-2), err


@pytest.mark.parametrize("above", [None, -5.0])
def test_a_finite_additive_bias_from_a_buffer_is_passed_as_written_not_taken_for_a_mask(above) -> None:
    """An ALiBi-like bias, and a 'soft' causal one (0 on and below the diagonal, -5 above: exp(-5) is no 0)."""
    torch.manual_seed(1)
    if above is None:
        bias = -0.25 * (torch.arange(16)[None, :] - torch.arange(16)[:, None]).abs().float()
    else:
        bias = torch.full((16, 16), above).triu(1)
    said, err = _rewritten(_Llama(bias), *_qkv())
    assert len(said) == 1 and "is_causal=False" in said[0] and "masked" in said[0] and err < 1e-5, said


class _ThreeD(nn.Module):
    """Single-head attention over 3-D tensors with bmm, divided by sqrt(d), an additive mask input and a dropout
    that is inactive in eval."""

    def __init__(self, d: int):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.drop = nn.Dropout(0.1)
        self.d = d

    def forward(self, x, bias):
        s = torch.bmm(self.q(x), self.k(x).transpose(1, 2)) / math.sqrt(self.d)
        return torch.bmm(self.drop(torch.softmax(s + bias, dim=-1)), self.v(x))


def test_bmm_attention_with_an_additive_mask_and_an_inactive_dropout() -> None:
    torch.manual_seed(0)
    said, err = _rewritten(_ThreeD(16).eval(), torch.randn(3, 20, 16), torch.randn(3, 20, 20))
    assert len(said) == 1 and "masked" in said[0], said
    assert err < 1e-5


class _NotFusable(nn.Module):
    """Attention whose weights are returned too (the scores are needed), a classifier's softmax, and masked scores
    scaled by a negative number (-inf becomes +inf; the scores were negated before, so the product of the scales
    is positive): none of them can be rewritten."""

    def forward(self, q, k, v):
        a = (q @ k.transpose(-1, -2) * 0.1).softmax(-1)
        m = torch.tril(torch.ones(q.shape[-2], k.shape[-2])) == 0
        flipped = F.softmax(((q @ k.transpose(-1, -2)) * -1.0).masked_fill(m, float("-inf")) * -0.5, dim=-1) @ v
        return a @ v, a, torch.softmax(q.sum(-1), dim=-1), flipped


def test_chains_that_are_not_attention_or_need_their_scores_are_left_as_written() -> None:
    said, err = _rewritten(_NotFusable(), *_qkv())
    assert said == [] and err == 0.0
    # the control: the same first chain without its weights returned is rewritten
    q, k, v = _qkv()

    class Plain(nn.Module):
        def forward(self, q, k, v):
            return (q @ k.transpose(-1, -2) * 0.1).softmax(-1) @ v

    said, err = _rewritten(Plain(), q, k, v)
    assert len(said) == 1 and "unmasked" in said[0] and err < 1e-5, said


class _Decoder(nn.Module):
    """Self-attention masked by an in-place masked_fill_ (its scores have two users: not matched), then an unmasked
    cross-attention (matched), and a buffer counting calls in place."""

    def __init__(self, n: int):
        super().__init__()
        self.register_buffer("causal", torch.ones(n, n).tril().bool())
        self.register_buffer("calls", torch.zeros(()))

    def forward(self, x, mem):
        s = x @ x.transpose(-2, -1) / math.sqrt(x.size(-1))
        s.masked_fill_(~self.causal, float("-inf"))
        x = x + F.softmax(s, dim=-1) @ x
        self.calls.add_(1)
        return x + F.softmax(x @ mem.transpose(-2, -1) / math.sqrt(x.size(-1)), dim=-1) @ mem


def test_in_place_operations_outside_the_rewritten_chain_are_kept() -> None:
    """A dead-code pass over the graph took masked_fill_ and add_ on a buffer for pure and dropped them."""
    torch.manual_seed(0)
    model = _Decoder(16).eval()
    x, mem = torch.randn(2, 4, 16, 8), torch.randn(2, 4, 10, 8)
    said, err = _rewritten(model, x, mem)
    assert len(said) == 1 and "unmasked" in said[0] and err < 1e-5, (said, err)
    assert float(model.calls) == 2.0  # the reference's call and the rewritten one each counted once


class _Finite(nn.Module):
    """Masks a finite fill would replace scores with (a whole row masked then averages v; SDPA's masks cannot), a
    softmax with its dtype given by position, and a mask that broadcasts the scores wider than q."""

    def forward(self, q, k, v, pad, wide):
        a = F.softmax((q @ k.transpose(-1, -2)).masked_fill(pad, -1e9), dim=-1) @ v
        b = torch.softmax(q @ k.transpose(-1, -2), -1, torch.float32) @ v
        c = F.softmax(q @ k.transpose(-1, -2) + wide, dim=-1) @ v
        return a, b, c


def test_finite_fills_positional_dtypes_and_widening_masks_are_left_as_written() -> None:
    q, k, v = _qkv(b=1)
    pad = torch.zeros(1, 1, 16, 16, dtype=torch.bool)
    pad[..., 3, :] = True  # one query row masked whole
    said, err = _rewritten(_Finite(), q, k, v, pad, torch.zeros(2, 3, 16, 16))
    assert said == [] and err == 0.0, said


def _candidate_file(tmp_path: Path) -> dict:
    """The attention candidate the expert writes for the test task, run as a file of its own (a fresh TorchDynamo):
    its module namespace."""
    spec = load_task(TASKS / "causal_self_attention.py")
    path = tmp_path / "cand.py"
    path.write_text(modelnew_source(spec, TorchVariant("attention"), strategy="R.fused_attention"))
    namespace: dict = {"__name__": "cand", "__file__": str(path)}
    torch._dynamo.reset()
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace


def test_a_module_whose_causal_buffer_differs_from_the_captured_one_runs_the_reference(tmp_path) -> None:
    """TorchDynamo reuses a capture across instances without looking at tensor values: the buffer a causal decision
    was made on is pinned, and a module whose buffer holds anything else (an encoder sharing the class, a
    load_state_dict after the first call) is served by its own reference forward."""
    namespace = _candidate_file(tmp_path)
    x = namespace["get_inputs"]()[0]
    make = lambda: namespace["ModelNew"](*namespace["get_init_inputs"]()).eval()  # noqa: E731
    with torch.no_grad():
        first = make()
        first(x)
        assert "is_causal=True" in namespace["_hiera_fused"][0]
        encoder = make()
        encoder.bias.fill_(1.0)  # no mask at all
        want = namespace["Model"].forward(encoder, x)
        assert float((encoder(x) - want).abs().max()) < 1e-5
        first.load_state_dict(encoder.state_dict())
        assert float((first(x) - want).abs().max()) < 1e-5
        again = make()  # a fresh causal instance is served by the capture again
        again.load_state_dict({k: v for k, v in first.state_dict().items() if k != "bias"}, strict=False)
        assert float((again(x) - namespace["Model"].forward(again, x)).abs().max()) < 1e-5


def test_the_probe_sees_attention_where_torch_fx_cannot_trace_the_module() -> None:
    spec = load_task(TASKS / "causal_self_attention.py")
    assert spec.graph is None  # B, T, C = x.size() and math.sqrt(k.size(-1)) stop torch.fx
    assert {"softmax", "matmul", "linear"} <= spec.ops, spec.ops
    assert attention_hint(spec) is not None
    assert spec.softmax_between_products
    chain = load_task(TASKS / "expert_chain.py")
    assert chain.ops and attention_hint(chain) is None  # a pointwise chain: no attention offered


_GEMM_SOFTMAX = """
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(64, 32))

    def forward(self, x):
        b = x.size(0)  # fx traces this; the second file's int() of it does not trace
        return torch.softmax(torch.matmul(x, self.w){tail}, dim=-1)


def get_inputs():
    return [torch.randn(8, 64)]


def get_init_inputs():
    return []
"""


@pytest.mark.parametrize("traced", [True, False])
def test_a_product_then_a_softmax_is_no_attention(traced: bool, tmp_path) -> None:
    """A GEMM with a softmax after it calls softmax and matmul too, but no product reads the softmax: not offered
    (from the fx graph, or from the census's order of calls where fx cannot trace the forward)."""
    path = tmp_path / "gemm_softmax.py"
    path.write_text(_GEMM_SOFTMAX.replace("{tail}", "" if traced else " + 0 * int(b)"))
    spec = load_task(path)
    assert (spec.graph is not None) is traced and {"softmax", "matmul"} <= spec.ops
    assert not spec.softmax_between_products and attention_hint(spec) is None


def _ctx(task: str, tmp_path: Path) -> Context:
    spec = load_task(TASKS / task)
    write_contract(spec, tmp_path)
    return Context(spec, tmp_path, "cpu", {}, Precision.FP32, 1, 3, tuple(Space), None, None, None)


def test_the_expert_plays_the_rewrite_first_on_a_module_with_attention_and_never_on_one_without(tmp_path) -> None:
    be = ExpertBackend()
    ctx = _ctx("causal_self_attention.py", tmp_path / "a")
    space = be.ssda.select_space(ctx).space
    st = be.spa.plan(ctx, space, be.ssda.score_directions(ctx, space))
    assert space is Space.LIBRARIES_PYTORCH and st.name == "R.fused_attention", (space, st.name)
    out = be.oa.generate(ctx, space, st, 2)
    assert [c.note.split(" (")[0] for c in out if isinstance(c, Candidate)] and all(
        isinstance(c, Candidate) and "scaled_dot_product_attention" in c.note for c in out), out
    # a task without attention: no round of it, and no such variant among its PyTorch-level candidates
    other = _ctx("expert_chain.py", tmp_path / "b")
    scores = be.ssda.score_directions(other, Space.LIBRARIES_PYTORCH)
    plan = be.spa.plan(other, Space.LIBRARIES_PYTORCH, scores)
    assert plan.name != "R.fused_attention"
    notes = [c.note for c in be.oa.generate(other, Space.LIBRARIES_PYTORCH, plan, 6) if isinstance(c, Candidate)]
    assert notes and not any("scaled_dot_product_attention" in n for n in notes), notes


def test_the_rewrite_is_a_capture_not_a_compile_and_the_cuda_graph_replay_is_not_one_either() -> None:
    spec = load_task(TASKS / "causal_self_attention.py")
    att = modelnew_source(spec, TorchVariant("attention"), strategy="R.fused_attention")
    graph = modelnew_source(spec, TorchVariant("cudagraph"), strategy="P.cuda_graph")
    over_att = modelnew_source(spec, TorchVariant("cudagraph", graph_over_attention=True), strategy="R.fused_attention")
    assert captures_only(over_att) and not compiles_with_inductor(over_att)
    assert compiles_with_inductor("torch.compile(f, backend='inductor')") and not compiles_with_inductor(
        "torch.compile(f, backend=hiera_backend(model, said=[]))")
    over = modelnew_source(spec, TorchVariant("cudagraph", graph_over_compile=True), strategy="P.cuda_graph")
    comp = modelnew_source(spec, TorchVariant("compile", "default"), strategy="R.torch_compile")
    assert captures_only(att) and not compiles_with_inductor(att)
    assert not compiles_with_inductor(graph) and compiles_with_inductor(over) and compiles_with_inductor(comp)
    origin = "expert:torch"
    assert [Candidate(n, CandidateKind.MODELNEW, s, origin=origin).hieras_compile
            for n, s in (("a", att), ("g", graph), ("o", over), ("c", comp))] == [False, False, True, True]
    assert "TorchDynamo" in (first_call_note(att) or "") and "Inductor cache" in (first_call_note(comp) or "")


def test_one_capture_serves_every_modelnew_of_the_process(tmp_path) -> None:
    """The checker makes a ModelNew per trial: a backend per instance captured each again, and past TorchDynamo's
    cache of 8 the forward ran unrewritten (its speed was eager's)."""
    namespace = _candidate_file(tmp_path)
    x = namespace["get_inputs"]()[0]
    torch.manual_seed(0)
    ref = namespace["Model"](*namespace["get_init_inputs"]()).eval()
    with torch.no_grad():
        for _ in range(3):
            new = namespace["ModelNew"](*namespace["get_init_inputs"]()).eval()
            new.load_state_dict(ref.state_dict())
            assert float((new(x) - ref(x)).abs().max()) < 1e-5
    assert len(namespace["_hiera_fused"]) == 1, namespace["_hiera_fused"]


@pytest.mark.timeout(300)
def test_both_variants_are_valid_under_the_real_evaluator(tmp_path) -> None:
    spec = load_task(TASKS / "causal_self_attention.py")
    ev = evaluator(TASKS / "causal_self_attention.py", tmp_path, timeout_s=180)
    try:
        cands = [Candidate(f"att{int(c)}", CandidateKind.MODELNEW,
                           modelnew_source(spec, TorchVariant("attention", causal=c), strategy="R.fused_attention"),
                           Space.LIBRARIES_PYTORCH, origin="expert:torch") for c in (True, False)]
        outcomes = ev.evaluate(cands)
    finally:
        ev.close()
    assert [o.status for o in outcomes] == [Status.VALID, Status.VALID], [o.reason for o in outcomes]
