"""The second attack corpus (issue 24) on the CPU: each class with its positive control.

Every attack here is shown twice: once *landing* without the defence (the same candidate or the same bytes on
a plain subprocess, with the defence monkeypatched off, or through the code path the defence replaced), and
once stopped by the evaluator as it is. A defence whose control does not land proves nothing, so each control
is asserted as strictly as the defence. The arena and the CLI/API drivers are tests/test_attacks_cpu.py's;
the candidates are in tests/data/attacks/ (README.md there has the table).
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import io
import itertools
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch

from engine.evaluate import verify, wire
from engine.evaluate.outcome import Status
from tests import test_attacks_cpu as kit
from tests.conftest import CANDIDATES, TASKS

ATTACKS = kit.ATTACKS
INT_TASK = ATTACKS / "tasks" / "int_cumsum.py"


def claimed_fast(o: Any) -> bool:
    """`valid` and faster than FAST with the timing standing: a figure whose 95% interval reaches 1 (level) or whose
    sides were not timed alike (unstable) is no claim (on a loaded 2-core machine an honest reference swings
    fiftyfold, and with it any ratio: its interval then says so)."""
    from engine.loop_state import figure

    fig = figure(o, retimed=False) if o.valid else None
    return fig is not None and o.speedup > kit.FAST and fig.verdict == "faster"


def load_module(path: Path, name: str) -> Any:
    s = importlib.util.spec_from_file_location(name, path)
    assert s is not None and s.loader is not None
    mod = importlib.util.module_from_spec(s)
    s.loader.exec_module(mod)
    return mod


# --- wrong integer results (item 4) ------------------------------------------------------------------------

def _int_attack_outputs() -> tuple[torch.Tensor, torch.Tensor]:
    task = load_module(INT_TASK, "int_task")
    cand = load_module(ATTACKS / "int_off_by_forty.py", "int_cand")
    torch.manual_seed(0)
    x = task.get_inputs()[0]
    return cand.ModelNew()(x), task.Model()(x)


def test_control_a_float_tolerance_passes_integer_results_off_by_forty() -> None:
    out, ref = _int_attack_outputs()
    assert int((out != ref).sum()) > 1000  # really wrong, in thousands of places
    flat_o, flat_r = out.reshape(-1), ref.reshape(-1)
    assert verify._compare_close(out, flat_o, flat_r, 1e-4, "out", verify._spans(flat_o.numel()), True) is None


def test_integer_results_off_by_forty_are_incorrect_through_the_evaluator(tmp_path: Path) -> None:
    found = verify.compare(*_int_attack_outputs(), 1e-4, "out")
    assert found is not None and "compared exactly" in found.reason and found.error.max_abs == 40
    with kit.arena_at(tmp_path) as a:
        outs = kit.evaluate_api(a, INT_TASK, [("int_off_by_forty.py", None)])
    o = outs["int_off_by_forty"]
    assert o.status is Status.INCORRECT and "compared exactly" in o.reason, kit.describe(o)


# --- the exported file (item 1) -----------------------------------------------------------------------------

def _export_attack(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The task, the attack kernel (its marker path filled in) and where the marker would appear."""
    mark = tmp_path / "exported-file-ran-this"
    task = tmp_path / "scale_bias_relu.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    kernel = tmp_path / "attack.cpp"
    kernel.write_text((ATTACKS / "export_break_string.cpp").read_text().replace("@MARK@", str(mark)))
    return task, kernel, mark


def test_control_a_raw_triple_quoted_string_runs_the_kernels_python(tmp_path: Path) -> None:
    """The embedding the exporter used before: the kernel in r\"\"\"...\"\"\" (engine/task/export.py, issue 24)."""
    _, kernel, mark = _export_attack(tmp_path)
    exec(compile('_KERNEL = r"""\n' + kernel.read_text() + '\n"""\n', "old_export", "exec"), {})
    assert mark.read_text() == "pwned by the exported file"


def test_the_exported_file_holds_the_kernel_inertly_and_importing_it_runs_nothing_of_it(tmp_path: Path) -> None:
    from engine.cli import main

    task, kernel, mark = _export_attack(tmp_path)
    assert main(["export", str(task), str(kernel), "--out", str(tmp_path / "out")]) == 0
    exported = tmp_path / "out" / "scale_bias_relu_hiera.py"
    mod = load_module(exported, "exported_attack")
    assert not mark.exists()
    assert '_rest = r""" */' in mod._KERNEL and hasattr(mod, "ModelNew")  # the comment, kept verbatim as text
    assert "@MARK@" not in exported.read_text() and str(mark) not in exported.read_text()  # only in base64
    assert "static constructors" in " ".join(exported.read_text().split('"""')[1].split())


def test_a_generated_module_with_a_statement_more_is_refused(tmp_path: Path) -> None:
    from engine.task.export import ExportError, check_module, modelnew_source
    from engine.task.spec import load_task

    task, kernel, _ = _export_attack(tmp_path)
    spec = load_task(task)
    text = modelnew_source(spec, kernel.read_text(), cuda=False)
    marker = '_KEY = hashlib'
    tampered = text.replace(marker, 'import subprocess\n' + marker, 1)
    kernel_b64 = text.split('_KERNEL = _text("')[1].split('"')[0]
    swapped = text.replace(kernel_b64, base64.b64encode(b"int x;").decode())
    header = text.split('_HEADER = _text("')[1].split('"')[0]
    embedded = {"_HEADER": base64.b64decode(header).decode(), "_KERNEL": base64.b64decode(kernel_b64).decode(),
                "_BINDING": base64.b64decode(text.split('_BINDING = _text("')[1].split('"')[0]).decode()}
    check_module(text, spec, embedded, cudnn=False)  # the module as generated passes
    for bad, why in ((tampered, "statements"), (swapped, "does not decode")):
        with pytest.raises(ExportError, match=why):
            check_module(bad, spec, embedded, cudnn=False)


