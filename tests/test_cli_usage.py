"""Usage errors as a new user meets them: nonsense values refused (exit 2) before anything is recorded, no
`.hiera/` left by a command that fails or only reads, and help text with its default for every option."""

from __future__ import annotations

import argparse
import json
import shutil

import pytest

from engine.cli import EXIT_USAGE, build_parser, main
from engine.commands.bench import budget_shape
from engine.loop import LoopSettings
from tests.conftest import TASKS


def said(capsys) -> str:
    """What the CLI said on stderr, its line wrapping undone."""
    return " ".join(capsys.readouterr().err.split())


@pytest.fixture
def task(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(TASKS / "scale_bias_relu.py", tmp_path / "t.py")
    return "t.py"


NONSENSE = [
    ["optimize", "t.py", "--rounds", "0"], ["optimize", "t.py", "--rounds", "-2"],
    ["optimize", "t.py", "--candidates", "0"], ["optimize", "t.py", "--candidates", "-1"],
    ["optimize", "t.py", "--budget", "0"], ["optimize", "t.py", "--repeat", "0"],
    ["optimize", "t.py", "--trials", "3"], ["optimize", "t.py", "--rounds", "two"],
    ["optimize", "t.py", "--timeout", "0"], ["optimize", "t.py", "--timeout", "-5"],
    ["optimize", "t.py", "--timeout", "nan"], ["optimize", "t.py", "--timeout", "inf"],
    ["optimize", "t.py", "--build-timeout", "0"],
    ["eval", "t.py", "c.cpp", "--trials", "0"], ["eval", "t.py", "c.cpp", "--timeout", "-1"],
    ["eval", "t.py", "c.cpp", "--build-timeout", "-1"],
    ["bench", ".", "--budget", "0"], ["bench", ".", "--candidates", "0"], ["bench", ".", "--rounds", "-1"],
    ["bench", ".", "--task-timeout", "0"], ["bench", ".", "--stop-after", "-1"], ["bench", ".", "--timeout", "0"],
]


@pytest.mark.parametrize("argv", NONSENSE, ids=[" ".join(a[2:]) or a[0] for a in NONSENSE])
def test_a_value_outside_its_sense_is_a_usage_error_that_records_nothing(task, tmp_path, capsys, argv):
    assert main(argv) == EXIT_USAGE
    err = said(capsys)
    assert f"argument {argv[-2]}" in err and "usage: hiera" in err
    assert not (tmp_path / ".hiera").exists() and not (tmp_path / "bench-out").exists()


def test_a_usage_error_ends_the_event_stream_with_an_error_event(task, capsys):
    assert main(["optimize", "t.py", "--events", "jsonl", "--rounds", "0"]) == EXIT_USAGE
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and json.loads(out[0])["event"] == "error" and "--rounds" in json.loads(out[0])["message"]


def test_budget_and_rounds_that_disagree_are_refused_before_the_task_loads(task, tmp_path, capsys):
    assert main(["optimize", "t.py", "--budget", "8", "--rounds", "1", "--candidates", "6"]) == EXIT_USAGE
    assert "--budget 8 with --candidates 6 is 2 round(s)" in said(capsys)
    assert not (tmp_path / ".hiera").exists()


@pytest.mark.parametrize("argv", [["optimize", "missing.py"], ["eval", "missing.py", "c.cpp"],
                                  ["optimize", "--resume", "20240101-000000-abcd"], ["report"],
                                  ["report", "20240101-000000-abcd"], ["export", "missing.py", "k.cpp"]])
def test_a_command_that_fails_first_or_only_reads_leaves_no_hiera_folder(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.cpp").write_text("// kernel\n")
    assert main(argv) == EXIT_USAGE
    assert "error:" in said(capsys)
    assert not (tmp_path / ".hiera").exists()


def test_resume_refuses_a_finished_run_and_a_run_still_at_work(tmp_path, monkeypatch, capsys):
    from engine.store import RunStore

    monkeypatch.chdir(tmp_path)
    store = RunStore.for_workspace(tmp_path)
    done = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})
    store.finish_run(done, "finished", {})
    live = store.start_run("optimize", tmp_path / "t.py", "t", "h", {})  # this process: alive
    assert main(["optimize", "--resume", done]) == EXIT_USAGE
    assert "finished; there is nothing to resume" in said(capsys)
    assert main(["optimize", "--resume", live]) == EXIT_USAGE
    assert "still running" in said(capsys)
    assert main(["optimize", "--resume", live, "--rounds", "4"]) == EXIT_USAGE
    assert "with its own settings; drop --rounds" in said(capsys)


