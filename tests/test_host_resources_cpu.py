"""The host's disk and paths (issue 42, class 3): each defence with its positive control.

- A runner's output: kept in memory with a small cap. Control: written to a log file on the host, as before,
  a flooding candidate puts hundreds of MB on the disk.
- The build cache: capped, least recently used entries pruned. Control: uncapped, it keeps every library.
- Failure reasons: scrubbed of the host paths a sandbox can read in /proc/self/mountinfo. Control: unscrubbed,
  the reason names the checker's work folder.
- The compiler's file-size limit: 1 GiB whatever the shell's unit. Control: the old `>> 10` under dash is half.
- Limits that cannot be set up fall back, and are said (doctor, notices). Control: no cgroup here is simulated.

The checker runs in this process where a defence is turned off (monkeypatch reaches it there).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.evaluate import candidate_process
from engine.evaluate.checker import Checker
from tests.conftest import TASKS

ATTACKS = Path(__file__).resolve().parent / "data" / "attacks"


def _modelnew_reply(tmp_path: Path, attack: str) -> Any:
    """The attack (a ModelNew file) through a checker in this process, on relu_positive."""
    from engine.evaluate.requests import EvalRequest

    artifact = tmp_path / "candidate.py"
    shutil.copy(ATTACKS / attack, artifact)
    checker = Checker(str(TASKS / "relu_positive.py"), "cpu", "fp32", str(tmp_path / "work"), sandboxed=True)
    try:
        return checker.evaluate(EvalRequest("c", "modelnew", str(artifact), None, correctness_trials=1,
                                            timing_trials=5))
    finally:
        checker.close()


class _DiskWatch:
    """The largest file under a folder, sampled every 20 ms while it runs."""

    def __init__(self, root: Path):
        self.root, self.largest, self._stop = root, 0, threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for dirpath, _, files in os.walk(self.root):
                for name in files:
                    with contextlib.suppress(OSError):
                        self.largest = max(self.largest, os.lstat(os.path.join(dirpath, name)).st_size)
            time.sleep(0.02)

    def __enter__(self) -> _DiskWatch:
        self._t.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._t.join()


class _LogFile:
    """The runner's output as it was before issue 42: a file on the host beside its scratch."""

    def __init__(self) -> None:
        self.path = Path(os.environ["HIERA_TEST_LOG_DIR"]) / f"runner-{time.monotonic_ns()}.log"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)

    def child_started(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def text(self, limit: int | None = None) -> str:
        with open(self.path, "rb") as f:
            f.seek(max(0, self.path.stat().st_size - (limit or 1500)))
            return f.read().decode(errors="replace")

    def close(self, wait_s: float = 1.0) -> None:
        self.child_started()


# --- the runner's output ------------------------------------------------------------------------------------

def test_control_a_runner_log_on_the_host_takes_hundreds_of_megabytes(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "work").mkdir()
    monkeypatch.setenv("HIERA_TEST_LOG_DIR", str(tmp_path / "work"))
    monkeypatch.setattr(candidate_process, "CappedOutput", _LogFile)
    with _DiskWatch(tmp_path) as disk:
        reply = _modelnew_reply(tmp_path, "flood_output.py")
    assert "flooded its output" in reply.reason, reply.reason[-500:]
    assert disk.largest > 200 << 20, disk.largest


def test_a_runners_output_is_kept_in_memory_with_a_small_cap(tmp_path: Path) -> None:
    with _DiskWatch(tmp_path) as disk:
        reply = _modelnew_reply(tmp_path, "flood_output.py")
    assert reply.status.value == "runtime_error" and "flooded its output" in reply.reason, reply.reason[-500:]
    assert disk.largest < 1 << 20, disk.largest


def test_capped_output_keeps_the_head_and_the_tail_and_counts_the_rest() -> None:
    from engine.evaluate.capped_output import CappedOutput

    out = CappedOutput(head=10, tail=20)
    proc = subprocess.Popen(["/bin/sh", "-c", "printf 'HEAD-12345'; head -c 100000 /dev/zero | tr '\\0' x; "
                                              "printf 'the-last-words'"], stdout=out.fd)
    out.child_started()
    proc.wait(30)
    out.close()
    text = out.text()
    assert text.startswith("HEAD-12345") and text.endswith("the-last-words"), text
    assert out.total == 10 + 100000 + 14 and out.dropped == out.total - 30
    assert out.text(14) == "the-last-words"


# --- the build cache ----------------------------------------------------------------------------------------

def _entry(cache: Path, name: str, mb: int, age_s: float) -> None:
    d = cache / name
    d.mkdir(parents=True)
    (d / "candidate.so").write_bytes(b"\0" * (mb << 20))
    t = time.time() - age_s
    for p in (d / "candidate.so", d):
        os.utime(p, (t, t))


def test_the_build_cache_is_pruned_least_recently_used_first(tmp_path: Path) -> None:
    from engine.evaluate import build_cache

    cache = tmp_path / "cache"
    for name, mb, age in (("old", 3, 300), ("mid", 3, 200), ("kept", 3, 400), ("new", 3, 100), ("now", 3, 1)):
        _entry(cache, name, mb, age)
    assert build_cache.prune(cache, keep={"kept"}, cap=10 << 20) == ["old", "mid"]  # 15 MB to 9, oldest first
    # Over a cap it cannot reach: "kept" (this batch's) and "now" (in use by another process) stay anyway.
    assert build_cache.prune(cache, keep={"kept"}, cap=4 << 20) == ["new"]
    assert sorted(p.name for p in cache.iterdir()) == ["kept", "now"]


def test_control_and_rule_build_many_prunes_the_cache_to_its_cap(tmp_path: Path, monkeypatch) -> None:
    from engine.evaluate import build_cache
    from engine.evaluate.build import BuildConfig, build_many
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    write_contract(load_task(TASKS / "scale_bias_relu.py"), tmp_path / "contract")
    source = (Path(__file__).resolve().parent / "data" / "candidates" / "scale_bias_relu.cpp").read_text()
    cfg = BuildConfig(tmp_path / "contract", tmp_path / "cache", jobs=1)

    def batch(tag: str) -> None:
        r = build_many([Candidate(tag, CandidateKind.CPP, source + f"\n// {tag}\n")], cfg)[tag]
        assert r.ok, r.log[:1000]

    monkeypatch.setattr(build_cache, "IN_USE_S", 0.0)
    monkeypatch.setenv(build_cache.ENV_CAP, str(1 << 40))  # control: no cap to speak of, every entry stays
    batch("a")
    batch("b")
    assert len(list((tmp_path / "cache").iterdir())) == 2
    monkeypatch.setenv(build_cache.ENV_CAP, "1")  # the cap: the batch just built is all that stays
    monkeypatch.setattr(build_cache.prune, "__defaults__", ((), None, 0.0))
    batch("c")
    left = list((tmp_path / "cache").iterdir())
    assert len(left) == 1 and (left[0] / "candidate.so").exists(), left


# --- host paths in failure reasons --------------------------------------------------------------------------

def test_control_unscrubbed_the_reason_names_the_checkers_work_folder(tmp_path: Path, monkeypatch) -> None:
    from engine.evaluate import checker

    monkeypatch.setattr(checker, "scrub", lambda text: text)
    reply = _modelnew_reply(tmp_path, "mountinfo_reason.py")
    assert str(tmp_path / "work") in reply.reason, reply.reason[:2000]


def test_a_failure_reason_is_scrubbed_of_host_paths(tmp_path: Path) -> None:
    from engine.evaluate.outcome import Outcome, Status
    from engine.untrusted import HOST_PATH

    reply = _modelnew_reply(tmp_path, "mountinfo_reason.py")
    assert str(tmp_path) not in reply.reason and HOST_PATH in reply.reason, reply.reason[:2000]
    assert "ro,nosuid" in reply.reason  # the rest of what it said stays readable
    home = os.path.expanduser("~")
    said = Outcome("c", Status.RUNTIME_ERROR, f"could not read {home}/.ssh/id_rsa nor {os.getcwd()}/x").reason
    assert home not in said.replace(HOST_PATH, "") and said.count(HOST_PATH) == 2, said


# --- the compiler's file-size limit -------------------------------------------------------------------------

def _sandboxed_compile_limits(tmp_path: Path) -> str:
    """/proc/self/limits as the sandboxed compiler's shell leaves them for the compiler."""
    from engine.evaluate import build
    from engine.evaluate.outcome import Candidate, CandidateKind
    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    write_contract(load_task(TASKS / "scale_bias_relu.py"), tmp_path / "contract")
    (tmp_path / "b").mkdir()
    cfg = build.BuildConfig(tmp_path / "contract", tmp_path / "cache")
    cmd = build._sandboxed_command(Candidate("x", CandidateKind.CPP, "int x;"), tmp_path / "b" / "s.cpp",
                                   tmp_path / "b" / "o.so", cfg)
    script = cmd.index("-c") + 2  # /bin/sh -c SCRIPT sh COMPILER...
    assert cmd[script] == "sh"
    got = subprocess.run([*cmd[:script + 1], "/bin/cat", "/proc/self/limits"], capture_output=True, text=True,
                         timeout=60)
    return got.stdout + got.stderr


def _file_size_limit(limits: str) -> int:
    line = next(ln for ln in limits.splitlines() if ln.startswith("Max file size"))
    return int(line.split()[3])


@pytest.mark.skipif(os.path.realpath("/bin/sh").rsplit("/", 1)[-1] != "dash", reason="needs /bin/sh to be dash")
def test_control_the_old_ulimit_under_dash_is_half_a_gigabyte() -> None:
    got = subprocess.run(["/bin/sh", "-c", f"ulimit -f {(1 << 30) >> 10}; cat /proc/self/limits"],
                         capture_output=True, text=True, timeout=30).stdout
    assert _file_size_limit(got) == 512 << 20


def test_the_sandboxed_compiler_may_write_files_of_one_gigabyte_no_more(tmp_path: Path) -> None:
    from engine.evaluate.build import COMPILER_FILE_BYTES

    assert _file_size_limit(_sandboxed_compile_limits(tmp_path)) == COMPILER_FILE_BYTES == 1 << 30


# --- limits checked at the start, fallbacks said ------------------------------------------------------------

def test_the_limits_hold_here_and_the_doctor_says_how(monkeypatch) -> None:
    from engine import doctor
    from engine.evaluate import limit_check

    limits = limit_check.check(False, True)
    assert all(lim.holds for lim in limits), limits
    assert any(lim.name.startswith("scratch") for lim in limits)
    c = doctor.resource_limits(False, True)
    assert c.status == doctor.OK and "compiler file size" in c.detail, c


def test_without_control_groups_every_limit_falls_back_and_says_so(monkeypatch) -> None:
    from engine.evaluate import cgroups, limit_check
    from engine.evaluate.candidate_process import RunnerSpec, runner_rlimits

    monkeypatch.setattr(cgroups, "make", lambda *a, **k: None)
    limit_check.check.cache_clear()
    try:
        said = limit_check.notices(True, True)
    finally:
        limit_check.check.cache_clear()
    assert any("runner memory" in s and "RLIMIT_DATA" in s for s in said), said
    assert any("compiler memory" in s and "ulimit -v" in s for s in said), said
    assert any("SIGSTOP" in s for s in said), said
    # And the fallbacks are the ones used: a GPU runner without a memory cgroup caps its private memory.
    spec = RunnerSpec(kind="cuda", device="cuda:0", space="pure_cuda", artifact=Path("x.so"), sandboxed=True,
                      workdir=Path("."), limits={"file_bytes": 1, "cpu_s": 1, "processes": 5},
                      max_memory_bytes=8 << 30)
    assert runner_rlimits(spec, None) == {"file_bytes": 1, "cpu_s": 1, "processes": 5, "data_bytes": 8 << 30}
    group = cgroups.Group((Path("/nonexistent"),), True, None)
    assert "data_bytes" not in runner_rlimits(spec, group)  # a memory cgroup holds it instead
    assert "processes" in runner_rlimits(spec, group)  # a group without pids.max does not cap processes


def test_two_processes_building_the_same_kernel_compile_it_once_and_both_get_it(tmp_path: Path) -> None:
    """Two workers sharing a build cache (hiera bench --devices on one host) asked for the same source at once: the
    second waits for the first's build and takes its library (cached), instead of rewriting the source and the log
    under the first's compiler. Control: each in a cache of its own compiles (neither is cached)."""
    import multiprocessing

    from engine.task.contract import write_contract
    from engine.task.spec import load_task

    write_contract(load_task(TASKS / "scale_bias_relu.py"), tmp_path / "contract")
    source = (Path(__file__).resolve().parent / "data" / "candidates" / "scale_bias_relu.cpp").read_text()
    ctx = multiprocessing.get_context("spawn")

    def race(caches: list[Path]) -> list[tuple[bool, bool]]:
        with ctx.Manager() as m:
            q, gate = m.Queue(), m.Barrier(len(caches))
            procs = [ctx.Process(target=_build_once, args=(tmp_path / "contract", c, source, gate, q))
                     for c in caches]
            for p in procs:
                p.start()
            for p in procs:
                p.join(120)
            return sorted(q.get(timeout=5) for _ in procs)

    assert race([tmp_path / "own1", tmp_path / "own2"]) == [(True, False), (True, False)]  # control
    shared = tmp_path / "shared"
    assert race([shared, shared]) == [(True, False), (True, True)]
    [entry] = [p for p in shared.iterdir() if p.is_dir()]
    assert (entry / "candidate.so").stat().st_size > 0


def _build_once(contract: Path, cache: Path, source: str, gate: Any, q: Any) -> None:
    """One worker's build (a spawned process): (ok, cached) on the queue."""
    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.outcome import Candidate, CandidateKind

    cfg = BuildConfig(contract, cache, jobs=1)
    gate.wait()
    r = build_one(Candidate("c", CandidateKind.CPP, source), cfg)
    q.put((r.ok, r.cached))


def test_an_entry_whose_build_holds_its_lock_is_not_pruned(tmp_path: Path) -> None:
    """A compile quiet for longer than the in-use window still holds its entry's lock: pruning leaves the entry.
    Control: the same entry, the lock released, is pruned."""
    import fcntl

    from engine.evaluate import build_cache

    cache = tmp_path / "cache"
    _entry(cache, "building", 3, 300)
    lock = cache / "building" / ".build.lock"
    lock.touch()
    old = time.time() - 300
    for p in (lock, lock.parent):  # the build started long ago (its files all older than the in-use window)
        os.utime(p, (old, old))
    with open(lock, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        assert build_cache.prune(cache, cap=1) == []
        fcntl.flock(f, fcntl.LOCK_UN)
    assert build_cache.prune(cache, cap=1) == ["building"]
