"""LLM configuration: flags > environment > hiera.toml > defaults, and errors that say what to set."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.llm_config import ConfigError, LLMConfig, add_llm_arguments, load_llm_config, overrides_from_args


def write_toml(ws: Path, body: str) -> None:
    (ws / "hiera.toml").write_text(body)


def test_defaults_fill_what_nobody_sets(tmp_path: Path) -> None:
    cfg = load_llm_config(tmp_path, {}, environ={"HIERA_LLM_MODEL": "m"})
    assert cfg == LLMConfig(base_url="https://api.openai.com/v1", model="m")
    assert (cfg.api_key_env, cfg.temperature, cfg.max_tokens, cfg.timeout_s, cfg.max_retries) == (
        "OPENAI_API_KEY", 0.3, 8192, 120.0, 4)
    assert cfg.price_prompt_per_mtok is None and cfg.cost_usd(1000, 1000) is None


def test_flags_beat_environment_beat_file(tmp_path: Path) -> None:
    write_toml(tmp_path, '[llm]\nmodel = "from-file"\nbase_url = "http://file:1/v1"\ntemperature = 0.7\n'
                         'max_tokens = 1000\n')
    env = {"HIERA_LLM_MODEL": "from-env", "HIERA_LLM_TEMPERATURE": "0.5"}
    cfg = load_llm_config(tmp_path, {"model": "from-flag", "temperature": None}, environ=env)
    assert cfg.model == "from-flag"  # flag over env and file
    assert cfg.temperature == 0.5  # None means "flag not given": env over file
    assert cfg.base_url == "http://file:1/v1"  # only the file sets it
    assert cfg.max_tokens == 1000
    cfg = load_llm_config(tmp_path, {}, environ={})
    assert (cfg.model, cfg.temperature) == ("from-file", 0.7)


def test_real_environment_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIERA_LLM_MODEL", "env-model")
    monkeypatch.setenv("HIERA_LLM_TIMEOUT", "7.5")
    monkeypatch.setenv("HIERA_LLM_PRICE_PROMPT", "2")
    monkeypatch.setenv("HIERA_LLM_PRICE_COMPLETION", "8")
    monkeypatch.setenv("HIERA_LLM_API_KEY_ENV", "MY_KEY_VAR")
    cfg = load_llm_config(tmp_path, {})
    assert (cfg.model, cfg.timeout_s, cfg.api_key_env) == ("env-model", 7.5, "MY_KEY_VAR")
    assert cfg.cost_usd(1_000_000, 500_000) == pytest.approx(2 + 4)


def test_cli_flags_parse_into_overrides(tmp_path: Path) -> None:
    ap = argparse.ArgumentParser()
    add_llm_arguments(ap)
    args = ap.parse_args(["--llm-model", "cli", "--llm-temperature", "0.1", "--llm-base-url", "http://h:9/v1/"])
    cfg = load_llm_config(tmp_path, overrides_from_args(args), environ={"HIERA_LLM_MAX_TOKENS": "2048"})
    assert (cfg.model, cfg.temperature, cfg.base_url, cfg.max_tokens) == ("cli", 0.1, "http://h:9/v1", 2048)


def test_bad_environment_value_names_the_variable_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as ei:
        load_llm_config(tmp_path, {}, environ={"HIERA_LLM_MODEL": "m", "HIERA_LLM_TEMPERATURE": "hot"})
    msg = str(ei.value)
    assert "HIERA_LLM_TEMPERATURE (environment)='hot'" in msg
    assert "0 to 2" in msg and "--llm-temperature" in msg


def test_bad_file_value_names_the_file(tmp_path: Path) -> None:
    write_toml(tmp_path, '[llm]\nmodel = "m"\nmax_retries = -1\n')
    with pytest.raises(ConfigError, match=r"\[llm\] max_retries in .*hiera\.toml.*0 to 100"):
        load_llm_config(tmp_path, {}, environ={})


def test_bad_flag_value_names_the_flag(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--llm-base-url='localhost:8000'.*http\(s\) URL"):
        load_llm_config(tmp_path, {"base_url": "localhost:8000", "model": "m"}, environ={})


def test_unreadable_toml_is_a_config_error(tmp_path: Path) -> None:
    write_toml(tmp_path, "[llm\nmodel = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_llm_config(tmp_path, {}, environ={})


def test_unknown_file_setting_is_refused(tmp_path: Path) -> None:
    write_toml(tmp_path, '[llm]\nmodel = "m"\ntemprature = 0.2\n')
    with pytest.raises(ConfigError, match="unknown setting \\[llm\\] temprature"):
        load_llm_config(tmp_path, {}, environ={})


def test_missing_model_says_where_to_set_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as ei:
        load_llm_config(tmp_path, {}, environ={})
    assert all(s in str(ei.value) for s in ("--llm-model", "HIERA_LLM_MODEL", "hiera.toml"))


def test_key_in_config_file_is_refused_without_echoing_it(tmp_path: Path) -> None:
    secret = "sk-hiera-CANARY-in-file-0123456789"
    write_toml(tmp_path, f'[llm]\nmodel = "m"\napi_key = "{secret}"\n')
    with pytest.raises(ConfigError) as ei:
        load_llm_config(tmp_path, {}, environ={})
    assert "never keep an API key in a file" in str(ei.value)
    assert secret not in str(ei.value)


def test_key_pasted_as_env_name_is_refused_without_echoing_it(tmp_path: Path) -> None:
    secret = "sk-proj-CANARY-pasted-by-mistake"
    with pytest.raises(ConfigError) as ei:
        load_llm_config(tmp_path, {}, environ={"HIERA_LLM_MODEL": "m", "HIERA_LLM_API_KEY_ENV": secret})
    assert "NAME of the environment variable" in str(ei.value)
    assert secret not in str(ei.value)
