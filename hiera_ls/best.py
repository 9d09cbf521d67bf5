"""The run's one best figure: a speedup together with the candidate time and the eager time of the same pair.

The engine times every candidate interleaved with its own eager run, and times the best once more before it
reports it (its first ratio leans high: the winner's curse). Showing the re-timing's speedup beside the run's
median eager time mixed two pairs ("2.01x: 8.221 ms vs 19.25 ms", where 19.25 / 8.221 = 2.34); every view
here reads the best through `canonical_best`, so the header, hover, message, table, lens and status bar say
one thing. Its spread and verdict are the engine's own rule (contracts/verdict.py), never one of this
server's: where the engine wrote none (a run stopped or killed before its result), the same rule is applied
to the store's rows of the same pair.

Fields read, the engine's own first:
  best.speedup, best.candidate_ms, best.reference_ms (the paired eager), best.retimed, best.spread,
  best.candidate_spread, best.reference_spread, best.verdict, best.flags — the canonical best the engine writes
  (an older engine's best.paired_reference_ms is read as reference_ms, contracts/runrecord.py RunBest);
  the store's candidate rows otherwise: `<candidate_id>-retimed` (a re-timing, contracts/runrecord.py RETIMED) and
  `<candidate_id>`, each row's candidate_ms/reference_ms being one pair, its outcome.timing the spreads.
Where the engine gives no speedup that matches its pair, the pair decides: speedup = reference / candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contracts import verdict as rule
from contracts.runrecord import KEPT_DIRS, RETIMED, figure_key, pick_best, row_figure, shapes_of
from contracts.shapes import ShapeReport
from contracts.speed_of_light import SpeedOfLight, detail, phrase


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v > 0 else None


def _spread(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and v >= 0 else None


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-4 * max(abs(a), abs(b))


@dataclass(frozen=True)
class Pair:
    """One interleaved timing: a candidate's median and its own eager median, with each side's spread."""

    candidate_ms: float
    reference_ms: float
    candidate_spread: float | None
    reference_spread: float | None

    @property
    def speedup(self) -> float:
        return self.reference_ms / self.candidate_ms

    @property
    def spread(self) -> float | None:
        """The pair's spread by the engine's rule (contracts/verdict.py pair_spread); None when unmeasured."""
        if self.candidate_spread is None and self.reference_spread is None:
            return None
        return rule.pair_spread(self.candidate_spread, self.reference_spread)


def side_spread(timing: Any) -> float | None:
    """One side's spread from a stored timing (median_ms, p25_ms, p75_ms), by contracts/verdict.py."""
    if not isinstance(timing, dict):
        return None
    med = _num(timing.get("median_ms"))
    if med is None or not all(isinstance(timing.get(q), (int, float)) for q in ("p25_ms", "p75_ms")):
        return None
    return rule.timing_spread(timing["p25_ms"], timing["p75_ms"], med)


def pair_of(row: dict[str, Any] | None) -> Pair | None:
    """The pair of a valid store row (a candidate or a re-timing)."""
    if not row or row.get("status") != "valid":
        return None
    c, r = _num(row.get("candidate_ms")), _num(row.get("reference_ms"))
    if not (c and r):
        return None
    timing = (row.get("outcome") or {}).get("timing") if isinstance(row.get("outcome"), dict) else None
    timing = timing if isinstance(timing, dict) else {}
    return Pair(c, r, side_spread(timing.get("candidate")), side_spread(timing.get("reference")))


