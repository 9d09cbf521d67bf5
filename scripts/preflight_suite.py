"""Pre-flight for GPU time: what the expert backend would generate for each task on a CUDA device, and
whether it builds, how long each build takes and what resources its kernels use — on a machine with nvcc
and no GPU.

For every task (the .py files in the folders given, searched recursively) and each of the three spaces,
the expert SSDA scores the directions, the SPA plans, the OA writes K candidates as it would in round 1
on an H200 (`cuda:0`, 132 SMs); each CUDA source is compiled with nvcc for sm_90 (-c, the evaluator's
flags, `-Xptxas -v` for registers, spills and stack) and each ModelNew file is byte-compiled. Nothing
runs on a GPU, so this finds build failures, slow builds, spilling kernels and generator gaps (a space
that yields no candidate) before device minutes are spent, not wrong results.

Tasks are probed on PyTorch's meta device by default (shapes and the traced graph without allocating
the inputs: KernelBench's shipped sizes are several GB per input), `--real-probe` runs them for real.

    python scripts/preflight_suite.py [FOLDER ...] [--k 6] [--compile-timeout 300] [--json out.json]
        [--markdown out.md]
"""

from __future__ import annotations

import argparse
import json
import os
import py_compile
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contracts.precision import module_precision, resolve  # noqa: E402
from contracts.vocabulary import Space  # noqa: E402
from engine.agents.base import Context, Invalid  # noqa: E402
from engine.agents.expert import ExpertBackend  # noqa: E402
from engine.evaluate import CandidateKind  # noqa: E402
from engine.evaluate.build import ToolchainMissing, cudnn_flags, find_nvcc  # noqa: E402
from engine.evaluate.outcome import Precision  # noqa: E402
from engine.task.contract import write_contract  # noqa: E402
from engine.task.spec import TaskError, TaskSpec, load_task, spec_from_probe  # noqa: E402

# What an H200 reports; the rules read these when they size grids.
# What the evaluator's worker reports for an H200 (engine/evaluate/checker.py device_facts, as JSON); the generators
# size grids and row splits by these.
H200_INFO = {"name": "NVIDIA H200", "capability": "90", "sms": 132, "l2_bytes": 52428800,
             "memory_bytes": 150754820096}

# The probe, with every tensor created on the meta device: shapes, dtypes and the fx graph, no memory.
_META_PROBE = ("import sys, torch; torch.set_default_device('meta'); "
               "sys.argv = ['probe', sys.argv[1], sys.argv[2]]; "
               "from engine.task.probe import main; main()")


def cublas_include(nv: str, given: str | None) -> str | None:
    """cublas_v2.h: --cublas-include, the CUDA toolkit's include folder, or an installed nvidia-cublas wheel."""
    roots = [Path(given)] if given else []
    roots += [Path(nv).parent.parent / "include"]
    roots += [Path(p) / "nvidia" / sub / "include" for p in sys.path if p for sub in ("cu13", "cublas", "cu12")]
    return next((str(r) for r in roots if (r / "cublas_v2.h").exists()), None)


def probe_meta(task: Path, timeout_s: float = 300.0) -> TaskSpec:
    """The task's spec from a probe that runs on the meta device (raises TaskError as load_task does)."""
    with tempfile.TemporaryDirectory(prefix="hiera-preflight-probe-") as tmp:
        out = Path(tmp) / "probe.json"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        proc = subprocess.run([sys.executable, "-c", _META_PROBE, str(task.resolve()), str(out)],
                              capture_output=True, text=True, timeout=timeout_s, env=env, cwd=str(task.parent))
        if not out.exists():
            raise TaskError(str(task), None, f"the meta probe died (exit {proc.returncode}): "
                                             f"{proc.stderr[-400:]}", "try --real-probe")
        raw = json.loads(out.read_text())
    if not raw["ok"]:
        e = raw["error"]
        raise TaskError(e["file"], e["line"], e["message"], e["fix"], e["kind"])
    return spec_from_probe(task, raw)


