"""The LLM backend: SSDA, SPA and OA played by a model behind any OpenAI-compatible endpoint.

Transport is the `openai` package. Its client already retries 429 (honouring Retry-After), 408/409, 5xx,
connection errors and timeouts with exponential backoff, `max_retries` times; nothing here retries on its
own except to adapt a request the server rejected as unsupported (response_format json_schema ->
json_object -> none; max_tokens -> max_completion_tokens; no temperature), and that adaptation sticks for
the rest of the run.

What never raises: a malformed reply, a reply without code, a timeout or a connection failure after the
client's retries. Those become an Invalid candidate, or for SSDA/SPA a fallback decision whose rationale
says why. What raises BackendUnavailable: an endpoint that is down at the pre-flight check, and errors no
later call can recover from (401/403: the key; 404: the model or URL), so a run stops with the fix instead
of burning its rounds on fallbacks.

The API key is read from the environment variable the config names, handed to the client and nothing
else: it is not stored on this object, not logged, and scrubbed from every message built from a server
reply (a careless server may echo it in an error body).
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import openai

from contracts.vocabulary import Direction, Space
from engine.agents import knowledge
from engine.agents.base import Context, DirectionScores, Invalid, SpaceChoice, Strategy, Usage
from engine.agents.prompts import (
    CODE_FORMAT,
    Prompt,
    candidate_kind,
    code_prompt,
    directions_prompt,
    plan_prompt,
    space_prompt,
    unplanned_code_prompt,
    valid_entries,
)
from engine.agents.replies import ReplyError, extract_code, parse_json_object
from engine.evaluate.outcome import Candidate
from engine.llm_config import LLMConfig

log = logging.getLogger("hiera.llm")

WHERE_TO_SET_URL = "--llm-base-url, HIERA_LLM_BASE_URL, or hiera.llm.baseUrl in the editor"

# Words in a 400 that mean "this server does not do structured output" (OpenAI, vLLM, llama.cpp, Ollama
# and proxies word it differently); any other 400 is a real error and is reported as such.
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "guided", "structured",
                 "not supported", "unsupported")
_FORMAT_LEVELS = ("json_schema", "json_object", "none")


class BackendUnavailable(RuntimeError):
    """The endpoint cannot serve this run; the message names the URL and what to set."""


class _CallFailed(Exception):
    """One agent call produced nothing usable; `reason` is for people (it ends up in the run record)."""

    def __init__(self, reason: str, text: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.text = text


@dataclass(frozen=True)
class EndpointCheck:
    url: str
    models: tuple[str, ...]  # what GET /models listed (empty: the server has no model list)
    model_listed: bool | None  # None when the server has no model list

    def warning(self, model: str) -> str | None:
        if self.model_listed is False:
            shown = ", ".join(self.models[:8]) + (" ..." if len(self.models) > 8 else "")
            return f"{self.url} does not list model {model!r} (it lists: {shown}); calls may fail with 404"
        return None


@dataclass(frozen=True)
class _Reply:
    text: str
    finish_reason: str | None
    usage: Usage  # the record of this call (already stored); parsing may mark it not ok


class LLMBackend:
    """Backend protocol over an OpenAI-compatible chat endpoint. One object plays all three agents."""

    name = "llm"

    def __init__(self, config: LLMConfig, run_label: str = ""):
        self.config = config
        self.run_label = run_label
        self._url = config.base_url
        # The key goes into the client and nowhere else; only a scrubber keeps a fingerprint-free way to
        # remove it from server messages (a closure, so it is not an attribute anyone can print).
        key = os.environ.get(config.api_key_env, "").strip()
        self._redact: Callable[[str], str] = _redactor(key)
        self._key_set = bool(key)
        self._client = openai.OpenAI(base_url=config.base_url, api_key=key or "not-needed",
                                     timeout=config.timeout_s, max_retries=config.max_retries)
        del key
        self._lock = threading.Lock()
        self._usage: list[Usage] = []
        self._ids = itertools.count(1)
        # Request adaptations learnt from this endpoint's 400s (sticky: ask once, not every call).
        self._format_level = 0
        self._max_tokens_param = "max_tokens"
        self._send_temperature = True
        self.ssda = self
        self.spa = self
        self.oa = self

    # --- Backend protocol --------------------------------------------------------------------------------

    def drain_usage(self) -> list[Usage]:
        """One record per model call. `ok` is False when the call failed or its reply was unusable
        (malformed JSON, no code); the tokens of an unusable reply are still counted: they were paid for."""
        with self._lock:
            out, self._usage = self._usage, []
        return out

    def opener(self, ctx: Context) -> Candidate | None:
        """hiera's own first candidate (engine/agents/expert/opener.py: the forward as a CUDA graph where that can
        pay), not the model's: a whole model has a valid answer before the first reply is in."""
        from engine.agents.expert.opener import opener

        return opener(ctx, origin="hiera:opener")

    def close(self) -> None:
        """Close the HTTP connections (a long-lived process, like the language server, should)."""
        self._client.close()

    # --- pre-flight --------------------------------------------------------------------------------------

    def check_endpoint(self, timeout_s: float = 5.0) -> EndpointCheck:
        """One quick GET /models without retries, so a down endpoint fails in seconds, not after minutes of
        backoff inside round 1. Raises BackendUnavailable with what to set."""
        client = self._client.with_options(max_retries=0, timeout=timeout_s)
        try:
            page = client.models.list()
        except openai.NotFoundError:
            return EndpointCheck(self._url, (), None)  # reachable; this server just has no model list
        except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
            raise BackendUnavailable(self._auth_message(e)) from None
        except openai.APITimeoutError:
            raise BackendUnavailable(
                f"the LLM endpoint {self._url} did not answer within {timeout_s:g} s. Check that the server is "
                f"running and reachable, or point hiera at another one: {WHERE_TO_SET_URL}.") from None
        except openai.APIConnectionError as e:
            cause = type(e.__cause__).__name__ if e.__cause__ else "connection error"
            raise BackendUnavailable(
                f"cannot connect to the LLM endpoint {self._url} ({cause}). Start the server or set the URL "
                f"of a running one: {WHERE_TO_SET_URL}.") from None
        except openai.APIStatusError as e:
            raise BackendUnavailable(
                f"the LLM endpoint {self._url} answered HTTP {e.status_code} to GET /models: "
                f"{self._server_message(e)}. Check the URL ({WHERE_TO_SET_URL}).") from None
        models = tuple(str(getattr(m, "id", "")) for m in (page.data or []))
        listed = (self.config.model in models) if models else None
        check = EndpointCheck(self._url, models, listed)
        if warning := check.warning(self.config.model):
            log.warning(warning)
        return check

    # --- SSDA --------------------------------------------------------------------------------------------

    def select_space(self, ctx: Context) -> SpaceChoice:
        if len(ctx.allowed_spaces) == 1:
            return SpaceChoice(ctx.allowed_spaces[0], "the only space allowed in this run")
        try:
            obj = self._ask_json(space_prompt(ctx))
            rationale = str(obj.get("rationale") or obj.get("reason") or "").strip()
            asked = parse_space(obj.get("space") or obj.get("implementation_space"))
        except _CallFailed as e:
            space = _fallback_space(ctx)
            log.warning("SSDA space: %s; keeping %s", e.reason, space.value)
            return SpaceChoice(space, f"fallback decision ({e.reason}): kept {space.value}")
        if asked in ctx.allowed_spaces:
            return SpaceChoice(asked, rationale)
        space = _nearest_allowed(asked, ctx.allowed_spaces)
        note = f"[hiera: the model chose {asked.value}, which this run does not allow; clamped to {space.value}]"
        log.warning("SSDA space: %s", note)
        return SpaceChoice(space, f"{note} {rationale}".strip())

    def score_directions(self, ctx: Context, space: Space) -> DirectionScores:
        try:
            obj = self._ask_json(directions_prompt(ctx, space))
            return parse_scores(obj)
        except _CallFailed as e:
            log.warning("SSDA directions: %s; scoring all directions equally", e.reason)
            return DirectionScores({d: 0.5 for d in Direction}, {},
                                   f"fallback decision ({e.reason}): all directions scored equally")

    # --- SPA ---------------------------------------------------------------------------------------------

    def plan(self, ctx: Context, space: Space, scores: DirectionScores) -> Strategy:
        if not ctx.planning:
            return Strategy(scores.best(), space, "generic",
                            "No plan (the no-planning ablation): write the fastest correct implementation.")
        valid = valid_entries(ctx, space)
        note = ""
        steps: tuple[str, ...] = ()
        params: dict[str, Any] = {}
        try:
            obj = self._ask_json(plan_prompt(ctx, space, scores))
            asked = str(obj.get("strategy") or obj.get("key") or obj.get("name") or "").strip()
            steps = tuple(str(s) for s in obj.get("steps") or () if str(s).strip())
            params = _params(obj.get("params"))
            chosen = _match_key(asked, valid)
            if chosen is None:
                fallback = _best_valid(scores, valid)
                why = "is not in the knowledge base" if _match_key(asked, list(knowledge.ENTRIES)) is None \
                    else f"is not valid in {space.value} on this device"
                note = (f"[hiera: the model chose {asked or 'no strategy'!r}, which {why}; replaced by "
                        f"{fallback.key}] ")
                chosen, steps = fallback, ()  # the steps were written for the rejected strategy
        except _CallFailed as e:
            chosen = _best_valid(scores, valid)
            note = f"[hiera: fallback decision ({e.reason}): {chosen.key}] "
        if note:
            log.warning("SPA: %s", note.strip())
        return Strategy(chosen.direction, space, chosen.key, note + chosen.description, steps, params)

    # --- OA ----------------------------------------------------------------------------------------------

    def generate(self, ctx: Context, space: Space, strategy: Strategy, k: int) -> list[Candidate | Invalid]:
        if k <= 0:
            return []
        kind = candidate_kind(ctx, strategy if ctx.planning else None)
        langs, entry_point = CODE_FORMAT[kind]

        def one(variant: int) -> Candidate | Invalid:
            cid = self._next_id(ctx)
            prompt = (code_prompt(ctx, space, strategy, variant, k) if ctx.planning
                      else unplanned_code_prompt(ctx, space, variant, k))
            try:
                reply = self._complete(prompt)
            except _CallFailed as e:
                return Invalid(cid, e.reason)
            try:
                source = extract_code(reply.text, langs, entry_point)
            except ReplyError as e:
                reason = str(e)
                if reply.finish_reason == "length" and "cut off" not in reason:
                    reason += f" (the reply hit max_tokens={self.config.max_tokens})"
                self._mark_failed(reply.usage, reason)
                return Invalid(cid, reason, reply.text)
            return Candidate(cid, kind, source, space, origin=f"llm:{self.config.model}", note=strategy.name)

        workers = max(1, min(k, self.config.parallel_requests))
        if workers == 1:
            return [one(i) for i in range(k)]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hiera-oa") as pool:
            return list(pool.map(one, range(k)))

    # --- one call ----------------------------------------------------------------------------------------

    def _next_id(self, ctx: Context) -> str:
        with self._lock:
            n = next(self._ids)
        prefix = f"{self.run_label}-" if self.run_label else ""
        return f"{prefix}r{ctx.round}-llm{n}"

    def _ask_json(self, prompt: Prompt) -> dict[str, Any]:
        reply = self._complete(prompt)
        try:
            return parse_json_object(reply.text)
        except ReplyError as e:
            reason = str(e)
            if reply.finish_reason == "length":
                reason += f" (the reply hit max_tokens={self.config.max_tokens})"
            self._mark_failed(reply.usage, reason)
            raise _CallFailed(reason, reply.text) from None

    def _mark_failed(self, usage: Usage, reason: str) -> None:
        with self._lock:
            usage.ok = False
            usage.error = reason

    def _complete(self, prompt: Prompt) -> _Reply:
        """One chat completion (the client retries transient failures). Records its Usage either way."""
        usage = Usage(role=prompt.role, model=self.config.model)
        t0 = time.perf_counter()
        try:
            resp = self._create(prompt)
        except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
            self._finish(usage, t0, error=f"HTTP {e.status_code}")
            raise BackendUnavailable(self._auth_message(e)) from None
        except openai.NotFoundError as e:
            self._finish(usage, t0, error="HTTP 404")
            raise BackendUnavailable(
                f"the LLM endpoint {self._url} answered 404 for model {self.config.model!r}: "
                f"{self._server_message(e)}. Check the model name (--llm-model, HIERA_LLM_MODEL) and the URL "
                f"({WHERE_TO_SET_URL}).") from None
        except openai.APITimeoutError:
            reason = (f"timed out: no reply from {self._url} within {self.config.timeout_s:g} s, "
                      f"{self.config.max_retries + 1} attempt(s)")
            self._finish(usage, t0, error=reason)
            raise _CallFailed(reason) from None
        except openai.APIConnectionError:
            reason = f"could not connect to {self._url} ({self.config.max_retries + 1} attempt(s))"
            self._finish(usage, t0, error=reason)
            raise _CallFailed(reason) from None
        except openai.APIStatusError as e:
            reason = f"the endpoint answered HTTP {e.status_code}: {self._server_message(e)}"
            self._finish(usage, t0, error=reason)
            raise _CallFailed(reason) from None
        choice = resp.choices[0] if resp.choices else None
        text = (choice.message.content or "") if choice else ""
        tokens = getattr(resp, "usage", None)
        usage.prompt_tokens = int(getattr(tokens, "prompt_tokens", 0) or 0)
        usage.completion_tokens = int(getattr(tokens, "completion_tokens", 0) or 0)
        usage.cost_usd = self.config.cost_usd(usage.prompt_tokens, usage.completion_tokens)
        if not text.strip():
            refusal = getattr(choice.message, "refusal", None) if choice else None
            reason = f"the model refused: {refusal}" if refusal else "the reply was empty"
            self._finish(usage, t0, error=reason)
            raise _CallFailed(reason)
        self._finish(usage, t0)
        return _Reply(text, choice.finish_reason if choice else None, usage)

    def _finish(self, usage: Usage, t0: float, error: str | None = None) -> None:
        usage.seconds = time.perf_counter() - t0
        usage.ok = error is None
        usage.error = error
        with self._lock:
            self._usage.append(usage)
        log.info("%s call %s: %d+%d tokens, %.1f s%s", usage.role, "ok" if usage.ok else "failed",
                 usage.prompt_tokens, usage.completion_tokens, usage.seconds, f" ({error})" if error else "")

    def _create(self, prompt: Prompt) -> Any:
        """chat.completions.create, adapting once per unsupported feature the server rejects with 400/422."""
        for _ in range(len(_FORMAT_LEVELS) + 2):
            kwargs: dict[str, Any] = {self._max_tokens_param: self.config.max_tokens}
            if self._send_temperature:
                kwargs["temperature"] = self.config.temperature
            level = self._format_level if prompt.schema is not None else len(_FORMAT_LEVELS) - 1
            if _FORMAT_LEVELS[level] == "json_schema":
                kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": prompt.schema_name or "reply", "schema": prompt.schema, "strict": True}}
            elif _FORMAT_LEVELS[level] == "json_object":
                kwargs["response_format"] = {"type": "json_object"}
            try:
                return self._client.chat.completions.create(
                    model=self.config.model, messages=prompt.messages(), **kwargs)  # type: ignore[arg-type]
            except (openai.BadRequestError, openai.UnprocessableEntityError) as e:
                msg = self._server_message(e).lower()
                if not self._adapt(msg, kwargs, level):
                    raise
        raise AssertionError("unreachable: every adaptation is taken at most once")

    def _adapt(self, msg: str, kwargs: dict[str, Any], level: int) -> bool:
        """Learn from a 400 what this server does not support; False when there is nothing to change."""
        with self._lock:
            # OpenAI's newer models: "Unsupported parameter: 'max_tokens' ... Use 'max_completion_tokens'".
            # A "max_tokens is too large" error names only max_tokens and is a real error, not this.
            if "max_completion_tokens" in msg and self._max_tokens_param == "max_tokens":
                self._max_tokens_param = "max_completion_tokens"
                log.info("%s rejects max_tokens; using max_completion_tokens", self._url)
                return True
            if "temperature" in msg and self._send_temperature:
                self._send_temperature = False
                log.info("%s rejects temperature; using the model's default", self._url)
                return True
            if "response_format" in kwargs and any(w in msg for w in _FORMAT_WORDS):
                self._format_level = max(self._format_level, level + 1)
                log.info("%s rejects response_format %s; falling back to %s", self._url,
                         _FORMAT_LEVELS[level], _FORMAT_LEVELS[self._format_level])
                return True
        return False

    def _server_message(self, e: openai.APIStatusError) -> str:
        body = e.body
        msg = None
        if isinstance(body, dict):
            err = body.get("error", body)
            msg = err.get("message") if isinstance(err, dict) else err
        text = str(msg if msg else (e.message or type(e).__name__))
        return self._redact(" ".join(text.split()))[:400]

    def _auth_message(self, e: openai.APIStatusError) -> str:
        env = self.config.api_key_env
        state = "is set" if self._key_set else "is not set"
        return (f"the LLM endpoint {self._url} refused the request (HTTP {e.status_code}: "
                f"{self._server_message(e)}). The key is read from the environment variable {env}, which "
                f"{state}: set {env} to a valid key, or name the variable that holds it with "
                f"--llm-api-key-env / HIERA_LLM_API_KEY_ENV.")