def flags_of(row: dict[str, Any] | None) -> list[str]:
    """The flags the engine set on a stored outcome."""
    flags = ((row or {}).get("outcome") or {}).get("flags") if isinstance((row or {}).get("outcome"), dict) else None
    return [str(f) for f in flags] if isinstance(flags, list) else []


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
    """`best` with speedup, candidate_ms, reference_ms (the paired eager), retimed, spread, candidate_spread,
    reference_spread, verdict, flags and, for a re-timed best, `first` (its first pair) all from one pair, and the
    words every view shows (`headline`, `uncertainty`, `warnings`: `words`; `why`: `why`); None for no best."""
    if not isinstance(best, dict) or not best.get("candidate_id"):
        return None
    cid = str(best["candidate_id"])
    by_id = {r.get("id"): r for r in rows}
    first, again = pair_of(by_id.get(cid)), pair_of(by_id.get(cid + RETIMED))
    speedup = _num(best.get("speedup"))
    cand = _num(best.get("candidate_ms"))
    ref = _num(best.get("reference_ms")) or _num(best.get("paired_reference_ms"))
    source: Pair | None = None
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
    if source is None:  # the store row of the engine's pair, for what the engine did not write
        source = next((p for p in ((again if retimed else first), again, first)
                       if p is not None and _close(p.speedup, speedup)), None)
    c_spread = _spread(best.get("candidate_spread"))
    r_spread = _spread(best.get("reference_spread"))
    if c_spread is None and r_spread is None and source is not None:
        c_spread, r_spread = source.candidate_spread, source.reference_spread
    spread = _spread(best.get("spread"))
    if spread is None and (c_spread is not None or r_spread is not None):
        spread = rule.pair_spread(c_spread, r_spread)
    flags = best.get("flags") if isinstance(best.get("flags"), list) else flags_of(
        by_id.get(cid + RETIMED) if retimed else by_id.get(cid))
    # The interval and verdict the engine wrote, else the same rule on the store's row of this pair.
    low, high, confidence = best.get("low"), best.get("high"), best.get("confidence")
    verdict = best.get("verdict") if best.get("verdict") in rule.VERDICTS else None
    if verdict is None or not (_num(low) and _num(high)):
        row = by_id.get(cid + RETIMED) if retimed else by_id.get(cid)
        fig = row_figure(row, retimed) if row is not None else None
        if fig is not None and _close(fig.speedup, speedup):
            low, high, confidence = fig.low, fig.high, fig.confidence
            verdict = verdict or fig.verdict
        elif verdict is None and rule.flagged_unstable(flags):
            verdict = rule.Verdict.UNSTABLE.value
    sol = SpeedOfLight.from_json(best.get("speed_of_light")) or light_of(by_id.get(cid + RETIMED) if retimed
                                                                         else by_id.get(cid))
    out = {**best, "speedup": speedup, "candidate_ms": cand, "reference_ms": ref, "retimed": retimed,
           "spread": spread, "candidate_spread": c_spread, "reference_spread": r_spread, "verdict": verdict,
           "low": low, "high": high, "confidence": confidence, "flags": [str(f) for f in flags],
           "speed_of_light": sol.to_json() if sol else None, **light_words(sol)}
    out.pop("paired_reference_ms", None)
    if retimed and first is not None:
        out["first"] = {"speedup": first.speedup, "candidate_ms": first.candidate_ms,
                        "reference_ms": first.reference_ms}
    return {**out, **words(out), "why": why(out, rows)}


def light_of(row: dict[str, Any] | None) -> SpeedOfLight | None:
    """The speed-of-light figure a stored outcome carries (a run without the engine's summary: stopped, killed)."""
    outcome = (row or {}).get("outcome")
    return SpeedOfLight.from_json(outcome.get("speed_of_light")) if isinstance(outcome, dict) else None


def light_words(sol: SpeedOfLight | None) -> dict[str, str | None]:
    """`speed_of_light_text` ('62% of speed of light, memory-bound') and `speed_of_light_detail` (what the bound is
    made of), the words every view shows beside the figure; None without a bound."""
    return {"speed_of_light_text": phrase(sol) if sol else None,
            "speed_of_light_detail": detail(sol) if sol else None}