def _options(parser: argparse.ArgumentParser):
    for action in parser._actions:  # every subcommand's options, as argparse holds them
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((f"{name} {a.option_strings or a.dest}", a) for a in sub._actions
                            if not isinstance(a, argparse._HelpAction))


def test_every_option_of_every_subcommand_has_help_with_its_default():
    missing, no_default = [], []
    for name, a in _options(build_parser()):
        if not a.help:
            missing.append(name)
        elif a.option_strings and not a.required and "default" not in a.help:
            no_default.append(name)
    assert missing == [] and no_default == []


def test_required_arguments_are_shown_as_required():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert sub["optimize"].format_usage().startswith("usage: hiera optimize TASK.py [options]")
    assert "[task]" not in sub["optimize"].format_usage()
    for name, a in _options(parser):
        if not a.option_strings and a.nargs != "?":  # a positional argument the command needs
            assert "required" in a.help, name


@pytest.mark.parametrize("budget, k, sizes", [(1, 6, [1]), (2, 6, [2]), (6, 6, [6]), (8, 6, [6, 2]), (18, 6, [6] * 3)])
def test_a_budget_is_rounds_of_k_and_the_last_takes_what_is_left(budget, k, sizes):
    assert LoopSettings(candidates=k, budget=budget).round_sizes() == sizes
    rounds, per_round, flags = budget_shape(budget, 3, k)
    assert rounds == len(sizes) and per_round == sizes[0]
    assert flags == ([] if sum([per_round] * rounds) == budget else ["--budget", str(budget)])


def test_bench_accepts_a_budget_of_2_and_hands_its_limits_to_each_task(tmp_path, monkeypatch):
    import engine.commands.bench as cmd

    seen = {}

    def fake_run_bench(root, out, devices, opts, *a, **kw):
        seen.update(opts)
        return [], cmd.bench_summary([])

    monkeypatch.setattr(cmd, "run_bench", fake_run_bench)
    (tmp_path / "suite").mkdir()
    rc = main(["bench", str(tmp_path / "suite"), "--budget", "2", "--device", "cpu", "--out", str(tmp_path / "o"),
               "--timeout", "7.5", "--build-timeout", "30", "--no-sandbox", "--no-compile"])
    assert rc == 0
    assert (seen["rounds"], seen["candidates"]) == (1, 2)
    for flags in (seen["optimize_flags"], seen["eval_flags"]):
        assert flags[flags.index("--timeout") + 1] == "7.5" and flags[flags.index("--build-timeout") + 1] == "30.0"
        assert "--no-sandbox" in flags


def test_no_module_imports_the_command_line_back():
    """engine/cli.py is the entry point and the command table; the commands share engine/commands/common.py. A
    module importing engine.cli back made a circle (and `python -m engine.cli` load the module twice)."""
    import ast
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    offenders = []
    for path in [*repo.glob("engine/**/*.py"), *repo.glob("contracts/**/*.py"), *repo.glob("hiera_ls/**/*.py")]:
        if path.name == "cli.py" and path.parent.name == "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "engine.cli" or n.startswith("engine.cli.") for n in names):
                offenders.append(str(path.relative_to(repo)))
    assert not offenders, f"these import engine.cli back: {offenders}"


def test_a_command_that_fails_to_import_is_an_error_that_says_which_and_why(monkeypatch, capsys):
    from engine import cli

    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, "no_such_command"))
    assert cli.main(["--help"]) == cli.EXIT_INVALID
    said = capsys.readouterr().err
    assert "the `no_such_command` command could not be loaded" in said and "setup.sh" in said


def test_every_command_of_the_table_is_on_the_command_line():
    from engine import cli

    sub = next(a for a in cli.build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == {"eval", "contract", "export", "optimize", "report", "bench", "study", "profile",
                                "doctor"}