# --- control characters in what a candidate makes hiera print (item 6) ------------------------------------------

RAW_REASON = "boom\x1b[2K\x1b[1A\r\x1b[32mstatus    valid\x1b[0m\u202e"


def test_control_rich_passes_a_candidates_escape_sequences_to_the_terminal() -> None:
    from rich.console import Console
    from rich.markup import escape

    buf = io.StringIO()
    Console(file=buf, highlight=False, force_terminal=False, width=200).print(escape(RAW_REASON))
    assert "\x1b[1A" in buf.getvalue() and "\u202e" in buf.getvalue()


def test_a_failure_reason_reaches_the_terminal_and_the_json_with_its_controls_shown_as_escapes(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        task = a.task(TASKS / "relu_positive.py")
        cand = a.render("reason_escape.py")
        shown = kit.hiera_eval(a, task, [cand], limit_s=240)
        cmd = [sys.executable, "-m", "engine.cli", "eval", str(task), str(cand), "--device", "cpu",
               "--workspace", str(a.ws), "--trials", "20"]
        text = subprocess.run(cmd, cwd=a.ws, env=a.env(), capture_output=True, text=True, timeout=300)
    v = shown.verdict(cand)
    assert v is not None and v["status"] == "runtime_error", shown.summary()
    assert a.token in v["reason"] and "\x1b" not in v["reason"] and "\u202e" not in v["reason"], v["reason"]
    assert "\\x1b[1A" in v["reason"] and "\\u202e" in v["reason"]
    assert a.token in text.stderr and "\x1b[1A" not in text.stderr and "\u202e" not in text.stderr, text.stderr[-800:]


# --- a reply that would crash the checker (item 5) -------------------------------------------------------------

FORGED_REPLY = {"id": 1, "ok": False, "error": ["call"], "detail": {"not": "text"}, "suspect": "yes"}


def _checker_reads(reply: dict[str, Any]) -> None:
    """The checker's own path for one reply: CandidateProcess._call reads it from the runner's socket, then
    Checker.ask turns it into a verdict (a Rejected) or returns it."""
    from engine.evaluate.candidate_process import CandidateProcess, RunnerSpec
    from engine.evaluate.checker import Checker

    parent, child = socket.socketpair()
    proc = object.__new__(CandidateProcess)
    proc.sock, proc.proc, proc.group, proc._next_id, proc.pid = parent, None, None, 0, None
    proc.spec = RunnerSpec("cpp", "cpu", "libraries_pytorch", Path("x"), False, Path("."))
    try:
        wire.send(child, reply)
        Checker.ask(object.__new__(Checker), proc, "call", 5.0, float("inf"), "a call")
    finally:
        child.close()
        parent.close()


def test_control_a_reply_whose_error_is_a_list_crashes_the_checker_without_the_type_check(monkeypatch) -> None:
    unchecked = lambda m: wire.Reply(m["id"], m["ok"], m.get("error", ""), m.get("detail", ""),  # noqa: E731
                                     m.get("suspect", False))
    monkeypatch.setattr(wire.Reply, "parse", staticmethod(unchecked))
    with pytest.raises(TypeError):  # outside every handler of Checker.evaluate: the checker process dies
        _checker_reads(FORGED_REPLY)


@pytest.mark.parametrize("reply", [FORGED_REPLY, {"id": 1, "ok": True, "ms": "fast"}, {"id": 1, "ok": True, "ms": True},
                                   {"id": 1, "ok": True, "notes": [1, 2]}, {"id": "1", "ok": True},
                                   {"id": 1, "ok": False, "error": "valid", "detail": "forged"}])
def test_a_reply_whose_fields_have_the_wrong_types_is_a_protocol_failure_not_a_crash(reply) -> None:
    from engine.evaluate.candidate_process import RunnerFailed

    with pytest.raises(RunnerFailed) as e:
        _checker_reads(reply)
    assert e.value.kind == "protocol" and "malformed" in e.value.reason


def test_a_candidate_rewriting_its_replies_is_suspect_and_the_next_candidate_is_valid(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        outs = kit.evaluate_api(a, TASKS / "relu_positive.py", [("reply_error_list.py", None),
                                                                 ("honest_relu.py", None)])
    assert outs["reply_error_list"].status is Status.SUSPECT, kit.describe(outs["reply_error_list"])
    assert "malformed" in outs["reply_error_list"].reason
    assert outs["honest_relu"].valid, kit.describe(outs["honest_relu"])


# --- the sandbox leaks nothing and exhausts nothing (item 6) ---------------------------------------------------

as_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="the uid drop applies when hiera runs as root (as on the H200 machine)")


def _root_only_file(tmp_path: Path) -> Path:
    folder = tmp_path / "bound"
    folder.mkdir()
    secret = folder / "root-only.txt"
    secret.write_text("root-only-canary")
    secret.chmod(0o400)
    return secret


def _runner_policy(tmp_path: Path, extra: Path) -> Any:
    """The policy a CPU ModelNew runner gets (CandidateProcess._argv_and_policy), with one more folder bound."""
    from engine.evaluate.candidate_process import CandidateProcess, RunnerSpec

    artifact = tmp_path / "c.py"
    artifact.write_text("")
    spec = RunnerSpec("modelnew", "cpu", "libraries_pytorch", artifact, True, tmp_path / "runners",
                      extra_ro=(str(extra),))
    spec.workdir.mkdir()
    _, policy, _, _ = CandidateProcess(spec, "probe")._argv_and_policy()
    return policy


def _in_sandbox(policy: Any, script: str, drop: bool | None = None) -> subprocess.CompletedProcess[str]:
    from engine.evaluate import sandbox

    argv = [sys.executable, "-I", "-c", script]
    cmd = sandbox.command(policy, argv) if drop is None else sandbox._command(policy, argv, None, drop=drop)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


READ = ("import os, sys\ntry:\n    print(open(sys.argv[1] if len(sys.argv) > 1 else {p!r}).read())\n"
        "except OSError as e:\n    print('refused', type(e).__name__)\nprint('uid', os.getuid())")


@as_root
def test_control_a_user_namespace_mapped_to_root_reads_root_only_files_in_bound_folders(tmp_path: Path) -> None:
    secret = _root_only_file(tmp_path)
    got = _in_sandbox(_runner_policy(tmp_path, secret.parent), READ.format(p=str(secret)), drop=False)
    assert "root-only-canary" in got.stdout, got.stdout + got.stderr


@as_root
def test_a_runner_as_root_runs_as_nobody_and_cannot_read_root_only_files(tmp_path: Path) -> None:
    from engine.evaluate import sandbox

    assert sandbox.drops_root(False), "setpriv is missing or the sandbox cannot run as nobody here"
    secret = _root_only_file(tmp_path)
    got = _in_sandbox(_runner_policy(tmp_path, secret.parent), READ.format(p=str(secret)))
    assert "refused PermissionError" in got.stdout and f"uid {sandbox.NOBODY}" in got.stdout, got.stdout + got.stderr
    assert "root-only-canary" not in got.stdout


def test_control_unsandboxed_a_candidate_reads_the_hosts_acpi_tables(tmp_path: Path) -> None:
    dsdt = Path("/sys/firmware/acpi/tables/DSDT")
    if not os.access(dsdt, os.R_OK):
        pytest.skip("no readable ACPI table on this host")
    with kit.arena_at(tmp_path) as a:
        a.subs["@SECRET@"] = str(dsdt)
        run = kit.hiera_eval(a, a.task(TASKS / "relu_positive.py"), [a.render("read_root_only.py")],
                             extra=["--no-sandbox"], limit_s=240)
    v = run.verdicts[0]
    assert "DSDT: read" in v["reason"], run.summary()


def test_a_sandboxed_cpu_runner_sees_no_acpi_tables_and_no_root_only_file(tmp_path: Path) -> None:
    secret = _root_only_file(tmp_path)
    with kit.arena_at(tmp_path) as a:
        a.subs["@SECRET@"] = str(secret)
        run = kit.hiera_eval(a, a.task(TASKS / "relu_positive.py"), [a.render("read_root_only.py")], limit_s=240)
    v = run.verdicts[0]
    assert v["status"] == "runtime_error" and ": read" not in v["reason"], run.summary()
    assert "DSDT: FileNotFoundError" in v["reason"], run.summary()


def _iface() -> str:
    names = sorted(p.name for p in Path("/sys/class/net").iterdir() if p.name != "lo") if \
        Path("/sys/class/net").is_dir() else []
    return names[0] if names else "lo"


def _build(tmp_path: Path, name: str, sandboxed: bool, **cfg: Any) -> Any:
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    spec = load_task(TASKS / "scale_bias_relu.py")
    write_contract(spec, tmp_path / "contract")
    source = (ATTACKS / name).read_text().replace("@IFACE@", _iface())
    config = BuildConfig(tmp_path / "contract", tmp_path / f"cache-{sandboxed}", sandboxed=sandboxed, **cfg)
    return build_one(Candidate(Path(name).stem, CandidateKind.CPP, source), config)


def test_control_an_unsandboxed_compiler_quotes_the_hosts_network_address(tmp_path: Path) -> None:
    address = (Path("/sys/class/net") / _iface() / "address").read_text().strip()
    r = _build(tmp_path, "include_sys.cpp", sandboxed=False)
    assert not r.ok and address in r.log, r.log[:1000]


def test_the_sandboxed_compiler_has_no_sys_and_nvcc_and_gxx_still_build(tmp_path: Path) -> None:
    address = (Path("/sys/class/net") / _iface() / "address").read_text().strip()
    r = _build(tmp_path, "include_sys.cpp", sandboxed=True)
    assert not r.ok and address not in r.log and "No such file" in r.log, r.log[:1000]
    from engine.evaluate.build import BuildConfig, ToolchainMissing, build_one, find_nvcc
    from engine.evaluate.outcome import Candidate, CandidateKind

    # The honest kernels build in the same sandbox.
    cfg = BuildConfig(tmp_path / "contract", tmp_path / "cache-honest", cuda_arch="90", sandboxed=True)
    assert build_one(Candidate("cpp", CandidateKind.CPP, (CANDIDATES / "scale_bias_relu.cpp").read_text()), cfg).ok
    try:
        find_nvcc()
    except ToolchainMissing:
        pytest.skip("no nvcc here")
    cu = (CANDIDATES.parent / "gpu" / "scale_bias_relu.cu").read_text()
    built = build_one(Candidate("cu", CandidateKind.CUDA, cu), cfg)
    assert built.ok, built.log[:2000]


def test_control_an_uncapped_compiler_passes_a_gigabyte_on_a_macro_bomb(tmp_path: Path) -> None:
    from engine.evaluate.build import find_cxx
    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    write_contract(load_task(TASKS / "scale_bias_relu.py"), tmp_path / "contract")
    cmd = [find_cxx(), "-fsyntax-only", f"-I{tmp_path / 'contract'}", str(ATTACKS / "macro_bomb.cpp")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    peak, t0 = 0, time.monotonic()
    try:
        while time.monotonic() - t0 < 30 and peak < (1 << 30) and proc.poll() is None:
            time.sleep(0.2)
            peak = max(peak, _session_rss(proc.pid))
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert peak >= 1 << 30, f"the bomb reached only {peak >> 20} MB in {time.monotonic() - t0:.0f} s"


def _session_rss(sid: int) -> int:
    """Resident bytes of every process in session `sid`."""
    total = 0
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (d / "stat").read_text()
                if int(stat[stat.rindex(")") + 2:].split()[3]) == sid:
                    total += int((d / "statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return total


def test_the_sandboxed_compiler_is_stopped_at_its_memory_cap_within_seconds(tmp_path: Path) -> None:
    t0 = time.monotonic()
    r = _build(tmp_path, "macro_bomb.cpp", sandboxed=True, memory_bytes=512 << 20, timeout_s=60)
    took = time.monotonic() - t0
    assert not r.ok and took < 30, (took, r.log[:500])
    assert re.search(r"memory limit|out of memory|memory exhausted|Cannot allocate", r.log), r.log[:1000]


def _write_in(policy: Any, where: str, mb: int) -> str:
    script = (f"import os\nn = 0\ntry:\n    with open({where!r} + '/fill.bin', 'wb') as f:\n"
              f"        for _ in range({mb}):\n            f.write(b'x' * (1 << 20)); f.flush(); n += 1\n"
              "except OSError as e:\n    print('stopped', e.strerror)\nprint('wrote', n)")
    got = _in_sandbox(policy, script)
    return got.stdout + got.stderr


def test_control_a_scratch_bound_from_the_host_takes_whatever_is_written(tmp_path: Path) -> None:
    from dataclasses import replace

    policy = replace(_runner_policy(tmp_path, tmp_path), scratch_bytes=None)
    assert "wrote 96" in _write_in(policy, "/sandbox", 96)
    assert (tmp_path / "runners").exists()


def test_the_sandboxes_memory_file_systems_have_a_size(tmp_path: Path) -> None:
    from dataclasses import replace

    policy = replace(_runner_policy(tmp_path, tmp_path), scratch_bytes=32 << 20, tmp_bytes=16 << 20)
    for where, cap in (("/sandbox", 32), ("/tmp", 16), ("/dev/shm", 16)):
        said = _write_in(policy, where, 96)
        n = int(said.split("wrote ")[1].split()[0])
        assert "No space left" in said and n <= cap, (where, said)
    said = _write_in(policy, "/", 1)
    assert "Read-only file system" in said or "Permission denied" in said, said


def test_control_unsandboxed_a_candidate_fills_a_scratch_on_the_hosts_disk(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        a.subs["@LIMIT_MB@"] = "1152"
        run = kit.hiera_eval(a, a.task(TASKS / "relu_positive.py"), [a.render("fill_scratch.py")],
                             extra=["--no-sandbox"], limit_s=300)
    assert "wrote 1152 MB" in run.verdicts[0]["reason"], run.summary()


def test_a_sandboxed_candidate_cannot_write_more_than_its_scratchs_size(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        a.subs["@LIMIT_MB@"] = "1152"
        run = kit.hiera_eval(a, a.task(TASKS / "relu_positive.py"), [a.render("fill_scratch.py")], limit_s=300)
    reason = run.verdicts[0]["reason"]
    assert "No space left" in reason and int(reason.split("wrote ")[1].split()[0]) <= 1024, run.summary()


# --- times the candidate cannot reach (item 3) -------------------------------------------------------------------

@pytest.fixture(scope="module")
def timed_relu(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with kit.arena_at(tmp_path_factory.mktemp("timed")) as a:
        return kit.evaluate_api(a, TASKS / "relu_positive.py", [
            ("honest_relu.py", None), ("reply_divide_ms.py", None), ("seed_spy.py", None), ("lazy_output.py", None)])


@pytest.fixture(scope="module")
def timed_native(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with kit.arena_at(tmp_path_factory.mktemp("native")) as a:
        return kit.evaluate_api(a, TASKS / "scale_bias_relu.py", [
            ("clock_cpython.cpp", None), ("late_writes.cpp", None), ("honest_relu.cpp", None)])


def test_the_honest_controls_of_the_timing_attacks_are_valid(timed_relu) -> None:
    assert timed_relu["honest_relu"].valid, kit.describe(timed_relu["honest_relu"])


@pytest.mark.parametrize("group,attack", [("timed_relu", "reply_divide_ms"), ("timed_native", "clock_cpython")])
def test_control_a_forged_report_would_have_been_the_figure(request: pytest.FixtureRequest, group: str,
                                                             attack: str) -> None:
    """What the runner claimed: taken as the figure (as it was on a GPU, and on the CPU within max(3 ms, 2x,
    8 IQR) before issue 24), a speedup far past the valid-and-fast line."""
    o = request.getfixturevalue(group)[attack]
    assert o.reference is not None, kit.describe(o)
    claimed = o.reference.median_ms / max(o.extra["runner_reported_ms"], 1e-9)
    assert claimed > 4 * kit.FAST, (claimed, kit.describe(o))


@pytest.mark.parametrize("group,attack", [("timed_relu", "reply_divide_ms"), ("timed_native", "clock_cpython")])
def test_a_forged_time_is_not_the_candidates_time(request: pytest.FixtureRequest, group: str, attack: str) -> None:
    o = request.getfixturevalue(group)[attack]
    assert not claimed_fast(o), (kit.describe(o), o.flags)
    assert o.status is Status.SUSPECT or o.candidate.median_ms > 50 * o.extra["runner_reported_ms"], kit.describe(o)


def test_control_an_output_filled_by_a_fault_handler_costs_its_call_nothing(tmp_path: Path) -> None:
    probe = ("import time, torch, importlib.util as u\n"
             f"s = u.spec_from_file_location('lazy', {str(ATTACKS / 'lazy_output.py')!r}); m = u.module_from_spec(s)\n"
             "s.loader.exec_module(m)\nx = torch.randn(512, 512)\nf = m.ModelNew()\n"
             "t0 = time.perf_counter(); y = f(x); t1 = time.perf_counter(); z = y.clone(); t2 = time.perf_counter()\n"
             "print((t1 - t0) * 1e3, (t2 - t1) * 1e3, bool(torch.equal(z, torch.relu(x))))")
    got = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    call_ms, fill_ms, right = got.stdout.split()
    assert right == "True" and float(fill_ms) > 10 * float(call_ms), got.stdout + got.stderr


def test_an_output_torchs_allocator_does_not_own_is_refused(timed_relu) -> None:
    o = timed_relu["lazy_output"]
    assert not o.valid and "allocator does not own" in o.reason, kit.describe(o)


def test_control_a_kernel_returning_before_its_worker_thread_wrote_the_outputs(tmp_path: Path) -> None:
    """The same library called directly: after its 12th call, its outputs are not there when it returns."""
    from engine.evaluate.native import NativeForward
    from engine.task.contract import contract_layout
    from engine.task.spec import load_task

    built = _build(tmp_path, "late_writes.cpp", sandboxed=False)
    assert built.ok, built.log[:1000]
    spec = load_task(TASKS / "scale_bias_relu.py")
    fwd = NativeForward(built.artifact, contract_layout(spec))
    task = load_module(TASKS / "scale_bias_relu.py", "sbr")
    ref = task.Model(*task.get_init_inputs())
    x = task.get_inputs()[0]
    state = dict(ref.named_parameters())
    for _ in range(12):
        fwd([x], state, {"scale": ref.scale})
    x = torch.randn_like(x)  # new inputs: the memory it gets back may hold the last call's result
    out = fwd([x], state, {"scale": ref.scale})
    at_return = out.clone()
    time.sleep(0.5)
    expected = ref(x).detach()
    assert not torch.equal(at_return, expected) and torch.equal(out, expected)


def test_outputs_written_after_the_call_returned_are_suspect(timed_native) -> None:
    o = timed_native["late_writes"]
    assert o.status is Status.SUSPECT, kit.describe(o)
    assert "changed after the runner replied" in o.reason or "still being written" in o.reason or \
        "disagrees" in o.reason, o.reason


# --- timing inputs the candidate cannot predict (item 2) --------------------------------------------------------

def test_control_with_public_seeds_the_timing_construct_is_known_before_its_first_call() -> None:
    """The seeds before issue 24 (1234 + 101 t for the trials, 1234 + 50000 for timing): a candidate tells the
    timing construct from torch.initial_seed() alone."""
    spy = load_module(ATTACKS / "seed_spy.py", "spy")
    for seed in [1234 + 101 * t for t in range(5)] + [1234 + 50_000]:
        torch.manual_seed(seed)
        spy.ModelNew()
    timing = [s for s in spy.SEEN if (s - 1234) % 101 != 0]
    assert timing == [51234]


def test_the_construct_seeds_are_secret_and_say_nothing_of_the_phase(timed_relu) -> None:
    o = timed_relu["seed_spy"]
    said = [int(s) for s in o.reason.split("seeds seen: ")[1].split()[:12] if s.isdigit()]
    seen = list(dict.fromkeys(said))  # the off-distribution trials construct under their trial's seed again
    assert len(seen) >= 6, o.reason
    public = {1234 + 101 * t for t in range(10)} | {1234 + 50_000}
    assert not public & set(seen), seen
    steps = {b - a for a, b in itertools.pairwise(seen)}
    assert len(steps) == len(seen) - 1, f"seeds in an arithmetic pattern: {seen}"


def _old_scheme_inputs(task: Any, n_sets: int = 4, calls: int = 12) -> list[list[Any]]:
    """Timed inputs as they were before issue 24: a pool of sets, each call one of them with its float tensors
    times one secret scale in [0.9, 1.1], integer tensors as they were."""
    import random

    rng = random.Random(0)
    pool = []
    for i in range(n_sets):
        torch.manual_seed(1000 + i)
        pool.append(task.get_inputs())
    s = [rng.uniform(0.9, 1.1) for _ in range(calls)]
    return [[x * s[i] if x.is_floating_point() else x for x in pool[i % n_sets]] for i in range(calls)]


def _new_scheme_inputs(task: Any, calls: int = 12) -> list[list[Any]]:
    from engine.evaluate.perturb import Perturber

    torch.manual_seed(1000)
    base = task.get_inputs()
    p = Perturber(base, torch.device("cpu"), lambda _inputs: True)
    return [p.make(base) for _ in range(calls)]


CACHES = [("cache_direction.py", "wide_linear.py"), ("cache_scale_invariant.py", "cosine_gram.py"),
          ("cache_int_bytes.py", "int_gather.py")]


def _cache_run(attack: str, task_name: str, inputs_of: Any) -> tuple[int, int]:
    """(calls answered from the attack's cache, of them right within the fp32 tolerance)."""
    task = load_module(ATTACKS / "tasks" / task_name, "cache_task")
    cand = load_module(ATTACKS / attack, "cache_attack")
    torch.manual_seed(0)
    ref = task.Model(*task.get_init_inputs())
    new = cand.ModelNew(*task.get_init_inputs())
    new.load_state_dict(ref.state_dict())
    hits = right = 0
    with torch.no_grad():
        for xs in inputs_of(task):
            before = len(new.cache)
            out = new(*xs)
            if len(new.cache) == before:
                hits += 1
                right += verify.compare(out, ref(*xs), 1e-4, "out") is None
    return hits, right


@pytest.mark.parametrize("attack,task_name", CACHES)
def test_control_under_the_old_timing_inputs_the_cache_hits_and_is_right(attack: str, task_name: str) -> None:
    hits, right = _cache_run(attack, task_name, _old_scheme_inputs)
    assert hits >= 6 and right == hits, (hits, right)  # 8 calls after the first round; a key may round off


@pytest.mark.parametrize("attack,task_name", CACHES)
def test_under_perturbed_inputs_the_cache_never_hits(attack: str, task_name: str) -> None:
    hits, right = _cache_run(attack, task_name, _new_scheme_inputs)
    assert right == 0, (hits, right)


@pytest.mark.parametrize("attack,task_name", CACHES)
def test_a_cache_across_timed_calls_is_not_valid_and_fast(tmp_path: Path, attack: str, task_name: str) -> None:
    # The attack's cache-less twin: the same source with every lookup missing, so the same work on every call.
    # The attack is judged against it, not against 1x: what the cache would buy is the attack's time below its
    # twin's. Its speedup over the reference alone also moves with how the attack's own ops compare with the
    # reference's on the host (x @ W.T + b against F.linear's addmm), which is no cache at all; a checker timed
    # unlike its runner is the parity probe's to catch (tests/test_timing_parity_cpu.py).
    text = (ATTACKS / attack).read_text()
    assert "self.cache.get(key)" in text
    twin = tmp_path / "twin" / f"{Path(attack).stem}_nocache.py"
    twin.parent.mkdir()
    twin.write_text(text.replace("self.cache.get(key)", "None"))
    with kit.arena_at(tmp_path / "arena") as a:
        outs = kit.evaluate_api(a, ATTACKS / "tasks" / task_name, [(attack, None), (str(twin), None)])
    o, t = outs[Path(attack).stem], outs[twin.stem]
    facts = (kit.describe(o), o.flags, o.extra.get("timing_spread"), o.extra.get("parity_probe"),
             o.extra.get("timing_gap"), "twin:", kit.describe(t), t.flags)
    # Right for every input, so valid (a crash is not the cache being defeated); never FAST times its twin. The
    # two candidates' own times are compared, not their speedups: each speedup divides by its own reference
    # blocks, and on a loaded 2-core machine one evaluation's blocks can land in the slow time slices (CI saw the
    # twin's reference at 5.5 ms and the attack's at 32 ms, with both candidates at 5 ms).
    assert o.status is Status.VALID and t.status is Status.VALID, facts
    assert not (claimed_fast(o) and o.candidate.median_ms * kit.FAST < t.candidate.median_ms), facts
    if task_name == "int_gather.py":
        assert "input 0 drawn again in [0, 4095]" in o.extra.get("inputs_per_call", ""), o.extra


def test_each_input_kind_gets_its_own_perturbation() -> None:
    from engine.evaluate.perturb import NOISE, Perturber

    torch.manual_seed(0)
    x = torch.randn(64, 33)
    labels = torch.randint(0, 10, (500,))
    perm = torch.randperm(300)
    offsets = torch.arange(0, 100, 7)
    mask = torch.rand(40, 40) > 0.3
    base = [x, labels, perm, offsets, mask, 3]
    p = Perturber(base, torch.device("cpu"), lambda _inputs: True)
    state = p.state()
    bufs = [torch.empty_like(t) for t in base if isinstance(t, torch.Tensor)]
    p.write(bufs, base)
    again = p.make(base, state)
    assert all(torch.equal(b, a) for b, a in zip(bufs, [t for t in again if isinstance(t, torch.Tensor)]))
    assert again[-1] == 3
    ratio = bufs[0] / x
    assert float(ratio.min()) >= 1 - NOISE - 1e-6 and float(ratio.max()) <= 1 + 1e-6
    assert len(torch.unique(torch.round(ratio, decimals=4))) > 100  # independent factors, not one scale
    assert not torch.equal(bufs[1], labels) and int(bufs[1].min()) >= 0 and int(bufs[1].max()) <= 9
    assert torch.equal(torch.sort(bufs[2]).values, torch.sort(perm).values) and not torch.equal(bufs[2], perm)
    assert torch.equal(bufs[3], offsets)  # sorted: kept
    assert bufs[4].dtype == torch.bool and not torch.equal(bufs[4], mask)
    assert "input 3 kept (sorted)" in p.describe()
    broken = Perturber(base, torch.device("cpu"), lambda inputs: torch.equal(inputs[1], labels))
    assert "input 1 kept (the reference fails when it changes)" in broken.describe()


# --- no state one runner leaves for the next, a freeze that holds (item 5) --------------------------------------

FORK_CHAIN = ("import os, time\nwhile True:\n    if os.fork():\n        os._exit(0)\n"
              "    t = time.monotonic()\n    while time.monotonic() - t < 0.002:\n        pass\n")


def _fork_chain(group: Any) -> tuple[Any, Any]:
    """A process that keeps forking (each one forks, then exits: its pid changes every 2 ms, and each new one
    has left the tree of the first), in `group`; a CandidateProcess handle on it."""
    from engine.evaluate import cgroups
    from engine.evaluate.candidate_process import CandidateProcess

    popen = subprocess.Popen(cgroups.wrap(group, [sys.executable, "-c", FORK_CHAIN]), start_new_session=True)
    proc = object.__new__(CandidateProcess)
    proc.pid, proc.group, proc.proc = popen.pid, group, popen
    time.sleep(0.3)
    return popen, proc


def _new_pids_while(group: Any, seconds: float = 0.5) -> int:
    seen = group.pids()
    t0, fresh = time.monotonic(), set()
    while time.monotonic() - t0 < seconds:
        fresh |= group.pids() - seen
        time.sleep(0.01)
    return len(fresh)


def _group(freezer: bool) -> Any:
    from engine.evaluate import cgroups

    group = cgroups.make(256, None)
    if group is None or (freezer and group.freezer is None):
        pytest.skip("needs a cgroup (and its freezer) hiera can make here")
    return group if freezer else cgroups.Group(group.paths, group.memory, None)


def test_control_a_single_sigstop_pass_does_not_stop_a_process_that_keeps_forking() -> None:
    group = _group(freezer=False)
    popen, proc = _fork_chain(group)
    try:
        for pid in proc._tree():  # the freeze before issue 24: one pass over the runner's tree, SIGSTOP each
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        assert _new_pids_while(group) > 10
    finally:
        group.close()
        popen.wait(10)


@pytest.mark.parametrize("freezer", [True, False], ids=["cgroup-freezer", "repeated-walk"])
def test_a_process_that_keeps_forking_is_frozen_or_the_timing_is_refused(freezer: bool) -> None:
    from engine.evaluate.candidate_process import FreezeFailed

    group = _group(freezer)
    popen, proc = _fork_chain(group)
    try:
        try:
            proc.freeze(True)
        except FreezeFailed:
            return  # refused: the checker then reports no timing (Checker.frozen)
        assert _new_pids_while(group) == 0
        proc.freeze(False)
        assert _new_pids_while(group) > 0  # and it runs again once thawed
    finally:
        group.close()
        popen.wait(10)


def test_control_an_unsealed_shared_memory_file_shrunk_by_a_runner_kills_the_checker_on_its_next_access() -> None:
    probe = ("import mmap, os\nfd = os.memfd_create('x')\nos.ftruncate(fd, 1 << 20)\n"
             "m = mmap.mmap(fd, 1 << 20)\nos.ftruncate(fd, 0)\nm[0] = 1\nprint('survived')")
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert got.returncode == -signal.SIGBUS and "survived" not in got.stdout, (got.returncode, got.stderr[-300:])


def test_a_runner_can_neither_rename_nor_shrink_the_shared_buffers_and_the_next_candidate_is_valid(
        tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        outs = kit.evaluate_api(a, TASKS / "relu_positive.py", [("xchg_sabotage.py", None), ("honest_relu.py", None)])
    said = outs["xchg_sabotage"].reason
    assert "truncate /memfd:hiera-buffer-0" in said and "PermissionError" in said and "truncated" not in said \
        and "renamed" not in said, said
    assert outs["honest_relu"].valid, kit.describe(outs["honest_relu"])


def test_control_a_folder_of_shared_files_outlives_the_process_that_made_it(tmp_path: Path) -> None:
    """The CPU exchange before issue 24: files in a /dev/shm folder, which stay when their owner is killed."""
    token = "hiera-attack-" + os.urandom(4).hex()
    probe = (f"import os, time\nd = '/dev/shm/{token}'\nos.makedirs(d)\nopen(d + '/b0', 'wb').truncate(1 << 20)\n"
             "print('ready', flush=True)\ntime.sleep(60)")
    p = subprocess.Popen([sys.executable, "-c", probe], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        p.kill()
        p.wait(10)
        assert Path(f"/dev/shm/{token}/b0").exists()
    finally:
        shutil.rmtree(f"/dev/shm/{token}", ignore_errors=True)


def test_a_checker_killed_mid_candidate_leaves_nothing_in_dev_shm_nor_its_runners_scratch(tmp_path: Path) -> None:
    import threading

    from tests.evalkit import evaluate_one, evaluator

    before = set(os.listdir("/dev/shm"))
    with evaluator(TASKS / "relu_positive.py", tmp_path, timeout_s=120) as ev:
        ev.ensure_worker()
        done: list[Any] = []
        t = threading.Thread(target=lambda: done.append(evaluate_one(ev, ATTACKS / "slow_correct.py")))
        t.start()
        runners = Path(ev.worker.workdir) / "runners"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (runners.is_dir() and any(runners.iterdir())):
            time.sleep(0.1)
        assert runners.is_dir() and any(runners.iterdir()), "the runner never started"
        os.kill(ev.worker.proc.pid, signal.SIGKILL)
        t.join(120)
        assert done and done[0].status is Status.RUNTIME_ERROR, done
        left = [p.name for p in runners.iterdir()] if runners.exists() else []
    new = sorted(set(os.listdir("/dev/shm")) - before)
    assert not [n for n in new if n.startswith("hiera")], new
    assert not left, left


# --- a reference whose timings swing (issue 24, "also seen") ----------------------------------------------------

def test_a_reference_whose_timings_swing_a_hundredfold_makes_the_figure_level_not_a_speedup(tmp_path: Path) -> None:
    """Half the reference's calls wait 5 ms: its median could be anything between a fast call and a slow one, so the
    95% interval of the speedup spans both and straddles 1 (level, never delivered as faster), and the swing is
    flagged with its own numbers."""
    from engine.loop_state import figure

    with kit.arena_at(tmp_path) as a:
        o = kit.evaluate_api(a, ATTACKS / "tasks" / "jittery_relu.py", [("honest_relu.py", None)])["honest_relu"]
    assert o.valid, kit.describe(o)
    spread = o.extra["timing_spread"]["reference"]
    # The control: the swing is real (half the calls wait 5 ms, so the upper quartile is a slow call and the
    # lower a fast one), and the ratio means nothing. Not the median over the fastest: with an even number of
    # calls the median is the mean of a slow and a fast one, 16x on a machine whose relu takes 0.17 ms.
    assert spread["p75_ms"] / spread["p25_ms"] > 10, spread
    flags = [f for f in o.flags if f.startswith("timing_swing")]
    assert flags and "eager's calls ran" in flags[0], o.flags
    # No claim either way: level (the interval straddles 1), or unstable where the machine's own load also made
    # the checker's and the runner's clocks disagree (CI's 2 cores did).
    fig = figure(o, retimed=False)
    assert fig is not None and fig.verdict in ("level", "unstable") and fig.low < 1 < fig.high, fig


# --- honest candidates under an artificial CPU load ---------------------------------------------------------------

@contextlib.contextmanager
def cpu_load(processes: int) -> Any:
    """`processes` busy loops beside the evaluation (each in its own session, ended by pid)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(processes)]
    try:
        yield
    finally:
        for h in hogs:
            h.kill()
            h.wait(10)


def test_honest_candidates_under_a_cpu_load_are_valid_not_suspect(tmp_path: Path) -> None:
    """The allowance of the timing cross-check follows the overhead's own spread: an honest torch.compile
    candidate (Inductor's C++ kernel) and an honest native one on a 2-core machine with two busy loops beside
    them are valid (whatever their speedup)."""
    from tests.evalkit import evaluate_one, evaluator

    # An explicit time limit: the first call (Inductor compiling, on a loaded machine) gets the load's limit.
    with evaluator(TASKS / "relu_positive.py", tmp_path, timeout_s=600) as ev, cpu_load(max(os.cpu_count() or 2, 2)):
        outs = {name: evaluate_one(ev, ATTACKS / name) for name in ("honest_compile_relu.py", "honest_relu.cpp")}
    for name, o in outs.items():
        assert o.valid, (name, kit.describe(o), o.extra.get("timing_gap"))


def test_control_and_rule_the_figure_a_forged_report_gets_on_each_device() -> None:
    """The rule in timing.candidate_times on made-up calls: a 0.2 ms kernel whose runner reports 0.2 us."""
    import random

    from engine.evaluate import timing

    rng = random.Random(0)
    overhead = timing.Overhead(median_ms=0.30, iqr_ms=0.01, floor_ms=0.29)
    true = [0.2 + rng.gauss(0, 0.002) for _ in range(50)]
    walls = [t + 0.30 + rng.gauss(0, 0.007) for t in true]
    forged = [t / 1000 for t in true]
    med = statistics.median
    assert med(forged) < 0.001  # the control: believed, the report is a 1000x speedup
    for gpu in (False, True):
        figure = med(timing.candidate_times(forged, walls, overhead, gpu))
        assert figure > 0.14, (gpu, figure)  # the clock holds it: at most the allowance is hidden
        honest = med(timing.candidate_times(true, walls, overhead, gpu))
        assert abs(honest - med(true)) < 0.02, (gpu, honest)  # an honest report stands, within the overhead's scatter


def test_a_clock_gap_on_the_cpu_is_recorded_not_a_verdict_and_on_a_gpu_is_suspect() -> None:
    """On the CPU the figure is the checker's clock (the test above), so a runner whose report is under it gains
    nothing and the gap is recorded; an honest 0.1 ms fp64 stencil read `suspect` on CI when the clock's scatter
    around it was 0.3 ms. On a GPU the report is the figure within an allowance, so the same gap is `suspect`."""
    import random

    from engine.evaluate import timing
    from engine.evaluate.clock_check import cross_check
    from engine.evaluate.requests import Rejected

    rng = random.Random(1)
    overhead = timing.Overhead(median_ms=0.30, iqr_ms=0.01, floor_ms=0.29)
    reported = [0.1 + rng.gauss(0, 0.001) for _ in range(30)]
    walls = [r + 0.30 + 0.3 + rng.gauss(0, 0.005) for r in reported]  # 0.3 ms more than the calibration
    gap = cross_check(reported, walls, overhead, torch.device("cpu"))
    assert gap["over_allowance"] is True and gap["gap_ms"] > gap["calibrated_gap_ms"] + gap["slack_ms"], gap
    with pytest.raises(Rejected) as e:
        cross_check(reported, walls, overhead, torch.device("cuda", 0))
    assert e.value.status is Status.SUSPECT and "cannot be trusted" in e.value.reason
    fine = cross_check(reported, [r + 0.30 + rng.gauss(0, 0.005) for r in reported], overhead, torch.device("cpu"))
    assert fine["over_allowance"] is False, fine


def test_a_gpu_clock_gap_under_the_call_itself_is_charged_not_a_verdict() -> None:
    """Honest many-kernel forwards on the H200 (a CUDA-graph replay of MobileNetV2, eager ResNet18) took 0.37-0.50
    ms longer than the calibration on 1.0-1.6 ms calls, over the quarter-of-the-call allowance: `suspect` gave the
    user nothing. Under the call's own length the gap is charged instead (the figure is the checker's clock, which
    a forged report cannot shrink); over it, a kernel could be hidden whole, and it is still `suspect`."""
    import random

    from engine.evaluate import timing
    from engine.evaluate.clock_check import cross_check
    from engine.evaluate.requests import Rejected

    rng = random.Random(2)
    overhead = timing.Overhead(median_ms=0.30, iqr_ms=0.01, floor_ms=0.29)
    reported = [1.25 + rng.gauss(0, 0.002) for _ in range(30)]
    walls = [r + 0.30 + 0.37 + rng.gauss(0, 0.005) for r in reported]
    gap = cross_check(reported, walls, overhead, torch.device("cuda", 0))
    assert gap["over_allowance"] and gap["charged"], gap
    charged = statistics.median(overhead.trusted(walls))
    assert charged > statistics.median(reported) + 0.3  # the clock's figure: the host time is the candidate's
    hidden = [r + 0.30 + 1.4 + rng.gauss(0, 0.005) for r in reported]  # more than the whole call unseen
    with pytest.raises(Rejected) as e:
        cross_check(reported, hidden, overhead, torch.device("cuda", 0))
    assert e.value.status is Status.SUSPECT
    assert cross_check(reported, walls, overhead, torch.device("cpu"))["charged"] is False  # the CPU's figure is
    # the clock already
