"""Read an .ncu-rep with the `ncu_report` module shipped in the same Nsight Compute install.

Preferred over CSV exports when it imports: one pass over the report, exact metric names, per-PC source
counters mapped to lines with `source_info` (what NVIDIA's own UncoalescedGlobalAccess rule does). The
module lives in `<install>/extras/python` and must match the ncu that wrote the report, so it is looked up
next to the ncu binary in use, never taken from elsewhere.

Always read in a child process (`read_in_subprocess`, which runs this module's main): on the H200 with
2025.3.1, `IMetric.unit()` segfaulted in a process that had imported torch, while the same report read
fine in a clean one. A crash there must cost the caller the module reader, not its own process.

    python -m engine.profile.report_api REPORT --ncu NCU    (prints the launches as JSON)
"""

from __future__ import annotations

import argparse
import ast
import glob
import importlib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from contracts.profile import RuleResult, kernel_base
from engine.profile.catalog import LINE_STALLS, SOURCE_COUNTERS, rule_from_fields, stall_key, wanted_metrics
from engine.profile.readings import (
    Launch,
    Reading,
    SourceLine,
    launch_from_json,
    launch_to_json,
    parse_number,
)

INSTALLS = ("/opt/nvidia/nsight-compute/*",)


def extras_dirs(ncu_path: str) -> list[Path]:
    """Where `ncu_report` can be, for an ncu binary or the CUDA toolkit's bin/ncu wrapper script.

    In order: beside the binary; installs the wrapper script names; nsight-compute-<version> beside the
    toolkit's bin/; the default install folders, those of the same version as the wrapper's first.
    """
    real = Path(os.path.realpath(ncu_path))
    dirs = [real.parent / "extras" / "python"]
    text = ""
    try:
        if real.stat().st_size < 64_000:  # a wrapper script, not the binary
            text = real.read_text(errors="replace")
    except OSError:
        pass
    for named in re.findall(r"(/[\w./-]*nsight-compute[\w./-]*)", text):
        p = Path(named)
        dirs += [p / "extras" / "python", p.parent / "extras" / "python"]
    dirs += sorted(real.parent.parent.glob("nsight-compute*/extras/python"), reverse=True)
    versions = set(re.findall(r"20\d\d\.\d+(?:\.\d+)?", text + str(real)))
    installed = sorted((Path(p) for pattern in INSTALLS for p in glob.glob(pattern)), reverse=True)
    installed.sort(key=lambda p: not any(v in p.name for v in versions))  # stable: same version first
    dirs += [p / "extras" / "python" for p in installed]
    seen: list[Path] = []
    for d in dirs:
        if d not in seen and (d / "ncu_report.py").exists():
            seen.append(d)
    return seen


def load_module(ncu_path: str) -> ModuleType | None:
    """The ncu_report module matching this ncu, or None when it cannot be imported here."""
    for d in extras_dirs(ncu_path):
        if str(d) not in sys.path:
            sys.path.insert(0, str(d))
        try:
            return importlib.import_module("ncu_report")
        except (ImportError, OSError):
            continue
    return None


def _value(metric: Any, index: int | None = None) -> float | str | None:
    v = metric.value() if index is None else metric.value(index)
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        return parse_number(v)
    return None


def _unit(metric: Any) -> str:
    try:
        return str(metric.unit() or "")
    except (AttributeError, RuntimeError):
        return ""


_MARKUP = re.compile(r"@(?:url|section|table|metric):([^@]*?)(?::([^@]*))?@")


def _plain_text(s: str) -> str:
    # Rule messages carry links as "@url:Title:https://...@" and "@section:Id:Label@"; keep the readable part.
    return _MARKUP.sub(lambda m: m.group(2) if m.group(2) and not m.group(2).startswith("http") else m.group(1), s)


def _msg_type(t: Any) -> str | None:
    s = str(t).upper()
    if s in ("0", "NONE") or s.endswith("MSG_NONE"):
        return None  # a rule that ran and said nothing (the CLI prints no row for it)
    if "OPT" in s:
        return "OPT"
    if "WARN" in s:
        return "WRN"
    if "ERR" in s:
        return "ERR"
    if s.isdigit():  # NvRules MsgType order: NONE, OK, OPTIMIZATION, WARNING, ERROR
        return {"2": "OPT", "3": "WRN", "4": "ERR"}.get(s, "INF")
    return "INF"


def _speedup_type(t: Any) -> str | None:
    s = str(t).upper()  # NvRules SpeedupType: 1 LOCAL, 2 GLOBAL (seen in 2025.3 reports)
    if "GLOBAL" in s or s == "2":
        return "global"
    if "LOCAL" in s or s == "1":
        return "local"
    return None


