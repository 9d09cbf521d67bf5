"""The `hiera` settings, once: each setting's name, type, default, limits and description.

The editor's copies are generated from this table at build time (`python3 -m contracts.settings_schema --write`,
which the extension's `npm run compile` runs first): the manifest's settings (`editors/vscode/package.json`,
`contributes.configuration.properties`) and the extension's DEFAULTS and LIMITS
(`editors/vscode/src/settingsTable.ts`); tests/test_settings_schema.py holds the committed copies to what the
table generates, and docs/protocol.md §3 to the table. The server (hiera_ls/settings.py) validates from this
table, and the CLI's --rounds, --candidates, --budget, --timeout and --build-timeout take their limits from it
(engine/commands/common.py), so a value the editor accepts is one the engine accepts.

Standard library only (tests/test_layers.py): the extension's build runs it with any python3.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.vocabulary import Space

# The limits, by name: the CLI's flags import these.
ROUNDS = (1, 50)
CANDIDATES = (1, 64)
BUDGET = (1, ROUNDS[1] * CANDIDATES[1])  # total candidates of a run: at most the most rounds of the most candidates
SECONDS_MAX = 86_400  # a candidate's run or build: more than 0, at most a day
# A run's deadline (seconds from its start, start-up included): start-up alone takes 5-10 s (engine/deadline.py).
DEADLINE = (10, SECONDS_MAX)

SPACES = tuple(s.value for s in Space)


@dataclass(frozen=True)
class Setting:
    key: str  # the key in the `hiera` section, camelCase, dotted below a group ("llm.baseUrl")
    type: str  # its JSON Schema type: "integer", "number", "string", "boolean" or "array" (of strings)
    default: Any
    description: str
    markdown: bool = False  # the manifest shows the description as markdown (`markdownDescription`)
    minimum: int | float | None = None
    maximum: int | float | None = None
    enum: tuple[str, ...] = ()
    enum_descriptions: tuple[str, ...] = ()
    nullable: bool = False  # null is a value of its own: unset, the engine decides (no flag is passed)
    zero_is_unset: bool = False  # 0 means unset too (VS Code's number box has no empty state)
    client_only: bool = False  # read by the editor alone (which interpreter, LSP tracing); the server ignores it
    pattern: str | None = None  # the server also checks the text against this (the manifest does not)
    expected: str | None = None  # the server's words for a valid value, in its message about a wrong one

    @property
    def name(self) -> str:
        return f"hiera.{self.key}"

    def accepts(self, value: Any) -> bool:
        """Whether a value (not null, not an unset 0) is valid: its type, its enum, its limits, its pattern."""
        if self.type == "boolean":
            return isinstance(value, bool)
        if self.type == "string":
            return (isinstance(value, str) and (not self.enum or value in self.enum)
                    and (self.pattern is None or re.fullmatch(self.pattern, value) is not None))
        if self.type == "array":
            return isinstance(value, list) and all(isinstance(v, str) for v in value)
        # bool is an int subclass in Python: `true` must not pass as 1 round.
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if self.type == "integer" and not isinstance(value, int):
            return False
        if value != value or value in (float("inf"), float("-inf")):
            return False
        low_ok = self.minimum is None or (value > self.minimum if self.zero_is_unset else value >= self.minimum)
        return low_ok and (self.maximum is None or value <= self.maximum)

    def is_unset(self, value: Any) -> bool:
        return value is None or (self.zero_is_unset and value == 0 and not isinstance(value, bool))

    def expectation(self) -> str:
        """'a whole number from 1 to 50': what a valid value is, for the server's message."""
        if self.expected:
            return self.expected
        if self.enum:
            return " or ".join(f'"{v}"' for v in self.enum)
        if self.type == "integer" and self.minimum is not None and self.maximum is not None:
            unset = " (or null for the engine's default)" if self.nullable else ""
            return f"a whole number from {self.minimum:g} to {self.maximum:g}{unset}"
        if self.type == "number" and self.zero_is_unset:
            return f"seconds, more than 0 and at most {self.maximum:g} (or null for the engine's default)"
        words = {"boolean": "true or false", "string": "a string", "array": "a list of strings"}
        return words.get(self.type, self.type)

    def manifest(self) -> dict[str, Any]:
        """The property as package.json's `contributes.configuration` declares it."""
        p: dict[str, Any] = {"type": [self.type, "null"] if self.nullable else self.type}
        if self.type == "array":
            p["items"] = {"type": "string"}
        if self.enum:
            p["enum"] = list(self.enum)
        if self.enum_descriptions:
            p["enumDescriptions"] = list(self.enum_descriptions)
        p["default"] = list(self.default) if isinstance(self.default, tuple) else self.default
        if self.minimum is not None:
            p["minimum"] = self.minimum
        if self.maximum is not None:
            p["maximum"] = self.maximum
        p["scope"] = "window"
        p["markdownDescription" if self.markdown else "description"] = self.description
        return p


