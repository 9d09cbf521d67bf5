"""`--ray ADDRESS` (engine/distributed.py): cells and tasks as Ray tasks whose results and run-store rows land on
the driver. The tests that need Ray run on a local Ray cluster on the CPU (CI installs the extra, .ci/run) and skip
only where Ray is not installed; the rest (the store's rows moving, the paths, Ray's absence) run everywhere."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path

import pytest

from tests.conftest import TASKS

ROOT = Path(__file__).resolve().parents[1]
# A cell's optimize run on the CPU: one candidate, the fewest timing trials, no profile.
OPTS = {"backend": "expert", "rounds": 1, "candidates": 1, "precision": "fp32", "task_timeout_s": 600,
        "no_profile": True, "optimize_flags": ["--trials", "10"]}


def _suite(tmp_path: Path, stem: str) -> Path:
    """A one-task suite; the stem names it apart, so the test finds (and kills) only its own processes."""
    root = tmp_path / "suite"
    (root / "cpu").mkdir(parents=True)
    (root / "cpu" / f"{stem}.py").write_text((TASKS / "relu_positive.py").read_text())
    return root


def _cli(*argv: str, timeout: int = 600, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *argv], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout, env={**os.environ, "COLUMNS": "300", **(env or {})})


# --- everywhere: no Ray needed ----------------------------------------------------------------------------------

def test_the_local_path_and_the_editor_never_import_ray() -> None:
    code = ("import sys, engine.cli, engine.commands.bench, engine.commands.study, engine.study, hiera_ls.server; "
            "engine.cli.build_parser(); print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.') "
            "or m == 'engine.distributed'))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "[]"


def test_without_ray_the_flag_is_a_usage_error_that_names_the_extra(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "ray"  # a `ray` that fails to import, ahead of any installed one
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named ray (shadowed by the test)')\n")
    root = _suite(tmp_path, "t")
    path = os.pathsep.join([str(tmp_path / "shadow"), str(ROOT), os.environ.get("PYTHONPATH", "")])
    for cmd in (["study", str(root), "--variants", "adaptive"], ["bench", str(root)]):
        p = _cli(*cmd, "--device", "cpu", "--ray", "local", "--out", str(tmp_path / "o"), timeout=120,
                 env={"PYTHONPATH": path})
        assert p.returncode == 2, p.stderr[-2000:]
        assert "pip install 'hiera[ray]'" in p.stderr
    assert not (tmp_path / "o" / "cells").exists() or not list((tmp_path / "o" / "cells").iterdir())


def _store_with_a_run(workspace: Path, task: Path) -> str:
    from contracts.vocabulary import Space
    from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status
    from engine.store import RunStore

    store = RunStore.for_workspace(workspace)
    run = store.start_run("optimize", task, "t", "h", {"results_dir": str(workspace.parent / "results" / "t")},
                          backend="expert", device="cpu")
    store.record_candidate(run, Candidate("r1c1", CandidateKind.CPP, "src", Space.PURE_CUDA),
                           Outcome("r1c1", Status.VALID, "ok"), 1, 1)
    store.record_decision(run, 1, "pure_cuda", {"P": 0.7}, {"P": ["e"]}, "P", "s", "why")
    store.record_model_call(run, 1, "ssda", None, 10, 5, 0.1, None, True)
    store.record_profile(run, "reference", {"kernels": [], "source": str(task)})
    store.record_notice(run, f"a notice naming {task}")
    store.finish_run(run, "finished", {"best": {"paths": {"py": str(workspace.parent / "results" / "t" / "t.py")}}})
    store.close()
    return run


def test_a_workers_runs_land_in_the_drivers_store_with_its_paths_once(tmp_path: Path) -> None:
    """What a worker sends back (files, store rows, result) written into the driver's OUT, twice: one copy."""
    from engine.distributed import Reply, _pack, land
    from engine.store import RunStore
    from engine.suite_bench import TaskResult

    scratch = tmp_path / "worker"
    task_there = scratch / "tasks" / "cpu" / "t.py"
    there = scratch / "out"
    run = _store_with_a_run(there / "workspace", task_there)
    (there / "results" / "t").mkdir(parents=True)
    (there / "results" / "t" / "t.py").write_text("best")
    (there / "workspace" / ".hiera" / "cache" / "build").mkdir(parents=True)
    (there / "workspace" / ".hiera" / "cache" / "build" / "big.so").write_bytes(b"x" * 1000)
    store = RunStore.existing(there / "workspace")
    rows = store.export_runs()
    store.close()
    result = asdict(TaskResult("t", str(task_there), "cpu", valid=True, run_id=run, device="cpu",
                               error=f"a log naming {there}/x"))
    reply = Reply(result, rows, _pack(there), str(task_there), str(there), "node-7")

    task_here, out = tmp_path / "suite" / "cpu" / "t.py", tmp_path / "out"
    for _ in range(2):  # a reply landed twice (a driver resumed after landing it) leaves one copy of every row
        got = land(reply, task_here, out)
    assert got["path"] == str(task_here) and got["device"] == "node-7/cpu"
    assert got["error"] == f"a log naming {out.resolve()}/x"
    assert (out / "results" / "t" / "t.py").read_text() == "best"
    assert not (out / "workspace" / ".hiera" / "cache").exists()  # the build cache stays on the worker
    store = RunStore.existing(out / "workspace")
    try:
        r = store.run(run)
        assert r["status"] == "finished" and r["task_path"] == str(task_here.resolve())
        assert r["settings"]["results_dir"] == str(out.resolve() / "results" / "t")
        assert r["summary"]["best"]["paths"]["py"] == str(out.resolve() / "results" / "t" / "t.py")
        [cand] = store.candidates(run)
        assert Path(cand["source_path"]).read_text() == "src"  # the source came back with the rows
        assert Path(cand["source_path"]).is_relative_to(out.resolve())
        assert len(store.decisions(run)) == 1 and len(store.model_calls(run)) == 1
        assert store.notices(run) == [f"a notice naming {task_here.resolve()}"]
        assert store.profile(run, "reference")["source"] == str(task_here.resolve())
    finally:
        store.close()


