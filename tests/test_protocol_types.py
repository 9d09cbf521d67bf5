"""The editor's types (editors/vscode/src/protocol.ts) and the protocol's table of events (docs/protocol.md §1)
field by field against the one definition of what crosses the engine/editor boundary (contracts/runrecord.py),
so that a field renamed on one side fails here.

Each TS interface is compared with the JSON form of its dataclass: its fields must be exactly the dataclass's,
less the ones the extension does not read (NOT_IN_TS, each one a field of the dataclass) and plus the ones
the language server adds to the engine's object (ADDED_BY_LS, none of them a field of the dataclass).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from contracts import runrecord as rr

REPO = Path(__file__).resolve().parent.parent
PROTOCOL_TS = REPO / "editors" / "vscode" / "src" / "protocol.ts"
PROTOCOL_MD = REPO / "docs" / "protocol.md"


def json_keys(cls: type) -> list[str]:
    """The keys of a type's JSON form (an instance read from an empty object: every field None)."""
    return list(cls.from_json({}).to_json())


def _split_top(body: str, sep: str) -> list[str]:
    """body split at `sep` outside braces, brackets and parentheses."""
    out, depth, cur = [], 0, ""
    for ch in body:
        depth += ch in "{[(<"
        depth -= ch in "}])>"
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [*out, cur]


def _fields(body: str) -> dict[str, str]:
    """{field: its TS type} of an interface body or an inline object type (comments dropped)."""
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    out = {}
    for part in _split_top(body.replace("\n", ";"), ";"):
        m = re.match(r"\s*'?([\w-]+)'?\??\s*:\s*(.*\S)\s*$", part, re.S)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def ts_interfaces() -> dict[str, dict[str, str]]:
    text = PROTOCOL_TS.read_text()
    return {m.group(1): _fields(m.group(2))
            for m in re.finditer(r"^export interface (\w+) \{\n(.*?)^\}", text, re.S | re.M)}


def inline(ts_type: str) -> list[str]:
    """The fields of an inline object type, e.g. `{ py: string; cu: string | null } | null`."""
    m = re.match(r"\{(.*)\}", ts_type.strip(), re.S)
    assert m, f"not an inline object type: {ts_type}"
    return list(_fields(m.group(1)))


# TS interface -> (its dataclass, fields the extension does not read, fields the language server adds)
PAIRS: dict[str, tuple[type, set[str], set[str]]] = {
    "Outcome": (rr.CandidateRow, set(), {"retime"}),
    "RoundDecision": (rr.RoundSummary, set(), set()),
    "BestCandidate": (rr.RunBest, {"first_import"}, {"first", "headline", "uncertainty", "warnings", "why",
                                                     "speed_of_light_text", "speed_of_light_detail"}),
    # regions: the round table's rationale and the notices carry it; the results view does not read it yet.
    "RunResults": (rr.RunResult, {"budget", "retimed", "notices", "regions"},
                   {"chart", "compile_ms", "profile", "delivered"}),
}


@pytest.mark.parametrize("interface", sorted(PAIRS))
def test_the_editors_interfaces_have_the_fields_of_the_engines_types(interface):
    cls, not_in_ts, added = PAIRS[interface]
    py = set(json_keys(cls))
    assert not_in_ts <= py, f"NOT_IN_TS names fields {cls.__name__} does not have: {not_in_ts - py}"
    assert not (added & py), f"ADDED_BY_LS names fields {cls.__name__} has: {added & py}"
    ts = set(ts_interfaces()[interface])
    assert ts == (py - not_in_ts) | added, (
        f"protocol.ts {interface} and contracts/runrecord.py {cls.__name__} differ: only in TS "
        f"{sorted(ts - ((py - not_in_ts) | added))}, only in Python {sorted(((py - not_in_ts) | added) - ts)}")


def test_nested_objects_match_too():
    ts = ts_interfaces()
    assert inline(ts["BestCandidate"]["paths"]) == json_keys(rr.ResultPaths)
    assert inline(ts["RunResults"]["tokens"]) == json_keys(rr.Tokens)
    assert set(ts["StoppedEarly"]) == set(json_keys(rr.StoppedEarly))
    from contracts.speed_of_light import SpeedOfLight

    assert set(ts["SpeedOfLight"]) == set(SpeedOfLight("memory", 0, 0, "", 0.0).to_json())
    # a re-timed best's first pair, and a round's kept best: projections of a figure
    assert set(inline(ts["BestCandidate"]["first"])) <= set(json_keys(rr.Figure))
    assert set(inline(ts["RoundDecision"]["best"])) <= set(json_keys(rr.BestFigure))
    # the language server's re-timing beside a candidate (hiera_ls/best.py retime_json)
    from hiera_ls.best import retime_json

    assert set(ts["Retime"]) == set(retime_json({"status": "incorrect"}))


def test_the_editors_job_status_is_what_the_server_sends():
    from hiera_ls.job import Job

    job = Job("j", "optimize", "t", [], Path("/w"), "cpu", {}, Path("/w/log"))
    sent = set(job.status_json())
    ts = set(ts_interfaces()["JobStatus"])
    not_read = {"kind", "uri", "className", "device"}  # sent for other clients; the extension does not read them
    assert not_read <= sent
    assert ts == sent - not_read


def _event_rows() -> dict[str, set[str]]:
    """docs/protocol.md §1's table: {event: the keys it names}, parenthesized notes left out."""
    text = PROTOCOL_MD.read_text()
    section = text[text.index("## 1. "):text.index("## 2. ")]
    rows = {}
    for m in re.finditer(r"^\| `(\w+)` \| (.*) \|$", section, re.M):
        plain = re.sub(r"\([^()]*\)", "", m.group(2))
        rows[m.group(1)] = set(re.findall(r"`(\w+)`", plain))
    return rows


def test_the_protocols_table_of_events_names_the_fields_the_engine_writes():
    rows = _event_rows()
    assert set(rows) == set(rr.EVENTS)
    for name, cls in rr.EVENTS.items():
        if cls is rr.Result:
            continue  # "the --json object of §2": RunResult, checked above against the editor's RunResults
        written = set(rr.event_json(rr.parse_event({"event": name}))) - {"event"}
        assert rows[name] == written, f"docs/protocol.md `{name}`: {sorted(rows[name])} vs {sorted(written)}"


def test_every_event_reads_back_as_itself():
    fig = rr.BestFigure("r1c1-abc", 2.0, 1.0, 2.0, True, 0.03, "faster")
    events = [rr.RunStarted("id", "t.py", "cpu", 2, 3, 6, "expert", "s.db", "d"), rr.Notice("n"),
              rr.ReferenceTimed(1.5), rr.RoundStarted(1, "pure_cuda", {"C": 0.1}, "R", "s", "why", 3),
              rr.CandidateStarted(1, 2, 3),
              rr.CandidateFinished(1, 2, 3, "c", "c.cu", "valid", "", 2.0, 1.0, 2.0, fig),
              rr.RoundFinished(1, 2.0, fig), rr.RetimeStarted("c", fig),
              rr.RetimeFinished("c", "valid", fig.figure, fig), rr.Failed("boom", None)]
    for ev in events:
        assert rr.parse_event(rr.event_json(ev)) == ev