# --- reading decisions ----------------------------------------------------------------------------------------

def _redactor(secret: str) -> Callable[[str], str]:
    if len(secret) < 6:  # too short to scrub without mangling ordinary words; also too short to be a key
        return lambda text: text
    return lambda text: text.replace(secret, "[redacted]")


_SPACE_WORDS = (("libraries_pytorch", Space.LIBRARIES_PYTORCH), ("pytorch", Space.LIBRARIES_PYTORCH),
                ("torch", Space.LIBRARIES_PYTORCH), ("cuda_libraries", Space.CUDA_LIBRARIES),
                ("librar", Space.CUDA_LIBRARIES), ("pure_cuda", Space.PURE_CUDA), ("pure", Space.PURE_CUDA))


def parse_space(raw: Any) -> Space:
    """A space from what a model wrote ("pure_cuda", "pure CUDA", "CUDA libraries", ...)."""
    text = "_".join(str(raw or "").lower().replace("-", " ").split())
    if not text:
        raise _CallFailed("the reply names no space")
    try:
        return Space(text)
    except ValueError:
        pass
    for word, space in _SPACE_WORDS:
        if word in text:
            return space
    raise _CallFailed(f"the reply names an unknown space {str(raw)[:60]!r}")


def _nearest_allowed(asked: Space, allowed: tuple[Space, ...]) -> Space:
    # Nearest by rank; on a tie the larger space, which still contains everything that was asked for.
    return min(allowed, key=lambda s: (abs(s.rank - asked.rank), -s.rank))


