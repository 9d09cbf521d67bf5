"""The run's one best figure: a speedup together with the candidate time and the eager time of the same pair.

The engine times every candidate interleaved with its own eager run, and times the best once more before it
reports it (its first ratio leans high: the winner's curse). Showing the re-timing's speedup beside the run's
median eager time mixed two pairs ("2.01x: 8.221 ms vs 19.25 ms", where 19.25 / 8.221 = 2.34); every view
here reads the best through `canonical_best`, so the header, hover, message, table, lens and status bar say
one thing.

Fields read, the engine's own first:
  best.speedup, best.candidate_ms, best.reference_ms (the paired eager), best.retimed, best.spread,
  best.verdict — the canonical best the engine writes;
  best.paired_reference_ms — what today's engine writes for the paired eager;
  the store's candidate rows otherwise: `<candidate_id>-retimed` (a re-timing, contracts/runrecord.py RETIMED) and
  `<candidate_id>`, each row's candidate_ms/reference_ms being one pair, its outcome.timing the spread.
Where the engine gives no speedup that matches its pair, the pair decides: speedup = reference / candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from contracts.runrecord import RETIMED, SLOWER_DIR, pick_best

Verdict = Literal["faster", "level", "slower"]
VERDICTS = ("faster", "level", "slower")


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v > 0 else None


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-4 * max(abs(a), abs(b))


@dataclass(frozen=True)
class Pair:
    """One interleaved timing: a candidate's median and its own eager median."""

    candidate_ms: float
    reference_ms: float
    spread: float | None  # the ratio's relative uncertainty (see spread_of)

    @property
    def speedup(self) -> float:
        return self.reference_ms / self.candidate_ms


def spread_of(outcome: Any) -> float | None:
    """Half the sum of the two timings' interquartile ranges over their medians: how far the ratio of the
    medians moves within the middle half of each measurement (0.04 = ±4%)."""
    timing = outcome.get("timing") if isinstance(outcome, dict) else None
    if not isinstance(timing, dict):
        return None
    parts = []
    for side in ("candidate", "reference"):
        t = timing.get(side)
        med = _num(t.get("median_ms")) if isinstance(t, dict) else None
        if med is None or not all(isinstance(t.get(q), (int, float)) for q in ("p25_ms", "p75_ms")):
            return None
        parts.append((t["p75_ms"] - t["p25_ms"]) / med)
    return sum(parts) / 2


def pair_of(row: dict[str, Any] | None) -> Pair | None:
    """The pair of a valid store row (a candidate or a re-timing)."""
    if not row or row.get("status") != "valid":
        return None
    c, r = _num(row.get("candidate_ms")), _num(row.get("reference_ms"))
    return Pair(c, r, spread_of(row.get("outcome"))) if c and r else None


def verdict_of(speedup: float, spread: float | None) -> Verdict:
    """faster / slower than eager beyond the pair's own spread, else level."""
    band = spread if spread is not None and spread >= 0 else 0.0
    if speedup > 1.0 + band:
        return "faster"
    if speedup < 1.0 - band:
        return "slower"
    return "level"


