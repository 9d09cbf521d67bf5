"""A stopped run brought back from the store (`hiera optimize --resume`): finished rounds whole, a round stopped
part way with its finished candidates kept (never measured again), the re-timings it made, its seconds and
model calls."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contracts.runrecord import RETIMED, CandidateRow, RoundSummary
from contracts.vocabulary import Direction, Space
from contracts.wording import space_title
from engine.agents.base import RoundRecord, Usage
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome
from engine.loop_state import LoopState, best_of

if TYPE_CHECKING:
    from engine.loop_host import ResumeHost
    from engine.profile.metrics import Profile


def resume_state(loop: ResumeHost, run_id: str) -> tuple[LoopState, int]:
    """Rebuild the state of a stopped run from the store; returns it and the round to continue with.

    Finished rounds come back whole; a round stopped part way keeps its finished candidates (they are not
    measured again: the round asks for its candidates again and evaluates only those still missing)."""
    run = loop.store.run(run_id)
    if run is None:
        raise ValueError(f"no run {run_id} in {loop.store.db_path}")
    loop.store.resume_run(run_id)
    state = LoopState(run_id, earlier_s=float(((run.get("summary") or {}).get("seconds") or {}).get("total", 0)))
    decisions = {d["round"]: d for d in loop.store.decisions(run_id)}
    rows = loop.store.candidates(run_id)
    firsts: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        if not row["id"].endswith(RETIMED):
            firsts.setdefault(row["round"], []).append(row)
    profiles = loop.store.profiles(run_id)
    state.parent_profile = stored_profile(profiles.get("reference"))

    def complete(r: int) -> bool:
        size = loop.sizes[r - 1] if r <= len(loop.sizes) else 0
        return len(firsts.get(r, [])) >= size or (r + 1) in decisions

    next_round = 1
    for r in sorted(decisions):
        d = decisions[r]
        space, direction = Space(d["space"]), Direction(d["direction"])
        taken = [(row, stored_candidate(row), Outcome.from_json(row["outcome"]))
                 for row in firsts.get(r, [])]
        if not complete(r):
            state.partial[r] = {row["idx"]: (c, o) for row, c, o in taken if row["idx"]}
            next_round = r
            break
        for _row, c, o in taken:
            loop.consider(state, c, o, r, space, direction)
            if o.reference:
                state.reference_ms.append(o.reference.median_ms)
        state.history.append(RoundRecord(r, space, direction, d["strategy"],
                                         state.best.speedup if state.best else None,
                                         tuple(o for _row, _c, o in taken)))
        if state.best is not None and state.best.round == r and state.best.candidate.id in profiles:
            state.parent_profile = stored_profile(profiles[state.best.candidate.id])
        state.rounds.append(RoundSummary(r, d["space"], d["scores"], d["direction"], d["strategy"],
                                         d["rationale"], [CandidateRow.from_store(row) for row, _c, _o in taken],
                                         space_title=space_title(d["space"], str(loop.settings.eval.device))))
        state.evaluated += len(taken)
        next_round = r + 1
    for row in rows:  # re-timings of a best (a run stopped while it confirmed its best)
        base = row["id"][: -len(RETIMED)]
        if row["id"].endswith(RETIMED) and base in state.valid:
            state.retimed += 1
            o = Outcome.from_json(row["outcome"])
            if o.valid and o.speedup:
                state.valid[base] = replace(state.valid[base], outcome=o, retimed=True)
            else:
                del state.valid[base]
    state.best = best_of(state.valid.values())
    for row in rows:
        for k in ("build", "verify", "time"):
            state.seconds[k] += row.get(f"{k}_s") or 0.0
    for call in loop.store.model_calls(run_id):
        state.usage.append(Usage(call["role"], call["model"], call["prompt_tokens"], call["completion_tokens"],
                                 call["seconds"], call["cost_usd"], bool(call["ok"]), call["error"]))
        state.seconds["model"] += call["seconds"]
    return state, next_round


def stored_candidate(row: dict[str, Any]) -> Candidate:
    return Candidate(row["id"], CandidateKind(row["kind"]), Path(row["source_path"]).read_text(),
                     Space(row["space"]) if row["space"] else None, row["origin"], row["note"])


def stored_profile(data: dict[str, Any] | None) -> Profile | None:
    if data is None:
        return None
    try:
        from engine.profile import Profile
    except ImportError:
        return None
    return Profile.from_json(data)
