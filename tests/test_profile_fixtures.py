"""Real Nsight Compute recordings (tests/data/ncu/<fixture>/, made by tools/ncu/record_fixtures.sh on an H200).

Each fixture program in tools/ncu/ has one designed bottleneck: its header says which direction must score
highest (`// EXPECT: M`) and its source marks the lines where the bottleneck sits (`// HOT: <tag>`). For
every recording and every reader that recorded it (the CSV pages; the ncu_report dump when the module
imported there) these tests check the direction, the hot lines, and the metrics the mapping relies on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from contracts.profile import KernelProfile
from engine.profile import Profile, profile_from_launches
from engine.profile.csv_pages import launches_from_csv
from engine.profile.feedback import feedback_text
from engine.profile.readings import launch_from_json

REPO = Path(__file__).resolve().parents[1]
RECORDINGS = REPO / "tests" / "data" / "ncu"
TOOLS = REPO / "tools" / "ncu"
SOURCES = {"torch_candidate": TOOLS / "torch_target" / "scale_bias_uncoalesced.cu"}

FIXTURES = sorted(d.name for d in RECORDINGS.glob("*") if (d / "raw.csv").exists()) if RECORDINGS.is_dir() else []
pytestmark = pytest.mark.skipif(
    not FIXTURES, reason="no ncu recordings in tests/data/ncu yet: run `OUT=... bash tools/ncu/record_fixtures.sh` "
                         "on a GPU machine and unpack ncu_fixtures.tar.gz into tests/data")

# Which line counter locates each kind of HOT mark; unlisted tags are located by stall samples.
TAG_COUNTER = {"uncoalesced": "excessive_global_sectors", "bank_conflict": "excessive_shared_wavefronts",
               "divergent": "divergent_branches"}

# What the mapping relies on, per fixture: a reader that loses these is broken even if the ranking holds.
METRIC_CHECKS: dict[str, Callable[[KernelProfile], bool]] = {
    "uncoalesced": lambda k: (k.excessive_sector_fraction or 0) > 0.5 and (k.sectors_per_request_ld or 0) > 8,
    "bank_conflicts": lambda k: (k.bank_conflict_fraction or 0) > 0.5,
    "low_occupancy": lambda k: (k.theoretical_occupancy_pct or 100) < 10 and k.occupancy_limiter == "shared_mem",
    "divergent": lambda k: (k.active_threads_per_warp or 32) < 16,
    "sgemm_fma": lambda k: (k.fma_pipe_pct or 0) > 30 and (k.tensor_pipe_pct or 0) < 5,
    "wmma_gemm": lambda k: (k.tensor_pipe_pct or 0) > 0,
    "torch_candidate": lambda k: (k.excessive_sector_fraction or 0) > 0.5,
}


def source_of(fixture: str) -> Path | None:
    src = SOURCES.get(fixture, TOOLS / f"{fixture}.cu")
    return src if src.exists() else None


def header(src: Path, key: str) -> str | None:
    m = re.search(rf"^// {key}: (\S+)", src.read_text(), re.MULTILINE)
    return m.group(1) if m else None


def hot_marks(src: Path) -> dict[str, set[int]]:
    marks: dict[str, set[int]] = {}
    for no, text in enumerate(src.read_text().splitlines(), start=1):
        m = re.search(r"// HOT: (\w+)", text)
        if m:
            marks.setdefault(m.group(1), set()).add(no)
    return marks


def readers(fixture: str) -> list[str]:
    return ["csv"] + (["ncu_report"] if (RECORDINGS / fixture / "ncu_report.json").exists() else [])


def load(fixture: str, reader: str) -> Profile:
    d = RECORDINGS / fixture
    src = source_of(fixture)
    # The recorded report names the file as compiled there (another machine, or the build cache's copy).
    source_map = {"cuda_source.cu": str(src), src.name: str(src)} if src else {}
    if reader == "csv":
        pages = [d / f"{p}.csv" for p in ("raw", "details", "source")]
        launches = launches_from_csv(*(p.read_text() if p.exists() else "" for p in pages))
    else:
        launches = [launch_from_json(x) for x in json.loads((d / "ncu_report.json").read_text())]
    return profile_from_launches(launches, source_map=source_map, target=fixture)


CASES = [(f, r) for f in FIXTURES for r in readers(f)]


@pytest.mark.parametrize("fixture, reader", CASES)
def test_expected_direction_scores_highest(fixture, reader):
    src = source_of(fixture)
    expected = header(src, "EXPECT") if src else None
    if expected is None:
        pytest.skip(f"{fixture} has no EXPECT: direction (a reference profile)")
    p = load(fixture, reader)
    assert p.best_direction() == expected, f"scores {p.scores}; evidence {json.dumps(p.evidence, indent=1)}"


@pytest.mark.parametrize("fixture, reader", CASES)
def test_hot_lines_land_on_the_marked_lines(fixture, reader):
    src = source_of(fixture)
    if src is None or not hot_marks(src):
        pytest.skip(f"{fixture} marks no HOT lines")
    p = load(fixture, reader)
    mine = [f for f in p.lines if Path(f.file).name == src.name]
    assert mine, f"no line findings in {src.name}: {[(f.file, f.line) for f in p.lines]}"
    for tag, marked in hot_marks(src).items():
        counter = TAG_COUNTER.get(tag, "samples")
        top = max(mine, key=lambda f: getattr(f, counter) or 0)
        assert (getattr(top, counter) or 0) > 0, f"no line has any {counter}"
        assert top.line in marked, f"{tag}: the line with the most {counter} is {top.line} ({top.text!r}), " \
                                   f"not one of {sorted(marked)}"


@pytest.mark.parametrize("fixture, reader", CASES)
def test_kernel_metrics_are_read(fixture, reader):
    p = load(fixture, reader)
    assert p.kernels, "no kernels read"
    src = source_of(fixture)
    kernel = header(src, "KERNEL") if src else None
    if kernel is not None:
        assert [k.name for k in p.kernels] == [kernel]
    for k in p.kernels:
        assert k.duration_us is not None and k.duration_us > 0
        assert k.sm_throughput_pct is not None and k.memory_throughput_pct is not None
        assert k.achieved_occupancy_pct is not None and k.registers_per_thread is not None
        assert k.warp_stalls, "no warp stall breakdown"
    check = METRIC_CHECKS.get(fixture)
    if check is not None:
        assert any(check(k) for k in p.kernels), p.kernels[0]
    assert len(feedback_text(p)) <= 1500


@pytest.mark.parametrize("fixture", [f for f in FIXTURES if "ncu_report" in readers(f)])
def test_both_readers_agree(fixture):
    a, b = load(fixture, "csv"), load(fixture, "ncu_report")
    assert a.best_direction() == b.best_direction()
    assert [k.name for k in a.kernels] == [k.name for k in b.kernels]
    for ka, kb in zip(a.kernels, b.kernels):
        assert ka.duration_us == pytest.approx(kb.duration_us, rel=0.01)
        assert ka.theoretical_occupancy_pct == pytest.approx(kb.theoretical_occupancy_pct, rel=0.01)
        for reason in ka.warp_stalls.keys() | kb.warp_stalls.keys():  # the CSV rounds to 2 decimals
            assert ka.warp_stalls.get(reason, 0) == pytest.approx(kb.warp_stalls.get(reason, 0), rel=0.01, abs=0.01)
        # The same advice with the same estimates (message text differs: the CSV resolves links its own way).
        def advice(k: KernelProfile) -> list[tuple[str, str, str | None, float | None]]:
            return sorted((r.name, r.type, r.speedup_type, None if r.estimated_speedup_pct is None
                           else round(r.estimated_speedup_pct)) for r in k.rules)
        assert advice(ka) == advice(kb)
    # The same hot lines of the fixture's own file, with the same counters (a line's missing counter and a
    # zero are the same thing; code inlined from headers is attributed slightly differently by the two).
    src = source_of(fixture)

    def top(p: Profile) -> list[tuple[int, int, int, int]]:
        total = sum(x.samples for x in p.lines)
        return sorted((f.line, f.samples, f.excessive_global_sectors or 0, f.excessive_shared_wavefronts or 0)
                      for f in p.lines if f.samples > 0.02 * total and src and Path(f.file).name == src.name)
    assert top(a) == top(b)


@pytest.mark.parametrize("fixture", FIXTURES)
def test_a_profile_fits_the_30_second_budget(fixture):
    meta_path = RECORDINGS / fixture / "meta.json"
    if not meta_path.exists():
        pytest.skip("no meta.json recorded")
    meta = json.loads(meta_path.read_text())
    seconds = float(meta.get("wall_s") or meta.get("ncu_s") or 0)
    assert 0 < seconds <= 30, f"{fixture}: profiling took {seconds} s"
