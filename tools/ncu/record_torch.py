"""Profile a contract candidate and a task's reference through hiera's own API, live (needs a GPU and ncu).

    python tools/ncu/record_torch.py OUT_DIR [--ncu NCU]

Builds tools/ncu/torch_target/scale_bias_uncoalesced.cu against scale_bias.py's contract the way `hiera eval`
does, runs engine.profile.profile_candidate and profile_reference, and writes for each into
OUT_DIR/torch_candidate and OUT_DIR/torch_reference: the CSV pages of the report, ncu_report.json (the
module reader's launches), profile.json, feedback.txt and meta.json (wall seconds of the whole profile
call, kernels, best direction).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from engine.evaluate.build import BuildConfig, build_one
from engine.evaluate.pipeline import candidate_from_file
from engine.profile import Profile, ProfilerUnavailable, find_ncu, profile_candidate, profile_reference
from engine.profile.feedback import feedback_text
from engine.profile.ncu import PAGES, export_page
from engine.profile.readings import launch_to_json
from engine.profile.report_api import read_in_subprocess
from engine.task.contract import contract_layout, write_contract
from engine.task.spec import load_task

HERE = Path(__file__).resolve().parent
TASK = HERE / "torch_target" / "scale_bias.py"
CANDIDATE = HERE / "torch_target" / "scale_bias_uncoalesced.cu"


def _save(out: Path, name: str, fn: Callable[[Path], Profile], ncu: str, work: Path, expect: str | None,
          reports: Path | None) -> bool:
    d = out / name
    d.mkdir(parents=True, exist_ok=True)
    meta: dict[str, object] = {"fixture": name, "expect": expect}
    t0 = time.perf_counter()
    try:
        profile = fn(work)
        meta.update(ok=True, wall_s=round(time.perf_counter() - t0, 2), ncu_s=profile.seconds,
                    kernels=[k.name for k in profile.kernels], best=profile.best_direction(), scores=profile.scores,
                    lines=len(profile.lines), notices=list(profile.notices),
                    bottleneck=profile.bottleneck.rule if profile.bottleneck else None)
        (d / "profile.json").write_text(json.dumps(profile.to_json(), indent=1))
        (d / "feedback.txt").write_text(feedback_text(profile))
        report = work / "profile.ncu-rep"
        try:  # what the product's module reader extracts, replayed by the fixture tests
            launches = read_in_subprocess(ncu, report)
            (d / "ncu_report.json").write_text(json.dumps([launch_to_json(ln) for ln in launches], indent=1))
        except RuntimeError as e:
            meta["ncu_report_error"] = str(e)
        for page in PAGES:
            try:
                (d / f"{page}.csv").write_text(export_page(ncu, report, page))
            except ProfilerUnavailable as e:
                meta[f"{page}_error"] = str(e)
        if reports is not None:
            reports.mkdir(parents=True, exist_ok=True)
            shutil.copy(report, reports / f"{name}.ncu-rep")
    except ProfilerUnavailable as e:
        meta.update(ok=False, wall_s=round(time.perf_counter() - t0, 2), error=str(e))
    except Exception:
        meta.update(ok=False, wall_s=round(time.perf_counter() - t0, 2), error=traceback.format_exc()[-2000:])
    (d / "meta.json").write_text(json.dumps(meta, indent=1))
    print(json.dumps(meta))
    return bool(meta["ok"])


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--ncu", default=None)
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--reports", default=None, help="also copy the .ncu-rep files here")
    args = p.parse_args()
    out = Path(args.out)
    reports = Path(args.reports) if args.reports else None
    ncu = find_ncu(args.ncu)
    spec = load_task(TASK)
    tmp = Path(tempfile.mkdtemp(prefix="hiera-record-torch-"))
    contract = tmp / "contract"
    write_contract(spec, contract)
    cand = candidate_from_file(CANDIDATE, args.device)
    import torch

    major, minor = torch.cuda.get_device_capability(0)
    built = build_one(cand, BuildConfig(contract, tmp / "build", cuda_arch=f"{major}{minor}"))
    ok = True
    if not built.ok or built.artifact is None:
        print(f"candidate build failed:\n{built.log}", file=sys.stderr)
        ok = False
    else:
        ok &= _save(out, "torch_candidate", lambda w: profile_candidate(
            spec.path, contract, built.artifact, "cuda", args.device, ncu_path=ncu, work_dir=w,
            layout=contract_layout(spec), source_path=CANDIDATE), ncu, tmp / "cand", "M", reports)
    ok &= _save(out, "torch_reference", lambda w: profile_reference(spec.path, args.device, ncu_path=ncu, work_dir=w),
                ncu, tmp / "ref", None, reports)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
