"""The `hiera` settings section (docs/protocol.md §3), typed and validated.

Clients send it through `workspace/configuration` (VS Code, Neovim's `settings`) or, for clients without
that request, as `initializationOptions`. A wrong value never stops the server: it is reported once in
plain words and the default is used instead. What each setting is (type, default, limits, the words for a
valid value) is contracts/settings_schema.py's, the one table the extension's manifest and the CLI's flags are
held to as well.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from contracts.settings_schema import BY_KEY, SPACES, Setting
from hiera_ls.wording import GPU_SPACE_TITLES

__all__ = ["SPACES", "SPACE_TITLES", "LlmSettings", "Settings", "parse_settings", "settings_json"]

SPACE_TITLES = GPU_SPACE_TITLES  # device-aware titles: hiera_ls.wording.space_title

Backend = Literal["expert", "llm"]
Precision = Literal["auto", "fp32", "tf32", "bf16", "fp16"]


@dataclass(frozen=True)
class LlmSettings:
    base_url: str = ""
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"


@dataclass(frozen=True)
class Settings:
    """The server's settings; their defaults, types and limits are contracts/settings_schema.py's (a test)."""

    backend: Backend = "expert"
    rounds: int = 3
    candidates: int = 6
    budget: int | None = None  # candidates in all (--budget); None: rounds x candidates, and --rounds is passed
    space: str = "auto"
    precision: Precision = "auto"
    device: str = "auto"
    ncu_path: str = ""
    # Limits and isolation of candidate runs; None / True: the engine's own defaults (no flag is passed).
    timeout_s: float | None = None
    build_timeout_s: float | None = None
    sandbox: bool = True  # False is an explicit opt-out: candidates then run without the engine's sandbox
    # An optimize run ends by this many seconds with its best so far (--deadline); None: no deadline.
    deadline_s: float | None = 60.0
    llm: LlmSettings = field(default_factory=LlmSettings)


# camelCase key of the client's section -> the field it sets (in Settings, or under llm. in LlmSettings). Every
# setting of the schema the server reads is here, and nothing else (tests/test_settings_schema.py).
FIELDS: dict[str, str] = {
    "backend": "backend", "rounds": "rounds", "candidates": "candidates", "budget": "budget", "space": "space",
    "precision": "precision", "device": "device", "ncuPath": "ncu_path", "timeout": "timeout_s",
    "buildTimeout": "build_timeout_s", "sandbox": "sandbox", "deadline": "deadline_s",
    "llm.baseUrl": "base_url", "llm.model": "model", "llm.apiKeyEnv": "api_key_env",
}
_CAMEL = {name: key for key, name in FIELDS.items() if not key.startswith("llm.")}
_SERVER: dict[str, Setting] = {key: BY_KEY[key] for key in FIELDS}


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
        return Settings(), [f"HIERA: the `hiera` settings section should be an object, got {type(raw).__name__}; "
                            "using the defaults"]
    if isinstance(raw.get("hiera"), dict) and not (raw.keys() & (_SERVER.keys() | {"llm"})):
        raw = raw["hiera"]  # initializationOptions may wrap the section in its name
    flat = _flatten(raw)
    defaults, llm_defaults = Settings(), LlmSettings()
    top: dict[str, Any] = {}
    llm: dict[str, Any] = {}
    errors: list[str] = []
    for key, value in flat.items():
        setting = _SERVER.get(key)
        if setting is None:
            continue  # client-side keys (interpreter, trace.server) and future ones are not ours to judge
        name = FIELDS[key]
        in_llm = key.startswith("llm.")
        target, default = (llm, getattr(llm_defaults, name)) if in_llm else (top, getattr(defaults, name))
        if setting.is_unset(value):
            if value is None and setting.nullable and default is not None:
                target[name] = None  # null is a value of its own where the default is not (no deadline)
            continue  # an unset key in VS Code's view of the section (0 seconds: no limit of the editor's own)
        if setting.accepts(value):
            target[name] = value
        else:
            errors.append(f"HIERA: invalid setting hiera.{key} = {value!r} (expected {setting.expectation()}); "
                          f"using {default!r}")
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
