"""What every `hiera` command shares: exit statuses, the usage error, the console, argparse types with a sense,
task/candidate/device checks that end in a usage error, and the words and tables outcomes are shown in.

Human output goes to stderr through rich; `--json` puts exactly one JSON object on stdout (and where stdout is
a log, not a terminal, it gets the same progress as plain lines: engine/commands/plain.py). Exit codes: 0
success (a valid candidate; for optimize, its result written), 1 the candidate or run produced nothing valid,
2 a usage or task error (nothing recorded, no `.hiera/` created), 3 optimize found a valid best that is not
faster than eager, so nothing was written beside the task (kept in the run's folder), 130 stopped by Ctrl-C
(what finished is kept; 143 for SIGTERM).

Everything printed through rich that did not come from hiera's own code (reasons, hints, paths, source,
compiler output) goes through `escape`: rich would read `[torch.rand(...)]` as markup and drop it.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from contracts.device import Device
from contracts.precision import AUTO, PrecisionRefused, module_precision, tolerance_words
from contracts.precision import resolve as resolve_precision
from contracts.runrecord import BestFigure, Figure, RunBest, verdict_phrase
from contracts.settings_schema import BUDGET, CANDIDATES, DEADLINE, ROUNDS, SECONDS_MAX
from contracts.speed_of_light import SpeedOfLight, detail, phrase, share_text
from contracts.verdict import ratio_text
from contracts.wording import device_words, flag_phrase
from engine.commands.checks import task_fits
from engine.commands.usage import UsageError
from engine.evaluate.outcome import Outcome, Precision
from engine.task.spec import LOAD_TIMEOUT_S, TaskError, TaskSpec, check_task_path, check_task_text, load_task
from engine.untrusted import escape


def _console() -> Console:
    """stderr through rich. Where it is not a terminal (a pipe, a log, CI) lines are not wrapped at 80 columns: a
    wrapped line split the run ids `--resume` needs; tables lay out at 200 columns there unless COLUMNS says."""
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if tty:
        return Console(stderr=True, highlight=False)
    return Console(stderr=True, highlight=False, soft_wrap=True, width=None if os.environ.get("COLUMNS") else 200)


console = _console()

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 130
EXIT_NOT_WRITTEN = 3  # optimize: a valid best, not faster than eager; kept in the run's folder, nothing beside the task


class ParseFailed(Exception):
    """argparse's complaint about the command line, raised (not printed and exited) so main() can say it the
    way every usage error is said, on the event stream too."""

    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser = parser


class HieraParser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # type: ignore[override]
        raise ParseFailed(self, message)


# --- values with a sense: argparse types that refuse the rest -----------------------------------------------

def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < minimum or (maximum is not None and n > maximum):
            limits = f"at least {minimum}" if maximum is None else f"from {minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"must be {limits}, got {n}")
        return n
    return parse


# A run's shape, with the limits the editor's settings have (contracts/settings_schema.py, the one table).
rounds_arg = whole_number(*ROUNDS)
candidates_arg = whole_number(*CANDIDATES)
budget_arg = whole_number(*BUDGET)
SHAPE_LIMITS = {"rounds": f"{ROUNDS[0]} to {ROUNDS[1]}", "candidates": f"{CANDIDATES[0]} to {CANDIDATES[1]}",
                "budget": f"{BUDGET[0]} to {BUDGET[1]}"}


def seconds(text: str) -> float:
    """A time limit: a number of seconds, more than 0, at most a day (the editor's limit too)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(x) or x <= 0 or x > SECONDS_MAX:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {SECONDS_MAX} seconds, got {text}")
    return x


def deadline_seconds(text: str) -> float:
    """A run's deadline: seconds from the command's start, from DEADLINE[0] (start-up alone takes several) to a day."""
    x = seconds(text)
    if x < DEADLINE[0]:
        raise argparse.ArgumentTypeError(f"must be at least {DEADLINE[0]:g} seconds (start-up alone takes several), "
                                         f"got {text}")
    return x


MIN_TRIALS = 10  # fewer timed trials give no quartiles, so no spread to judge a speedup by


def workspace_of(args: argparse.Namespace) -> Path:
    return Path(args.workspace or os.environ.get("HIERA_WORKSPACE") or os.getcwd()).resolve()


def task_workdir(workspace: Path, spec: TaskSpec) -> Path:
    """Per-task folder in the store: contract files, built candidates' cache lives beside it."""
    return workspace / ".hiera" / "tasks" / f"{spec.name}-{spec.source_hash}"


def say_slow_load(path: str) -> Callable[[str, float, float], None]:
    """What a slow task load says on stderr every few seconds (engine/task/spec.py SLOW_LOAD_S): where it is, and the
    limit (a forward that hangs printed nothing for 300 s)."""
    def say(step: str, seconds: float, limit: float) -> None:
        console.print(f"[yellow]loading {escape(Path(path).name)}:[/yellow] still in {escape(step)} after "
                      f"{seconds:.0f} s (stopped at {limit:.0f} s; --load-timeout SECONDS changes that)")
    return say


def task_text_or_exit(path: str) -> None:
    """The checks of a task file that need no process (its path, and its text: binary, not UTF-8, not Python, no
    Model/get_inputs/get_init_inputs), said as usage errors before anything imports torch."""
    try:
        check_task_path(Path(path))
        check_task_text(Path(path))
    except TaskError as e:
        raise UsageError(str(e)) from e


def load_task_or_exit(path: str, device: Device | None = None, timeout_s: float | None = None) -> TaskSpec:
    """The task, or a usage error naming what is wrong with it; with the device that will evaluate it, also
    refused when it cannot fit there (engine/commands/checks.py). A load past timeout_s (default LOAD_TIMEOUT_S)
    is stopped; from a few seconds on, stderr says where it is."""
    try:
        spec = load_task(path, timeout_s or LOAD_TIMEOUT_S, on_slow=say_slow_load(path))
    except TaskError as e:
        raise UsageError(str(e)) from e
    if device is not None:
        task_fits(spec, device)
    return spec


def candidate_file_or_exit(name: str, device: Device | None = None) -> Path:
    """A candidate file the user named: it exists, is a file, and can run on the device (a CUDA kernel cannot
    be evaluated on the CPU: refused before anything is recorded, not recorded as a failed run)."""
    path = Path(name)
    if path.is_dir():
        raise UsageError(f"{path}: is a directory, not a candidate file (a .cu/.cpp kernel or a ModelNew .py)")
    if not path.is_file():
        raise UsageError(f"{path}: no such candidate file")
    if device is not None and not device.is_cuda and path.suffix.lower() == ".cu":
        raise UsageError(f"{path}: a CUDA kernel, and this evaluation is on the CPU (--device cpu, or no GPU here): "
                         "it cannot run here. Evaluate it on a machine with an NVIDIA GPU, or give a C++ (.cpp) "
                         "candidate for the CPU")
    return path


def precision_or_exit(requested: str | None, spec: TaskSpec) -> tuple[Precision, str]:
    """The run's precision policy (contracts/precision.py): the module's own, or the user's looser override;
    and a sentence on where it came from. A tighter override is a usage error that says what to do."""
    try:
        policy, why = resolve_precision(requested, module_precision(spec))
    except PrecisionRefused as e:
        raise UsageError(str(e)) from e
    return Precision(policy), why

def device_text_or_exit(device: str) -> None:
    """A --device that names no device is refused before torch is imported (finding a GPU needs it: seconds)."""
    if device != "auto":
        try:
            Device.parse(device)
        except ValueError:
            raise UsageError(f"--device {device}: expected cpu, cuda, cuda:N or auto") from None


def device_or_exit(device: str) -> Device:
    device_text_or_exit(device)
    from engine.evaluate.pipeline import resolve_device

    try:
        return resolve_device(device)
    except ValueError as e:
        raise UsageError(str(e)) from e


def add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", default="auto", help="cpu, cuda, cuda:N or auto (default: auto, a GPU if there is one)")
    p.add_argument("--precision", default=AUTO, choices=[AUTO, *(x.value for x in Precision)],
                   help="auto (default: the module's own: bf16 or fp16 where its tensors are, or its forward runs "
                        "under torch.autocast, else strict fp32), fp32, tf32 (allows TF32 matmul/conv), bf16 or "
                        "fp16; an override may loosen the module's precision, never tighten it; recorded with "
                        "results")
    p.add_argument("--workspace", default=None,
                   help="where .hiera/ lives (default: $HIERA_WORKSPACE, else the current directory)")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout (default: off)")


def add_load_timeout(p: argparse.ArgumentParser) -> None:
    p.add_argument("--load-timeout", type=seconds, default=LOAD_TIMEOUT_S, metavar="SECONDS",
                   help="limit on loading the task (importing it, building Model, one forward in a process of its "
                        f"own); past it the command stops with the step it was in (default: {LOAD_TIMEOUT_S:g})")


def add_eval_limits(p: argparse.ArgumentParser) -> None:
    """The evaluator's limits and its sandbox (mapped to EvalSettings by eval_limits)."""
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help="limit on verifying and timing one candidate; past it the candidate is a timeout (default: "
                        "derived from the reference's own time, so a far slower candidate ends in seconds)")
    add_load_timeout(p)
    p.add_argument("--build-timeout", type=seconds, default=120.0, metavar="SECONDS",
                   help="limit on compiling one candidate; past it the candidate failed to build (default: 120)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run candidate code (its compiler, its runner) without the sandbox: only where the sandbox "
                        "cannot be set up, knowing candidate code can then reach your files (default: sandboxed)")
    p.add_argument("--shapes", default="contract", choices=["contract", "all", "off"],
                   help="which candidates are also verified and briefly timed at other batch sizes (drawn for each "
                        "candidate: 1, double, an odd size, a prime near half, one at random): contract (default: "
                        ".cu/.cpp, well under a second each, and ModelNew files a model or you wrote, whose result "
                        "file then refuses the sizes they were not found valid at), all (hiera's own ModelNew "
                        "candidates too: a torch.compile one compiles again at each size), off")


