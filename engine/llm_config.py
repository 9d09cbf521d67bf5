"""LLM configuration: which OpenAI-compatible endpoint and model, and how to call it.

Resolution order, first that sets a value wins: command-line flags > environment (HIERA_LLM_*) >
`hiera.toml` in the workspace root (table [llm]) > defaults.

The API key is never part of the configuration: only the NAME of the environment variable that holds it
(`api_key_env`). Keys in files end up in commits and in support logs; an env var name is harmless. For the
same reason a `hiera.toml` that holds a key is refused, and no error message here ever echoes a value that
might be a key.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 ships without tomllib
    import tomli as tomllib

CONFIG_FILE = "hiera.toml"
DEFAULT_BASE_URL = "https://api.openai.com/v1"


class ConfigError(ValueError):
    """An LLM setting that cannot be used; the message names the source and what to set."""


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"  # the NAME of the variable; the key itself is never stored
    temperature: float = 0.3
    max_tokens: int = 8192
    timeout_s: float = 120.0
    max_retries: int = 4
    price_prompt_per_mtok: float | None = None  # USD per million prompt tokens
    price_completion_per_mtok: float | None = None  # USD per million completion tokens
    parallel_requests: int = 4  # OA calls in flight at once (K candidates per round)

    def cost_usd(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        """What a call cost, when both prices are configured (a half-priced total would mislead)."""
        if self.price_prompt_per_mtok is None or self.price_completion_per_mtok is None:
            return None
        return (prompt_tokens * self.price_prompt_per_mtok
                + completion_tokens * self.price_completion_per_mtok) / 1e6


# --- where each setting comes from ----------------------------------------------------------------------

@dataclass(frozen=True)
class _Setting:
    field: str
    env: str
    flag: str
    parse: Callable[[Any], Any]
    rule: str  # what a valid value looks like, for error messages
    example: str
    secret_like: bool = False  # never echo the value (someone may have pasted a key here)


def _text(v: Any) -> str:
    s = str(v).strip()
    if not s:
        raise ValueError
    return s


def _url(v: Any) -> str:
    s = _text(v).rstrip("/")
    if not re.match(r"^https?://[^\s/]+", s):
        raise ValueError
    return s


def _env_name(v: Any) -> str:
    s = _text(v)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s):
        raise ValueError
    return s


def _number(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[Any], float]:
    def parse(v: Any) -> float:
        if isinstance(v, bool):
            raise ValueError
        x = float(v)
        if not math.isfinite(x) or x < lo or x > hi or (lo_open and x == lo):
            raise ValueError
        return x
    return parse


def _integer(lo: int, hi: int) -> Callable[[Any], int]:
    def parse(v: Any) -> int:
        if isinstance(v, bool):
            raise ValueError
        if isinstance(v, float):
            if not v.is_integer():
                raise ValueError
            v = int(v)
        x = int(str(v).strip()) if isinstance(v, str) else int(v)
        if x < lo or x > hi:
            raise ValueError
        return x
    return parse


SETTINGS: tuple[_Setting, ...] = (
    _Setting("base_url", "HIERA_LLM_BASE_URL", "--llm-base-url", _url,
             "an http(s) URL of an OpenAI-compatible API", "http://localhost:8000/v1"),
    _Setting("model", "HIERA_LLM_MODEL", "--llm-model", _text, "a model name the endpoint serves", "gpt-4o"),
    _Setting("api_key_env", "HIERA_LLM_API_KEY_ENV", "--llm-api-key-env", _env_name,
             "the NAME of the environment variable holding the key (not the key itself)", "OPENAI_API_KEY",
             secret_like=True),
    _Setting("temperature", "HIERA_LLM_TEMPERATURE", "--llm-temperature", _number(0.0, 2.0),
             "a number from 0 to 2", "0.3"),
    _Setting("max_tokens", "HIERA_LLM_MAX_TOKENS", "--llm-max-tokens", _integer(1, 10_000_000),
             "a positive whole number of tokens", "8192"),
    _Setting("timeout_s", "HIERA_LLM_TIMEOUT", "--llm-timeout", _number(0.0, 86_400.0, lo_open=True),
             "seconds per request, more than 0", "120"),
    _Setting("max_retries", "HIERA_LLM_MAX_RETRIES", "--llm-max-retries", _integer(0, 100),
             "a whole number from 0 to 100", "4"),
    _Setting("price_prompt_per_mtok", "HIERA_LLM_PRICE_PROMPT", "--llm-price-prompt", _number(0.0, 1e6),
             "USD per million prompt tokens, 0 or more", "2.5"),
    _Setting("price_completion_per_mtok", "HIERA_LLM_PRICE_COMPLETION", "--llm-price-completion",
             _number(0.0, 1e6), "USD per million completion tokens, 0 or more", "10"),
    _Setting("parallel_requests", "HIERA_LLM_PARALLEL", "--llm-parallel", _integer(1, 64),
             "a whole number from 1 to 64", "4"),
)
_BY_FIELD = {s.field: s for s in SETTINGS}
assert set(_BY_FIELD) == {f.name for f in fields(LLMConfig)}, "every LLMConfig field needs a _Setting"

# Keys that must never be in hiera.toml: a key in a file is a leaked key.
_FORBIDDEN_FILE_KEYS = ("api_key", "key", "apikey", "token", "secret")


def _parse(s: _Setting, raw: Any, source: str) -> Any:
    try:
        return s.parse(raw)
    except (ValueError, TypeError, OverflowError):
        shown = "" if s.secret_like else f"={raw!r}"
        raise ConfigError(
            f"invalid LLM setting {source}{shown}: {s.field} must be {s.rule}. "
            f"Set it with {s.flag}, {s.env} or `{s.field} = ...` under [llm] in {CONFIG_FILE} "
            f"(for example {s.example})."
        ) from None


def read_config_file(workspace: Path) -> dict[str, Any]:
    """The [llm] table of <workspace>/hiera.toml ({} when the file or the table is absent)."""
    path = workspace / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid TOML ({e}); fix the file or remove it") from None
    table = data.get("llm", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `llm` must be a table ([llm]), not a {type(table).__name__}")
    for k in table:
        if k.lower() in _FORBIDDEN_FILE_KEYS:
            raise ConfigError(
                f"{path}: [llm] {k} is not allowed: never keep an API key in a file. Remove it, put the key "
                f"in an environment variable and name that variable with api_key_env (default OPENAI_API_KEY)."
            )
        if k not in _BY_FIELD:
            known = ", ".join(_BY_FIELD)
            raise ConfigError(f"{path}: unknown setting [llm] {k}; known settings: {known}")
    return table


def load_llm_config(workspace: Path, overrides: Mapping[str, Any] | None = None,
                    environ: Mapping[str, str] | None = None) -> LLMConfig:
    """Resolve the LLM configuration: overrides (CLI flags) > environment > hiera.toml > defaults.

    `overrides` maps LLMConfig field names to values; None means "not given" (argparse's default).
    Raises ConfigError naming the source of a bad value and what to set.
    """
    env = os.environ if environ is None else environ
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(_BY_FIELD)
    if unknown:
        raise ConfigError(f"unknown LLM override(s): {', '.join(sorted(unknown))}")
    file_values = read_config_file(workspace)
    file_path = workspace / CONFIG_FILE
    values: dict[str, Any] = {}
    for s in SETTINGS:
        if overrides.get(s.field) is not None:
            values[s.field] = _parse(s, overrides[s.field], s.flag)
        elif env.get(s.env, "").strip():
            values[s.field] = _parse(s, env[s.env], f"{s.env} (environment)")
        elif s.field in file_values:
            values[s.field] = _parse(s, file_values[s.field], f"[llm] {s.field} in {file_path}")
    values.setdefault("base_url", DEFAULT_BASE_URL)
    if "model" not in values:
        m = _BY_FIELD["model"]
        raise ConfigError(
            f"no LLM model configured for {values['base_url']}: set {m.flag}, {m.env}, "
            f"`model = \"...\"` under [llm] in {file_path}, or hiera.llm.model in the editor"
        )
    return LLMConfig(**values)


# --- CLI wiring -------------------------------------------------------------------------------------------

def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """The --llm-* flags (all default to None, so unset flags fall through to env/file/defaults)."""
    group = parser.add_argument_group("LLM backend (flags > HIERA_LLM_* env > hiera.toml [llm] > defaults)")
    defaults = {f.name: f.default for f in fields(LLMConfig)} | {"base_url": DEFAULT_BASE_URL}
    for s in SETTINGS:
        default = defaults.get(s.field, MISSING)
        shown = "none, set one" if default is MISSING else "none" if default is None else default
        group.add_argument(s.flag, dest=f"llm_{s.field}", default=None, metavar=s.field.upper(),
                           help=f"{s.rule} (env {s.env}; e.g. {s.example}; default: {shown})")


def overrides_from_args(args: argparse.Namespace) -> dict[str, Any]:
    return {s.field: getattr(args, f"llm_{s.field}", None) for s in SETTINGS}