def retimings(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Re-timing rows by the id of the candidate they re-time."""
    return {r["id"][: -len(RETIMED)]: r for r in rows if str(r.get("id", "")).endswith(RETIMED)}


def retime_json(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A re-timing as the views show it beside the candidate: its status and its own pair."""
    if row is None:
        return None
    p = pair_of(row)
    return {"status": row.get("status"), "candidate_ms": p.candidate_ms if p else None,
            "reference_ms": p.reference_ms if p else None, "speedup": p.speedup if p else None}


def reported_speedup(outcome: dict[str, Any]) -> tuple[float | None, bool]:
    """(the figure the run keeps for an outcome, whether it is a re-timing's): a re-timed candidate counts by
    its re-timing, and one whose re-timing failed is not kept (engine/loop.py _confirm_best)."""
    rt = outcome.get("retime")
    if isinstance(rt, dict):
        return (_num(rt.get("speedup")) if rt.get("status") == "valid" else None), True
    return (_num(outcome.get("speedup")) if outcome.get("status") == "valid" else None), False


def canonical_best(best: dict[str, Any] | None, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """`best` with speedup, candidate_ms, reference_ms (the paired eager), retimed, spread, verdict and, for a
    re-timed best, `first` (its first pair) all from one pair; None for no best."""
    if not isinstance(best, dict) or not best.get("candidate_id"):
        return None
    cid = str(best["candidate_id"])
    by_id = {r.get("id"): r for r in rows}
    first, again = pair_of(by_id.get(cid)), pair_of(by_id.get(cid + RETIMED))
    speedup = _num(best.get("speedup"))
    cand = _num(best.get("candidate_ms"))
    ref = _num(best.get("reference_ms")) or _num(best.get("paired_reference_ms"))
    if cand is None or ref is None:
        # No pair from the engine: the store row whose ratio is the reported one (the re-timing's, on
        # today's engine), else the nearest; never the engine's candidate time with another row's eager.
        rows_ = [p for p in (again, first) if p is not None]
        if not rows_:
            return dict(best)  # nothing to pair: shown as the engine wrote it
        source = min(rows_, key=lambda p: abs(p.speedup - speedup) if speedup else 0.0)
        cand, ref = source.candidate_ms, source.reference_ms
    speedup = ref / cand
    retimed = best["retimed"] if isinstance(best.get("retimed"), bool) else (
        again is not None and _close(again.speedup, speedup))
    given = best.get("spread")
    spread = float(given) if isinstance(given, (int, float)) and not isinstance(given, bool) and given >= 0 else None
    if spread is None:
        spread = next((p.spread for p in (again, first) if p and _close(p.speedup, speedup)), None)
    verdict = best["verdict"] if best.get("verdict") in VERDICTS else verdict_of(speedup, spread)
    out = {**best, "speedup": speedup, "candidate_ms": cand, "reference_ms": ref, "retimed": retimed,
           "spread": spread, "verdict": verdict}
    if retimed and first is not None:
        out["first"] = {"speedup": first.speedup, "candidate_ms": first.candidate_ms,
                        "reference_ms": first.reference_ms}
    return out


def with_retimes(rounds: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rounds with each outcome's re-timing (`retime`, or None) and the round's kept best (`best`:
    candidate_id, speedup, retimed) by the engine's rule (pick_best), so that tables show the figure the run
    keeps, not the first pair's."""
    again = retimings(rows)
    out = []
    for r in rounds:
        outcomes = [{**o, "retime": retime_json(again.get(o.get("candidate_id")))} for o in r.get("outcomes") or []]
        kept = [(s, rt, o.get("candidate_id")) for o in outcomes for s, rt in [reported_speedup(o)] if s is not None]
        top = pick_best(kept, lambda k: k[0], lambda k: k[1])
        out.append({**r, "outcomes": outcomes,
                    "best": {"candidate_id": top[2], "speedup": top[0], "retimed": top[1]} if top else None})
    return out


def shown_verdict(best: dict[str, Any]) -> Verdict:
    """The verdict the views say: a best at or under eager's speed is "slower" even when its pair's spread
    makes it level (it is not delivered: it must not read like a success); above 1 the verdict stands."""
    speedup = _num(best.get("speedup"))
    verdict = best.get("verdict") if best.get("verdict") in VERDICTS else None
    if speedup is None or speedup <= 1.0 or kept_back(best):
        return "slower"
    return verdict or "faster"


def kept_back(best: dict[str, Any] | None) -> bool:
    """A best that must not be written beside the module: slower than eager by its own pair (or not faster at
    all), or one the engine itself kept in the run's slower-than-eager folder."""
    if not best:
        return False
    speedup = _num(best.get("speedup"))
    py = str((best.get("paths") or {}).get("py") or "")
    return best.get("verdict") == "slower" or speedup is None or speedup <= 1.0 or f"/{SLOWER_DIR}/" in py
