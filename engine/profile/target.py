"""The program ncu launches: load a task and one candidate (or the reference), run it once inside an NVTX range.

    python -m engine.profile.target --task TASK.py --kind cuda|modelnew|reference --device cuda:0
                                    [--artifact X.so|X.py] [--layout LAYOUT.json] [--contract-dir DIR]

Loading is the evaluation worker's (engine/evaluate/session.py): the same reference weights, inputs and
candidate factory, so the profiled call is the call that was verified and timed. A few warm-up calls run
first, outside the range (lazy module loading, autotuning, first-touch allocations), then exactly one call
inside it, so ncu's NVTX filter sees only the candidate's own kernels.

The range is named without a slash: in ncu's NVTX filter a "/" separates nested push/pop ranges, so a range
called "hiera/candidate" could not be matched exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

_T0 = time.perf_counter()  # before torch is imported: the timeline below starts here
TIMELINE = "hiera profile target: timeline "  # the line ncu's captured output carries it on (engine/profile/ncu.py)

CANDIDATE_RANGE = "hiera_candidate"
REFERENCE_RANGE = "hiera_reference"
KINDS = ("cuda", "modelnew", "reference")


def nvtx_filter(kind: str) -> str:
    """ncu --nvtx-include expression for this kind's range (push/pop ranges need the trailing slash)."""
    return (REFERENCE_RANGE if kind == "reference" else CANDIDATE_RANGE) + "/"


def run(task: str, kind: str, device: str, artifact: str | None, layout: dict[str, Any] | None,
        precision: str = "fp32", warmup: int = 3, seed: int = 1234) -> None:
    import torch

    from contracts.device import Device
    from engine.evaluate.requests import EvalRequest
    from engine.evaluate.session import Session

    marks = {"import_s": time.perf_counter() - _T0}
    if not Device.parse(device).is_cuda or not torch.cuda.is_available():
        raise SystemExit(f"hiera profile target: {device} is not a usable CUDA device here")
    session = Session(task, device, precision)
    reference = session.make_reference(seed)
    inputs = session.make_inputs(seed + 7)
    torch.cuda.synchronize(session.device)
    marks["task_s"] = time.perf_counter() - _T0
    if kind == "reference":
        fn = reference
        name = REFERENCE_RANGE
    else:
        if artifact is None:
            raise SystemExit("hiera profile target: --artifact is required for a candidate")
        if kind == "cuda" and layout is None:
            raise SystemExit("hiera profile target: --layout is required for a contract (.cu) candidate")
        make = session.candidate_factory(EvalRequest(candidate_id="profiled", kind=kind, artifact=artifact,
                                                     contract=layout))
        fn = make(reference, seed)
        name = CANDIDATE_RANGE
    with torch.no_grad():
        for _ in range(warmup):
            fn(*inputs)
        torch.cuda.synchronize(session.device)
        marks["warmup_s"] = time.perf_counter() - _T0
        torch.cuda.nvtx.range_push(name)
        fn(*inputs)
        torch.cuda.synchronize(session.device)
        torch.cuda.nvtx.range_pop()
    marks["profiled_s"] = time.perf_counter() - _T0  # the call under ncu: its replays of every kernel
    print(f"hiera profile target: ran {kind} once inside NVTX range {name!r}", file=sys.stderr)
    print(TIMELINE + json.dumps({k: round(v, 3) for k, v in marks.items()}), file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m engine.profile.target")
    p.add_argument("--task", required=True)
    p.add_argument("--kind", required=True, choices=KINDS)
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--artifact", default=None, help="the built .so (cuda) or the ModelNew .py (modelnew)")
    p.add_argument("--layout", default=None, help="JSON file with the contract layout (contract_layout(spec))")
    p.add_argument("--contract-dir", default=None, help="the task's contract folder (for the candidate's headers)")
    p.add_argument("--precision", default="fp32")
    p.add_argument("--warmup", type=int, default=3)
    args = p.parse_args(argv)
    layout = json.loads(Path(args.layout).read_text()) if args.layout else None
    if args.contract_dir:
        sys.path.insert(0, args.contract_dir)  # a ModelNew may import the contract's torch_demo helpers
    run(args.task, args.kind, args.device, args.artifact, layout, args.precision, args.warmup)


if __name__ == "__main__":
    main()
