"""`hiera/runResults`: a run as the §2 optimize object (docs/protocol.md), built from the store, never re-run.

A finished run's summary already is that object (the engine stores it); a run still going, stopped or
killed has none, so the object is assembled from its decisions, candidates and model calls. Either way:
the best is the canonical one (best.py: one pair's speedup, candidate time and eager time, its verdict by
contracts/verdict.py and the words every view shows), each round's
outcomes carry their re-timings, the texts read in the words of the run's device (wording.py), and a run
that still says "running" though its engine is gone says "ended". The chart, the torch.compile baselines
and the profile report are added from the store.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from contracts.runrecord import RETIMED, CandidateRow, RoundSummary, best_of_rows
from contracts.runstore import StoreReader
from hiera_ls.best import canonical_best, retime_json, retimings, with_retimes
from hiera_ls.wording import readable_rationale, space_title

_COMPILE = re.compile(r"(?:torch\.?compile|compile)[:/_\- ]*(default|max-autotune)", re.I)
ENDED = "ended"  # a run the store says is running, whose engine is neither this server's job nor alive


def _best(cands: list[dict[str, Any]], decisions: dict[int, dict[str, Any]]) -> dict[str, Any] | None:
    """The best of a run without a summary, by the engine's own rule (contracts/runrecord.py best_of_rows:
    the fastest re-timed candidate once any was re-timed, else the fastest first pair; one whose re-timing
    failed is not kept), with the figure the run keeps for it (its re-timing's where it was re-timed)."""
    found = best_of_rows(cands)
    if found is None:
        return None
    row, _retimed = found
    cid = row["id"].removesuffix(RETIMED)
    b = next(c for c in cands if c["id"] == cid)
    d = decisions.get(b.get("round") or -1, {})
    src = b.get("source_path") or ""
    return {"candidate_id": b["id"], "speedup": row["speedup"], "round": b.get("round"),
            "space": b.get("space") or d.get("space"), "direction": d.get("direction"),
            "paths": {"py": src if src.endswith(".py") else None,
                      # the kernel: a .cu on the GPU path, a .cpp on the CPU path
                      "cu": src if src.endswith((".cu", ".cpp")) else None}}


def assemble(reader: StoreReader, run: dict[str, Any], live: bool = True) -> dict[str, Any]:
    """The §2 object for any run: the stored summary when the engine wrote one, else rebuilt from rows.

    `live`: whether a run the store calls running still has an engine (this server's job, or its pid)."""
    cands = [c for c in reader.candidates(run["id"]) if not _is_compile_baseline(c)]
    summary = run.get("summary")
    if isinstance(summary, dict) and "rounds" in summary:
        out = dict(summary)
        out.setdefault("run_id", run["id"])
        # A stopped run's summary lists its complete rounds; the round it stopped in is in the store: its counts
        # are the store's (a cancelled run's hover said "0 valid · 0 invalid" where 3 were valid).
        listed = sum(len(r.get("outcomes") or []) for r in out.get("rounds") or [])
        if len([c for c in cands if not c["id"].endswith(RETIMED)]) > listed:
            out["rounds"] = _rebuilt(reader, run, cands)["rounds"]
    else:
        out = _rebuilt(reader, run, cands)
    out["best"] = canonical_best(out.get("best"), cands)
    if out["best"] is not None:
        # What Nsight Compute measured on the best, if it did: the only ground for calling it "X-bound".
        profile = reader.profile(run["id"], str(out["best"].get("candidate_id")))
        bottleneck = profile.get("bottleneck") if isinstance(profile, dict) else None
        out["best"]["bottleneck"] = bottleneck if isinstance(bottleneck, dict) else None
    out["rounds"] = with_retimes(list(out.get("rounds") or []), cands)
    if not out.get("device"):
        out["device"], out["device_name"] = run.get("device"), run.get("device_name")
    if out.get("status") == "running" and not live:
        out["status"] = ENDED
    _in_device_words(out)
    return out


def _rebuilt(reader: StoreReader, run: dict[str, Any], cands: list[dict[str, Any]]) -> dict[str, Any]:
    decisions = {d["round"]: d for d in reader.decisions(run["id"])}
    rounds = []
    for r, d in sorted(decisions.items()):
        outcomes = [CandidateRow.from_store(c, reason_chars=None)
                    for c in cands if c.get("round") == r and not c["id"].endswith(RETIMED)]
        # its best (`best`) is added by with_retimes, from the rows
        rounds.append(RoundSummary(r, d["space"], d["scores"], d["direction"], d["strategy"], d["rationale"],
                                   outcomes).to_json())
    calls = reader.model_calls(run["id"])
    costs = [c["cost_usd"] for c in calls if c.get("cost_usd") is not None]
    firsts = [c for c in cands if not c["id"].endswith(RETIMED)]
    return {
        "run_id": run["id"], "status": run["status"], "task": run["task_path"], "device": run.get("device"),
        "backend": run.get("backend"), "reference_ms": run.get("reference_ms"), "best": _best(cands, decisions),
        "candidates": len(firsts), "retimed": len(cands) - len(firsts), "rounds": rounds,
        "tokens": {"prompt": sum(c["prompt_tokens"] for c in calls),
                   "completion": sum(c["completion_tokens"] for c in calls)},
        "seconds": {"build": _sum(cands, "build_s"), "verify": _sum(cands, "verify_s"), "time": _sum(cands, "time_s"),
                    "model": sum(c["seconds"] for c in calls)},
        "cost_usd": sum(costs) if costs else None,
    }


def _in_device_words(out: dict[str, Any]) -> None:
    """Space titles and rationales as they read on the run's device (a CPU run has no CUDA in it)."""
    device = out.get("device")
    for r in out["rounds"]:
        r["space_title"] = space_title(r.get("space"), device)
        r["rationale"] = readable_rationale(r.get("rationale"), device)
    if isinstance(out.get("best"), dict):
        out["best"]["space_title"] = space_title(out["best"].get("space"), device)


def _sum(rows: list[dict[str, Any]], key: str) -> float:
    return float(sum(r.get(key) or 0.0 for r in rows))


def _is_compile_baseline(c: dict[str, Any]) -> bool:
    return bool(_COMPILE.search(f"{c.get('origin', '')} {c['id']}")) and c.get("round") in (None, 0)


def _compile_ms(run: dict[str, Any], cands: list[dict[str, Any]]) -> dict[str, float | None]:
    out: dict[str, float | None] = {"default": None, "max-autotune": None}
    summary = run.get("summary") if isinstance(run.get("summary"), dict) else {}
    stored = summary.get("compile_ms") if summary else None
    if isinstance(stored, dict):
        out.update({k: stored.get(k) for k in out})
        return out
    for c in cands:  # the engine may record torch.compile baselines as round-0 candidates
        m = _COMPILE.search(f"{c.get('origin', '')} {c['id']}")
        if m and c.get("round") in (None, 0) and c.get("candidate_ms") is not None:
            out[m.group(1).lower()] = c["candidate_ms"]
    return out


def profile_path(reader: StoreReader, run: dict[str, Any]) -> str | None:
    """The Nsight Compute report of a run: named by a stored profile, else the newest .ncu-rep in its folder."""
    for data in reader.profiles(run["id"]).values():
        for key in ("report", "report_path", "path"):
            if isinstance(data.get(key), str):
                return data[key]
    run_dir = reader.workspace / ".hiera" / "runs" / run["id"]
    reports = sorted(run_dir.glob("**/*.ncu-rep"), key=lambda p: p.stat().st_mtime) if run_dir.is_dir() else []
    return str(reports[-1]) if reports else None


def run_results(reader: StoreReader, run: dict[str, Any], live: bool = True) -> dict[str, Any]:
    """The `hiera/runResults` answer for one run."""
    out = assemble(reader, run, live)
    all_cands = reader.candidates(run["id"])
    again = retimings(all_cands)
    # One point per candidate; a re-timing is drawn on the candidate it re-times (`retime`), not as another.
    out["chart"] = [{"candidate_id": c["id"], "round": c.get("round"), "index": c.get("idx"), "status": c["status"],
                     "valid": c["status"] == "valid", "candidate_ms": c.get("candidate_ms"),
                     "reference_ms": c.get("reference_ms"), "speedup": c.get("speedup"),
                     "retime": retime_json(again.get(c["id"]))}
                    for c in all_cands if not _is_compile_baseline(c) and not c["id"].endswith(RETIMED)]
    out["compile_ms"] = _compile_ms(run, all_cands)
    out["profile"] = profile_path(reader, run)
    return out


def run_dir(workspace: Path, run_id: str) -> Path:
    return workspace / ".hiera" / "runs" / run_id
