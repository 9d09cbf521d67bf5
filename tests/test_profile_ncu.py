"""Finding and running ncu, and every way profiling can be unavailable, with a FAKE ncu (no GPU needed).

The fake is a small script standing in for the ncu binary: it records its command line, writes a report
file or prints the failure ncu would print, and answers `-i REPORT --page ...` with SYNTHETIC CSV pages
(built in test_profile_csv.py). The whole profile_candidate / profile_reference path runs against it.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

import engine.profile.ncu as ncu_mod
from engine.profile import ProfilerUnavailable, find_ncu, profile_candidate, profile_reference
from engine.profile.ncu import NOT_FOUND, CollectOptions, collect_args, real_ncu
from engine.profile.target import CANDIDATE_RANGE, nvtx_filter
from tests.test_profile_csv import details_csv, raw_csv, source_csv

FAKE_NCU = f"""#!{sys.executable}
import json, os, sys, time
from pathlib import Path
d = Path(os.environ["FAKE_NCU_DIR"])
mode = os.environ.get("FAKE_NCU_MODE", "ok")
args = sys.argv[1:]
with open(d / "calls.jsonl", "a") as f:
    f.write(json.dumps(args) + "\\n")
if "-i" in args:
    page = args[args.index("--page") + 1]
    sys.stdout.write((d / f"{{page}}.csv").read_text())
    sys.exit(0)
if mode == "perm":
    print("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters")
    sys.exit(1)
if mode == "none":
    print("==PROF== Disconnected from process 1")
    print("==WARNING== No kernels were profiled.")
    sys.exit(0)
if mode == "slow":
    time.sleep(30)
