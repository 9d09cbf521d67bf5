"""The LLM backend against a real HTTP server that plays scripted replies (tests/fake_llm_server.py).

CPU only and fast: small client timeouts and retry counts keep the failure paths to a few seconds each.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_llm_server import FakeLLMServer, Reply

from contracts.profile import KernelProfile, Profile
from contracts.vocabulary import Direction, Space
from engine.agents.base import Context, DirectionScores, Invalid, RoundRecord, Strategy
from engine.agents.llm import BackendUnavailable, LLMBackend
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Precision, Status, Timing
from engine.llm_config import LLMConfig
from engine.task.contract import write_contract
from engine.task.spec import load_task

TESTS = Path(__file__).parent
TASK = TESTS / "data" / "tasks" / "scale_bias_relu.py"
GOOD_CPP = (TESTS / "data" / "candidates" / "scale_bias_relu.cpp").read_text()
ALL_SPACES = (Space.PURE_CUDA, Space.CUDA_LIBRARIES, Space.LIBRARIES_PYTORCH)


@pytest.fixture(scope="module")
def base_ctx(tmp_path_factory: pytest.TempPathFactory) -> Context:
    spec = load_task(TASK)  # a real probe of the task, in a subprocess: a few seconds, once per module
    contract_dir = tmp_path_factory.mktemp("contract")
    write_contract(spec, contract_dir)
    return Context(spec=spec, contract_dir=contract_dir, device="cpu", device_facts={"device": "cpu", "name": "test"},
                   precision=Precision.FP32, round=1, rounds=3, allowed_spaces=ALL_SPACES, parent=None,
                   parent_outcome=None, parent_profile=None)


@pytest.fixture
def srv() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as s:
        yield s


def backend_for(srv: FakeLLMServer, **kw: object) -> LLMBackend:
    settings: dict[str, object] = {"timeout_s": 5.0, "max_retries": 2, "api_key_env": "HIERA_TEST_NO_SUCH_KEY"}
    settings.update(kw)
    return LLMBackend(LLMConfig(base_url=srv.base_url, model="fake-model", **settings))  # type: ignore[arg-type]


def strategy(name: str = "R.fuse_pointwise", space: Space = Space.PURE_CUDA) -> Strategy:
    return Strategy(Direction.R, space, name, "fuse", ("read x once", "write out once"), {"threads": 256})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- pre-flight ---------------------------------------------------------------------------------------------

def test_endpoint_down_fails_within_seconds_naming_the_url_and_the_setting() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = LLMBackend(LLMConfig(base_url=url, model="m", max_retries=4))
    t0 = time.monotonic()
    with pytest.raises(BackendUnavailable) as ei:
        backend.check_endpoint(timeout_s=5)
    assert time.monotonic() - t0 < 5
    msg = str(ei.value)
    assert url in msg
    assert all(s in msg for s in ("--llm-base-url", "HIERA_LLM_BASE_URL", "hiera.llm.baseUrl"))


def test_endpoint_that_never_answers_fails_at_the_check_timeout(srv: FakeLLMServer) -> None:
    srv.script("models", Reply.hang(10))
    t0 = time.monotonic()
    with pytest.raises(BackendUnavailable, match="did not answer within 1 s"):
        backend_for(srv, max_retries=4).check_endpoint(timeout_s=1)
    assert time.monotonic() - t0 < 3  # no retries at the check, whatever max_retries says
    assert len(srv.requests_for("models")) == 1


def test_endpoint_check_lists_models(srv: FakeLLMServer) -> None:
    check = backend_for(srv).check_endpoint()
    assert check.models == ("fake-model",) and check.model_listed is True


def test_rejected_key_names_the_variable_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIERA_TEST_KEY", "sk-wrong-key-0123456789")
    with FakeLLMServer(require_key="sk-right-key-0123456789") as s, pytest.raises(BackendUnavailable) as ei:
        backend_for(s, api_key_env="HIERA_TEST_KEY").check_endpoint()
    msg = str(ei.value)
    assert "HTTP 401" in msg and "HIERA_TEST_KEY" in msg and "--llm-api-key-env" in msg


# --- transport: retries, timeouts, adaptation ---------------------------------------------------------------

def test_429_with_retry_after_is_retried_after_the_delay(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.rate_limited(retry_after=1), Reply.code(GOOD_CPP))
    [cand] = backend_for(srv).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(cand, Candidate) and cand.source.strip() == GOOD_CPP.strip()
    first, second = srv.requests_for("OA")
    assert second.headers.get("x-stainless-retry-count") == "1"
    assert second.at - first.at >= 0.9  # waited as told, not the client's 0.5 s default backoff


def test_500_is_retried_then_succeeds(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.server_error(), Reply.code(GOOD_CPP))
    [cand] = backend_for(srv).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(cand, Candidate)
    assert len(srv.requests_for("OA")) == 2


def test_reply_that_never_comes_is_an_invalid_with_a_timeout_reason(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.hang(10), Reply.hang(10))
    backend = backend_for(srv, timeout_s=1.0, max_retries=1)
    t0 = time.monotonic()
    [out] = backend.generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert time.monotonic() - t0 < 6
    assert isinstance(out, Invalid) and "timed out" in out.reason and "2 attempt(s)" in out.reason
    assert len(srv.requests_for("OA")) == 2  # the client's retry happened
    [usage] = backend.drain_usage()
    assert usage.ok is False and "timed out" in (usage.error or "")


def test_json_schema_rejection_falls_back_and_remembers(base_ctx: Context) -> None:
    with FakeLLMServer(reject_formats=("json_schema",)) as s:
        s.script("SSDA.space", Reply.ok({"space": "cuda_libraries", "rationale": "a"}),
                 Reply.ok({"space": "pure_cuda", "rationale": "b"}))
        backend = backend_for(s)
        assert backend.select_space(base_ctx).space is Space.CUDA_LIBRARIES
        assert backend.select_space(base_ctx).space is Space.PURE_CUDA
        formats = [r.response_format for r in s.requests_for("SSDA.space")]
    assert formats == ["json_schema", "json_object", "json_object"]  # asked once, then remembered


def test_server_without_any_response_format_still_works(base_ctx: Context) -> None:
    with FakeLLMServer(reject_formats=("json_schema", "json_object")) as s:
        s.script("SSDA.space", Reply.ok('```json\n{"space": "libraries_pytorch", "rationale": "x"}\n```'))
        assert backend_for(s).select_space(base_ctx).space is Space.LIBRARIES_PYTORCH
        assert [r.response_format for r in s.requests] == ["json_schema", "json_object", None]


def test_unrelated_bad_request_is_reported_not_adapted(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.error(400, "This model's maximum context length is 4096 tokens"))
    [out] = backend_for(srv).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(out, Invalid) and "HTTP 400" in out.reason and "maximum context length" in out.reason
    assert len(srv.requests) == 1


def test_max_tokens_rejection_switches_to_max_completion_tokens(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.error(400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens'."),
               Reply.code(GOOD_CPP))
    [cand] = backend_for(srv, max_tokens=1234).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(cand, Candidate)
    assert srv.requests[-1].body.get("max_completion_tokens") == 1234 and "max_tokens" not in srv.requests[-1].body


def test_unknown_model_stops_the_run_with_the_fix(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.error(404, "The model `fake-model` does not exist"))
    with pytest.raises(BackendUnavailable, match="--llm-model"):
        backend_for(srv).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)


# --- SSDA -----------------------------------------------------------------------------------------------------

def test_malformed_space_json_is_repaired(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.space", Reply.ok("Sure!\n```json\n{'space': 'CUDA libraries', 'rationale': 'GEMM-led',}\n```"))
    choice = backend_for(srv).select_space(base_ctx)
    assert choice.space is Space.CUDA_LIBRARIES and choice.rationale == "GEMM-led"


def test_unreadable_space_reply_falls_back_with_its_reason(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.space", Reply.ok("I would go with pure CUDA for this one."))
    backend = backend_for(srv)
    choice = backend.select_space(base_ctx)
    assert choice.space is Space.PURE_CUDA  # no parent: the smallest allowed space
    assert "fallback decision" in choice.rationale and "no JSON object" in choice.rationale
    [usage] = backend.drain_usage()
    assert usage.ok is False and "no JSON object" in (usage.error or "")
    assert usage.prompt_tokens == 100  # the tokens were spent all the same


def test_space_outside_the_allowed_ones_is_clamped_and_noted(srv: FakeLLMServer, base_ctx: Context) -> None:
    ctx = dataclasses.replace(base_ctx, allowed_spaces=(Space.PURE_CUDA, Space.CUDA_LIBRARIES))
    srv.script("SSDA.space", Reply.ok({"space": "libraries_pytorch", "rationale": "torch.compile"}))
    choice = backend_for(srv).select_space(ctx)
    assert choice.space is Space.CUDA_LIBRARIES
    assert "clamped" in choice.rationale and "libraries_pytorch" in choice.rationale
    assert srv.requests[0].body["response_format"]["json_schema"]["schema"]["properties"]["space"]["enum"] == [
        "pure_cuda", "cuda_libraries"]


def test_single_allowed_space_needs_no_call(srv: FakeLLMServer, base_ctx: Context) -> None:
    ctx = dataclasses.replace(base_ctx, allowed_spaces=(Space.CUDA_LIBRARIES,))
    assert backend_for(srv).select_space(ctx).space is Space.CUDA_LIBRARIES
    assert srv.requests == []


def test_direction_scores_are_rescaled_with_evidence(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.directions", Reply.ok({"scores": {"C": 2, "P": 3, "M": 9, "R": 6, "T": 1},
                                            "evidence": {"M": "strided loads", "R": ["two passes"]},
                                            "rationale": "memory bound"}))
    scores = backend_for(srv).score_directions(base_ctx, Space.PURE_CUDA)
    assert scores.best() is Direction.M and scores.scores[Direction.M] == pytest.approx(0.9)
    assert scores.evidence[Direction.M] == ("strided loads",) and scores.evidence[Direction.R] == ("two passes",)
    assert "M.vectorize_16B" in srv.requests[0].text()  # the knowledge base for the space is in the prompt


def test_unreadable_direction_reply_scores_all_equally_with_reason(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.directions", Reply.ok({"bottleneck": "memory"}))
    scores = backend_for(srv).score_directions(base_ctx, Space.PURE_CUDA)
    assert set(scores.scores.values()) == {0.5}
    assert "fallback decision" in scores.rationale and "no direction scores" in scores.rationale


# --- SPA ------------------------------------------------------------------------------------------------------

SCORES = DirectionScores({Direction.M: 0.9, Direction.R: 0.6, Direction.C: 0.1, Direction.P: 0.2,
                          Direction.T: 0.1}, {})


def test_valid_strategy_is_kept_with_its_steps_and_params(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SPA", Reply.ok({"strategy": "M.vectorize_16B", "steps": ["float4 loads", "scalar tail"],
                                "params": [{"name": "vec", "value": "4"}], "rationale": "r"}))
    s = backend_for(srv).plan(base_ctx, Space.PURE_CUDA, SCORES)
    assert (s.name, s.direction, s.space) == ("M.vectorize_16B", Direction.M, Space.PURE_CUDA)
    assert s.steps == ("float4 loads", "scalar tail") and s.params == {"vec": "4"}


@pytest.mark.parametrize(("asked", "why"), [
    ("T.tf32_tensor_cores", "not valid in pure_cuda"),  # needs a GPU and the tf32 policy
    ("R.torch_compile", "not valid in pure_cuda"),  # needs libraries_pytorch
    ("X.make_it_fast", "not in the knowledge base"),
])
def test_invalid_strategy_is_replaced_by_the_best_valid_one(srv: FakeLLMServer, base_ctx: Context, asked: str,
                                                            why: str) -> None:
    srv.script("SPA", Reply.ok({"strategy": asked, "steps": ["s"], "params": [], "rationale": "r"}))
    s = backend_for(srv).plan(base_ctx, Space.PURE_CUDA, SCORES)
    assert s.name == "M.coalesce"  # the first valid strategy of the top direction (M)
    assert why in s.description and asked in s.description and s.steps == ()


def test_no_planning_ablation_plans_nothing_and_uses_one_fixed_prompt(srv: FakeLLMServer,
                                                                      base_ctx: Context) -> None:
    ctx = dataclasses.replace(base_ctx, planning=False)
    backend = backend_for(srv)
    s = backend.plan(ctx, Space.PURE_CUDA, SCORES)
    assert s.name == "generic" and srv.requests == []
    srv.script("OA", Reply.code(GOOD_CPP))
    [cand] = backend.generate(ctx, Space.PURE_CUDA, s, 1)
    assert isinstance(cand, Candidate)
    text = srv.requests[0].text()
    assert "fastest correct implementation" in text
    assert "Strategy for this round" not in text and "Knowledge base" not in text


# --- OA -------------------------------------------------------------------------------------------------------

def test_cpu_candidate_is_a_cpp_file_with_provenance(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.code(GOOD_CPP))
    [cand] = backend_for(srv).generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(cand, Candidate)
    assert (cand.kind, cand.space, cand.origin, cand.note) == (
        CandidateKind.CPP, Space.PURE_CUDA, "llm:fake-model", "R.fuse_pointwise")
    assert "```cpp" in srv.requests[0].text() and "stream` is NULL" in srv.requests[0].text()


def test_gpu_candidate_is_cuda_source(srv: FakeLLMServer, base_ctx: Context) -> None:
    ctx = dataclasses.replace(base_ctx, device="cuda:0")
    srv.script("OA", Reply.code(GOOD_CPP.replace("#pragma omp parallel for\n", ""), lang="cuda"))
    [cand] = backend_for(srv).generate(ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(cand, Candidate) and cand.kind is CandidateKind.CUDA
    assert "cuda_source.cu" in srv.requests[0].text()


def test_no_contract_ablation_asks_for_a_modelnew(srv: FakeLLMServer, base_ctx: Context) -> None:
    ctx = dataclasses.replace(base_ctx, use_contract=False)
    src = "import torch\nfrom torch import nn\n\nclass ModelNew(nn.Module):\n    pass\n"
    srv.script("OA", Reply.code(src, lang="python"))
    [cand] = backend_for(srv).generate(ctx, Space.LIBRARIES_PYTORCH, strategy(space=Space.LIBRARIES_PYTORCH), 1)
    assert isinstance(cand, Candidate) and cand.kind is CandidateKind.MODELNEW and cand.source == src


def test_reply_without_code_is_invalid_and_keeps_the_text(srv: FakeLLMServer, base_ctx: Context) -> None:
    prose = "You should fuse the scale, bias and ReLU into one loop."
    srv.script("OA", Reply.ok(prose))
    backend = backend_for(srv)
    [out] = backend.generate(base_ctx, Space.PURE_CUDA, strategy(), 1)
    assert isinstance(out, Invalid) and "no code block" in out.reason and out.source == prose
    [usage] = backend.drain_usage()
    assert usage.ok is False and usage.completion_tokens == 50


def test_k_candidates_in_parallel_mix_valid_and_invalid(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("OA", Reply.code(GOOD_CPP), Reply.ok("no code here"), Reply.code(GOOD_CPP))
    out = backend_for(srv, parallel_requests=3).generate(base_ctx, Space.PURE_CUDA, strategy(), 3)
    assert sorted(type(o).__name__ for o in out) == ["Candidate", "Candidate", "Invalid"]
    assert len({o.id for o in out}) == 3
    variants = {r.text().split("This is candidate ")[1][:6] for r in srv.requests}
    assert variants == {"1 of 3", "2 of 3", "3 of 3"}  # each call asked for a different variant


def test_prompt_carries_contract_parent_outcome_profile_and_history(srv: FakeLLMServer, base_ctx: Context) -> None:
    # The parent's profile reaches the prompt as its feedback text (engine/profile/feedback.py), evidence included.
    profile = Profile(kernels=(KernelProfile(name="k"),), scores={"M": 0.9},
                      evidence={"M": ["dram__throughput 91% of peak; achieved occupancy 38%"]})
    parent = Candidate("p1", CandidateKind.CPP, "// PARENT-SOURCE-MARK\n" + GOOD_CPP, Space.PURE_CUDA,
                       "llm:fake-model", "M.vectorize_16B")
    outcome = Outcome("p1", Status.VALID, "correct on 5 trials",
                      candidate=Timing.from_samples([1.0, 1.0, 1.0], "perf_counter"),
                      reference=Timing.from_samples([2.5, 2.5, 2.5], "perf_counter"))
    history = (RoundRecord(1, Space.PURE_CUDA, Direction.M, "M.vectorize_16B", 2.5,
                           (outcome, Outcome("p2", Status.BUILD_FAILED, "error: expected ';' at line 7"))),)
    ctx = dataclasses.replace(base_ctx, round=2, parent=parent, parent_outcome=outcome, parent_profile=profile,
                              history=history)
    srv.script("SSDA.space", Reply.ok({"space": "pure_cuda", "rationale": "r"}))
    backend_for(srv).select_space(ctx)
    text = srv.requests[0].text()
    assert "int hiera_forward(" in text and "params_semantics.json" in text  # the contract
    assert "PARENT-SOURCE-MARK" in text and "speedup over the reference: 2.500x" in text
    assert "dram__throughput 91% of peak" in text
    assert "round 1: space pure_cuda, direction M" in text and "expected ';' at line 7" in text
    assert text.startswith("ROLE: SSDA.space")


# --- accounting and secrecy -----------------------------------------------------------------------------------

def test_tokens_seconds_and_cost_are_recorded_per_call(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.space", Reply.ok({"space": "pure_cuda", "rationale": "r"}, 1000, 500))
    srv.script("OA", *(Reply.code(GOOD_CPP, prompt_tokens=2000, completion_tokens=300) for _ in range(2)))
    backend = backend_for(srv, price_prompt_per_mtok=2.0, price_completion_per_mtok=8.0)
    backend.select_space(base_ctx)
    backend.generate(base_ctx, Space.PURE_CUDA, strategy(), 2)
    usage = backend.drain_usage()
    assert [u.role for u in usage] == ["ssda", "oa", "oa"]
    ssda = usage[0]
    assert (ssda.model, ssda.prompt_tokens, ssda.completion_tokens, ssda.ok) == ("fake-model", 1000, 500, True)
    assert ssda.cost_usd == pytest.approx((1000 * 2.0 + 500 * 8.0) / 1e6)
    assert all(u.seconds > 0 for u in usage)
    assert sum(u.cost_usd or 0 for u in usage) == pytest.approx(0.006 + 2 * (2000 * 2.0 + 300 * 8.0) / 1e6)
    assert backend.drain_usage() == []  # drained


def test_without_prices_cost_is_unknown_not_zero(srv: FakeLLMServer, base_ctx: Context) -> None:
    srv.script("SSDA.space", Reply.ok({"space": "pure_cuda", "rationale": "r"}))
    backend = backend_for(srv)
    backend.select_space(base_ctx)
    assert backend.drain_usage()[0].cost_usd is None


def test_api_key_never_leaks(base_ctx: Context, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    canary = "sk-hiera-CANARY-7f3a9c1e5b2d"
    monkeypatch.setenv("HIERA_CANARY_KEY", canary)
    caplog.set_level(logging.DEBUG)
    for name in ("openai", "httpx", "httpx2", "httpcore", "hiera"):
        caplog.set_level(logging.DEBUG, logger=name)
    texts: list[str] = []
    with FakeLLMServer(reject_formats=("json_schema",)) as s:
        s.script("SSDA.space", Reply.malformed())
        s.script("OA", Reply.rate_limited(0.1), Reply.code(GOOD_CPP), Reply.ok("no code"))
        backend = backend_for(s, api_key_env="HIERA_CANARY_KEY", max_retries=1)
        backend.check_endpoint()
        texts.append(backend.select_space(base_ctx).rationale)
        texts += [repr(o) for o in backend.generate(base_ctx, Space.PURE_CUDA, strategy(), 2)]
        assert s.requests[0].authorization == f"Bearer {canary}"  # the key was really used
    # A server that rejects the key and echoes it back (as some do) must not get it into our messages.
    with FakeLLMServer(require_key="sk-some-other-key-123456") as s:
        rejected = backend_for(s, api_key_env="HIERA_CANARY_KEY")
        for call in (rejected.check_endpoint, lambda: rejected.select_space(base_ctx)):
            with pytest.raises(BackendUnavailable) as ei:
                call()
            texts += [str(ei.value), repr(ei.value)]
            assert "HIERA_CANARY_KEY" in str(ei.value)
        assert canary in s.requests[0].authorization
    usage = backend.drain_usage() + rejected.drain_usage()
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"usage": [dataclasses.asdict(u) for u in usage], "texts": texts,
                                  "config": repr(backend.config), "backend": repr(vars(backend))}))
    out, err = capfd.readouterr()
    assert "Incorrect API key provided" not in " ".join(texts) or "[redacted]" in " ".join(texts)
    for where, content in [("logs", caplog.text), ("stdout", out), ("stderr", err),
                           *((str(p), p.read_text()) for p in tmp_path.rglob("*") if p.is_file())]:
        assert canary not in content, f"the API key leaked into {where}"
    assert "[redacted]" in " ".join(texts)  # the echo was there, and was scrubbed


# --- the server as a subprocess (how the end-to-end loop test drives it) --------------------------------------

def test_fake_server_runs_from_the_command_line(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"model": "m", "replies": {"OA": [{"kind": "code", "source": GOOD_CPP}]},
                                  "defaults": {"SSDA": {"kind": "ok", "content": {"space": "pure_cuda"}}}}))
    proc = subprocess.Popen([sys.executable, str(TESTS / "fake_llm_server.py"), "--port", "0", "--script",
                             str(script), "--record", str(tmp_path / "requests.jsonl")],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("PORT ")
        import openai

        client = openai.OpenAI(base_url=f"http://127.0.0.1:{int(line.split()[1])}/v1", api_key="k", max_retries=0)
        msgs = [{"role": "system", "content": "ROLE: OA"}, {"role": "user", "content": "go"}]
        reply = client.chat.completions.create(model="m", messages=msgs)  # type: ignore[arg-type]
        assert "hiera_forward" in (reply.choices[0].message.content or "")
        for _ in range(2):  # a default repeats; SSDA.directions falls back to the "SSDA" queue/default
            msgs[0]["content"] = "ROLE: SSDA.directions"
            reply = client.chat.completions.create(model="m", messages=msgs)  # type: ignore[arg-type]
            assert json.loads(reply.choices[0].message.content or "") == {"space": "pure_cuda"}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    recorded = [json.loads(x) for x in (tmp_path / "requests.jsonl").read_text().splitlines()]
    assert [r["role"] for r in recorded] == ["OA", "SSDA.directions", "SSDA.directions"]
