"""The `hiera` settings section (docs/protocol.md §3), typed and validated.

Clients send it through `workspace/configuration` (VS Code, Neovim's `settings`) or, for clients without
that request, as `initializationOptions`. A wrong value never stops the server: it is reported once in
plain words and the default is used instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from hiera_ls.wording import GPU_SPACE_TITLES

SPACES = ("pure_cuda", "cuda_libraries", "libraries_pytorch")
SPACE_TITLES = GPU_SPACE_TITLES  # device-aware titles: hiera_ls.wording.space_title

Backend = Literal["expert", "llm"]
Precision = Literal["fp32", "tf32"]

_DEVICE = re.compile(r"^(auto|cpu|cuda(:\d+)?)$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class LlmSettings:
    base_url: str = ""
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"


@dataclass(frozen=True)
class Settings:
    backend: Backend = "expert"
    rounds: int = 3
    candidates: int = 6
    space: str = "auto"
    precision: Precision = "fp32"
    device: str = "auto"
    ncu_path: str = ""
    # Limits and isolation of candidate runs; None / True: the engine's own defaults (no flag is passed).
    timeout_s: float | None = None
    build_timeout_s: float | None = None
    sandbox: bool = True  # False is an explicit opt-out: candidates then run without the engine's sandbox
    llm: LlmSettings = field(default_factory=LlmSettings)


# camelCase key in the client's settings -> (field, check, what a valid value is)
_Check = tuple[str, Any, str]


def _int_in(lo: int, hi: int) -> Any:
    # bool is an int subclass in Python: `true` must not pass as 1 round.
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _one_of(*allowed: str) -> Any:
    return lambda v: v in allowed


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _seconds(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 7 * 86400


_TOP: dict[str, _Check] = {
    "backend": ("backend", _one_of("expert", "llm"), '"expert" (offline, built in) or "llm" (a model endpoint)'),
    "rounds": ("rounds", _int_in(1, 50), "a whole number from 1 to 50"),
    "candidates": ("candidates", _int_in(1, 64), "a whole number from 1 to 64"),
    "space": ("space", _one_of("auto", *SPACES), '"auto", ' + ", ".join(f'"{s}"' for s in SPACES)),
    "precision": ("precision", _one_of("fp32", "tf32"), '"fp32" or "tf32"'),
    "device": ("device", lambda v: isinstance(v, str) and bool(_DEVICE.match(v)),
               '"auto", "cpu", "cuda" or "cuda:N"'),
    "ncuPath": ("ncu_path", _is_str, "the path of the ncu executable (or its folder), or empty"),
    "timeout": ("timeout_s", _seconds, "seconds, more than 0 (or null for the engine's default)"),
    "buildTimeout": ("build_timeout_s", _seconds, "seconds, more than 0 (or null for the engine's default)"),
    "sandbox": ("sandbox", lambda v: isinstance(v, bool), "true (default) or false"),
}
_CAMEL = {name: key for key, (name, _, _) in _TOP.items()}
_LLM: dict[str, _Check] = {
    "baseUrl": ("base_url", _is_str, "an OpenAI-compatible endpoint URL, or empty"),
    "model": ("model", _is_str, "a model name, or empty"),
    "apiKeyEnv": ("api_key_env", lambda v: isinstance(v, str) and bool(_ENV_NAME.match(v)),
                  "the name of an environment variable, e.g. OPENAI_API_KEY"),
}


def _flatten(raw: dict[str, Any]) -> dict[str, Any]:
    """Accept both VS Code's nested form ({"llm": {"baseUrl": ..}}) and dotted keys ("llm.baseUrl")."""
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k == "llm" and isinstance(v, dict):
            for k2, v2 in v.items():
                out[f"llm.{k2}"] = v2
        else:
            out[k] = v
    return out


def parse_settings(raw: Any) -> tuple[Settings, list[str]]:
    """Settings from a client's `hiera` section, and one message per invalid value (its default is used)."""
    if raw is None:
        return Settings(), []
    if not isinstance(raw, dict):
        return Settings(), [f"hiera: the `hiera` settings section should be an object, got {type(raw).__name__}; "
                            "using the defaults"]
    if isinstance(raw.get("hiera"), dict) and not (raw.keys() & (_TOP.keys() | {"llm"})):
        raw = raw["hiera"]  # initializationOptions may wrap the section in its name
    flat = _flatten(raw)
    defaults, llm_defaults = Settings(), LlmSettings()
    top: dict[str, Any] = {}
    llm: dict[str, Any] = {}
    errors: list[str] = []
    for key, value in flat.items():
        if value is None or (key in ("timeout", "buildTimeout") and value == 0):
            continue  # an unset key in VS Code's view of the section (0: no limit of the editor's own)
        if key in _TOP:
            name, ok, valid = _TOP[key]
            target, default = top, getattr(defaults, name)
        elif key.startswith("llm.") and key[4:] in _LLM:
            name, ok, valid = _LLM[key[4:]]
            target, default = llm, getattr(llm_defaults, name)
        else:
            continue  # client-side keys (interpreter, trace.server) and future ones are not ours to judge
        if ok(value):
            target[name] = value
        else:
            errors.append(f"hiera: invalid setting hiera.{key} = {value!r} (expected {valid}); using {default!r}")
    settings = replace(defaults, **top, llm=replace(llm_defaults, **llm))
    return settings, errors


def settings_json(s: Settings) -> dict[str, Any]:
    """The camelCase form, for logs and `hiera/modules`."""
    d: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name == "llm":
            d["llm"] = {"baseUrl": s.llm.base_url, "model": s.llm.model, "apiKeyEnv": s.llm.api_key_env}
        else:
            d[_CAMEL.get(f.name, f.name)] = getattr(s, f.name)
    return d
