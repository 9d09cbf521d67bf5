"""One settings schema (contracts/settings_schema.py) and its copies: the extension's manifest
(editors/vscode/package.json) and the extension's DEFAULTS and LIMITS (editors/vscode/src/settingsTable.ts), both
generated from it at build time,
the server's Settings (hiera_ls/settings.py), the CLI's --rounds/--candidates/--budget/--timeout and
docs/protocol.md. Each comparison is a function that lists the mismatches, shown to find one on a mutated copy.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from contracts.device import CPU
from contracts.settings_schema import BUDGET, BY_KEY, CANDIDATES, ROUNDS, SECONDS_MAX, SETTINGS, package_json_properties
from hiera_ls.settings import FIELDS, LlmSettings, Settings, parse_settings

REPO = Path(__file__).resolve().parent.parent
PACKAGE_JSON = REPO / "editors" / "vscode" / "package.json"
SETTINGS_TS = REPO / "editors" / "vscode" / "src" / "settingsTable.ts"


def manifest_properties(manifest: dict[str, Any]) -> dict[str, Any]:
    return manifest["contributes"]["configuration"]["properties"]


def manifest_mismatches(properties: dict[str, Any]) -> list[str]:
    """Where package.json's settings differ from the schema: names, then each property field by field."""
    want = package_json_properties()
    out = [f"{n}: in the schema, not in package.json" for n in sorted(want.keys() - properties.keys())]
    out += [f"{n}: in package.json, not in the schema" for n in sorted(properties.keys() - want.keys())]
    for name in sorted(want.keys() & properties.keys()):
        for key in sorted(want[name].keys() | properties[name].keys()):
            if want[name].get(key) != properties[name].get(key):
                out.append(f"{name}.{key}: package.json has {properties[name].get(key)!r}, the schema "
                           f"{want[name].get(key)!r}")
    return out


def ts_object(text: str, name: str) -> dict[str, Any]:
    """`export const NAME ... = Object.freeze({ ... });` of settings.ts, read as JSON (single quotes, bare keys,
    trailing commas and comments allowed)."""
    m = re.search(rf"export const {name}\b[^=]*= Object\.freeze\((\{{.*?\n\}})\);", text, re.S)
    assert m, f"settings.ts has no `export const {name} = Object.freeze({{...}});`"
    body = re.sub(r"//[^\n]*", "", m.group(1))
    body = re.sub(r"'((?:[^'\\]|\\.)*)'", lambda s: json.dumps(s.group(1)), body)
    body = re.sub(r"([{,]\s*)([A-Za-z_]\w*)\s*:", r'\1"\2":', body)
    body = re.sub(r",(\s*[}\]])", r"\1", body)
    return json.loads(body)


def ts_mismatches(text: str) -> list[str]:
    """Where settings.ts's DEFAULTS and LIMITS differ from the schema (names, defaults, minimum and maximum)."""
    defaults, limits = ts_object(text, "DEFAULTS"), ts_object(text, "LIMITS")
    want = {s.key: s for s in SETTINGS}
    out = [f"DEFAULTS lacks {k}" for k in sorted(want.keys() - defaults.keys())]
    out += [f"DEFAULTS has {k}, the schema does not" for k in sorted(defaults.keys() - want.keys())]
    for key in sorted(want.keys() & defaults.keys()):
        default = list(want[key].default) if isinstance(want[key].default, tuple) else want[key].default
        if defaults[key] != default:
            out.append(f"DEFAULTS.{key} is {defaults[key]!r}, the schema's default {default!r}")
    bounded = {s.key: {"minimum": s.minimum, "maximum": s.maximum} for s in SETTINGS
               if s.minimum is not None or s.maximum is not None}
    if limits != bounded:
        out.append(f"LIMITS is {limits}, the schema's {bounded}")
    return out


def test_package_json_declares_the_schema_s_settings_exactly():
    properties = manifest_properties(json.loads(PACKAGE_JSON.read_text()))
    assert manifest_mismatches(properties) == [], "regenerate with `python -m contracts.settings_schema`"
    assert properties["hiera.budget"]["type"] == ["integer", "null"] and properties["hiera.rounds"]["maximum"] == 50


@pytest.mark.parametrize("mutate, found", [
    (lambda p: p["hiera.rounds"].update(maximum=60), "hiera.rounds.maximum"),
    (lambda p: p["hiera.candidates"].update(default=8), "hiera.candidates.default"),
    (lambda p: p["hiera.timeout"].pop("maximum"), "hiera.timeout.maximum"),
    (lambda p: p.pop("hiera.budget"), "hiera.budget: in the schema"),
    (lambda p: p.update({"hiera.extra": {"type": "string"}}), "hiera.extra: in package.json"),
    (lambda p: p["hiera.backend"]["enum"].append("gpt"), "hiera.backend.enum"),
])
def test_the_manifest_check_finds_a_mutated_copy(mutate, found):
    properties = copy.deepcopy(manifest_properties(json.loads(PACKAGE_JSON.read_text())))
    mutate(properties)
    assert any(found in m for m in manifest_mismatches(properties)), manifest_mismatches(properties)


def test_settings_ts_has_the_schema_s_names_defaults_and_limits():
    assert ts_mismatches(SETTINGS_TS.read_text()) == []