# --- on a local Ray cluster ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster of 2 CPUs, shared by the tests below; its address for the CLI's --ray."""
    ray = pytest.importorskip("ray")  # the extra (pip install 'hiera[ray]'); CI installs it
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


def _optimize_process(stem: str, timeout_s: float = 180.0) -> tuple[int, int, Path]:
    """The `hiera optimize` process a Ray worker started for the task named stem: its pid, its parent's (the
    worker's) and the worker's scratch folder."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                cmd = (d / "cmdline").read_bytes().decode(errors="replace").split("\0")
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            task = [a for a in cmd if "/hiera-ray-" in a and a.endswith(f"/{stem}.py")]
            if "optimize" in cmd and task:
                return int(d.name), ppid, Path(task[0]).parents[2]
        time.sleep(0.2)
    raise AssertionError(f"no optimize process for {stem} within {timeout_s:.0f} s")


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _kill_its_worker(stem: str) -> None:
    """Lose the Ray task running stem's cell: SIGKILL its Ray worker (as a dead node would), then the optimize
    process it left, and remove the scratch folder the worker had no chance to."""
    pid, worker, scratch = _optimize_process(stem)
    os.kill(worker, signal.SIGKILL)
    os.kill(pid, signal.SIGKILL)
    time.sleep(1)
    shutil.rmtree(scratch, ignore_errors=True)


def _study(root: Path, out: Path, pool, kill: str | None = None):
    from engine.study import run_study

    killer = threading.Thread(target=_kill_its_worker, args=(kill,), daemon=True) if kill else None
    if killer:
        killer.start()
    cells, done = run_study(root, out, ["adaptive"], pool.slots, OPTS, runner=pool.run_cell)
    if killer:
        killer.join(5)
    return cells, done


@pytest.mark.slow
def test_a_lost_cell_is_not_finished_a_retried_one_lands_and_a_finished_one_is_never_submitted(cluster, tmp_path):
    from engine.distributed import RayPool
    from engine.store import RunStore

    stem = f"lost_{os.getpid()}"
    root, out = _suite(tmp_path, stem), tmp_path / "out"
    name = f"adaptive__cpu__{stem}__r0"

    # Lost with no retries left: not finished, nothing in the driver's store.
    pool = RayPool.connect(cluster, "cpu", retries=0)
    assert not pool.owner and pool.slots == ["ray:0", "ray:1"] and not pool.gpu
    _, done = _study(root, out, pool, kill=stem)
    assert done == {} and pool.submitted == 1 and len(pool.lost) == 1 and "WorkerCrashed" in pool.lost[0]
    assert not (out / "cells" / f"{name}.json").exists()
    assert RunStore.existing(out / "workspace") is None

    # The next call runs it again; its worker dies once more and Ray runs it a second time: it lands.
    pool = RayPool.connect(cluster, "cpu", retries=1)
    _, done = _study(root, out, pool, kill=stem)
    assert pool.submitted == 1 and pool.lost == [] and list(done) == [name]
    cell = json.loads((out / "cells" / f"{name}.json").read_text())
    assert cell["run_status"] == "finished" and cell["valid"] and cell["path"] == str(root / "cpu" / f"{stem}.py")
    assert cell["rounds"] and cell["device"].endswith("/cpu")
    assert list((out / "results" / "adaptive" / "r0" / stem).glob("*_hiera.py"))
    store = RunStore.existing(out / "workspace")
    try:
        [run] = store.runs()  # the killed attempts sent nothing back
        assert run["id"] == cell["run_id"] and run["status"] == "finished"
        assert run["task_path"] == str((root / "cpu" / f"{stem}.py").resolve())
        assert all(Path(c["source_path"]).exists() for c in store.candidates(run["id"]))
    finally:
        store.close()
    p = _cli("report", cell["run_id"], "--workspace", str(out / "workspace"), "--json", timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout.strip().splitlines()[-1])["run"]["id"] == cell["run_id"]

    # Resumed: the finished cell is read from OUT, nothing is handed to Ray.
    pool = RayPool.connect(cluster, "cpu")
    _, done = _study(root, out, pool)
    assert pool.submitted == 0 and list(done) == [name]
    assert done[name].run_id == cell["run_id"]


@pytest.mark.slow
def test_hiera_bench_with_ray_writes_its_tasks_and_runs_on_the_driver_and_resumes(cluster, tmp_path: Path) -> None:
    root, out = _suite(tmp_path, f"bench_{os.getpid()}"), tmp_path / "out"
    args = ["bench", str(root), "--rounds", "1", "--candidates", "1", "--no-compile", "--device", "cpu",
            "--ray", cluster, "--out", str(out), "--json"]
    p = _cli(*args)
    assert p.returncode == 0, p.stderr[-3000:]
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    [t] = doc["tasks"]
    assert doc["finished"] == doc["of"] == 1 and doc["devices"] == ["ray:0", "ray:1"]
    assert t["valid"] and t["run_id"] and t["device"].endswith("/cpu")
    assert t["path"] == str(root / "cpu" / f"{t['task']}.py")
    assert list((out / "tasks").glob("*.json")) and list((out / "results" / t["task"]).glob("*_hiera.py"))
    p = _cli("report", t["run_id"], "--workspace", str(out / "workspace"), "--json", timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    # Resumed: the same result back, the task not run again (it would take a new run id).
    p = _cli(*args, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert json.loads(p.stdout.strip().splitlines()[-1])["tasks"][0]["run_id"] == t["run_id"]


def test_ctrl_c_cancels_the_cells_ray_tasks_and_keeps_them_unfinished(cluster, tmp_path: Path) -> None:
    stem = f"stop_{os.getpid()}"
    root, out = _suite(tmp_path, stem), tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "engine.cli", "study", str(root), "--variants", "adaptive",
                          "--budget", "1", "--candidates", "1", "--device", "cpu", "--ray", cluster, "--out", str(out)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "COLUMNS": "300"})
    try:
        pid, _, scratch = _optimize_process(stem)
        p.send_signal(signal.SIGINT)  # to the driver alone, as on a driver whose cluster is other machines
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err[-3000:]
    # Stopped before the driver left (a task left running would be ended only by Ray, after the driver's exit,
    # killing its worker before the worker could remove its scratch).
    assert _gone(pid), "the cancelled Ray task's optimize process still runs"
    assert not scratch.exists(), "the cancelled task did not stop and clean up on its worker"
    assert not list((out / "cells").glob("*.json"))
