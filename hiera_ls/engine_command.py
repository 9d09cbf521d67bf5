"""The engine's command lines: which program runs `hiera optimize` / `hiera profile`, with which flags, from the
settings.

Flags a user did not set are left out, so the engine's own configuration (hiera.toml, HIERA_LLM_* variables, its
default limits) decides them, and an engine without a newer flag keeps working.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from contracts.device import Device
from hiera_ls.settings import Settings


def engine_command() -> list[str]:
    """The engine's argv prefix: HIERA_ENGINE_CMD (a JSON list) or this interpreter's `-m engine.cli`."""
    raw = os.environ.get("HIERA_ENGINE_CMD")
    if raw:
        try:
            cmd = json.loads(raw)
        except ValueError as e:
            raise ValueError(f"HIERA_ENGINE_CMD is not a JSON list of strings: {e}") from e
        if not (isinstance(cmd, list) and cmd and all(isinstance(x, str) for x in cmd)):
            raise ValueError('HIERA_ENGINE_CMD must be a JSON list of strings, e.g. ["python", "-m", "engine.cli"]')
        return cmd
    return [sys.executable, "-m", "engine.cli"]


def engine_python() -> str:
    """The interpreter the engine runs under (where torch must see the GPU)."""
    cmd = engine_command()
    return cmd[0] if "python" in Path(cmd[0]).name else sys.executable


def engine_env(root: Path) -> dict[str, str]:
    # COLUMNS: rich would wrap the engine's log at 80 columns when it is not a terminal
    return dict(os.environ, PYTHONUNBUFFERED="1", HIERA_WORKSPACE=str(root), COLUMNS="160")


def _tool_flags(s: Settings, llm: bool) -> list[str]:
    """Flags only for values the user set: an explicit flag would override the engine's own configuration
    (HIERA_LLM_* variables, hiera.toml), which is where unset editor settings should fall through to."""
    argv = ["--ncu", s.ncu_path] if s.ncu_path else []
    if llm:
        if s.llm.base_url:
            argv += ["--llm-base-url", s.llm.base_url]
        if s.llm.model:
            argv += ["--llm-model", s.llm.model]
        if s.llm.api_key_env != "OPENAI_API_KEY":
            argv += ["--llm-api-key-env", s.llm.api_key_env]  # the name of the variable, never the key
    return argv


def optimize_argv(settings: Settings, task: Path, root: Path, space: str | None, results_dir: Path | None,
                  device: Device) -> list[str]:
    s = settings
    argv = [*engine_command(), "optimize", str(task), "--events", "jsonl", "--workspace", str(root),
            "--backend", s.backend, *_shape_flags(s),
            "--space", space or s.space, "--precision", s.precision, "--device", str(device),
            *_tool_flags(s, True)]
    if results_dir is not None:
        argv += ["--results-dir", str(results_dir)]
    return argv + _run_limit_flags(s)


def _shape_flags(s: Settings) -> list[str]:
    """--rounds R --candidates K, or with a budget --budget N --candidates K: the budget decides the rounds (the
    engine refuses a --rounds that disagrees with it)."""
    if s.budget is not None:
        return ["--budget", str(s.budget), "--candidates", str(s.candidates)]
    return ["--rounds", str(s.rounds), "--candidates", str(s.candidates)]


def _run_limit_flags(s: Settings) -> list[str]:
    """--timeout, --build-timeout and --no-sandbox only when set: an engine without them keeps working."""
    argv: list[str] = []
    if s.timeout_s is not None:
        argv += ["--timeout", f"{s.timeout_s:g}"]
    if s.build_timeout_s is not None:
        argv += ["--build-timeout", f"{s.build_timeout_s:g}"]
    if not s.sandbox:
        argv.append("--no-sandbox")
    if s.deadline_s is not None:
        argv += ["--deadline", f"{s.deadline_s:g}"]
    return argv


def profile_argv(settings: Settings, task: Path, root: Path, candidate: Path | None, device: Device) -> list[str]:
    argv = [*engine_command(), "profile", str(task)]
    if candidate is not None:
        argv.append(str(candidate))
    return [*argv, "--json", "--workspace", str(root), "--device", str(device),
            *_tool_flags(settings, False)]