def test_the_committed_copies_are_what_the_schema_generates_and_a_stale_one_is_named_and_rewritten(tmp_path: Path):
    import subprocess
    import sys

    from contracts import settings_schema

    for path, text in settings_schema.generated(REPO).items():
        assert path.read_text() == text, f"{path.name} is stale: run `python3 -m contracts.settings_schema --write`"
    # a copy of the repository's generated files, one of them stale: --check names it, --write makes it current
    root = tmp_path / "repo"
    (root / "contracts").mkdir(parents=True)
    for name in ("__init__.py", "settings_schema.py", "vocabulary.py"):
        (root / "contracts" / name).write_text((REPO / "contracts" / name).read_text())
    for rel in (settings_schema.PACKAGE_JSON, settings_schema.SETTINGS_TABLE_TS):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text((REPO / rel).read_text())
    table = root / settings_schema.SETTINGS_TABLE_TS
    table.write_text(table.read_text().replace("rounds: 3,", "rounds: 4,"))

    def run(flag: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "contracts.settings_schema", flag], cwd=root, text=True,
                              capture_output=True, env={"PATH": "/usr/bin:/bin"})

    checked = run("--check")
    assert checked.returncode == 1 and "settingsTable.ts is not what" in checked.stderr, checked.stderr
    assert "package.json" not in checked.stderr
    assert run("--write").returncode == 0 and "rounds: 3," in table.read_text()
    assert run("--check").returncode == 0


@pytest.mark.parametrize("old, new, found", [
    ("rounds: { minimum: 1, maximum: 50 }", "rounds: { minimum: 1, maximum: 40 }", "LIMITS"),
    ("budget: { minimum: 1, maximum: 3200 },", "", "LIMITS"),
    ("  candidates: 6,\n", "  candidates: 8,\n", "DEFAULTS.candidates is 8"),
    ("  budget: null,\n", "", "DEFAULTS lacks budget"),
    ("  'llm.apiKeyEnv': 'OPENAI_API_KEY',\n", "  'llm.apiKeyEnv': 'API_KEY',\n", "DEFAULTS.llm.apiKeyEnv"),
])
def test_the_settings_ts_check_finds_a_mutated_copy(old, new, found):
    text = SETTINGS_TS.read_text()
    assert text.count(old) == 1, old
    got = ts_mismatches(text.replace(old, new))
    assert any(found in m for m in got), got


def test_the_server_reads_every_setting_of_the_schema_but_the_editor_s_own_with_its_default():
    server = {s.key for s in SETTINGS if not s.client_only}
    assert set(FIELDS) == server
    defaults, llm = Settings(), LlmSettings()
    for key, name in FIELDS.items():
        got = getattr(llm if key.startswith("llm.") else defaults, name)
        assert got == BY_KEY[key].default, key
    assert {f.name for f in fields(Settings)} - {"llm"} == {n for k, n in FIELDS.items() if not k.startswith("llm.")}


@pytest.mark.parametrize("key, low, high", [("rounds", *ROUNDS), ("candidates", *CANDIDATES), ("budget", *BUDGET)])
def test_the_server_and_the_cli_take_the_same_whole_numbers(key, low, high):
    from engine.cli import build_parser

    for value, ok in ((low - 1, False), (low, True), (high, True), (high + 1, False)):
        assert (parse_settings({key: value})[1] == []) is ok, (key, value)
        for command in ("optimize", "bench", "study"):
            action = _option(build_parser(), command, f"--{key}")
            if action is None:
                continue  # study has no --rounds (its cells are sized by --budget)
            try:
                action.type(str(value))
                accepted = True
            except argparse.ArgumentTypeError:
                accepted = False
            assert accepted is ok, (command, key, value)


def test_the_server_and_the_cli_take_the_same_seconds():
    from engine.cli import build_parser

    for value, ok in ((-1, False), (0.5, True), (SECONDS_MAX, True), (SECONDS_MAX + 1, False)):
        for key in ("timeout", "buildTimeout"):
            assert (parse_settings({key: value})[1] == []) is ok, (key, value)
        for flag in ("--timeout", "--build-timeout"):
            try:
                _option(build_parser(), "optimize", flag).type(str(value))
                accepted = True
            except argparse.ArgumentTypeError:
                accepted = False
            assert accepted is ok, (flag, value)
    assert parse_settings({"timeout": 0})[0].timeout_s is None  # 0: unset, as in the editor


def test_a_budget_setting_becomes_the_engine_s_budget_and_decides_the_rounds():
    from hiera_ls.engine_command import optimize_argv

    plain = optimize_argv(Settings(), Path("/w/t.py"), Path("/w"), None, None, CPU)
    assert plain[plain.index("--rounds") + 1] == "3" and "--budget" not in plain
    s, errors = parse_settings({"budget": 8, "rounds": 5, "candidates": 4})
    assert errors == [] and s.budget == 8
    argv = optimize_argv(s, Path("/w/t.py"), Path("/w"), None, None, CPU)
    assert argv[argv.index("--budget") + 1] == "8" and argv[argv.index("--candidates") + 1] == "4"
    assert "--rounds" not in argv  # the engine refuses a --rounds that disagrees with --budget
    assert parse_settings({"budget": 0})[1] and parse_settings({"budget": None}) == (Settings(), [])


def test_the_protocol_document_names_every_server_setting():
    doc = (REPO / "docs" / "protocol.md").read_text()
    line = next(p for p in doc.split("\n\n") if p.startswith("Settings (`workspace/configuration`"))
    missing = [k for k in FIELDS if f"`{k}`" not in line]
    assert missing == [], missing


def _option(parser: argparse.ArgumentParser, command: str, flag: str) -> argparse.Action | None:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return next((a for a in sub._actions if flag in a.option_strings), None)
