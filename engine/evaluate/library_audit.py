"""Which shared libraries a candidate's runner had mapped while it ran, against its implementation space: a
pure_cuda candidate may load no CUDA library and nothing of torch, a cuda_libraries one nothing of torch.
Read from /proc by the checker (CandidateProcess.loaded_libraries: the runner cannot forge it)."""

from __future__ import annotations

import os

from engine.evaluate.candidate_process import LIBRARY_MARKERS, TORCH_MARKERS, CandidateProcess
from engine.evaluate.outcome import Status
from engine.evaluate.requests import EvalRequest, Rejected


def check_libraries(proc: CandidateProcess, req: EvalRequest) -> None:
    """Rejected (space_violation) when the runner mapped a library its space does not allow; ModelNew files
    (torch itself) are not audited."""
    if req.kind == "modelnew":
        return
    libs = proc.loaded_libraries()
    names = [os.path.basename(p) for p in libs]
    if req.space == "pure_cuda":
        bad = [n for n in names if n.startswith(LIBRARY_MARKERS + TORCH_MARKERS)]
        if bad:
            raise Rejected(Status.SPACE_VIOLATION, f"the candidate loaded {', '.join(sorted(set(bad)))} while it "
                                                   "ran, which pure_cuda does not allow")
    elif req.space == "cuda_libraries":
        bad = [n for n in names if n.startswith(TORCH_MARKERS)]
        if bad:
            raise Rejected(Status.SPACE_VIOLATION, f"the candidate loaded {', '.join(sorted(set(bad)))} while it "
                                                   "ran, which cuda_libraries does not allow")
