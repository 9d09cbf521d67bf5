"""A runner group outlives a checker that dies while the runner is frozen (timing the reference on the CPU)
unless the guard removes it: cgroups.make starts one per process (engine/evaluate/cgroup_guard.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.evaluate.cgroups import Group

ROOT = Path(__file__).resolve().parents[1]

# A stand-in for the checker: makes a group (through make(), guarded, or _make(), not), starts a sleeper in it,
# freezes it, says so, and waits to be killed.
CHECKER = """
import subprocess, sys, time
from engine.evaluate import cgroups
group = (cgroups.make if sys.argv[1] == "guarded" else cgroups._make)(16, None)
if group is None or group.freezer is None:
    print("none", flush=True)
    sys.exit(0)
p = subprocess.Popen(cgroups.wrap(group, [sys.executable, "-c", "import time; time.sleep(600)"]),
                     start_new_session=True)
time.sleep(0.5)
assert group.freeze(True)
print(group.to_json(), p.pid, flush=True)
time.sleep(600)
"""


def _killed_while_frozen(mode: str) -> tuple[Group, int]:
    checker = subprocess.Popen([sys.executable, "-c", CHECKER, mode], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    assert checker.stdout is not None
    line = checker.stdout.readline().strip()
    if line in ("none", ""):
        checker.kill()
        checker.wait(10)
        pytest.skip("needs a cgroup with a freezer that hiera can make here (root, or a delegated v2 tree)")
    group_json, pid = line.rsplit(" ", 1)
    os.kill(checker.pid, signal.SIGKILL)
    checker.wait(10)
    return Group.from_json(group_json), int(pid)


def _gone(group: Group, pid: int, within_s: float) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists() and not group.exists():
            return True
        time.sleep(0.05)
    return False


def test_control_an_unguarded_group_stays_frozen_after_its_checker_is_killed() -> None:
    group, pid = _killed_while_frozen("unguarded")
    try:
        assert not _gone(group, pid, 2.0)
        assert Path(f"/proc/{pid}").exists() and group.exists()
    finally:
        group.close()


def test_the_guard_thaws_kills_and_removes_a_group_whose_checker_was_killed() -> None:
    group, pid = _killed_while_frozen("guarded")
    try:
        assert _gone(group, pid, 10.0), (pid, group)
    finally:
        if group.exists():
            group.close()