@dataclass
class Build:
    """One candidate's build: seconds, and what ptxas reported for its kernels."""

    name: str
    ok: bool
    seconds: float
    source_kb: float
    registers: int = 0  # the most any kernel of the file uses
    spill_bytes: int = 0  # spill stores + loads, summed over its kernels
    stack_bytes: int = 0  # the largest stack frame
    error: str = ""


@dataclass
class SpaceRow:
    task: str
    space: str
    strategy: str = "-"
    generated: int = 0
    invalid: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    generate_s: float = 0.0
    builds: list[Build] = field(default_factory=list)
    error: str = ""
    # CUDA candidates whose code also takes the batch at run time (issue 38: the given batch runs the kernels
    # specialised to it, any other the general ones; codegen/cuda_program.py cuda_source with `rb`)
    general: int = 0

    @property
    def built(self) -> int:
        return sum(b.ok for b in self.builds)

    @property
    def failed(self) -> list[Build]:
        return [b for b in self.builds if not b.ok]


GENERAL_PATH = "} else {  // any other: the kernels taking the batch"  # what cuda_source writes with `rb`
_PTXAS_REGS = re.compile(r"Used (\d+) registers")
_PTXAS_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_STACK = re.compile(r"(\d+) bytes stack frame")


def ptxas_usage(log: str) -> tuple[int, int, int]:
    """(most registers of any kernel, spill bytes over all kernels, largest stack frame) from -Xptxas -v."""
    regs = max((int(m) for m in _PTXAS_REGS.findall(log)), default=0)
    spills = sum(int(a) + int(b) for a, b in _PTXAS_SPILL.findall(log))
    stack = max((int(m) for m in _PTXAS_STACK.findall(log)), default=0)
    return regs, spills, stack


def nvcc_command(nv: str, src: Path, contract: Path, source: str, inc: str | None) -> list[str]:
    cmd = [nv, "-gencode=arch=compute_90,code=sm_90", "-O3", "-std=c++17", "-lineinfo", "--expt-relaxed-constexpr",
           "-Xptxas", "-v", "-Xcompiler", "-fPIC", "-c", f"-I{contract}", str(src), "-o", str(src.with_suffix(".o"))]
    if inc and re.search(r"cublas\w*\(", source):
        cmd.insert(1, f"-I{inc}")
    if re.search(r"cudnn\w*\(", source):
        cmd[1:1] = [f for f in cudnn_flags() if f.startswith("-I")]
    return cmd


def compile_one(job: tuple[Path, list[str], float], timeout_s: float) -> Build:
    f, cmd, kb = job
    t0 = time.perf_counter()
    # Its own process group: on a timeout nvcc's children (cicc, ptxas) are ended with it, not orphaned.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, stderr = p.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return Build(f.name, False, time.perf_counter() - t0, kb, error=f"nvcc ran over {timeout_s:.0f} s")
    seconds = time.perf_counter() - t0
    regs, spills, stack = ptxas_usage(stderr)
    err = "" if p.returncode == 0 else " | ".join(ln for ln in stderr.splitlines()
                                                  if "error" in ln.lower())[-300:] or stderr[-300:]
    return Build(f.name, p.returncode == 0, seconds, kb, regs, spills, stack, err)