def words(best: dict[str, Any] | None) -> dict[str, Any]:
    """A best's words by contracts/verdict.py: `headline` ('1.4× faster than eager', '88× slower than eager',
    'level with eager', 'unstable timing: ...'), `uncertainty` (its interval, '1.3–1.5× at 95%'; '' when
    unknown) and `warnings` (each engine flag in words)."""
    best = best or {}
    speedup, verdict, spread = best.get("speedup"), best.get("verdict"), best.get("spread")
    return {"headline": rule.headline(speedup, verdict, spread),
            "uncertainty": rule.uncertainty(speedup, verdict, spread, best.get("low"), best.get("high"),
                                            best.get("confidence")),
            "warnings": [rule.flag_words(str(f)) for f in best.get("flags") or []]}


def why(best: dict[str, Any], rows: list[dict[str, Any]], sign: str = rule.TIMES) -> str:
    """Why this candidate is the reported best, from the store's re-timings: 'r2c1, re-timed on its own (its
    first pair read 1.5×); r1c1 read 1.6× first and 1.2× re-timed'. The engine re-times the fastest candidate
    and gives way to another that is then faster (engine/loop.py _confirm_best); this says what happened."""
    cid = str(best.get("candidate_id") or "?")
    by_id = {r.get("id"): r for r in rows}
    first = best.get("first") or {}
    if best.get("retimed"):
        head = f"{cid}, timed again on its own" + (
            f" (its first pair read {rule.ratio_text(_num(first.get('speedup')), None, sign)})" if first else "")
    else:
        head = f"{cid}, from its first pair (not timed again)"
    others = []
    for other, row in retimings(rows).items():
        if other == cid:
            continue
        p1, p2 = pair_of(by_id.get(other)), pair_of(row)
        was = f" {rule.ratio_text(p1.speedup, None, sign)} first and" if p1 else ""
        others.append(f"{other} read{was} {rule.ratio_text(p2.speedup, None, sign)} re-timed" if p2
                      else f"{other} failed its re-timing ({row.get('status')}), so it is not kept")
    return "; ".join([head, *others])


def with_retimes(rounds: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rounds with each outcome's re-timing (`retime`, or None) and the round's kept best (`best`:
    candidate_id, speedup, retimed) by the engine's rule (pick_best over each candidate's latest figure), so that
    tables show the figure the run keeps, not the first pair's."""
    again = retimings(rows)
    by_id = {r.get("id"): r for r in rows}
    out = []
    for r in rounds:
        outcomes = [{**o, "retime": retime_json(again.get(o.get("candidate_id")))} for o in r.get("outcomes") or []]
        kept = []
        for o in outcomes:
            s, rt = reported_speedup(o)
            if s is None:
                continue
            cid = o.get("candidate_id")
            row = again.get(cid) if rt else by_id.get(cid)
            fig = row_figure(row, rt) if row is not None else None
            key = figure_key(fig) if fig is not None else (*rule.rank(o.get("verdict"), o.get("low")), s)
            # (the row's report, else the outcome's own: the engine weighs every candidate by one)
            shapes = shapes_of(row) if row is not None else None
            if shapes is None and isinstance(o.get("shapes"), dict):
                shapes = ShapeReport.from_json(o["shapes"])
            kept.append((s, rt, cid, key, shapes))
        top = pick_best(kept, lambda k: k[3], lambda k: k[1], lambda k: k[4])
        out.append({**r, "outcomes": outcomes,
                    "best": {"candidate_id": top[2], "speedup": top[0], "retimed": top[1]} if top else None})
    return out


def kept_back(best: dict[str, Any] | None) -> bool:
    """A best that is not written beside the module: the engine writes only a `faster` best there
    (engine/loop.py write_results), and one it kept in the run's not-delivered folder is kept back."""
    if not best:
        return False
    speedup = _num(best.get("speedup"))
    py = str((best.get("paths") or {}).get("py") or "")
    if any(f"/{d}/" in py for d in KEPT_DIRS) or speedup is None:
        return True
    verdict = best.get("verdict")
    return verdict != rule.Verdict.FASTER.value if verdict in rule.VERDICTS else speedup <= 1.0