def rules_from_dicts(items: Iterable[Any]) -> tuple[RuleResult, ...]:
    """RuleResults from `rule_results_as_dicts()`; tolerant of the shapes seen across versions."""
    out: list[RuleResult] = []
    for d in items:
        if isinstance(d, str):
            try:
                d = ast.literal_eval(d)  # some versions hand back stringified dicts
            except (ValueError, SyntaxError):
                continue
        if not isinstance(d, dict):
            continue
        name = str(d.get("rule_identifier") or d.get("name") or "")
        messages = d.get("rule_message") or d.get("rule_messages") or d.get("messages") or []
        if isinstance(messages, dict):
            messages = [messages]
        speed = d.get("speedup_estimation") or {}
        if isinstance(speed, list):
            speed = speed[0] if speed else {}
        for msg in messages:
            if not isinstance(msg, dict) or not msg.get("message"):
                continue
            msg_type = _msg_type(msg.get("type"))
            if msg_type is None:
                continue
            sp = speed.get("speedup") if isinstance(speed, dict) else None
            out.append(rule_from_fields(
                name, msg_type, _plain_text(str(msg["message"])),
                float(sp) if isinstance(sp, (int, float)) else None,
                _speedup_type(speed.get("type")) if isinstance(speed, dict) and sp is not None else None,
                str(d.get("section_identifier") or "") or None))
    return tuple(out)


def _source_lines(action: Any, kernel: str) -> list[SourceLine]:
    """Per-PC source metrics summed per (file, line) through the action's source correlation."""
    metric_names = {key: name for key, (_, name) in SOURCE_COUNTERS.items()}
    metric_names.update({stall_key(r): name for r, (_, name) in LINE_STALLS.items()})
    where: dict[int, tuple[str, int] | None] = {}
    sums: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for key, name in metric_names.items():
        m = action.metric_by_name(name)
        if m is None or not m.has_correlation_ids():
            continue
        pcs = m.correlation_ids()
        for i in range(m.num_instances()):
            v = _value(m, i)
            if not isinstance(v, float) or v == 0:
                continue
            pc = int(pcs.as_uint64(i))
            if pc not in where:
                info = action.source_info(pc)
                where[pc] = (str(info.file_name()), int(info.line())) if info is not None and info.line() else None
            loc = where[pc]
            if loc is not None:
                sums[loc][key] += v
    texts: dict[str, list[str]] = {}
    try:
        files = action.source_files() or {}
        texts = {str(f): str(content).splitlines() for f, content in dict(files).items()}
    except (AttributeError, RuntimeError, TypeError):
        pass
    lines = []
    for (f, n), counters in sums.items():
        src = texts.get(f, [])
        lines.append(SourceLine(file=f, line=n, kernel=kernel,
                                text=src[n - 1] if 0 < n <= len(src) else "", counters=dict(counters)))
    return lines


def _name(module: ModuleType, action: Any) -> str:
    try:
        return kernel_base(str(action.name(module.IAction.NameBase_FUNCTION)))
    except (AttributeError, TypeError):
        return kernel_base(str(action.name()))


def launches_from_report(module: ModuleType, report: Path) -> list[Launch]:
    ctx = module.load_report(str(report))
    wanted = wanted_metrics()
    launches: list[Launch] = []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            kernel = _name(module, action)
            metrics: dict[str, Reading] = {}
            for n in wanted:
                m = action.metric_by_name(n)
                if m is not None:
                    metrics[n] = (_value(m), _unit(m))
            try:
                rules = rules_from_dicts(action.rule_results_as_dicts())
            except AttributeError:
                rules = ()
            launches.append(Launch(id=f"{r}:{a}", kernel=kernel, metrics=metrics, rules=rules,
                                   lines=tuple(_source_lines(action, kernel))))
    return launches


def read_in_subprocess(ncu: str, report: Path, timeout_s: float = 120.0) -> list[Launch]:
    """launches_from_report in a child process. Raises RuntimeError (with the reason) when it fails there."""
    repo = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (repo, os.environ.get("PYTHONPATH")) if p))
    try:
        proc = subprocess.run([sys.executable, "-m", "engine.profile.report_api", str(report), "--ncu", ncu],
                              capture_output=True, text=True, timeout=timeout_s, env=env)
    except subprocess.TimeoutExpired as e:
        raise RuntimeError(f"the ncu_report reader ran over {timeout_s:.0f} s") from e
    if proc.returncode != 0:
        why = f"killed by signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
        tail = (proc.stderr or "").strip().splitlines()[-1:] or [""]
        raise RuntimeError(f"the ncu_report reader failed ({why}) {tail[0][:200]}".strip())
    try:
        return [launch_from_json(d) for d in json.loads(proc.stdout)]
    except (ValueError, KeyError, TypeError) as e:
        raise RuntimeError(f"the ncu_report reader printed no launches ({e})") from e


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m engine.profile.report_api")
    p.add_argument("report")
    p.add_argument("--ncu", required=True)
    args = p.parse_args(argv)
    module = load_module(args.ncu)
    if module is None:
        print(f"ncu_report is not importable next to {args.ncu}", file=sys.stderr)
        return 3
    launches = launches_from_report(module, Path(args.report))
    json.dump([launch_to_json(ln) for ln in launches], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