def task_rows(task: Path, label: str, k: int, work: Path, nv: str, inc: str | None, timeout_s: float,
              real_probe: bool, precision: str = "auto") -> list[SpaceRow]:
    try:
        spec = load_task(task) if real_probe else probe_meta(task)
    except Exception as e:  # a task that does not load is itself a finding
        return [SpaceRow(label, "-", error=f"load: {e}")]
    cdir = work / label / "contract"
    write_contract(spec, cdir)
    # The precision a run of this task would use (contracts/precision.py): its own, or the override.
    policy = Precision(resolve(precision, module_precision(spec))[0])
    backend = ExpertBackend()
    rows: list[SpaceRow] = []
    for space in Space:
        ctx = Context(spec, cdir, "cuda:0", dict(H200_INFO), policy, 1, 3, tuple(Space), None, None, None)
        row = SpaceRow(label, space.value)
        t0 = time.perf_counter()
        try:
            scores = backend.ssda.score_directions(ctx, space)
            strategy = backend.spa.plan(ctx, space, scores)
            row.strategy = strategy.name
            cands = backend.oa.generate(ctx, space, strategy, k)
        except Exception as e:
            row.error = f"{type(e).__name__}: {e}"
            rows.append(row)
            continue
        row.generate_s = time.perf_counter() - t0
        row.invalid = [c.reason[:160] for c in cands if isinstance(c, Invalid)]
        good = [c for c in cands if not isinstance(c, Invalid)]
        row.generated = len(good)
        row.kinds = sorted({c.kind.value for c in good})
        d = work / label / space.value
        d.mkdir(parents=True, exist_ok=True)
        jobs = []
        for i, c in enumerate(good):
            kb = len(c.source.encode()) / 1024
            if c.kind == CandidateKind.CUDA:
                row.general += GENERAL_PATH in c.source
                f = d / f"c{i}.cu"
                f.write_text(c.source)
                jobs.append((f, nvcc_command(nv, f, cdir, c.source, inc), kb))
            elif c.kind == CandidateKind.MODELNEW:
                f = d / f"c{i}.py"
                f.write_text(c.source)
                try:
                    py_compile.compile(str(f), doraise=True)
                    row.builds.append(Build(f.name, True, 0.0, kb))
                except py_compile.PyCompileError as e:
                    row.builds.append(Build(f.name, False, 0.0, kb, error=e.msg[:200]))
        with ThreadPoolExecutor(2) as pool:
            row.builds += list(pool.map(lambda j: compile_one(j, timeout_s), jobs))
        rows.append(row)
    return rows


def task_files(dirs: list[str]) -> list[tuple[Path, str]]:
    """(file, label) for every task under the folders: label is the path below the folder given."""
    out = []
    for d in dirs:
        root = Path(d)
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for f in files:
            if f.name.startswith(("_", "check_")) or "__pycache__" in f.parts:
                continue
            rel = f.relative_to(root) if root.is_dir() else Path(f.name)
            label = str(rel.with_suffix("")) if len(rel.parts) > 1 else f"{root.name}/{f.stem}"
            out.append((f, label))
    return out


def summary(rows: list[SpaceRow]) -> list[dict]:
    """Per task: candidates generated and compiled over the three spaces, compile seconds, ptxas usage,
    the spaces that yielded nothing, and the failures."""
    by_task: dict[str, list[SpaceRow]] = {}
    for r in rows:
        by_task.setdefault(r.task, []).append(r)
    out = []
    for task, rs in by_task.items():
        builds = [b for r in rs for b in r.builds]
        cuda = [b for b in builds if b.name.endswith(".cu")]
        out.append({
            "task": task,
            "generated": sum(r.generated for r in rs),
            "compiled": sum(r.built for r in rs),
            "cuda": len(cuda),
            "compile_s": round(sum(b.seconds for b in cuda), 1),
            "slowest_s": round(max((b.seconds for b in cuda), default=0.0), 1),
            "max_kb": round(max((b.source_kb for b in cuda), default=0.0), 1),
            "max_regs": max((b.registers for b in cuda), default=0),
            "spill_bytes": max((b.spill_bytes for b in cuda), default=0),
            "generate_s": round(sum(r.generate_s for r in rs), 2),
            "empty_spaces": [r.space for r in rs if r.generated == 0],
            # per space: CUDA candidates taking the batch at run time / CUDA candidates
            "general": {r.space: [r.general, sum(b.name.endswith(".cu") for b in r.builds)] for r in rs},
            "strategies": {r.space: r.strategy for r in rs},
            "failures": [f"{r.space}/{b.name}: {b.error}" for r in rs for b in r.failed]
            + [f"{r.space}: {r.error}" for r in rs if r.error],
        })
    return out


