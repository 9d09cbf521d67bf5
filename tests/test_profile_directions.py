"""Metrics -> C/P/M/R/T: each textbook bottleneck, described by its metrics, scores its own direction highest.

The kernel profiles here are SYNTHETIC: numbers chosen like ncu reports them for such kernels on an H200.
The same checks run on real recordings in test_profile_fixtures.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from contracts.profile import KernelProfile, LineFinding, RuleResult
from engine.profile import profile_from_launches
from engine.profile.directions import bottleneck, memory_wait_direction, roofline, rule_direction, score
from engine.profile.readings import Launch

BASE = KernelProfile(name="k", duration_us=100.0, sm_throughput_pct=20.0, memory_throughput_pct=30.0,
                     dram_throughput_pct=20.0, achieved_occupancy_pct=85.0, theoretical_occupancy_pct=100.0,
                     block_size=256, grid_size=4096, sm_count=132, waves_per_sm=3.9, active_threads_per_warp=32.0,
                     branch_efficiency_pct=100.0, issue_slots_busy_pct=20.0, global_sectors=1000,
                     global_sectors_ideal=1000, shared_wavefronts_ld=0, shared_wavefronts_st=0,
                     shared_bank_conflicts_ld=0, shared_bank_conflicts_st=0)

UNCOALESCED = replace(BASE, name="strided_copy", memory_throughput_pct=88.0, sectors_per_request_ld=32.0,
                      global_sectors=2_359_296, global_sectors_ideal=327_680,
                      warp_stalls={"long_scoreboard": 30.0, "selected": 1.0, "lg_throttle": 2.0})
BANK = replace(BASE, name="transpose", memory_throughput_pct=70.0, shared_wavefronts_ld=33_554_432,
               shared_bank_conflicts_ld=32_505_856, shared_wavefronts_st=1_048_576,
               warp_stalls={"mio_throttle": 12.0, "short_scoreboard": 10.0, "long_scoreboard": 4.0})
LOW_OCC = replace(BASE, name="low_occ", theoretical_occupancy_pct=6.25, achieved_occupancy_pct=6.1,
                  occupancy_limiter="shared_mem", shared_mem_per_block=204_800, block_size=128, grid_size=132,
                  waves_per_sm=1.0, dram_throughput_pct=25.0, warp_stalls={"long_scoreboard": 40.0, "selected": 1.0})
DIVERGENT = replace(BASE, name="divergent", sm_throughput_pct=70.0, issue_slots_busy_pct=65.0,
                    active_threads_per_warp=8.2, branch_efficiency_pct=62.0,
                    warp_stalls={"wait": 4.0, "selected": 1.0, "not_selected": 2.0})
SGEMM = replace(BASE, name="sgemm", sm_throughput_pct=80.0, issue_slots_busy_pct=78.0, fma_pipe_pct=76.0,
                tensor_pipe_pct=0.0, theoretical_occupancy_pct=25.0, achieved_occupancy_pct=24.0,
                registers_per_thread=127, occupancy_limiter="registers",
                warp_stalls={"mio_throttle": 1.0, "not_selected": 1.0, "selected": 1.0})
NO_REUSE = replace(BASE, name="wmma", tensor_pipe_pct=12.0, issue_slots_busy_pct=15.0, l2_hit_rate=95.0,
                   warp_stalls={"long_scoreboard": 25.0, "selected": 1.0, "mio_throttle": 2.0})
STREAMING = replace(BASE, name="stream", dram_throughput_pct=91.0, memory_throughput_pct=91.0, l2_hit_rate=10.0,
                    warp_stalls={"long_scoreboard": 20.0, "selected": 1.0})
SMALL_GRID = replace(BASE, name="small", grid_size=8, waves_per_sm=0.06)


def best(k: KernelProfile, lines: tuple[LineFinding, ...] = ()) -> str:
    scores, _ = score([k], lines)
    return max(sorted(scores), key=lambda d: scores[d])


@pytest.mark.parametrize("kernel, expected", [
    (UNCOALESCED, "M"), (BANK, "M"), (LOW_OCC, "P"), (DIVERGENT, "C"), (SGEMM, "T"), (NO_REUSE, "R"),
    (STREAMING, "R"), (SMALL_GRID, "P"),
], ids=lambda x: x.name if isinstance(x, KernelProfile) else x)
def test_each_bottleneck_scores_its_own_direction_highest(kernel, expected):
    assert best(kernel) == expected


def test_scores_are_in_unit_range_and_cover_every_direction():
    for k in (UNCOALESCED, BANK, LOW_OCC, DIVERGENT, SGEMM, NO_REUSE, STREAMING, SMALL_GRID):
        scores, evidence = score([k])
        assert set(scores) == set(evidence) == {"C", "P", "M", "R", "T"}
        assert all(0.0 <= v <= 1.0 for v in scores.values())


def test_evidence_names_the_numbers_and_the_worst_line():
    line = LineFinding(file="/ws/cand.cu", line=41, kernel="strided_copy", stall_samples={"long_scoreboard": 90},
                       excessive_global_sectors=2_000_000, text="out[i] = in[i * stride];")
    _, evidence = score([UNCOALESCED], (line,))
    coalescing = next(e for e in evidence["M"] if "sectors/request" in e)
    assert coalescing.startswith("M 0.")
    assert "32.0 sectors/request" in coalescing and "ideal 4" in coalescing
    assert "line 41 (cand.cu)" in coalescing


def test_waiting_on_memory_belongs_to_whoever_causes_it():
    assert memory_wait_direction(UNCOALESCED) == "M"  # uncoalesced accesses
    assert memory_wait_direction(LOW_OCC) == "P"  # too few warps to hide latency
    assert memory_wait_direction(NO_REUSE) == "R"  # coalesced, enough warps: reuse or pipeline
    cpi = RuleResult("CPIStall", "OPT", "On average, each warp of this workload spends 30 cycles being stalled "
                     "waiting for a scoreboard dependency on a L1TEX (local, global, surface, texture) operation.",
                     70.0, "global")
    assert rule_direction(cpi, UNCOALESCED) == ("M", True)
    assert rule_direction(cpi, NO_REUSE) == ("R", True)


def test_generic_latency_advice_is_not_counted_as_a_pipe_problem():
    under = RuleResult("HighPipeUtilization", "OPT", "All compute pipelines are under-utilized.", 85.0, "local")
    direction, scored = rule_direction(under, LOW_OCC)
    assert not scored and direction == "P"
    scores, _ = score([replace(LOW_OCC, rules=(under,))])
    assert scores["T"] == 0.0


def test_ncu_rules_add_to_their_direction():
    rule = RuleResult("ThreadDivergence", "OPT", "Divergent.", 60.0, "global")
    plain, _ = score([BASE])
    with_rule, evidence = score([replace(BASE, rules=(rule,))])
    assert plain["C"] == 0.0 and with_rule["C"] == pytest.approx(0.6)
    assert evidence["C"][0].startswith("C 0.60: ncu ThreadDivergence: est. 60% speedup")


def test_information_rules_and_rules_without_estimates_do_not_score():
    rules = (RuleResult("ThreadDivergence", "INF", "fine", 60.0), RuleResult("ThreadDivergence", "OPT", "x", None))
    scores, _ = score([replace(BASE, rules=rules)])
    assert scores["C"] == 0.0


def test_kernels_count_by_their_share_of_the_time():
    tiny_divergent = replace(DIVERGENT, duration_us=5.0)
    big_uncoalesced = replace(UNCOALESCED, duration_us=95.0)
    scores, evidence = score([tiny_divergent, big_uncoalesced])
    assert max(scores, key=lambda d: scores[d]) == "M"
    assert scores["C"] < 0.05
    assert "[strided_copy, 95% of time]" in evidence["M"][0]


def test_bottleneck_is_the_largest_time_weighted_opt_rule():
    a = replace(UNCOALESCED, duration_us=90.0, rules=(RuleResult("UncoalescedGlobalAccess", "OPT", "u", 50.0),))
    b = replace(DIVERGENT, duration_us=10.0, rules=(RuleResult("ThreadDivergence", "OPT", "d", 90.0),
                                                   RuleResult("SOLBottleneck", "INF", "i", 99.0)))
    found = bottleneck([a, b])
    assert found is not None
    assert (found.rule, found.direction, found.kernel, found.estimated_speedup_pct) == \
        ("UncoalescedGlobalAccess", "M", "strided_copy", 50.0)
    assert bottleneck([BASE]) is None


def test_missing_metrics_give_zero_scores_not_guesses():
    bare = KernelProfile(name="unknown")
    scores, evidence = score([bare])
    assert scores == dict.fromkeys("CPMRT", 0.0)
    assert all(v == [] for v in evidence.values())
    r = roofline([bare])
    assert r["arithmetic_intensity"] is None and r["bound"] is None


def test_roofline_places_the_work_against_both_ceilings():
    k = replace(STREAMING, duration_us=1000.0, flops_fp32=2e9, dram_bytes=4e9, peak_flops_fp32=67e12,
                peak_dram_bytes_per_s=4.8e12, sm_throughput_pct=10.0)
    r = roofline([k])
    assert r["arithmetic_intensity"] == pytest.approx(0.5)
    assert r["ridge_point"] == pytest.approx(67e12 / 4.8e12, rel=1e-3)
    assert r["achieved_dram_gbps"] == pytest.approx(4000.0)
    assert r["achieved_gflops"] == pytest.approx(2000.0)
    assert r["bound"] == "memory"
    assert roofline([replace(BASE, sm_throughput_pct=20.0, memory_throughput_pct=30.0)])["bound"] == "latency"


def test_profile_from_launches_maps_lines_to_the_candidates_file():
    launch = Launch(id="0", kernel="strided_copy", metrics={
        "memory_l2_theoretical_sectors_global": (2_359_296.0, "sector"),
        "memory_l2_theoretical_sectors_global_ideal": (327_680.0, "sector"),
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": (88.0, "%"),
    })
    from engine.profile.readings import SourceLine

    launch = replace(launch, lines=(SourceLine("/cache/ab12/cuda_source.cu", 12, "strided_copy", "  out[i] = x;  ",
                                               {"samples": 50.0, "l2_sectors_global_excessive": 1e6}),))
    p = profile_from_launches([launch], source_map={"/cache/ab12/cuda_source.cu": "/ws/mine.cu"})
    assert p.best_direction() == "M"
    assert [(f.file, f.line, f.text) for f in p.lines] == [("/ws/mine.cu", 12, "out[i] = x;")]
    assert not any("no per-line data" in n for n in p.notices)
    bare = profile_from_launches([replace(launch, lines=())])
    assert any("-lineinfo" in n for n in bare.notices)


def test_evidence_prefers_the_users_own_lines_to_inlined_headers():
    header = LineFinding(file="/cuda/include/crt/mma.hpp", line=99, kernel="strided_copy",
                         stall_samples={"long_scoreboard": 900}, excessive_global_sectors=3_000_000)
    mine = LineFinding(file="/ws/mine.cu", line=24, kernel="strided_copy", stall_samples={"long_scoreboard": 100},
                       excessive_global_sectors=1_000_000)
    _, anywhere = score([UNCOALESCED], (header, mine))
    _, own_first = score([UNCOALESCED], (header, mine), own={"/ws/mine.cu"})
    assert any("line 99 (mma.hpp)" in e for e in anywhere["M"])
    assert any("line 24 (mine.cu)" in e for e in own_first["M"])
    assert not any("mma.hpp" in e for e in own_first["M"])


def test_data_read_again_and_again_through_the_caches_is_reuse_even_if_uncoalesced():
    k = replace(NO_REUSE, global_sectors=134_742_016, global_sectors_ideal=67_633_152, dram_bytes=19_548_416.0,
                warp_stalls={"long_scoreboard": 85.0, "selected": 1.0, "wait": 2.0})
    assert k.cache_reread_factor > 100
    assert memory_wait_direction(k) == "R"
    assert best(k) == "R"
    assert memory_wait_direction(replace(k, dram_bytes=2e9)) == "M"  # the same excess without re-reads