def _fallback_space(ctx: Context) -> Space:
    if ctx.parent is not None and ctx.parent.space in ctx.allowed_spaces:
        return ctx.parent.space  # type: ignore[return-value]
    return min(ctx.allowed_spaces, key=lambda s: s.rank)


def _score(v: Any) -> float | None:
    if isinstance(v, dict):
        v = v.get("score", v.get("value"))
    if isinstance(v, bool):
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def parse_scores(obj: dict[str, Any]) -> DirectionScores:
    """Direction scores from {"scores": {...}, "evidence": {...}} or a flat {"C": 0.2, ...}; 0-10 and 0-100
    scales are rescaled to 0-1, and evidence may sit next to each score."""
    raw = obj.get("scores") if isinstance(obj.get("scores"), dict) else obj
    by_key = _by_direction(raw, lambda v: _score(v) is not None)
    found = {d: s for d in Direction if (s := _score(by_key.get(d.value))) is not None}
    if not found:
        raise _CallFailed(f"the reply has no direction scores (keys: {', '.join(map(str, list(raw)[:8]))})")
    top = max(found.values())
    scale = 1.0 if top <= 1.0 else 10.0 if top <= 10.0 else 100.0
    scores = {d: min(max(found.get(d, 0.0) / scale, 0.0), 1.0) for d in Direction}
    ev_raw = obj.get("evidence") if isinstance(obj.get("evidence"), dict) else {}
    ev_by_key = _by_direction(ev_raw, lambda v: isinstance(v, (str, list)))
    evidence: dict[Direction, tuple[str, ...]] = {}
    for d in Direction:
        ev = ev_by_key.get(d.value)
        if ev is None and isinstance(by_key.get(d.value), dict):
            ev = by_key[d.value].get("evidence")
        if isinstance(ev, str):
            ev = [ev]
        if ev:
            evidence[d] = tuple(str(x) for x in ev)
    rationale = str(obj.get("rationale") or "").strip()
    missing = [d.value for d in Direction if d not in found]
    if missing:
        rationale = f"[hiera: no score for {', '.join(missing)}; scored 0] {rationale}".strip()
    return DirectionScores(scores, evidence, rationale)


