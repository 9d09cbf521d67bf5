"""Which profiled lines are shown (contracts/hotlines.py), on the recorded H200 profiles and small cases.

The recordings are tests/data/ncu/ (loaded as tests/test_profile_fixtures.py does). The rule: a line is shown
when it holds at least SHOW_SHARE of its kernel's stall samples and is among the MAX_HOT_LINES hottest, or
when ncu counted a material inefficiency on it, whatever its samples.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from contracts.hotlines import (
    MAX_FINDING_LINES,
    MAX_HOT_LINES,
    SHOW_SHARE,
    STALL_WORDS,
    WARN_SHARE,
    HotLine,
    elsewhere,
    hot_lines,
)
from contracts.profile import KernelProfile, LineFinding, Profile
from engine.profile.catalog import line_findings
from engine.profile.csv_pages import launches_from_csv
from tests.test_profile_fixtures import CASES, RECORDINGS, load, source_of

pytestmark = pytest.mark.skipif(not CASES, reason="no ncu recordings in tests/data/ncu")


def by_line(hot: tuple[HotLine, ...], name: str) -> dict[int, HotLine]:
    return {h.finding.line: h for h in hot if Path(h.finding.file).name == name}


def share_of_all(p: Profile, f: LineFinding) -> float:
    return f.samples / sum(g.samples for g in p.lines if g.kernel == f.kernel)


@pytest.mark.parametrize("fixture, reader", CASES)
def test_every_shown_line_is_hot_or_has_a_finding_and_none_is_missed(fixture, reader):
    p = load(fixture, reader)
    hot = hot_lines(p)
    shown = {(h.finding.file, h.finding.line) for h in hot}
    for h in hot:
        assert h.share >= SHOW_SHARE or h.material, h.message()
        assert h.warning == (h.share >= WARN_SHARE or h.material)
    by_share = sum(1 for h in hot if h.share >= SHOW_SHARE)
    for f in p.lines:
        if (f.file, f.line) in shown:
            continue
        # left out: a cold line without a finding, or a hot one past the cap
        assert share_of_all(p, f) < SHOW_SHARE or by_share >= MAX_HOT_LINES, (f.line, f.samples)
    assert len(hot) <= MAX_HOT_LINES + MAX_FINDING_LINES


@pytest.mark.parametrize("reader", ["csv", "ncu_report"])
def test_divergent_branches_are_shown_though_their_lines_are_cold(reader):
    hot = by_line(hot_lines(load("divergent", reader)), "divergent.cu")
    for n in (13, 15, 17):  # the `// HOT: divergent` branches: 0-1% of the samples each
        assert hot[n].share < SHOW_SHARE and hot[n].warning and hot[n].direction == "C"
        assert hot[n].message() == ("32,768 divergent branches: the warp's threads take different paths here "
                                    "→ C (control flow)")
    assert not {9, 10, 11, 22, 23} & hot.keys()  # 0-4% of the samples, nothing counted: dropped


def test_the_0_to_1_percent_lines_are_dropped():
    p = load("uncoalesced", "csv")
    hot = by_line(hot_lines(p), "uncoalesced.cu")
    assert sorted(hot) == [10, 12]  # 89% and 9%; lines 7, 8 and 9 hold under 1% each
    assert hot[10].warning and hot[10].direction == "M"
    assert hot[10].message() == (
        "89% of the kernel's stall samples, pressing on memory: mostly waiting on global/local memory (L1TEX) "
        "[long_scoreboard]; "
        "1,835,008 excess global sectors (78% of the kernel's): uncoalesced access → M (memory transactions)")
    assert not hot[12].warning and "draining memory writes at exit [drain]" in hot[12].message()


def test_stall_words_and_directions_on_recorded_profiles():
    low = by_line(hot_lines(load("low_occupancy", "csv")), "low_occupancy.cu")
    assert list(low) == [14]  # one line holds 96% of the samples: the only one shown
    # long_scoreboard's direction follows the kernel, as the scores do: too few warps to hide the latency
    assert low[14].stall == "long_scoreboard" and low[14].direction == "P"
    bank = by_line(hot_lines(load("bank_conflicts", "csv")), "bank_conflicts.cu")
    assert "bank conflicts → M" in bank[18].message() and "waiting at __syncthreads [barrier]" in bank[18].message()
    sgemm = by_line(hot_lines(load("sgemm_fma", "csv")), "sgemm_fma.cu")
    assert sgemm[42].direction is None  # mostly `selected`: issuing, not stalled; no direction to name
    assert "issuing instructions, not stalled [selected]" in sgemm[42].message()
    assert set(STALL_WORDS) >= {r for h in sgemm.values() for r in h.finding.stall_samples}


def test_a_kernel_whose_time_is_in_an_inlined_header_says_so():
    # wmma_gemm: the WMMA fragments' loads and MMAs are mma.hpp's lines; the .cu alone looks cold.
    p = load("wmma_gemm", "csv")
    (away,) = elsewhere(p, lambda f: Path(f.file).name == "wmma_gemm.cu")
    assert away.share > 0.9 and away.files[0][0] == "mma.hpp" and away.warning
    assert "mma.hpp" in away.message() and "hiera profile" in away.message()
    # Counting the header as the file shown leaves nothing elsewhere; so does a profile of one plain .cu.
    assert elsewhere(p, lambda f: True) == ()
    assert elsewhere(load("uncoalesced", "csv"), lambda f: f.file.endswith(".cu")) == ()


def test_a_header_line_does_not_crowd_out_the_users_file():
    # wmma_gemm: 93% of the samples sit on mma.hpp (inlined WMMA loads); the .cu itself has no line above 1%
    p = load("wmma_gemm", "csv")
    assert by_line(hot_lines(p), "mma.hpp")
    assert hot_lines(p, lambda f: Path(f.file).name == "wmma_gemm.cu") == ()


def test_the_hottest_lines_are_capped():
    k = KernelProfile(name="k")
    lines = tuple(LineFinding("k.cu", n, "k", {"wait": 100 + n}) for n in range(1, 13))  # 12 lines of ~8% each
    hot = hot_lines(Profile(kernels=(k,), lines=lines))
    assert [h.finding.line for h in hot] == [12, 11, 10, 9, 8, 7, 6, 5][:MAX_HOT_LINES]


def test_shares_are_of_the_whole_kernel_when_the_profile_kept_only_its_top_lines():
    d = RECORDINGS / "divergent"
    launches = launches_from_csv(*((d / f"{x}.csv").read_text() for x in ("raw", "details", "source")))
    src = source_of("divergent")
    source_map = {"cuda_source.cu": str(src), src.name: str(src)}
    full = load("divergent", "csv")
    top3 = dataclasses.replace(full, lines=line_findings(launches, source_map, limit=3))
    # the cold divergent lines survive the cut, and the kept lines' shares do not grow
    assert {13, 15, 17} <= {f.line for f in top3.lines}
    assert by_line(hot_lines(top3), "divergent.cu")[7].share == pytest.approx(
        by_line(hot_lines(full), "divergent.cu")[7].share)
    assert full.kernels[0].line_stall_samples == sum(f.samples for f in full.lines)


def test_launches_of_one_kernel_are_merged():
    k = KernelProfile(name="k", global_sectors=1000)
    a = LineFinding("k.cu", 3, "k", {"long_scoreboard": 40}, excessive_global_sectors=30)
    b = LineFinding("k.cu", 4, "k", {"wait": 20})
    hot = hot_lines(Profile(kernels=(k, k), lines=(a, b, a, b)))
    assert [(h.finding.line, h.finding.samples, round(h.share, 3)) for h in hot] == [(3, 80, 0.667), (4, 40, 0.333)]
    # two launches: 60 of 2000 sectors are excess, not material; the stall share makes line 3 a warning
    assert hot[0].waste[0].share == pytest.approx(0.03) and not hot[0].material and hot[0].warning


def test_a_json_round_trip_keeps_the_selection():
    p = load("bank_conflicts", "csv")
    again = Profile.from_json(json.loads(json.dumps(p.to_json())))
    assert [h.message() for h in hot_lines(again)] == [h.message() for h in hot_lines(p)]


def test_the_h200_softmax_profile_gets_its_hot_lines_not_24_marks():
    # The shape of /work/.device/1/session/ls_drive.txt: the LS published one Information per sampled line,
    # 24 in all, down to "0% of the kernel's stall samples (mostly not_selected)".
    k = KernelProfile(name="hiera_stage0", achieved_occupancy_pct=42.0, line_stall_samples=1000,
                      warp_stalls={"long_scoreboard": 6.8, "wait": 1.7, "short_scoreboard": 1.7})
    seen = [(69, "long_scoreboard", 290), (114, "wait", 100), (102, "wait", 100), (110, "wait", 90),
            (106, "wait", 80), (24, "short_scoreboard", 70), (19, "short_scoreboard", 52), (46, "barrier", 52),
            (60, "not_selected", 30), (117, "drain", 20), (83, "selected", 20), (89, "selected", 20),
            (45, "short_scoreboard", 10), (80, "selected", 10), (86, "not_selected", 10),
            (51, "no_instruction", 10), (115, "selected", 10), (93, "wait", 10), (70, "not_selected", 4),
            (72, "not_selected", 4), (71, "not_selected", 4), (92, "wait", 3), (79, "selected", 3),
            (90, "dispatch_stall", 3)]
    lines = tuple(LineFinding("hiera_stage0.cu", n, "hiera_stage0", {r: s}) for n, r, s in seen)
    hot = hot_lines(Profile(kernels=(k,), lines=lines))
    assert [h.finding.line for h in hot] == [69, 102, 114, 110, 106, 24, 19, 46]  # ties: by line
    assert [h.finding.line for h in hot if h.warning] == [69]  # the one line with a fifth of the samples
    assert hot[0].message() == ("29% of the kernel's stall samples, pressing on memory: mostly waiting on global/local "
                                "memory (L1TEX) "
                                "[long_scoreboard] → R (data reuse / pipelining)")
    assert hot[7].message() == "5% of the kernel's stall samples, pressing on synchronization: mostly waiting at " \
                               "__syncthreads [barrier] → P " \
                               "(parallelism)"
