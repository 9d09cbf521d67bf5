"""The ablation options of `hiera optimize` run end to end on the CPU with the expert backend."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.conftest import TASKS


def optimize(tmp_path, *flags, timeout=900):
    task = tmp_path / "scale_bias_relu.py"
    if not task.exists():
        shutil.copy(TASKS / "scale_bias_relu.py", task)
    out = subprocess.run([sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu", "--json",
                          "--workspace", str(tmp_path), "--rounds", "1", "--candidates", "2", *flags],
                         capture_output=True, text=True, timeout=timeout)
    assert out.returncode in (0, 1, 3), out.stderr[-3000:]  # written, nothing valid, or not faster: kept aside
    return json.loads(out.stdout)


def test_fixed_space_without_planning_repeated_reports_the_spread(tmp_path):
    r = optimize(tmp_path, "--space", "pure_cuda", "--no-planning", "--repeat", "2")
    assert len(r["repeat"]["runs"]) == 2 and len(r["repeat"]["speedups"]) == 2
    assert r["repeat"]["min"] <= r["repeat"]["median"] <= r["repeat"]["max"]
    assert all(round_["space"] == "pure_cuda" for round_ in r["rounds"])
    assert r["candidates"] == 2


def test_without_contract_candidates_are_whole_modelnew_files(tmp_path):
    from engine.store import RunStore

    r = optimize(tmp_path, "--no-contract", "--candidates", "1")
    cand, *again = RunStore.for_workspace(tmp_path).candidates(r["run_id"])
    assert [a["id"] for a in again] == [cand["id"] + "-retimed"] * (cand["status"] == "valid")  # best re-timed
    assert cand["kind"] == "modelnew", cand
    assert cand["status"] == "valid", cand["reason"]