if mode == "metric" and "--metrics" in args:
    print("==ERROR== Failed to find metric l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
    sys.exit(1)
base = args[args.index("-o") + 1]
Path(base + ".ncu-rep").write_bytes(b"fake report")
print("==PROF== Report: " + base + ".ncu-rep")
"""


@pytest.fixture
def no_ncu(monkeypatch, tmp_path):
    """A machine without Nsight Compute: nothing on PATH, no $HIERA_NCU, no default install."""
    empty = tmp_path / "empty_bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("HIERA_NCU", raising=False)
    monkeypatch.setattr(ncu_mod, "SEARCH", ())


def _executable(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def fake_ncu(monkeypatch, tmp_path):
    d = tmp_path / "fake"
    d.mkdir()
    exe = _executable(d / "ncu", FAKE_NCU)
    monkeypatch.setenv("FAKE_NCU_DIR", str(d))
    monkeypatch.delenv("FAKE_NCU_MODE", raising=False)
    return exe


def _pages(d: Path, kernel_file: str) -> None:
    metrics = {
        "gpu__time_duration.sum": ("41,216", "nsecond"),
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": ("88.5", "%"),
        "sm__throughput.avg.pct_of_peak_sustained_elapsed": ("3.1", "%"),
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": ("2,097,152", "sector"),
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": ("65,536", "request"),
        "memory_l2_theoretical_sectors_global": ("2,359,296", "sector"),
        "memory_l2_theoretical_sectors_global_ideal": ("327,680", "sector"),
    }
    (d / "raw.csv").write_text(raw_csv({"scale_bias_columns": metrics}))
    (d / "details.csv").write_text(details_csv([], [
        (0, "scale_bias_columns", "UncoalescedGlobalAccess", "OPT", "Uncoalesced global accesses.", "global", "80")]))
    (d / "source.csv").write_text(source_csv("scale_bias_columns", kernel_file, [
        (12, "out[r * cols + c] = x[r * cols + c] * scale + bias[c];", [[95, 90, 64, 0, "2,000,000", 0, 90, 5, 85]]),
    ]))


def _calls(fake: Path) -> list[list[str]]:
    return [json.loads(line) for line in (fake.parent / "calls.jsonl").read_text().splitlines()]


# --- finding ncu ------------------------------------------------------------------------------------------

def test_without_ncu_profile_candidate_says_what_to_do(no_ncu, tmp_path):
    with pytest.raises(ProfilerUnavailable) as e:
        profile_candidate(tmp_path / "task.py", tmp_path, tmp_path / "c.so", "cuda", "cuda:0", work_dir=tmp_path / "w")
    assert str(e.value) == NOT_FOUND
    assert "install Nsight Compute" in str(e.value) and "--ncu PATH" in str(e.value)


def test_without_ncu_profile_reference_raises_the_same(no_ncu, tmp_path):
    with pytest.raises(ProfilerUnavailable, match="ncu not found on PATH"):
        profile_reference(tmp_path / "task.py", "cuda:0", work_dir=tmp_path / "w")


def test_find_ncu_order_explicit_env_path_install(no_ncu, monkeypatch, tmp_path):
    explicit = _executable(tmp_path / "explicit" / "ncu")
    env = _executable(tmp_path / "env" / "ncu")
    on_path = _executable(tmp_path / "path" / "ncu")
    old = _executable(tmp_path / "opt" / "2024.1.0" / "ncu")
    new = _executable(tmp_path / "opt" / "2025.3.1" / "ncu")
    monkeypatch.setattr(ncu_mod, "SEARCH", (str(tmp_path / "opt" / "*" / "ncu"),))
    assert find_ncu() == str(new)  # the newest install when nothing else is set
    assert old.exists()
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert find_ncu() == str(on_path)
    monkeypatch.setenv("HIERA_NCU", str(env))
    assert find_ncu() == str(env)
    assert find_ncu(str(explicit)) == str(explicit)


def test_a_wrong_explicit_path_is_reported_not_ignored(no_ncu, tmp_path):
    with pytest.raises(ProfilerUnavailable, match=r"--ncu .*nope is not an executable ncu"):
        find_ncu(str(tmp_path / "nope"))


# --- the command line ------------------------------------------------------------------------------------

def test_collect_args_carry_the_filters_and_sections_the_mapping_needs():
    args = collect_args(CollectOptions(nvtx_include=nvtx_filter("cuda"), kernel_regex="^gemm", launch_skip=2,
                                       launch_count=1))
    joined = " ".join(args)
    assert f"--nvtx --nvtx-include {CANDIDATE_RANGE}/" in joined  # push/pop ranges need the trailing slash
    assert "-k regex:^gemm" in joined and "--launch-skip 2" in joined and "--launch-count 1" in joined
    assert "--clock-control none" in joined and "--cache-control all" in joined
    assert "--import-source yes" in joined
    for section in ("SpeedOfLight", "MemoryWorkloadAnalysis_Tables", "Occupancy", "LaunchStats", "WarpStateStats",
                    "SourceCounters", "ComputeWorkloadAnalysis", "InstructionStats", "SchedulerStats"):
        assert f"--section {section}" in joined
    metrics = args[args.index("--metrics") + 1].split(",")
    assert "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum" in metrics
    full = collect_args(CollectOptions(full_set=True, launch_count=None))
    assert "--set" in full and "--section" not in full and "--launch-count" not in full


def test_ncu_module_command_prints_the_same_flags(capsys):
    assert ncu_mod.main(["args", "--kernel", "^k$", "--skip", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == collect_args(CollectOptions(kernel_regex="^k$", launch_skip=1, launch_count=1))


# --- the whole path against the fake -------------------------------------------------------------------

def test_profile_candidate_runs_the_target_and_reads_the_pages(fake_ncu, tmp_path):
    build = tmp_path / "cache" / "ab12"
    build.mkdir(parents=True)
    artifact = build / "candidate.so"
    artifact.write_bytes(b"")
    user_file = tmp_path / "ws" / "mine.cu"
    _pages(fake_ncu.parent, str(build / "cuda_source.cu"))
    layout = {"task": "t", "args": [], "scalars": [], "outputs": [], "output_is_tuple": False}
    p = profile_candidate(tmp_path / "task.py", tmp_path / "contract", artifact, "cuda", "cuda:0",
                          ncu_path=str(fake_ncu), work_dir=tmp_path / "work", layout=layout, source_path=user_file,
                          sandboxed=False)
    collect = _calls(fake_ncu)[0]
    program = collect[collect.index("-o") + 2:]
    assert program[:3] == [sys.executable, "-m", "engine.profile.target"]
    assert program[program.index("--kind") + 1] == "cuda"
    assert json.loads(Path(program[program.index("--layout") + 1]).read_text()) == layout
    assert collect[collect.index("--nvtx-include") + 1] == "hiera_candidate/"
    assert [c[c.index("--page") + 1] for c in _calls(fake_ncu)[1:]] == ["raw", "details", "source"]
    assert p.best_direction() == "M"
    assert p.bottleneck is not None and p.bottleneck.rule == "UncoalescedGlobalAccess"
    assert [(f.file, f.line) for f in p.lines] == [(str(user_file.resolve()), 12)]
    assert p.lines[0].excessive_global_sectors == 2_000_000
    assert p.seconds is not None and p.target == str(user_file)


def test_a_profiled_candidate_runs_under_ncu_in_the_sandbox(fake_ncu, tmp_path, monkeypatch):
    """ncu and the program it launches start inside bubblewrap; the program sees the candidate in its scratch, the
    task file and hiera's packages read-only, and the report comes back through the scratch."""
    import engine.profile.ncu as ncu_mod

    for name in ("task.py", "contract/hiera_contract.h", "cache/ab12/candidate.so", "cache/ab12/cuda_source.cu"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    seen: list[list[str]] = []

    def fake_run(cmd, timeout_s, env, cwd):  # collect's ncu call, not run: what it would start is the point
        seen.append(list(cmd))
        return 1, "==ERROR== stopped by the test"

    monkeypatch.setattr(ncu_mod, "_run", fake_run)
    layout = {"task": "t", "args": [], "scalars": [], "outputs": [], "output_is_tuple": False}
    with pytest.raises(ProfilerUnavailable):
        profile_candidate(tmp_path / "task.py", tmp_path / "contract", tmp_path / "cache/ab12/candidate.so", "cuda",
                          "cuda:0", ncu_path=str(fake_ncu), work_dir=tmp_path / "work", layout=layout)
    cmd = seen[0]
    assert Path(cmd[0]).name in ("bwrap", "bwrap.bin") and ("--unshare-pid" in cmd or "--unshare-all" in cmd)
    inner = cmd[cmd.index("--") + 1:]
    if Path(inner[0]).name == "setpriv":  # hiera as root: the sandbox drops to nobody first (sandbox.py)
        inner = inner[inner.index("--") + 1:]
    assert inner[0] == str(fake_ncu) and inner[inner.index("-o") + 1] == "/sandbox/profile"
    assert inner[inner.index("--artifact") + 1] == "/sandbox/candidate.so"
    assert inner[inner.index("--task") + 1] == "/task/task.py"
    assert (tmp_path / "work" / "sandbox" / "candidate.so").exists()
    binds = {cmd[i + 2]: cmd[i + 1] for i, a in enumerate(cmd) if a == "--ro-bind"}
    assert binds["/task/task.py"] == str((tmp_path / "task.py").resolve())
    assert str(tmp_path / "ws") not in " ".join(cmd)  # nothing else of the workspace


def test_profile_reference_uses_its_own_range(fake_ncu, tmp_path):
    _pages(fake_ncu.parent, "/somewhere/else.cu")
    p = profile_reference(tmp_path / "task.py", "cuda:1", ncu_path=str(fake_ncu), work_dir=tmp_path / "w")
    collect = _calls(fake_ncu)[0]
    assert collect[collect.index("--nvtx-include") + 1] == "hiera_reference/"
    assert collect[collect.index("--device") + 1] == "cuda:1"
    assert p.target == "reference" and p.kernels[0].name == "scale_bias_columns"


def test_counter_permission_is_explained(fake_ncu, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_NCU_MODE", "perm")
    with pytest.raises(ProfilerUnavailable, match="ERR_NVGPUCTRPERM") as e:
        profile_reference(tmp_path / "task.py", "cuda:0", ncu_path=str(fake_ncu), work_dir=tmp_path / "w")
    assert "run as root or enable non-admin profiling" in str(e.value)


def test_nothing_profiled_names_the_range_and_the_filter(fake_ncu, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_NCU_MODE", "none")
    with pytest.raises(ProfilerUnavailable) as e:
        profile_reference(tmp_path / "task.py", "cuda:0", ncu_path=str(fake_ncu), work_dir=tmp_path / "w",
                          kernel_regex="^gemm")
    msg = str(e.value)
    assert "no CUDA kernel ran inside the NVTX range 'hiera_reference'" in msg and "'^gemm'" in msg


def test_a_hung_profile_times_out(fake_ncu, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_NCU_MODE", "slow")
    with pytest.raises(ProfilerUnavailable, match="timed out after 1 s"):
        profile_reference(tmp_path / "task.py", "cuda:0", ncu_path=str(fake_ncu), work_dir=tmp_path / "w",
                          timeout_s=1.0)


def test_rejected_extra_metrics_are_dropped_once_with_a_notice(fake_ncu, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_NCU_MODE", "metric")
    _pages(fake_ncu.parent, "/x.cu")
    p = profile_reference(tmp_path / "task.py", "cuda:0", ncu_path=str(fake_ncu), work_dir=tmp_path / "w")
    collects = [c for c in _calls(fake_ncu) if "-i" not in c]
    assert len(collects) == 2 and "--metrics" in collects[0] and "--metrics" not in collects[1]
    assert any("rejected some extra metrics" in n for n in p.notices)


def test_a_cpu_device_or_candidate_cannot_be_profiled(fake_ncu, tmp_path):
    with pytest.raises(ProfilerUnavailable, match="profiles CUDA kernels; the device is cpu"):
        profile_reference(tmp_path / "task.py", "cpu", ncu_path=str(fake_ncu), work_dir=tmp_path / "w")
    with pytest.raises(ProfilerUnavailable, match="a cpp candidate runs on the CPU"):
        profile_candidate(tmp_path / "t.py", tmp_path, tmp_path / "c.so", "cpp", "cuda:0", ncu_path=str(fake_ncu),
                          work_dir=tmp_path / "w")


def test_the_env_passed_to_the_target_can_import_engine(fake_ncu, tmp_path):
    from engine.profile import _env

    paths = _env()["PYTHONPATH"].split(os.pathsep)
    assert str(Path(__file__).resolve().parents[1]) in paths


# --- the ncu_report reader, isolated in a child process ------------------------------------------------------

FAKE_NCU_REPORT = '''
"""A FAKE ncu_report: the calls hiera makes, with answers shaped like those seen from 2025.3.1."""
import os, signal

class IAction:
    NameBase_FUNCTION = 1

class _Metric:
    def __init__(self, value, unit="", instances=None):
        self._v, self._u, self._inst = value, unit, instances or []
    def value(self, i=None):
        return self._v if i is None else self._inst[i][1]
    def unit(self):
        return self._u
    def has_correlation_ids(self):
        return bool(self._inst)
    def num_instances(self):
        return len(self._inst)
    def correlation_ids(self):
        return _Pcs([pc for pc, _ in self._inst])

class _Pcs:
    def __init__(self, pcs):
        self._pcs = pcs
    def as_uint64(self, i):
        return self._pcs[i]

class _Info:
    def __init__(self, line):
        self._line = line
    def file_name(self):
        return "/build/cuda_source.cu"
    def line(self):
        return self._line

METRICS = {
    "gpu__time_duration.sum": _Metric(41216, "nsecond"),
    "memory_l2_theoretical_sectors_global": _Metric(2359296, "sector", [(0x10, 2000000), (0x20, 359296)]),
    "memory_l2_theoretical_sectors_global_ideal": _Metric(327680, "sector", [(0x10, 100000), (0x20, 227680)]),
    "smsp__pcsamp_warps_issue_stalled_long_scoreboard": _Metric(90, "", [(0x10, 90)]),
}

class _Action:
    def name(self, base=None):
        return "scale_bias_columns"
    def metric_by_name(self, name):
        return METRICS.get(name)
    def rule_results_as_dicts(self):
        return [
            {"rule_identifier": "UncoalescedGlobalAccess", "section_identifier": "SourceCounters",
             "rule_message": {"title": "", "message": "Uncoalesced: see @section:SourceCounters:Source Counters@.",
                              "type": 2}, "speedup_estimation": {"type": 2, "speedup": 80.5}},
            {"rule_identifier": "IssueSlotUtilization", "rule_message": {"message": "Every scheduler ...", "type": 2},
             "speedup_estimation": {"type": 1, "speedup": 15.0}},
            {"rule_identifier": "SOLBottleneck", "rule_message": {"message": "Memory is busy.", "type": 1}},
            {"rule_identifier": "UncoalescedSharedAccess", "rule_message": {"message": "silent", "type": 0}},
        ]
    def source_info(self, pc):
        return _Info({0x10: 12, 0x20: 13}[pc])
    def source_files(self):
        return {"/build/cuda_source.cu": "\\n" * 11 + "out[i] = x[i * s];\\n}\\n"}

class _Range:
    def num_actions(self):
        return 1
    def action_by_idx(self, i):
        return _Action()

class _Context:
    def num_ranges(self):
        return 1
    def range_by_idx(self, i):
        return _Range()

def load_report(path):
    if os.environ.get("FAKE_NCU_REPORT_MODE") == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    return _Context()
'''


@pytest.fixture
def fake_ncu_report(fake_ncu):
    extras = fake_ncu.parent / "extras" / "python"
    extras.mkdir(parents=True)
    (extras / "ncu_report.py").write_text(FAKE_NCU_REPORT)
    report = fake_ncu.parent / "r.ncu-rep"
    report.write_bytes(b"fake report")
    return fake_ncu, report


def test_the_module_reader_runs_apart_and_maps_rules_and_lines(fake_ncu_report):
    from engine.profile.ncu import read_report

    ncu, report = fake_ncu_report
    data = read_report(str(ncu), report)
    assert data.reader == "ncu_report" and data.notices == ()
    [launch] = data.launches
    assert launch.kernel == "scale_bias_columns"
    assert launch.metrics["gpu__time_duration.sum"] == (41216.0, "nsecond")
    rules = {r.name: r for r in launch.rules}
    assert set(rules) == {"UncoalescedGlobalAccess", "IssueSlotUtilization", "SOLBottleneck"}  # type 0 says nothing
    assert (rules["UncoalescedGlobalAccess"].type, rules["UncoalescedGlobalAccess"].speedup_type) == ("OPT", "global")
    assert rules["UncoalescedGlobalAccess"].message == "Uncoalesced: see Source Counters."
    assert rules["IssueSlotUtilization"].speedup_type == "local"
    assert rules["SOLBottleneck"].type == "INF"
    lines = {s.line: s for s in launch.lines}
    assert lines[12].counters["l2_sectors_global"] == 2_000_000 and lines[12].text == "out[i] = x[i * s];"
    assert lines[12].counters["stall:long_scoreboard"] == 90
    assert not (ncu.parent / "calls.jsonl").exists()  # ncu itself never ran: no CSV export was needed


def test_a_crash_in_the_module_reader_falls_back_to_the_csv_pages(fake_ncu_report, monkeypatch):
    from engine.profile.ncu import read_report

    ncu, report = fake_ncu_report
    _pages(ncu.parent, "/build/cuda_source.cu")
    monkeypatch.setenv("FAKE_NCU_REPORT_MODE", "crash")
    data = read_report(str(ncu), report)
    assert data.reader == "csv" and data.launches[0].kernel == "scale_bias_columns"
    assert any("killed by signal 11" in n and "CSV exports instead" in n for n in data.notices)


# --- the CUDA toolkit's launcher (bin/ncu), as on the H200 machine ------------------------------------------

# The toolkit's bin/ncu is a shell script that looks for Nsight Compute beside the toolkit or under
# /opt/nvidia and execs it; it prints this error when it finds none. Shaped like the real one.
TOOLKIT_LAUNCHER = """#!/bin/sh
# NVIDIA Nsight Compute launcher (a stand-in shaped like the CUDA toolkit's bin/ncu)
HERE=$(dirname "$0")
for d in "$HERE"/../nsight-compute-* /opt/nvidia/nsight-compute/*; do
  if [ -x "$d/ncu" ]; then LATEST_NSIGHT_COMPUTE_TOOL_DIR=$d; fi
done
if [ -z "$LATEST_NSIGHT_COMPUTE_TOOL_DIR" ]; then
  echo "ERROR : nsight-compute directory is not found under $HERE/../ or /opt/nvidia." \\
    "Nsight Compute is not installed on your system."
  exit 1
fi
exec "$LATEST_NSIGHT_COMPUTE_TOOL_DIR/ncu" "$@"
"""

# The install's own ncu: writes the report where -o says (inside the sandbox that is the scratch) and answers
# the page exports from files beside it (read outside the sandbox, as hiera reads reports).
INSTALLED_NCU = f"""#!{sys.executable}
import sys
from pathlib import Path
args = sys.argv[1:]
here = Path(__file__).resolve().parent
if "-i" in args:
    sys.stdout.write((here / (args[args.index("--page") + 1] + ".csv")).read_text())
    sys.exit(0)
base = args[args.index("-o") + 1]
Path(base + ".ncu-rep").write_bytes(b"fake report")
print("==PROF== Report: " + base + ".ncu-rep")
"""


def _toolkit(tmp_path: Path) -> tuple[Path, Path]:
    """A CUDA toolkit folder with the launcher in bin/ and Nsight Compute installed beside it."""
    launcher = _executable(tmp_path / "cuda-13.0" / "bin" / "ncu", TOOLKIT_LAUNCHER)
    install = tmp_path / "cuda-13.0" / "nsight-compute-2025.3.1"
    (install / "sections").mkdir(parents=True)
    real = _executable(install / "ncu", INSTALLED_NCU)
    return launcher, real


def test_the_toolkits_launcher_resolves_to_the_install_it_starts(no_ncu, monkeypatch, tmp_path):
    launcher, real = _toolkit(tmp_path)
    monkeypatch.setenv("PATH", str(launcher.parent))
    assert find_ncu() == str(real)
    assert find_ncu(str(launcher)) == str(real)
    monkeypatch.setenv("HIERA_NCU", str(launcher))
    assert find_ncu() == str(real)
    link = tmp_path / "links" / "ncu"
    link.parent.mkdir()
    link.symlink_to(real)  # a symlink to an install's ncu is the install's ncu
    assert find_ncu(str(link)) == str(real)


def test_a_launcher_with_no_install_says_what_to_do(no_ncu, monkeypatch, tmp_path):
    launcher, real = _toolkit(tmp_path)
    import shutil

    shutil.rmtree(real.parent)
    monkeypatch.setattr(ncu_mod, "LAUNCHER_SEARCH", ("{toolkit}/nsight-compute-*/ncu",))
    with pytest.raises(ProfilerUnavailable, match=r"launcher for Nsight Compute.*set HIERA_NCU"):
        find_ncu(str(launcher))


def _sandboxed_profile(tmp_path: Path, ncu: str) -> object:
    for name in ("task.py", "contract/hiera_contract.h", "cache/ab12/candidate.so", "cache/ab12/cuda_source.cu"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    layout = {"task": "t", "args": [], "scalars": [], "outputs": [], "output_is_tuple": False}
    return profile_candidate(tmp_path / "task.py", tmp_path / "contract", tmp_path / "cache/ab12/candidate.so",
                             "cuda", "cuda:0", ncu_path=ncu, work_dir=tmp_path / "work", layout=layout)


BWRAP = __import__("shutil").which("bwrap")


@pytest.mark.skipif(not BWRAP, reason="needs bubblewrap (scripts/install_test_deps.sh)")
def test_a_sandboxed_profile_works_through_the_toolkits_launcher(no_ncu, monkeypatch, tmp_path):
    """On the H200 machine `ncu` on PATH is the toolkit's launcher: inside the sandbox it could not see the install
    and every profile failed. The launcher now resolves to the install, which the sandbox binds whole."""
    monkeypatch.setenv("HIERA_BWRAP", str(BWRAP))  # no_ncu empties PATH
    launcher, real = _toolkit(tmp_path)
    _pages(real.parent, "/sandbox/cuda_source.cu")
    # Positive control: the launcher itself, as hiera ran it before, fails inside the sandbox exactly as there.
    monkeypatch.setattr(ncu_mod, "real_ncu", lambda p: p)
    with pytest.raises(ProfilerUnavailable, match="nsight-compute directory is not found"):
        _sandboxed_profile(tmp_path / "before", str(launcher))
    monkeypatch.setattr(ncu_mod, "real_ncu", real_ncu)
    p = _sandboxed_profile(tmp_path / "after", str(launcher))
    assert p.best_direction() == "M"  # the pages were read: the report came back from the sandbox


def test_the_collection_summary_reads_passes_and_the_programs_timeline():
    from engine.profile.ncu import collection_summary
    from engine.profile.target import TIMELINE

    out = "\n".join([
        "==PROF== Connected to process 4242 (/usr/bin/python3.12)",
        '==PROF== Profiling "scale_bias_relu_kernel": 0%....50%....100% - 38 passes',
        '==PROF== Profiling "void at::native::vectorized_elementwise_kernel<4, ...>(...)": 0%....100% - 41 passes',
        TIMELINE + '{"import_s": 2.1, "task_s": 2.9, "warmup_s": 3.0, "profiled_s": 6.5}',
        "==PROF== Disconnected from process 4242",
    ])
    s = collection_summary(out)
    assert s["kernels"] == 2 and s["passes"] == 79
    assert s["target"] == {"import_s": 2.1, "task_s": 2.9, "warmup_s": 3.0, "profiled_s": 6.5}
    assert collection_summary("no kernels here") == {"kernels": 0, "passes": 0}
