"""Run Nsight Compute: find the binary, build the command line, collect a report, read it back.

Every way profiling can be impossible here (no ncu, no counter permission, nothing matched, a timeout,
a kernel ncu cannot replay) ends in one exception type, ProfilerUnavailable, whose message tells the user
what happened and what to do. Callers say it once and carry on without a profile.

Also a small command line for tools/ncu/record_fixtures.sh, so the recordings use the product's flags:
    python -m engine.profile.ncu args [--kernel REGEX] [--nvtx RANGE/] [--skip N] [--count N]
    python -m engine.profile.ncu export REPORT DIR     (raw.csv, details.csv, source.csv, as hiera reads them)
    python -m engine.profile.ncu find
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from engine.profile import csv_pages, report_api
from engine.profile.catalog import EXTRA_METRICS
from engine.profile.readings import Launch

ENV_VAR = "HIERA_NCU"
NOT_FOUND = "profiling off: ncu not found on PATH; install Nsight Compute or set hiera.ncuPath / --ncu PATH"
SEARCH = ("/opt/nvidia/nsight-compute/*/ncu", "/usr/local/cuda/bin/ncu", "/usr/local/cuda-*/bin/ncu")

# The sections the C/P/M/R/T mapping reads (catalog.py), cheaper than --set full (no PM sampling, no
# NVLink or NUMA tables); the roofline chart section carries the peak FLOP/s and bandwidth metrics.
SECTIONS = ("SpeedOfLight", "SpeedOfLight_RooflineChart", "MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Tables",
            "Occupancy", "LaunchStats", "SchedulerStats", "WarpStateStats", "SourceCounters",
            "ComputeWorkloadAnalysis", "InstructionStats")


class ProfilerUnavailable(RuntimeError):
    """Profiling cannot run (or failed); str(e) is the message for the user."""


def _version_key(path: str) -> tuple[int, ...]:
    m = re.search(r"(\d+(?:\.\d+)+)", path)
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def _executable(p: str) -> bool:
    return os.path.isfile(p) and os.access(p, os.X_OK)


def find_ncu(explicit: str | None = None) -> str:
    """The ncu to use: an explicit path, then $HIERA_NCU, PATH, the default install folders.

    A launcher in front of Nsight Compute (the CUDA toolkit's `bin/ncu`, a symlink) is resolved to the
    install it starts (see real_ncu): the launcher searches folders that the sandbox a profile runs in
    does not show, so run there it finds nothing."""
    for origin, p in (("--ncu", explicit), (f"${ENV_VAR}", os.environ.get(ENV_VAR))):
        if p:
            resolved = shutil.which(p) or p
            if not _executable(resolved):
                raise ProfilerUnavailable(f"profiling off: {origin} {p} is not an executable ncu; point it at the "
                                          "ncu binary of Nsight Compute (e.g. /opt/nvidia/nsight-compute/<ver>/ncu)")
            return real_ncu(resolved)
    on_path = shutil.which("ncu")
    if on_path:
        return real_ncu(on_path)
    for pattern in SEARCH:
        found = sorted((p for p in glob.glob(pattern) if _executable(p)), key=_version_key, reverse=True)
        if found:
            return real_ncu(found[0])
    raise ProfilerUnavailable(NOT_FOUND)


def install_root(ncu: str) -> Path | None:
    """The Nsight Compute install an ncu belongs to: the folder holding its sections/ (the binary sits in it,
    or a few levels below, in target/<platform>/), or None for a launcher that lives elsewhere."""
    here = Path(os.path.realpath(ncu)).parent
    for d in (here, *list(here.parents)[:3]):
        if (d / "sections").is_dir():
            return d
    return None


# Where the CUDA toolkit's launcher script looks for the install it starts (and the variable that overrides
# its search): beside the toolkit, then under /opt/nvidia.
LAUNCHER_SEARCH = ("{toolkit}/nsight-compute-*/ncu", "{toolkit}/nsight-compute/*/ncu",
                   "/opt/nvidia/nsight-compute/*/ncu")
LAUNCHER_ENV = "LATEST_NSIGHT_COMPUTE_TOOL_DIR"


def _launcher(path: str) -> bool:
    """A small script that starts Nsight Compute from somewhere else (the toolkit's bin/ncu)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64 << 10)
    except OSError:
        return False
    return head.startswith(b"#!") and b"nsight-compute" in head.lower()


def real_ncu(path: str) -> str:
    """The ncu binary of an install, for a path that may be a symlink or the toolkit's launcher script.

    An ncu inside an install (a sections/ folder above it) is kept as it is (after symlinks). The toolkit's
    launcher is replaced by the install it would start, looked for where it looks; if none is found the
    launcher could not start it either, and profiling is off with what to do."""
    real = os.path.realpath(path)
    if install_root(real) is not None or not _launcher(real):
        return real if install_root(real) is not None else path
    toolkit = str(Path(real).parent.parent)
    found: list[str] = []
    if os.environ.get(LAUNCHER_ENV):
        found.append(os.path.join(os.environ[LAUNCHER_ENV], "ncu"))
    for pattern in LAUNCHER_SEARCH:
        found += sorted(glob.glob(pattern.format(toolkit=toolkit)), key=_version_key, reverse=True)
    for candidate in found:
        if _executable(candidate) and install_root(candidate) is not None:
            return os.path.realpath(candidate)
    raise ProfilerUnavailable(
        f"profiling off: {path} is the CUDA toolkit's launcher for Nsight Compute, and no Nsight Compute install "
        f"was found where it looks ({toolkit}/nsight-compute-*, /opt/nvidia/nsight-compute/*); install Nsight "
        f"Compute, or set {ENV_VAR} (or --ncu) to its ncu binary")


@dataclass(frozen=True)
class CollectOptions:
    nvtx_include: str | None = None  # e.g. "hiera_candidate/" (push/pop ranges need the trailing slash)
    kernel_regex: str | None = None  # matched against the function name (no parameters, no templates)
    launch_skip: int = 0  # matching launches to skip first (warm-ups outside an NVTX range)
    launch_count: int | None = 1  # None: every matching launch
    sections: tuple[str, ...] = SECTIONS
    full_set: bool = False  # --set full instead of the sections above
    extra_metrics: tuple[str, ...] = EXTRA_METRICS
    clock_control: str = "none"  # counters read on the H200 with "none"; locked clocks skew durations
    cache_control: str = "all"  # flush caches between replay passes, so every pass sees the same state
    import_source: bool = True  # embed the -lineinfo sources, so lines read back without the files


def collect_args(opts: CollectOptions) -> list[str]:
    """Everything between `ncu` and the profiled program, for -o to follow."""
    args = ["--target-processes", "all"]
    if opts.nvtx_include:
        args += ["--nvtx", "--nvtx-include", opts.nvtx_include]
    if opts.kernel_regex:
        args += ["--kernel-name-base", "function", "-k", f"regex:{opts.kernel_regex}"]
    if opts.launch_skip:
        args += ["--launch-skip", str(opts.launch_skip)]
    if opts.launch_count:
        args += ["--launch-count", str(opts.launch_count)]
    args += ["--replay-mode", "kernel", "--cache-control", opts.cache_control, "--clock-control", opts.clock_control]
    if opts.full_set:
        args += ["--set", "full"]
    else:
        for s in opts.sections:
            args += ["--section", s]
    if opts.extra_metrics:
        args += ["--metrics", ",".join(opts.extra_metrics)]
    args += ["--import-source", "yes" if opts.import_source else "no"]
    return args


# --- failures -------------------------------------------------------------------------------------------

PERMISSION = ("profiling off: this user may not read the GPU performance counters (ERR_NVGPUCTRPERM); run as "
              "root or enable non-admin profiling on the host (driver option NVreg_RestrictProfilingToAdminUsers=0, "
              "see https://developer.nvidia.com/ERR_NVGPUCTRPERM)")


def explain_failure(output: str, returncode: int | None, opts: CollectOptions) -> str:
    """The user-facing reason a collection produced no report, from ncu's own output."""
    if "ERR_NVGPUCTRPERM" in output:
        return PERMISSION
    if "LibraryNotLoaded" in output or "Failed to initialize the profiler" in output:
        return ("profiling off: ncu could not start its profiler on this machine (" + _first_error(output) + "); "
                "in a container or VM the GPU's counters may not be exposed")
    if "No kernels were profiled" in output:
        where = []
        if opts.nvtx_include:
            where.append(f"inside the NVTX range {opts.nvtx_include.rstrip('/')!r}")
        if opts.kernel_regex:
            where.append(f"with a name matching {opts.kernel_regex!r}")
        return ("profiling found no kernel to profile: no CUDA kernel ran " + (" ".join(where) or "at all")
                + " (a CPU-only candidate, a kernel filter that matches nothing, or a candidate that failed "
                "before launching; see the program output below)" + _tail(output))
    if re.search(r"replay|not replayable|Failed to profile", output, re.IGNORECASE) and "==ERROR==" in output:
        return ("profiling failed: ncu could not replay the kernel (" + _first_error(output) + "); kernels that "
                "depend on host input while running, or that use CUDA graphs or stream-ordered allocations, cannot "
                "be replayed")
    return (f"profiling failed: ncu exited with status {returncode} and wrote no report"
            + (f" ({_first_error(output)})" if "==ERROR==" in output else "") + _tail(output))


def _first_error(output: str) -> str:
    for line in output.splitlines():
        if "==ERROR==" in line:
            return line.split("==ERROR==", 1)[1].strip()[:300]
    return "no ==ERROR== line"


def _tail(output: str, n: int = 12) -> str:
    lines = [ln for ln in output.strip().splitlines() if ln.strip()]
    return ("\n" + "\n".join(lines[-n:])) if lines else ""


def _metric_rejected(output: str) -> bool:
    return bool(re.search(r"metric.*(not found|does not exist|invalid)|Failed to find metric", output, re.IGNORECASE))


# --- running --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Collected:
    report: Path
    output: str  # ncu's and the program's combined output
    seconds: float
    command: tuple[str, ...]
    notices: tuple[str, ...] = ()


def _run(cmd: Sequence[str], timeout_s: float, env: Mapping[str, str] | None, cwd: str | None) -> tuple[int, str]:
    """Run in a process group of its own, so a timeout ends ncu and the program it launched together."""
    proc = subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(env) if env is not None else None, cwd=cwd, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return proc.returncode, out or ""


def collect(ncu: str, program: Sequence[str], report: Path, opts: CollectOptions, *, timeout_s: float = 120.0,
            env: Mapping[str, str] | None = None, cwd: str | None = None,
            sandboxed: tuple[Callable[[list[str]], list[str]], str] | None = None) -> Collected:
    """Profile `program` under ncu into `report` (an .ncu-rep path). Raises ProfilerUnavailable.

    sandboxed: (wrap, inside) where ncu and the program it launches run in a sandbox: `wrap` turns the ncu
    command into the sandbox's, and `inside` is the report's path as the sandbox sees it (the same file).
    """
    report.parent.mkdir(parents=True, exist_ok=True)
    base = str(report)[: -len(".ncu-rep")] if str(report).endswith(".ncu-rep") else str(report)
    target = Path(base + ".ncu-rep")
    out_base = base if sandboxed is None else sandboxed[1]
    notices: list[str] = []
    t0 = time.perf_counter()
    for attempt in (opts, replace(opts, extra_metrics=())):
        cmd = [ncu, *collect_args(attempt), "-f", "-o", out_base, *program]
        if sandboxed is not None:
            cmd = sandboxed[0](cmd)
        target.unlink(missing_ok=True)
        try:
            rc, out = _run(cmd, timeout_s - (time.perf_counter() - t0), env, cwd)
        except subprocess.TimeoutExpired as e:
            raise ProfilerUnavailable(
                f"profiling timed out after {timeout_s:.0f} s (ncu replays every kernel dozens of times); raise the "
                "time limit (--timeout) or profile a smaller input") from e
        except OSError as e:
            raise ProfilerUnavailable(f"profiling off: could not run {ncu}: {e}") from e
        if target.exists() and "ERR_NVGPUCTRPERM" not in out:
            return Collected(target, out, time.perf_counter() - t0, tuple(cmd), tuple(notices))
        if attempt.extra_metrics and _metric_rejected(out):
            notices.append("this ncu rejected some extra metrics (" + _first_error(out) + "); profiled without them")
            continue
        raise ProfilerUnavailable(explain_failure(out, rc, attempt))
    raise ProfilerUnavailable(explain_failure("", None, opts))  # unreachable: the second attempt raised or returned


_PASSES = re.compile(r'==PROF== Profiling "([^"]*)".*?(\d+) pass(?:es)?\b')


def collection_summary(output: str) -> dict[str, object]:
    """What ncu's own output says of a collection: kernels profiled and their replay passes, and the profiled
    program's timeline (engine/profile/target.py prints it)."""
    from engine.profile.target import TIMELINE

    passes = [int(m.group(2)) for m in _PASSES.finditer(output)]
    out: dict[str, object] = {"kernels": len(passes), "passes": sum(passes)}
    for line in output.splitlines():
        if TIMELINE in line:
            with contextlib.suppress(ValueError):
                import json

                out["target"] = json.loads(line.split(TIMELINE, 1)[1])
    return out


# --- reading back ---------------------------------------------------------------------------------------

PAGES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # page -> (flags, optional flags dropped if this ncu rejects them)
    "raw": (("--page", "raw", "--csv", "--print-units", "base"), ("--print-kernel-base", "function")),
    "details": (("--page", "details", "--csv", "--print-details", "all"),
                ("--print-kernel-base", "function", "--print-metric-name", "name")),
    "source": (("--page", "source", "--csv", "--print-source", "cuda,sass"), ("--print-kernel-base", "function")),
}


def export_page(ncu: str, report: Path, page: str, *, timeout_s: float = 120.0) -> str:
    """One page of a report as CSV text (no GPU needed). Raises ProfilerUnavailable if ncu cannot export."""
    flags, optional = PAGES[page]
    out = ""
    for extra in (optional, ()):
        try:
            rc, out = _run([ncu, "-i", str(report), *flags, *extra], timeout_s, None, None)
        except subprocess.TimeoutExpired as e:
            raise ProfilerUnavailable(f"reading the profile timed out exporting the {page} page") from e
        if rc == 0:
            return out
    raise ProfilerUnavailable(f"profiling failed: ncu could not export the {page} page of {report}: {_tail(out, 4)}")


@dataclass(frozen=True)
class ReportData:
    launches: list[Launch]
    reader: str  # "ncu_report" or "csv"
    notices: tuple[str, ...] = ()


def read_report(ncu: str, report: Path, *, prefer_module: bool = True) -> ReportData:
    """The report's launches, through ncu_report (in a child process) when the install has it, else through
    the CSV exports. Either way the same Launch records come back."""
    notices: list[str] = []
    if prefer_module and report_api.extras_dirs(ncu):
        try:
            launches = report_api.read_in_subprocess(ncu, report)
            if launches:
                return ReportData(launches, "ncu_report")
        except RuntimeError as e:  # a crash or version mismatch there must not cost the profile
            notices.append(f"{e}; read the CSV exports instead")
    pages = {p: export_page(ncu, report, p) for p in ("raw", "details")}
    try:
        pages["source"] = export_page(ncu, report, "source")
    except ProfilerUnavailable as e:
        pages["source"] = ""
        notices.append(f"no per-line data: {e}")
    launches = csv_pages.launches_from_csv(pages["raw"], pages["details"], pages["source"])
    return ReportData(launches, "csv", tuple(notices))


# --- command line for the recording script ----------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.profile.ncu")
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("args", help="print the collection flags hiera uses, one per line")
    a.add_argument("--kernel", default=None)
    a.add_argument("--nvtx", default=None)
    a.add_argument("--skip", type=int, default=0)
    a.add_argument("--count", type=int, default=1)
    a.add_argument("--full-set", action="store_true")
    sub.add_parser("find", help="print the ncu hiera would use")
    e = sub.add_parser("export", help="write a report's pages as the CSV files hiera parses")
    e.add_argument("report")
    e.add_argument("out")
    e.add_argument("--ncu", default=None)
    args = p.parse_args(argv)
    try:
        if args.cmd == "find":
            print(find_ncu())
        elif args.cmd == "export":
            ncu, out = find_ncu(args.ncu), Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            failed = 0
            for page in PAGES:
                try:
                    (out / f"{page}.csv").write_text(export_page(ncu, Path(args.report), page))
                except ProfilerUnavailable as err:
                    failed += 1
                    print(f"{page}: {err}", file=sys.stderr)
            return 1 if failed else 0
        else:
            opts = CollectOptions(nvtx_include=args.nvtx, kernel_regex=args.kernel, launch_skip=args.skip,
                                  launch_count=args.count or None, full_set=args.full_set)
            print("\n".join(collect_args(opts)))
    except ProfilerUnavailable as e:
        print(str(e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
