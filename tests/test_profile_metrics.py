"""The profile model: JSON round trips, None for what ncu did not report, and the prompt text."""

from __future__ import annotations

import json
from dataclasses import replace

from contracts.hotlines import hot_lines
from contracts.profile import Bottleneck, KernelProfile, LineFinding, Profile, RuleResult
from contracts.vocabulary import Direction
from engine.agents.base import DirectionScores
from engine.profile.catalog import kernel_profile, si
from engine.profile.feedback import feedback_text
from engine.profile.readings import Launch, launch_from_json, launch_to_json


def sample_profile(kernels: int = 1, lines: int = 2) -> Profile:
    ks = tuple(KernelProfile(
        name=f"kernel_{i}", duration_us=40.0 + i, sm_throughput_pct=12.5, memory_throughput_pct=88.0,
        warp_stalls={"long_scoreboard": 30.5}, sectors_per_request_ld=32.0, global_sectors=100, global_sectors_ideal=10,
        rules=(RuleResult("UncoalescedGlobalAccess", "OPT", "Uncoalesced. " * 30, 84.0, "global", "SourceCounters"),),
    ) for i in range(kernels))
    ls = tuple(LineFinding(file="/ws/cand.cu", line=10 + i, kernel="kernel_0",
                           stall_samples={"long_scoreboard": 90 - i, "selected": 3}, excessive_global_sectors=1000 * i,
                           text="out[i] = in[i * stride];" * 4) for i in range(lines))
    return Profile(kernels=ks, lines=ls, scores={"C": 0.0, "P": 0.1, "M": 0.84, "R": 0.2, "T": 0.0},
                   evidence={"M": ["M 0.84: 32.0 sectors/request " + "x" * 300, "M 0.80: more"], "R": ["R 0.20: dram"],
                             "P": ["P 0.10: small"], "C": [], "T": []},
                   bottleneck=Bottleneck("UncoalescedGlobalAccess", "M", 84.0, "Uncoalesced.", "kernel_0"),
                   roofline={"arithmetic_intensity": 0.1, "ridge_point": 13.9, "bound": "memory",
                             "achieved_dram_gbps": 3900.0, "peak_dram_gbps": 4800.0},
                   notices=("note",), target="/ws/cand.cu", seconds=12.5)


def test_profile_json_round_trip_is_lossless():
    p = sample_profile(kernels=2, lines=3)
    text = json.dumps(p.to_json())
    assert Profile.from_json(json.loads(text)) == p


def test_from_json_tolerates_newer_and_older_writers():
    d = sample_profile().to_json()
    d["kernels"][0]["a_field_from_the_future"] = 1
    del d["kernels"][0]["tensor_pipe_pct"]
    d["future_key"] = {}
    p = Profile.from_json(d)
    assert p.kernels[0].tensor_pipe_pct is None
    assert p.kernels[0].name == "kernel_0"


def test_unreported_metrics_stay_none():
    k = kernel_profile(Launch(id="0", kernel="k", metrics={"gpu__time_duration.sum": (2500.0, "nsecond")}))
    assert k.duration_us == 2.5
    assert k.sm_throughput_pct is None and k.occupancy_limiter is None and k.tensor_pipe_pct is None
    assert k.excessive_sector_fraction is None and k.bank_conflict_fraction is None
    assert k.warp_stalls == {} and k.flops_fp32 is None and k.peak_flops_fp32 is None


def test_kernel_profile_reads_units_limits_and_ratios():
    k = kernel_profile(Launch(id="0", kernel="k", metrics={
        "gpu__time_duration.sum": (1.5, "msecond"),
        "launch__shared_mem_per_block_static": (48.0, "Kbyte"),
        "launch__shared_mem_per_block_dynamic": (0.0, "byte"),
        "launch__occupancy_limit_registers": (2.0, "block"),
        "launch__occupancy_limit_shared_mem": (4.0, "block"),
        "launch__occupancy_limit_warps": (8.0, "block"),
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": (3_200.0, "sector"),
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": (100.0, "request"),
        "smsp__thread_inst_executed_per_inst_executed.ratio": (30.0, ""),
        "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio": (12.0, ""),
        "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": (10.0, "inst"),
        "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": (1.0, "inst"),
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained": (16896.0, "inst/cycle"),
        "sm__cycles_elapsed.avg.per_second": (1.98, "Ghz"),
        "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active": (3.0, "%"),
        "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active": (41.0, "%"),
    }))
    assert k.duration_us == 1500.0
    assert k.shared_mem_per_block == 48_000
    assert k.occupancy_limiter == "registers"
    assert k.sectors_per_request_ld == 32.0
    assert k.active_threads_per_warp == 12.0  # predication counts: the lower of the two
    assert k.flops_fp32 == 21.0
    assert k.peak_flops_fp32 == 2 * 16896 * 1.98e9
    assert k.tensor_pipe_pct == 41.0  # the busiest tensor pipe (wgmma here)


def test_si_units():
    assert si(2.0, "Kbyte") == 2000.0
    assert si(3.0, "byte/usecond") == 3e6
    assert si(1.5, "Ghz") == 1.5e9
    assert si(7.0, "register/thread") == 7.0
    assert si(4.0, "usecond") == 4e-6


def test_launch_json_round_trip():
    launch = Launch(id="0:1", kernel="k", metrics={"a": (1.0, "%"), "b": ("text", "")},
                    rules=(RuleResult("R", "OPT", "m", 5.0, "local", "S"),))
    assert launch_from_json(json.loads(json.dumps(launch_to_json(launch)))) == launch


def test_feedback_text_is_short_stable_and_ranked():
    p = sample_profile(kernels=6, lines=12)
    text = feedback_text(p)
    assert len(text) <= 1500
    assert text == feedback_text(sample_profile(kernels=6, lines=12))
    assert "UncoalescedGlobalAccess -> M" in text
    assert text.index("M 0.84") < text.index("R 0.20") < text.index("P 0.10")
    # The hot lines are the ones the editor shows (hotlines.py), in its order: lines with a concrete
    # finding (here excess global sectors) before the merely hot line 10.
    first = hot_lines(p)[0].finding
    assert first.line == 11 and f"cand.cu:{first.line} [kernel_0]" in text and "uncoalesced access" in text


def test_feedback_text_keeps_to_any_limit():
    p = sample_profile(kernels=3, lines=8)
    assert len(feedback_text(p, limit=400)) <= 400
    assert feedback_text(p, limit=5000).count("\n- cand.cu:") == 4  # at most four hot lines


def test_feedback_text_without_measurements_says_little_and_invents_nothing():
    text = feedback_text(Profile(kernels=(KernelProfile(name="k"),)))
    assert "k: time ?" in text and "evidence" not in text and "hot lines" not in text


def test_direction_scores_convert_to_the_agents_type():
    ds = DirectionScores.from_profile(sample_profile())
    assert ds.best() is Direction.M
    assert ds.scores[Direction.R] == 0.2
    assert ds.evidence[Direction.M][0].startswith("M 0.84")
    assert "UncoalescedGlobalAccess" in ds.rationale


def test_best_direction_is_none_without_signal():
    assert Profile(kernels=()).best_direction() is None
    assert replace(sample_profile(), scores=dict.fromkeys("CPMRT", 0.0)).best_direction() is None


def test_line_finding_ranks_its_stalls():
    f = LineFinding(file="a.cu", line=3, kernel="k", stall_samples={"wait": 5, "long_scoreboard": 9})
    assert f.samples == 14 and f.top_stall() == "long_scoreboard"
    assert LineFinding(file="a.cu", line=3, kernel="k").top_stall() is None
