"""Read ncu's CSV exports (raw, details and source pages) into Launch records, by column header names.

The layouts, as ncu prints them (the raw and details pages follow the Nsight Compute CLI documentation's
--page/--csv options; the source page's layout is not documented and is read as public parsers read it):
- raw:     a header row ("ID", ..., "Kernel Name", ..., metric names), a units row, one row per launch.
- details: one row per metric or rule message: "Section Name", "Metric Name", "Metric Unit", "Metric Value",
           "Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type", "Estimated Speedup".
           Metric rows may stop after "Metric Value" (no trailing empty cells).
- source (--print-source cuda,sass): per kernel and file, marker rows ("Kernel Name"/"Function Name",
           "File Path"/"File Name"), then a header "Line No","Source","Address","Source",<metrics>; rows with a
           line number are CUDA lines (their metrics aggregated), rows without are the SASS under them.
ncu may print "==PROF==" lines or program output around the CSV; anything before a header is skipped.
Never the human-readable text output: its layout changes between versions.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterator

from contracts.profile import RuleResult, kernel_base
from engine.profile.catalog import LINE_STALLS, NOT_ISSUED_SUFFIX, SOURCE_COUNTERS, rule_from_fields, stall_key
from engine.profile.readings import Launch, Reading, SourceLine, parse_number

_LAUNCH_COLUMNS = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
                   "Block Size", "Grid Size", "Device", "CC", "Kernel Time", "Timestamp", "Context ID",
                   "Stream ID", "Function Name", "Demangled Name"}


def _rows(text: str) -> Iterator[list[str]]:
    for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
        if row and not (len(row) == 1 and row[0].startswith("==")):
            yield row


def _header_at(rows: list[list[str]], first: str, needs: str) -> int | None:
    for i, row in enumerate(rows):
        if row and row[0].strip() == first and needs in row:
            return i
    return None


# --- raw page ----------------------------------------------------------------------------------------------

def parse_raw(text: str) -> dict[str, tuple[str, dict[str, Reading]]]:
    """Launch id -> (kernel name, metric name -> (value, unit))."""
    rows = list(_rows(text))
    h = _header_at(rows, "ID", "Kernel Name")
    if h is None:
        return {}
    header = [c.strip() for c in rows[h]]
    units: list[str] = [""] * len(header)
    out: dict[str, tuple[str, dict[str, Reading]]] = {}
    for row in rows[h + 1:]:
        cells = dict(zip(header, row))
        if not cells.get("ID", "").strip():  # the units row: no launch id
            units = [c.strip() for c in row] + [""] * (len(header) - len(row))
            continue
        metrics: dict[str, Reading] = {}
        for i, name in enumerate(header):
            if name in _LAUNCH_COLUMNS or i >= len(row):
                continue
            metrics[name] = (parse_number(row[i]), units[i] if i < len(units) else "")
        out[cells["ID"].strip()] = (cells.get("Kernel Name", "").strip(), metrics)
    return out


# --- details page ------------------------------------------------------------------------------------------

def parse_details(text: str) -> dict[str, tuple[str, dict[str, Reading], tuple[RuleResult, ...]]]:
    """Launch id -> (kernel name, metric -> (value, unit), rule results in report order)."""
    rows = list(_rows(text))
    h = _header_at(rows, "ID", "Section Name")
    if h is None:
        return {}
    header = [c.strip() for c in rows[h]]
    kernels: dict[str, str] = {}
    metrics: dict[str, dict[str, Reading]] = defaultdict(dict)
    rules: dict[str, list[RuleResult]] = defaultdict(list)
    for row in rows[h + 1:]:
        cell = dict(zip(header, (c.strip() for c in row)))
        lid = cell.get("ID", "")
        if not lid:
            continue
        kernels.setdefault(lid, cell.get("Kernel Name", ""))
        metrics[lid]  # a launch with no metric rows still exists
        rule = cell.get("Rule Name", "")
        if rule:
            rules[lid].append(rule_from_fields(
                rule, cell.get("Rule Type", ""), cell.get("Rule Description", ""),
                parse_number(cell.get("Estimated Speedup", "")), cell.get("Estimated Speedup Type"),
                cell.get("Section Name")))
        elif cell.get("Metric Name"):
            value = parse_number(cell.get("Metric Value", ""))
            metrics[lid][cell["Metric Name"]] = (value, cell.get("Metric Unit", ""))
    return {lid: (kernels[lid], dict(metrics[lid]), tuple(rules[lid])) for lid in kernels}


# --- source page -------------------------------------------------------------------------------------------

def _counter_columns(header: list[str]) -> dict[int, str]:
    """Column index -> counter key, preferring all-samples stall columns over the not-issued ones."""
    labels = {label: key for key, (label, _) in SOURCE_COUNTERS.items()}
    stall_labels = {label: reason for reason, (label, _) in LINE_STALLS.items()}
    has_all_samples = any(h in stall_labels for h in header)
    cols: dict[int, str] = {}
    for i, h in enumerate(header):
        if h in labels:
            cols[i] = labels[h]
        elif h in stall_labels:
            cols[i] = stall_key(stall_labels[h])
        elif not has_all_samples and h.endswith(NOT_ISSUED_SUFFIX) and h[: -len(NOT_ISSUED_SUFFIX)] in stall_labels:
            cols[i] = stall_key(stall_labels[h[: -len(NOT_ISSUED_SUFFIX)]])
    if "samples" not in cols.values():
        for i, h in enumerate(header):
            if h in ("# Samples", "Warp Stall Sampling (Not-issued Samples)"):
                cols[i] = "samples"
                break
    return cols


def parse_source(text: str) -> list[SourceLine]:
    """CUDA lines with their source counters; an export without CUDA lines (no -lineinfo) gives []."""
    file, kernel = "", ""
    header: list[str] | None = None
    cols: dict[int, str] = {}
    text_col = 1
    # (kernel, file, line) -> [source text, counters from the line row, counters summed over its SASS rows]
    acc: dict[tuple[str, str, int], tuple[list[str], dict[str, float], dict[str, float]]] = {}
    current: tuple[str, str, int] | None = None
    for row in _rows(text):
        first = row[0].strip()
        if len(row) >= 2 and first in ("Kernel Name", "Function Name"):
            kernel, header, current = row[1].strip(), None, None
            continue
        if len(row) >= 2 and first in ("File Path", "File Name", "Source File"):
            file, header, current = row[1].strip(), None, None
            continue
        if first == "Line No":
            header = [c.strip() for c in row]
            cols = _counter_columns(header)
            text_col = header.index("Source") if "Source" in header else 1
            continue
        if first == "Address" and "Source" in row:
            header, cols = None, {}  # SASS-only export: no CUDA lines to attribute
            continue
        if header is None:
            continue
        line_no = first
        values = {key: float(v) for i, key in cols.items()
                  if i < len(row) and isinstance(v := parse_number(row[i]), float)}
        if line_no:
            try:
                n = int(line_no)
            except ValueError:
                continue
            current = (kernel, file, n)
            entry = acc.setdefault(current, ([""], {}, {}))
            if text_col < len(row) and not entry[0][0]:
                entry[0][0] = row[text_col]
            for k, v in values.items():
                entry[1][k] = entry[1].get(k, 0.0) + v
        elif current is not None:
            sass = acc[current][2]
            for k, v in values.items():
                sass[k] = sass.get(k, 0.0) + v
    lines = []
    for (k, f, n), (txt, line_vals, sass_vals) in acc.items():
        # The CUDA row already aggregates its SASS when ncu filled it in; else sum the SASS rows.
        counters = line_vals if any(line_vals.values()) else sass_vals
        lines.append(SourceLine(file=f, line=n, kernel=k, text=txt[0], counters=dict(counters)))
    return lines


# --- all pages -> launches ---------------------------------------------------------------------------------

def launches_from_csv(raw: str, details: str = "", source: str = "") -> list[Launch]:
    """Merge the pages of one report: raw metrics first, details metrics where raw lacks them, rules, lines."""
    raw_l = parse_raw(raw) if raw else {}
    det_l = parse_details(details) if details else {}
    src = parse_source(source) if source else []
    ids = list(dict.fromkeys([*raw_l, *det_l]))
    launches = []
    claimed: set[str] = set()
    for lid in ids:
        kernel, metrics = raw_l.get(lid, ("", {}))
        d_kernel, d_metrics, rules = det_l.get(lid, ("", {}, ()))
        merged = dict(d_metrics)
        merged.update(metrics)
        name = kernel_base(kernel or d_kernel)
        # A kernel's lines go to its first launch only: a second launch of it would count them twice.
        if len(ids) == 1:
            mine = src
        elif name in claimed:
            mine = []
        else:
            mine = [s for s in src if kernel_base(s.kernel) == name or (not s.kernel and lid == ids[0])]
        claimed.add(name)
        launches.append(Launch(id=lid, kernel=name, metrics=merged, rules=rules,
                               lines=tuple(SourceLine(s.file, s.line, name, s.text, s.counters) for s in mine)))
    return launches
