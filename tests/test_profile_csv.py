"""SYNTHETIC ncu CSV exports for the profiling tests, built by the layouts engine/profile/csv_pages.py describes.

These are not recordings: they are the smallest documents with the documented headers and quirks (noise
lines, a units row, metric rows without trailing rule cells, thousands separators, CUDA line rows followed by
their SASS rows). Tests on real recordings live in test_profile_fixtures.py.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

LAUNCH_COLS = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
               "Grid Size", "Device", "CC"]


def _line(cells: Sequence[object]) -> str:
    buf = io.StringIO()
    csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n").writerow(cells)
    return buf.getvalue()


def _launch(lid: int, kernel: str) -> list[str]:
    return [str(lid), "4711", "python3", "host", kernel, "1", "7", "(256, 1, 1)", "(4096, 1, 1)", "0", "9.0"]


def raw_csv(launches: Mapping[str, Mapping[str, tuple[object, str]]], noise: bool = True) -> str:
    """kernel -> {metric: (value, unit)}; one launch per kernel, ids in order."""
    names = list(dict.fromkeys(m for metrics in launches.values() for m in metrics))
    units = {m: u for metrics in launches.values() for m, (_, u) in metrics.items()}
    out = "==PROF== Connected to process 4711 (/usr/bin/python3)\nprogram output line\n" if noise else ""
    out += _line(LAUNCH_COLS + names)
    out += _line([""] * len(LAUNCH_COLS) + [units[m] for m in names])
    for i, (kernel, metrics) in enumerate(launches.items()):
        out += _line(_launch(i, kernel) + [metrics[m][0] if m in metrics else "" for m in names])
    return out + ("==PROF== Disconnected from process 4711\n" if noise else "")


def details_csv(rows: Sequence[tuple[int, str, str, str, str, str]],
                rules: Sequence[tuple[int, str, str, str, str, str, str]]) -> str:
    """rows: (id, kernel, section, metric, unit, value);
    rules: (id, kernel, rule, type, text, speedup type, speedup)."""
    header = [*LAUNCH_COLS, "Section Name", "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
              "Rule Description", "Estimated Speedup Type", "Estimated Speedup"]
    out = _line(header)
    for lid, kernel, section, metric, unit, value in rows:
        # ncu stops metric rows after the value: no empty rule cells.
        out += _line([*_launch(lid, kernel), section, metric, unit, value]).rstrip("\n") + ",\n"
    for lid, kernel, rule, type_, text, sp_type, sp in rules:
        out += _line([*_launch(lid, kernel), "Section", "", "", "", rule, type_, text, sp_type, sp])
    return out


SOURCE_HEADER = ["Line No", "Source", "Address", "Source", "Warp Stall Sampling (All Samples)",
                 "Warp Stall Sampling (Not-issued Samples)", "Instructions Executed", "Divergent Branches",
                 "L2 Theoretical Sectors Global Excessive", "L1 Wavefronts Shared Excessive", "stall_long_sb",
                 "stall_selected", "stall_long_sb (Not Issued)"]


def source_csv(kernel: str, file: str, lines: Sequence[tuple[int, str, Sequence[Sequence[object]]]],
               line_totals: bool = False) -> str:
    """lines: (line number, text, SASS rows of metric values in SOURCE_HEADER[4:] order).

    line_totals: put the summed metrics on the CUDA line row too (ncu's aggregation), else leave it empty.
    """
    out = _line(["Kernel Name", kernel]) + _line(["File Path", file]) + _line(SOURCE_HEADER)
    n_metrics = len(SOURCE_HEADER) - 4
    for no, text, sass_rows in lines:
        totals = [sum(float(str(r[i]).replace(",", "")) for r in sass_rows) for i in range(n_metrics)]
        out += _line([no, text, "-", ""] + (totals if line_totals else [""] * n_metrics))
        for j, r in enumerate(sass_rows):
            out += _line(["", "", f"0x7f{no:03d}{j:02d}", "SASS", *list(r)])
    return out


# --- tests of the CSV readers on the synthetic documents above ------------------------------------------------

from contracts.profile import kernel_base  # noqa: E402
from engine.profile.csv_pages import launches_from_csv, parse_details, parse_raw, parse_source  # noqa: E402

STRIDED = {
    "gpu__time_duration.sum": ("41,216", "nsecond"),
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": ("3.2", "%"),
    "launch__block_size": ("256", ""),
    "launch__cache_config": ("CachePreferNone", ""),
    "memory_l2_theoretical_sectors_global": ("2,359,296", "sector"),
    "memory_l2_theoretical_sectors_global_ideal": ("327,680", "sector"),
}


def test_raw_page_skips_noise_reads_units_and_keeps_text_values():
    pages = parse_raw(raw_csv({"strided_copy": STRIDED}))
    kernel, metrics = pages["0"]
    assert kernel == "strided_copy"
    assert metrics["gpu__time_duration.sum"] == (41216.0, "nsecond")
    assert metrics["memory_l2_theoretical_sectors_global"] == (2359296.0, "sector")
    assert metrics["launch__cache_config"] == ("CachePreferNone", "")


def test_raw_page_without_a_header_is_empty():
    assert parse_raw("==PROF== No kernels were profiled.\n") == {}


def test_details_page_reads_short_metric_rows_and_rule_rows():
    text = details_csv(
        [(0, "k", "GPU Speed Of Light Throughput", "Duration", "usecond", "1,041.50")],
        [(0, "k", "UncoalescedGlobalAccess", "OPT", "This workload has   uncoalesced accesses.", "global", "62.5"),
         (0, "k", "SOLBottleneck", "INF", "Balanced.", "", "")])
    _kernel, metrics, rules = parse_details(text)["0"]
    assert metrics["Duration"] == (1041.5, "usecond")
    assert [r.name for r in rules] == ["UncoalescedGlobalAccess", "SOLBottleneck"]
    assert rules[0].type == "OPT" and rules[0].estimated_speedup_pct == 62.5 and rules[0].speedup_type == "global"
    assert rules[0].message == "This workload has uncoalesced accesses."  # whitespace collapsed
    assert rules[1].estimated_speedup_pct is None and rules[1].speedup_type is None


def test_source_page_sums_sass_rows_under_their_cuda_line():
    text = source_csv("strided_copy", "/build/cuda_source.cu", [
        (9, "int i = blockIdx.x * blockDim.x + threadIdx.x;", [[2, 1, 10, 0, 0, 0, 0, 2, 0]]),
        (11, "out[i] = in[i * stride];", [[10, 8, 20, 0, "1,900,000", 0, 9, 1, 7],
                                          [90, 80, 20, 0, "131,616", 0, 88, 2, 80]]),
    ])
    lines = {s.line: s for s in parse_source(text)}
    assert set(lines) == {9, 11}
    hot = lines[11]
    assert hot.file == "/build/cuda_source.cu" and hot.kernel == "strided_copy"
    assert hot.text == "out[i] = in[i * stride];"
    assert hot.counters["samples"] == 100
    assert hot.counters["l2_sectors_global_excessive"] == 2031616
    # The all-samples stall columns win over the not-issued ones.
    assert hot.counters["stall:long_scoreboard"] == 97


def test_source_page_prefers_ncus_own_line_totals():
    rows = [(5, "x = tile[threadIdx.x][threadIdx.y];", [[4, 4, 8, 0, 0, 96, 0, 1, 0], [6, 6, 8, 0, 0, 124, 0, 1, 0]])]
    lines = parse_source(source_csv("t", "/a/t.cu", rows, line_totals=True))
    assert lines[0].counters["l1_wavefronts_shared_excessive"] == 220  # not doubled by also adding the SASS rows


def test_sass_only_source_page_yields_no_lines():
    text = _line(["Kernel Name", "k"]) + _line(["Address", "Source", "Warp Stall Sampling (All Samples)"]) + \
        _line(["0x10", "LDG.E R1, [R2.64]", "40"])
    assert parse_source(text) == []


def test_kernel_base_strips_parameters_but_keeps_templates():
    assert kernel_base("void gemm<128, (int)4>(const float *, float *, int)") == "gemm<128, (int)4>"
    assert kernel_base("strided_copy") == "strided_copy"


def test_pages_merge_into_one_launch_per_kernel_with_its_own_lines():
    raw = raw_csv({"first": {"gpu__time_duration.sum": ("10", "nsecond")},
                   "second": {"gpu__time_duration.sum": ("30", "nsecond")}})
    details = details_csv([], [(1, "second", "ThreadDivergence", "OPT", "Divergent.", "local", "40")])
    source = source_csv("second", "/a/k.cu", [(3, "if (x) {", [[5, 5, 5, 12, 0, 0, 0, 5, 0]])])
    first, second = launches_from_csv(raw, details, source)
    assert (first.kernel, second.kernel) == ("first", "second")
    assert first.lines == () and [s.line for s in second.lines] == [3]
    assert first.rules == () and second.rules[0].name == "ThreadDivergence"
    assert second.metrics["gpu__time_duration.sum"] == (30.0, "nsecond")