SETTINGS: tuple[Setting, ...] = (
    Setting("interpreter", "array", (), markdown=True, client_only=True, description=(
        "Python command that runs `hiera-ls` (as `<python> -m hiera_ls`), e.g. "
        "`[\"${workspaceFolder}/.venv/bin/python\"]`. Extra items are passed as arguments before `-m`. When empty, "
        "the interpreter selected in the Python extension is used, then `python3`.")),
    Setting("backend", "string", "expert", "Who writes candidate kernels.", enum=("expert", "llm"),
            enum_descriptions=("Built-in expert strategies; no model calls.",
                               "An OpenAI-compatible model writes the candidates (see hiera.llm.*)."),
            expected='"expert" (offline, built in) or "llm" (a model endpoint)'),
    Setting("llm.baseUrl", "string", "",
            "Base URL of the OpenAI-compatible API used by the llm backend (empty: the provider's default).",
            expected="an OpenAI-compatible endpoint URL, or empty"),
    Setting("llm.model", "string", "", "Model name used by the llm backend.", expected="a model name, or empty"),
    Setting("llm.apiKeyEnv", "string", "OPENAI_API_KEY", markdown=True, pattern=r"[A-Za-z_][A-Za-z0-9_]*",
            expected="the name of an environment variable, e.g. OPENAI_API_KEY", description=(
                "NAME of the environment variable that holds the API key (never the key itself). The server reads "
                "it from the environment VS Code was started with.")),
    Setting("rounds", "integer", 3, "Optimization rounds per run.", minimum=ROUNDS[0], maximum=ROUNDS[1]),
    Setting("candidates", "integer", 6, "Candidates per round.", minimum=CANDIDATES[0], maximum=CANDIDATES[1]),
    Setting("budget", "integer", None, nullable=True, markdown=True, minimum=BUDGET[0], maximum=BUDGET[1],
            description=(
                "Candidates per run in all (the engine's `--budget`): rounds of `hiera.candidates`, the last round "
                "taking what is left, so any number works. Empty (`null`): `hiera.rounds` × `hiera.candidates`. "
                "When set, it decides the number of rounds and `hiera.rounds` is not used.")),
    Setting("space", "string", "auto", "Implementation space candidates may use.", enum=("auto", *SPACES),
            enum_descriptions=("Let each round's decision choose the space.", "Hand-written CUDA only.",
                               "CUDA plus vendor libraries (cuBLAS, cuDNN, ...).", "Libraries and PyTorch operators."),
            expected='"auto", ' + ", ".join(f'"{s}"' for s in SPACES)),
    Setting("precision", "string", "auto", "Numeric precision candidates are checked against.",
            enum=("auto", "fp32", "tf32", "bf16", "fp16"),
            enum_descriptions=("The module's own: bf16 or fp16 where its tensors are, or its forward runs under "
                               "torch.autocast; else strict fp32.", "Strict fp32 (TF32 off everywhere).",
                               "fp32 data, TF32 allowed for matrix products and convolutions.",
                               "bf16 tolerance (1e-2); accumulation checked on built inputs.",
                               "fp16 tolerance (1e-2); accumulation checked on built inputs.")),
    Setting("device", "string", "auto", markdown=True, pattern=r"auto|cpu|cuda(:\d+)?",
            expected='"auto", "cpu", "cuda" or "cuda:N"', description=(
                "Device to build and time on: `auto` (a CUDA device when the interpreter's PyTorch sees one, else "
                "the CPU), `cpu`, `cuda` or `cuda:N`.")),
    Setting("ncuPath", "string", "", markdown=True, expected="the path of the ncu executable (or its folder), or empty",
            description=("Path to Nsight Compute's `ncu` (empty: look it up on `PATH`; profiling is off when not "
                         "found).")),
    Setting("timeout", "number", None, nullable=True, zero_is_unset=True, minimum=0, maximum=SECONDS_MAX,
            markdown=True, description=(
                "Seconds a candidate may run (its verification and timing) before the engine stops it; passed as "
                "`--timeout`. Empty (`null`): the engine's own limit, and no flag is passed.")),
    Setting("buildTimeout", "number", None, nullable=True, zero_is_unset=True, minimum=0, maximum=SECONDS_MAX,
            markdown=True, description=(
                "Seconds a candidate's build (nvcc / the C++ compiler) may take; passed as `--build-timeout`. "
                "Empty (`null`): the engine's own limit, and no flag is passed.")),
    Setting("deadline", "number", 60, nullable=True, minimum=DEADLINE[0], maximum=SECONDS_MAX, markdown=True,
            expected=f"seconds from {DEADLINE[0]} to {SECONDS_MAX}, or null for no deadline", description=(
                "Seconds an optimize run may take, start-up included (`--deadline`): it plans its rounds, profiles "
                "and re-timings to fit and ends by then with its best so far, saying what it left out. `null`: no "
                "deadline (the run takes its whole budget).")),
    Setting("sandbox", "boolean", True, markdown=True, expected="true (default) or false", description=(
        "Run candidate kernels in the engine's sandbox (default). Turning this off is an explicit opt-out: "
        "candidates — generated code — then run with your user's rights (`--no-sandbox`). Only for machines where "
        "the sandbox cannot work.")),
    Setting("trace.server", "string", "off", "Traces the LSP messages between VS Code and hiera-ls in the HIERA "
            "output channel.", enum=("off", "messages", "verbose"), client_only=True),
)

BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}


def package_json_properties() -> dict[str, dict[str, Any]]:
    """`contributes.configuration.properties` of editors/vscode/package.json, as it must read."""
    return {s.name: s.manifest() for s in SETTINGS}


# The generated files, from the repository's root.
PACKAGE_JSON = Path("editors/vscode/package.json")
SETTINGS_TABLE_TS = Path("editors/vscode/src/settingsTable.ts")


def _ts(value: Any) -> str:
    """A default as TypeScript source in the extension's style (single-quoted strings)."""
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_ts(v) for v in value) + "]"
    return json.dumps(value)


def _ts_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_]\w*", key) else _ts(key)


def settings_table_ts() -> str:
    """editors/vscode/src/settingsTable.ts: every setting's default, and the bounds of the numeric ones."""
    lines = ["// Generated from contracts/settings_schema.py by `python3 -m contracts.settings_schema --write` (the",
             "// extension's `npm run compile` runs it first): do not edit; change the schema.",
             "import type { HieraSettings } from './settingsTypes';", "",
             "export const DEFAULTS: Readonly<HieraSettings> = Object.freeze({"]
    lines += [f"  {_ts_key(st.key)}: {_ts(st.default)}," for st in SETTINGS]
    lines += ["});", "",
              "/** The bounds of the numeric settings, as package.json's minimum/maximum (a seconds value must be more "
              "than 0). */",
              "export const LIMITS = Object.freeze({"]
    lines += [f"  {_ts_key(st.key)}: {{ minimum: {st.minimum:g}, maximum: {st.maximum:g} }},"
              for st in SETTINGS if st.minimum is not None and st.maximum is not None]
    lines += ["});", ""]
    return "\n".join(lines)


def package_json(current: str) -> str:
    """package.json as it must read: `current` with its settings' properties made the schema's."""
    manifest = json.loads(current)
    manifest["contributes"]["configuration"]["properties"] = package_json_properties()
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def generated(root: Path) -> dict[Path, str]:
    """Each generated file under `root` (the repository) and the text it must hold."""
    return {root / SETTINGS_TABLE_TS: settings_table_ts(),
            root / PACKAGE_JSON: package_json((root / PACKAGE_JSON).read_text(encoding="utf-8"))}


def main(argv: list[str]) -> int:
    """--write: the generated files written (only those that changed); --check: exit 1, naming them, when one is
    not what the schema generates; neither: the manifest's properties printed."""
    root = Path(__file__).resolve().parent.parent
    if "--write" in argv or "--check" in argv:
        stale = [p for p, text in generated(root).items() if not p.exists() or p.read_text(encoding="utf-8") != text]
        if "--write" in argv:
            for p in stale:
                p.write_text(generated(root)[p], encoding="utf-8")
            return 0
        for p in stale:
            print(f"{p.relative_to(root)} is not what contracts/settings_schema.py generates: run "
                  "`python3 -m contracts.settings_schema --write`", file=sys.stderr)
        return 1 if stale else 0
    print(json.dumps(package_json_properties(), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
