"""`hiera`: the command line. The commands are a table (COMMANDS), one module each under engine/commands/; what
they share (exit statuses, the usage error, the console, the checks and tables) is engine/commands/common.py,
which every command imports and none of which imports this module back.

A command whose module fails to import is an error that names it and why (a packaging mistake must not make
`hiera optimize` vanish from the command list).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import sys

from contracts import strict_json
from engine import pycache
from engine.commands.common import (  # noqa: F401  (re-exported: callers and tests name them from here)
    EXIT_INVALID,
    EXIT_NOT_WRITTEN,
    EXIT_OK,
    EXIT_STOPPED,
    EXIT_USAGE,
    MIN_TRIALS,
    HieraParser,
    ParseFailed,
    UsageError,
    console,
    escape,
    outcome_table,
    reason_text,
    user_build_log,
)

# Each command: its module under engine/commands/, which defines register(subparsers). In the order of --help.
COMMANDS = ("evaluate", "contract", "export", "optimize", "report", "bench", "study", "profile", "doctor")


class CommandMissing(RuntimeError):
    """A command's module could not be imported: the installation is broken, and the message says how."""


def build_parser() -> argparse.ArgumentParser:
    parser = HieraParser(prog="hiera", description="HIERA: workload-aware GPU kernel optimization")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"engine.commands.{name}")
        except ImportError as e:
            raise CommandMissing(f"the `{name}` command could not be loaded ({type(e).__name__}: {e}); this "
                                 "installation of hiera is incomplete: run ./scripts/setup.sh again (or reinstall "
                                 "the package)") from e
        module.register(sub)
    return parser


def _say_usage_error(message: str, argv: list[str], usage: str | None = None) -> None:
    """A usage error, said once for a person (stderr) and, when the caller reads JSON, on stdout too."""
    events = "--events=jsonl" in argv or any(
        pair == ("--events", "jsonl") for pair in itertools.pairwise(argv))
    if events:
        # protocol.md: the event stream always ends with a result or an error event.
        print(strict_json.dumps({"event": "error", "message": message, "log": None}), flush=True)
    elif "--json" in argv:
        print(strict_json.dumps({"status": "error", "reason": message}), flush=True)
    if usage:
        console.print(escape(usage.rstrip()), soft_wrap=True)
    console.print(f"[red]error:[/red] {escape(message)}")


def stop_on_ctrl_c() -> None:
    """Make Ctrl-C stop the command even where it was started with SIGINT ignored.

    A shell starts a background job (`hiera optimize ... &`, `setsid hiera ...` in a script) with SIGINT
    ignored, and Python then installs no KeyboardInterrupt handler: a Ctrl-C later sent to the job's process
    group (the terminal's way) was ignored, and the run went on to finish and exit 0. Every command here
    stops cleanly on KeyboardInterrupt (what finished is recorded, the run can resume), so it always asks for
    one. The evaluation's own processes have their own sessions and never see the terminal's signal."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        with contextlib.suppress(ValueError):  # main() called from a thread other than the main one
            signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    stop_on_ctrl_c()
    pycache.enable()  # before anything imports torch: this process and every one it starts share the bytecode
    try:
        parser = build_parser()
    except CommandMissing as e:
        console.print(f"[red]error:[/red] {escape(str(e))}")
        return EXIT_INVALID
    try:
        args = parser.parse_args(argv)
    except ParseFailed as e:
        _say_usage_error(str(e), argv, e.parser.format_usage())
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except UsageError as e:
        _say_usage_error(str(e), argv)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # Before a run was recorded (loading the task, checking the endpoint): there is nothing to keep.
        console.print("[yellow]interrupted[/yellow] before anything was recorded")
        return EXIT_STOPPED


if __name__ == "__main__":
    sys.exit(main())
