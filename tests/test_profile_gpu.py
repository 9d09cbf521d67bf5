"""Live profiling on a CUDA device with Nsight Compute (run on the H200: pytest -m gpu tests/test_profile_gpu.py).

Builds a deliberately uncoalesced contract candidate (tools/ncu/torch_target/), profiles it and the task's
reference through engine.profile, and checks the profile: its kernel, its scores, and the hot line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.profile import ProfilerUnavailable, find_ncu, profile_candidate, profile_reference

pytestmark = pytest.mark.gpu

TARGET = Path(__file__).resolve().parents[1] / "tools" / "ncu" / "torch_target"
TASK = TARGET / "scale_bias.py"
CANDIDATE = TARGET / "scale_bias_uncoalesced.cu"


@pytest.fixture(scope="module")
def ncu() -> str:
    try:
        return find_ncu()
    except ProfilerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import torch

    from engine.evaluate.build import BuildConfig, build_one
    from engine.evaluate.pipeline import candidate_from_file
    from engine.task.contract import contract_layout, write_contract
    from engine.task.spec import load_task

    tmp = tmp_path_factory.mktemp("profile_gpu")
    spec = load_task(TASK)
    contract = tmp / "contract"
    write_contract(spec, contract)
    major, minor = torch.cuda.get_device_capability(0)
    b = build_one(candidate_from_file(CANDIDATE, "cuda:0"), BuildConfig(contract, tmp / "build", f"{major}{minor}"))
    assert b.ok, b.log
    return spec, contract, b.artifact, contract_layout(spec)


def hot_line() -> int:
    return next(i for i, t in enumerate(CANDIDATE.read_text().splitlines(), 1) if re.search(r"// HOT: uncoalesced", t))


def test_candidate_profile_has_scores_evidence_and_the_hot_line(ncu, built, tmp_path):
    spec, contract, artifact, layout = built
    p = profile_candidate(spec.path, contract, artifact, "cuda", "cuda:0", ncu_path=ncu, work_dir=tmp_path,
                          layout=layout, source_path=CANDIDATE)
    assert [k.name for k in p.kernels] == ["scale_bias_columns"]
    k = p.kernels[0]
    assert k.duration_us > 0 and k.excessive_sector_fraction > 0.5
    assert p.best_direction() == "M", (p.scores, p.evidence)
    assert p.evidence["M"] and p.evidence["M"][0].startswith("M ")
    mine = [f for f in p.lines if f.file == str(CANDIDATE.resolve())]
    assert mine, [(f.file, f.line) for f in p.lines]
    worst = max(mine, key=lambda f: f.excessive_global_sectors or 0)
    assert worst.line == hot_line() and "bias[c]" in worst.text
    assert p.seconds is not None and p.seconds <= 30, f"profiling took {p.seconds} s"
    assert json.loads(json.dumps(p.to_json()))["scores"]["M"] == p.scores["M"]


def test_reference_profile_reads_the_torch_kernels(ncu, tmp_path):
    p = profile_reference(TASK, "cuda:0", ncu_path=ncu, work_dir=tmp_path)
    assert p.kernels and all(k.duration_us and k.duration_us > 0 for k in p.kernels)
    assert sum(p.scores.values()) > 0
    assert p.lines == () and any("-lineinfo" in n for n in p.notices)  # PyTorch's kernels carry no line info