def _by_direction(raw: dict[str, Any], accept: Callable[[Any], bool]) -> dict[str, Any]:
    """Values by direction letter: exact keys ("M") first, then words ("memory" -> M) whose value fits, so a
    neighbouring "rationale" never stands in for R."""
    letters = {d.value for d in Direction}
    out = {str(k).strip().upper(): v for k, v in raw.items() if str(k).strip().upper() in letters}
    for k, v in raw.items():
        letter = str(k).strip()[:1].upper()
        if letter in letters and letter not in out and accept(v):
            out[letter] = v
    return out


def _match_key(asked: str, entries: list[knowledge.Entry]) -> knowledge.Entry | None:
    """The entry a model meant: exact key, case-insensitive key, or the key quoted inside its text."""
    if not asked:
        return None
    for e in entries:
        if e.key == asked:
            return e
    low = asked.lower()
    for e in entries:
        if e.key.lower() == low:
            return e
    quoted = [e for e in entries if e.key.lower() in low]
    return max(quoted, key=lambda e: len(e.key)) if quoted else None


def _best_valid(scores: DirectionScores, valid: list[knowledge.Entry]) -> knowledge.Entry:
    """The first valid strategy of the highest-scored direction that has one."""
    best = scores.best()
    rest = sorted((d for d in Direction if d is not best), key=lambda d: -scores.scores.get(d, 0.0))
    order = [best, *rest]
    for d in order:
        for e in valid:
            if e.direction is d:
                return e
    # The knowledge base always has entries valid in pure_cuda on the CPU (C/P/M/R/T); an empty list means
    # a broken knowledge base, which is a bug to surface, not to paper over.
    raise RuntimeError("no knowledge-base strategy is valid here; engine/agents/knowledge.py is broken")


def _params(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return {str(k): v for k, v in raw.items()}
    out: dict[str, Any] = {}
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict) and "name" in item:
                out[str(item["name"])] = item.get("value")
    return out