def markdown(table: list[dict]) -> str:
    lines = ["| task | generated | compiled | CUDA | compile s | slowest s | max KB | max regs | spills B | "
             "empty spaces | failures |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for t in table:
        fails = "; ".join(t["failures"])[:160].replace("|", "/")
        lines.append(f"| {t['task']} | {t['generated']} | {t['compiled']} | {t['cuda']} | {t['compile_s']} | "
                     f"{t['slowest_s']} | {t['max_kb']} | {t['max_regs']} | {t['spill_bytes']} | "
                     f"{','.join(t['empty_spaces']) or '-'} | {fails or '-'} |")
    n = len(table)
    ok = sum(1 for t in table if not t["failures"] and t["compiled"])
    slow = max(table, key=lambda t: t["slowest_s"]) if table else None
    lines.append("")
    lines.append(f"{ok}/{n} tasks with every candidate built; {sum(t['compiled'] for t in table)} of "
                 f"{sum(t['generated'] for t in table)} candidates built; slowest compile "
                 f"{slow['slowest_s'] if slow else 0} s ({slow['task'] if slow else '-'}).")
    spaces = sorted({s for t in table for s in t.get("general", {})})
    for s in spaces:
        cuda = [t for t in table if t.get("general", {}).get(s, [0, 0])[1]]
        takes = [t for t in cuda if t["general"][s][0]]
        lines.append(f"{s}: {len(takes)} of the {len(cuda)} tasks with CUDA candidates have one taking the batch at "
                     f"run time ({sum(t['general'][s][0] for t in cuda)} of {sum(t['general'][s][1] for t in cuda)} "
                     "candidates).")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", default=["bench/level1", "bench/level2", "bench/level3"])
    ap.add_argument("--k", type=int, default=6)
    ap.add_argument("--compile-timeout", type=float, default=300.0, help="seconds per nvcc run (a failure past it)")
    ap.add_argument("--real-probe", action="store_true",
                    help="run each task's forward for real (CPU) instead of on the meta device")
    ap.add_argument("--json", default=None)
    ap.add_argument("--markdown", default=None, help="write the per-task table here")
    ap.add_argument("--precision", default="auto", choices=["auto", "fp32", "tf32", "bf16", "fp16"],
                    help="the policy the candidates are generated for (default: each task's own, as a run's)")
    ap.add_argument("--cublas-include", default=None,
                    help="folder holding cublas_v2.h when the toolkit here has no cuBLAS (e.g. an unpacked "
                         "nvidia-cublas wheel's nvidia/cu13/include)")
    args = ap.parse_args()
    try:
        nv = find_nvcc()
    except ToolchainMissing as e:
        print(e, file=sys.stderr)
        return 2
    inc = cublas_include(nv, args.cublas_include)
    if inc is None:
        print("note: no cublas_v2.h found; library candidates will fail to build (see --cublas-include)",
              file=sys.stderr)
    if not cudnn_flags():
        print("note: no cudnn.h found; convolution candidates will fail to build (set CUDNN_HOME to an "
              "unpacked nvidia-cudnn wheel's nvidia/cudnn)", file=sys.stderr)
    rows: list[SpaceRow] = []
    with tempfile.TemporaryDirectory(prefix="hiera-preflight-") as tmp:
        for task, label in task_files(args.dirs):
            for r in task_rows(task, label, args.k, Path(tmp), nv, inc, args.compile_timeout, args.real_probe,
                               args.precision):
                rows.append(r)
                bad = r.error or r.failed
                slow = max((b.seconds for b in r.builds), default=0.0)
                print(f"{'FAIL' if bad else 'ok  '} {r.task:<44} {r.space:<18} {r.strategy:<22} "
                      f"built {r.built}/{r.generated} slowest {slow:.1f}s {','.join(r.kinds)} {r.error}", flush=True)
                for b in r.failed:
                    print("       ", f"{b.name}: {b.error}".replace("\n", " | ")[:400])
                for why in r.invalid[:2]:
                    print("        invalid:", why)
    table = summary(rows)
    md = markdown(table)
    print("\n" + md)
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": [r.__dict__ | {"builds": [b.__dict__ for b in r.builds]}
                                                        for r in rows], "tasks": table}, indent=1))
    if args.markdown:
        Path(args.markdown).write_text(md)
    return 1 if any(r.error or r.failed for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
