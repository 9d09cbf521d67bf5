"""Pre-flight for GPU time: what the expert backend would generate for each suite task on a CUDA device,
and whether it builds — on a machine with nvcc and no GPU.

For every task and each of the three spaces, the expert SSDA scores the directions, the SPA plans, the OA
writes K candidates as it would in round 1 on `cuda:0`; each CUDA source is compiled with nvcc (-c,
sm_90) and each ModelNew file is byte-compiled. Nothing runs on a GPU, so this finds build failures and
generator gaps (a space that yields no candidate) before device minutes are spent, not wrong results.

    python scripts/preflight_suite.py [bench/level2 bench/level3 ...] [--k 6] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import py_compile
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from contracts.contract import write_contract  # noqa: E402
from contracts.spaces import Space  # noqa: E402
from contracts.task import load_task  # noqa: E402
from engine.agents.base import Context, Invalid  # noqa: E402
from engine.agents.expert import ExpertBackend  # noqa: E402
from engine.evaluate import CandidateKind  # noqa: E402
from engine.evaluate.build import ToolchainMissing, cudnn_flags, find_nvcc  # noqa: E402
from engine.evaluate.outcome import Precision  # noqa: E402

# What an H200 reports; the rules read these when they size grids.
H200_INFO = {"name": "NVIDIA H200", "sm_count": 132, "capability": [9, 0]}


def cublas_include(nv: str, given: str | None) -> str | None:
    """cublas_v2.h: --cublas-include, the CUDA toolkit's include folder, or an installed nvidia-cublas wheel."""
    roots = [Path(given)] if given else []
    roots += [Path(nv).parent.parent / "include"]
    roots += [Path(p) / "nvidia" / sub / "include" for p in sys.path if p for sub in ("cu13", "cublas", "cu12")]
    return next((str(r) for r in roots if (r / "cublas_v2.h").exists()), None)


def task_rows(task: Path, k: int, work: Path, nv: str, inc: str | None) -> list[dict]:
    rows: list[dict] = []
    try:
        spec = load_task(task)
    except Exception as e:  # a task that does not load is itself a finding
        return [{"task": str(task), "space": "-", "error": f"load: {e}"}]
    cdir = work / task.stem / "contract"
    write_contract(spec, cdir)
    backend = ExpertBackend()
    for space in Space:
        ctx = Context(spec, cdir, "cuda:0", dict(H200_INFO), Precision.FP32, 1, 3, tuple(Space), None, None, None)
        row = {"task": f"{task.parent.name}/{task.stem}", "space": space.value}
        try:
            scores = backend.ssda.score_directions(ctx, space)
            strategy = backend.spa.plan(ctx, space, scores)
            row["strategy"] = strategy.name
            cands = backend.oa.generate(ctx, space, strategy, k)
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"
            rows.append(row)
            continue
        row["invalid"] = [c.reason[:160] for c in cands if isinstance(c, Invalid)]
        built, failed = 0, []
        jobs = []
        for i, c in enumerate(x for x in cands if not isinstance(x, Invalid)):
            d = work / task.stem / space.value
            d.mkdir(parents=True, exist_ok=True)
            if c.kind == CandidateKind.CUDA:
                f = d / f"c{i}.cu"
                f.write_text(c.source)
                cmd = [nv, "-arch=sm_90", "-O3", "-std=c++17", "-lineinfo", "-Xcompiler", "-fPIC", "-c",
                       f"-I{cdir}", str(f), "-o", str(f.with_suffix(".o"))]
                if inc and re.search(r"cublas\w*\(", c.source):
                    cmd.insert(1, f"-I{inc}")
                if re.search(r"cudnn\w*\(", c.source):
                    cmd[1:1] = [f for f in cudnn_flags() if f.startswith("-I")]
                jobs.append((f, cmd))
            elif c.kind == CandidateKind.MODELNEW:
                f = d / f"c{i}.py"
                f.write_text(c.source)
                try:
                    py_compile.compile(str(f), doraise=True)
                    built += 1
                except py_compile.PyCompileError as e:
                    failed.append(f"{f.name}: {e.msg[:200]}")
        with ThreadPoolExecutor(2) as pool:
            for f, p in pool.map(lambda j: (j[0], subprocess.run(j[1], capture_output=True, text=True,
                                                                    timeout=300)), jobs):
                if p.returncode == 0:
                    built += 1
                else:
                    failed.append(f"{f.name}: {p.stderr.strip()[-300:]}")
        row |= {"generated": len(cands), "built": built, "failed": failed,
                "kinds": sorted({c.kind.value for c in cands if not isinstance(c, Invalid)})}
        rows.append(row)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", default=["bench/level1", "bench/level2", "bench/level3"])
    ap.add_argument("--k", type=int, default=6)
    ap.add_argument("--json", default=None)
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
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="hiera-preflight-") as tmp:
        for d in args.dirs:
            for task in sorted(Path(d).glob("*.py")):
                if task.name.startswith(("_", "check_")):
                    continue
                for r in task_rows(task, args.k, Path(tmp), nv, inc):
                    rows.append(r)
                    bad = r.get("error") or r.get("failed")
                    print(f"{'FAIL' if bad else 'ok  '} {r['task']:<36} {r['space']:<18} "
                          f"{r.get('strategy', '-'):<22} built {r.get('built', 0)}/{r.get('generated', 0)} "
                          f"{','.join(r.get('kinds', []))} {r.get('error') or ''}", flush=True)
                    for f in r.get("failed", []):
                        print("       ", f.replace("\n", " | ")[:400])
                    for why in r.get("invalid", [])[:2]:
                        print("        invalid:", why)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 1 if any(r.get("error") or r.get("failed") for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