def eval_limits(args: argparse.Namespace) -> dict[str, Any]:
    return {"request_timeout_s": args.timeout, "build_timeout_s": args.build_timeout,
            "sandbox": not args.no_sandbox, "shape_variants": args.shapes}


def eval_limit_flags(args: argparse.Namespace) -> list[str]:
    """The same limits as command-line flags, for the hiera processes a command starts."""
    flags = ["--build-timeout", repr(args.build_timeout), "--shapes", args.shapes,
             "--load-timeout", repr(args.load_timeout)]
    if args.timeout is not None:
        flags += ["--timeout", repr(args.timeout)]
    return flags + (["--no-sandbox"] if args.no_sandbox else [])


def shown_path(p: Path | str) -> str:
    """A path as a user would type it: relative to the current directory when under it."""
    p = Path(p)
    try:
        return str(p.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(p)


# Where the evaluator compiles a candidate: its content-addressed build folder holds the source under a fixed
# name (.hiera/cache/build/<hash>/cuda_source.cu or cpu_source.cpp; /sandbox/... as the sandboxed compiler
# sees it), the candidate's text line for line.
_BUILD_SOURCE = re.compile(r"(?:[^\s'\"`:]*?[0-9a-f]{16,}|/sandbox)/(?:cuda_source\.cu|cpu_source\.cpp)")
# Where the runner imports a ModelNew candidate: its scratch copy, candidate.py (engine/evaluate/
# candidate_process.py), line for line; Python names it in tracebacks ('File "/sandbox/candidate.py", line 8')
# and syntax errors ("(candidate.py, line 8)").
_RUNNER_SOURCE = re.compile(r"(?<![\w.-])(?:[^\s'\"`:(]*/)?candidate\.py\b")


def check_sandbox(sandbox: bool, device: Device) -> None:
    """Refuse, before anything is recorded, to evaluate when the sandbox cannot be set up (unless opted out)."""
    if not sandbox:
        return
    from engine.evaluate.sandbox import SandboxUnavailable, probe

    try:
        probe(device.is_cuda)
    except SandboxUnavailable as e:
        raise UsageError(str(e)) from e


def user_build_log(log: str, source_name: str) -> str:
    """Compiler output (or a ModelNew's import error) with the evaluator's copy of the source named as the
    user's file (same lines)."""
    log = _BUILD_SOURCE.sub(lambda _m: source_name, log)
    return _RUNNER_SOURCE.sub(lambda _m: source_name, log) if source_name.endswith(".py") else log


def reason_text(o: Outcome | dict[str, Any], source_name: str | None, lines: int = 3) -> str:
    """An outcome's reason for a person, against the user's file name: a build failure's first error lines,
    anything else whole; whole lines (the console wraps them), never cut mid-way."""
    status = o.status.value if isinstance(o, Outcome) else o["status"]
    reason = o.reason if isinstance(o, Outcome) else o["reason"]
    text = user_build_log(reason, source_name) if source_name else reason
    if status != "build_failed":
        return text
    kept = [ln for ln in text.splitlines() if ln.strip() and ln.strip() != "..."]
    errors = [ln for ln in kept if re.search(r"\berror\b", ln, re.IGNORECASE)]
    shown = (errors or kept)[:lines]
    more = len(errors or kept) - len(shown)
    return "\n".join(shown) + (f"\n(+{more} more lines; the whole log is in the run's store)" if more > 0 else "")


def folding_table(*headers: str, **kw: Any) -> Table:
    """A table whose cells wrap and fold at any width: a narrow terminal never cuts a word with an ellipsis."""
    t = Table(**kw)
    for h in headers:
        t.add_column(h, overflow="fold")
    return t


def fig_text(fig: Figure | BestFigure | RunBest) -> str:
    """'3.4x, faster than eager (2.1–5.6x at 95%, all of it above 1)'; a slowdown by its own size ('2.0x slower')."""
    return f"{ratio_text(fig.speedup, fig.spread, 'x')}, {verdict_phrase(fig)}"


def light_cell(sol: SpeedOfLight | None) -> str:
    """A table cell: '62% memory', or '-' without a bound."""
    return f"{share_text(sol.fraction)} {sol.bound}" if sol else "-"


def light_line(sol: SpeedOfLight) -> str:
    """'62% of speed of light, memory-bound: bound 26 us (memory): 1.05 MB and 262 kFLOP, at memory 40 GB/s'."""
    return f"{phrase(sol)}: {detail(sol)}"


def speed_of_light_text(o: Outcome) -> str | None:
    """The outcome's figure against its bound, with what the bound is made of and leaves out; or why none."""
    sol = o.speed_of_light
    if sol is None:
        why = o.extra.get("speed_of_light") if isinstance(o.extra, dict) else None
        return why if isinstance(why, str) and o.candidate else None
    return "; ".join([light_line(sol), *sol.notes[:3]])


def outcome_table(o: Outcome, title: str, source_name: str | None = None) -> Table:
    from engine.loop import figure

    t = Table(title=escape(title), show_header=False, title_justify="left")
    t.add_column(no_wrap=True)
    t.add_column(overflow="fold")  # a long path folds onto the next line: never cut before its line number
    t.add_row("status", f"[bold]{o.status.value}[/bold]")
    t.add_row("reason", escape(reason_text(o, source_name, lines=12)))
    if o.flags:
        t.add_row("flagged", escape("\n".join(flag_phrase(f) for f in o.flags)))
    if o.reference and o.candidate:
        t.add_row("reference", f"{o.reference.median_ms:.4g} ms median (min {o.reference.min_ms:.4g}, "
                               f"max {o.reference.max_ms:.4g}, spread {o.reference.spread:.1%})")
        t.add_row("candidate", f"{o.candidate.median_ms:.4g} ms median (min {o.candidate.min_ms:.4g}, "
                               f"max {o.candidate.max_ms:.4g}, spread {o.candidate.spread:.1%})")
        fig = figure(o, retimed=False)
        t.add_row("speedup", f"[bold]{ratio_text(fig.speedup, fig.spread, 'x')}[/bold]: {verdict_phrase(fig)}"
                  if fig else "-")
    sol_row = speed_of_light_text(o)
    if sol_row:
        t.add_row("speed of light", escape(sol_row))
    if o.error:
        t.add_row("worst error", escape(f"{o.error.where}: expected {o.error.expected:.6g}, got {o.error.got:.6g}"))
    t.add_row("device", escape(device_words(o.device, o.device_name)))
    t.add_row("precision", tolerance_words(o.precision.value))
    secs = [f"{k} {v:.2f}s" for k, v in (("build", o.build_s), ("verify", o.verify_s), ("time", o.time_s)) if v]
    if secs:
        t.add_row("seconds", ", ".join(secs))
    return t
