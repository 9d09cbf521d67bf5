"""SYNTHETIC ncu CSV exports for the profiling tests, built by the layouts in shared/research/ncu.md §1b.

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
    """rows: (id, kernel, section, metric, unit, value); rules: (id, kernel, rule, type, text, speedup type, speedup)."""
    header = LAUNCH_COLS + ["Section Name", "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
                            "Rule Description", "Estimated Speedup Type", "Estimated Speedup"]
    out = _line(header)
    for lid, kernel, section, metric, unit, value in rows:
        # ncu stops metric rows after the value: no empty rule cells.
        out += _line(_launch(lid, kernel) + [section, metric, unit, value]).rstrip("\n") + ",\n"
    for lid, kernel, rule, type_, text, sp_type, sp in rules:
        out += _line(_launch(lid, kernel) + ["Section", "", "", "", rule, type_, text, sp_type, sp])
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
            out += _line(["", "", f"0x7f{no:03d}{j:02d}", "SASS"] + list(r))
    return out
