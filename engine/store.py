"""The run store: SQLite in the workspace's `.hiera/`, artifacts under `.hiera/runs/<id>/`.

Every decision, candidate, outcome, profile and model call is written as it happens, in its own
transaction, in WAL mode: killing the process at any moment loses nothing already recorded, and a
reader (the language server, `hiera report`) never blocks the writer.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.evaluate.outcome import Candidate, Outcome

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,               -- eval | optimize | bench | profile
    task_path TEXT NOT NULL,
    task_name TEXT NOT NULL,
    task_hash TEXT NOT NULL,
    status TEXT NOT NULL,             -- running | finished | stopped | failed
    backend TEXT,
    device TEXT,
    settings TEXT NOT NULL,           -- JSON
    reference_ms REAL,
    summary TEXT,                     -- JSON, set when the run ends
    started REAL NOT NULL,
    finished REAL,
    pid INTEGER
);
CREATE TABLE IF NOT EXISTS decisions (
    run_id TEXT NOT NULL REFERENCES runs(id),
    round INTEGER NOT NULL,
    space TEXT NOT NULL,
    scores TEXT NOT NULL,             -- JSON {"C": .., "P": .., "M": .., "R": .., "T": ..}
    evidence TEXT NOT NULL,           -- JSON {direction: [evidence strings]}
    direction TEXT NOT NULL,
    strategy TEXT NOT NULL,
    rationale TEXT NOT NULL,
    parent_id TEXT,
    profile_bottleneck TEXT,          -- the dominant bottleneck by ncu's own rules, when profiled
    created REAL NOT NULL,
    PRIMARY KEY (run_id, round)
);
CREATE TABLE IF NOT EXISTS candidates (
    run_id TEXT NOT NULL REFERENCES runs(id),
    id TEXT NOT NULL,
    round INTEGER,
    idx INTEGER,
    kind TEXT NOT NULL,
    space TEXT,
    origin TEXT NOT NULL,
    note TEXT NOT NULL,
    source_path TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL,
    flags TEXT NOT NULL,              -- JSON list
    speedup REAL,
    candidate_ms REAL,
    reference_ms REAL,
    build_s REAL,
    verify_s REAL,
    time_s REAL,
    outcome TEXT NOT NULL,            -- JSON, the whole Outcome
    created REAL NOT NULL,
    PRIMARY KEY (run_id, id)
);
CREATE TABLE IF NOT EXISTS model_calls (
    run_id TEXT NOT NULL REFERENCES runs(id),
    round INTEGER,
    role TEXT NOT NULL,               -- ssda | spa | oa
    model TEXT,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    seconds REAL NOT NULL,
    cost_usd REAL,
    ok INTEGER NOT NULL,
    error TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS profiles (
    run_id TEXT NOT NULL REFERENCES runs(id),
    candidate_id TEXT NOT NULL,       -- or "reference"
    data TEXT NOT NULL,               -- JSON, the Profile
    created REAL NOT NULL,
    PRIMARY KEY (run_id, candidate_id)
);
CREATE TABLE IF NOT EXISTS notices (
    run_id TEXT NOT NULL REFERENCES runs(id),
    message TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_task ON runs(task_path, started);
"""


class StoreError(RuntimeError):
    pass


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


class RunStore:
    def __init__(self, root: Path):
        """root is the `.hiera` folder of a workspace; created if missing."""
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.db_path = root / "hiera.db"
        self.conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    @staticmethod
    def for_workspace(workspace: Path) -> RunStore:
        return RunStore(workspace / ".hiera")

    def _migrate(self) -> None:
        self.conn.executescript(_SCHEMA)
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            self.conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.db_path} was written by a newer hiera (schema {row[0]}); upgrade hiera")

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def run_dir(self, run_id: str) -> Path:
        d = self.root / "runs" / run_id
        d.mkdir(parents=True, exist_ok=True)
        return d

    # --- writing ------------------------------------------------------------------------------------

    def start_run(self, kind: str, task_path: Path, task_name: str, task_hash: str, settings: dict[str, Any],
                  backend: str | None = None, device: str | None = None, run_id: str | None = None) -> str:
        run_id = run_id or new_run_id()
        with self.tx() as c:
            c.execute(
                "INSERT INTO runs (id, kind, task_path, task_name, task_hash, status, backend, device, settings,"
                " started, pid) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, kind, str(task_path), task_name, task_hash, "running", backend, device,
                 json.dumps(settings), time.time(), os.getpid()),
            )
        self.run_dir(run_id)
        return run_id

    def resume_run(self, run_id: str) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET status='running', finished=NULL, pid=? WHERE id=?", (os.getpid(), run_id))

    def set_reference(self, run_id: str, reference_ms: float | None, device: str | None = None) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET reference_ms=?, device=COALESCE(?, device) WHERE id=?",
                      (reference_ms, device, run_id))

    def record_candidate(self, run_id: str, cand: Candidate, outcome: Outcome, round: int | None = None,
                         index: int | None = None) -> Path:
        src = self.run_dir(run_id) / "candidates" / f"{cand.id}{cand.kind.suffix}"
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text(cand.source)
        o = outcome.to_json()
        with self.tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO candidates (run_id, id, round, idx, kind, space, origin, note, source_path,"
                " status, reason, flags, speedup, candidate_ms, reference_ms, build_s, verify_s, time_s, outcome,"
                " created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, cand.id, round, index, cand.kind.value, cand.space.value if cand.space else None,
                 cand.origin, cand.note, str(src), outcome.status.value, outcome.reason, json.dumps(o["flags"]),
                 o["speedup"], o["candidate_ms"], o["reference_ms"], outcome.build_s, outcome.verify_s,
                 outcome.time_s, json.dumps(o), time.time()),
            )
        return src

    def record_decision(self, run_id: str, round: int, space: str, scores: dict[str, float],
                        evidence: dict[str, list[str]], direction: str, strategy: str, rationale: str,
                        parent_id: str | None = None, profile_bottleneck: str | None = None) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO decisions VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, round, space, json.dumps(scores), json.dumps(evidence), direction, strategy, rationale,
                 parent_id, profile_bottleneck, time.time()),
            )

    def record_model_call(self, run_id: str, round: int | None, role: str, model: str | None,
                          prompt_tokens: int, completion_tokens: int, seconds: float, cost_usd: float | None,
                          ok: bool, error: str | None = None) -> None:
        with self.tx() as c:
            c.execute("INSERT INTO model_calls VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                      (run_id, round, role, model, prompt_tokens, completion_tokens, seconds, cost_usd,
                       int(ok), error, time.time()))

    def record_profile(self, run_id: str, candidate_id: str, data: dict[str, Any]) -> None:
        with self.tx() as c:
            c.execute("INSERT OR REPLACE INTO profiles VALUES (?,?,?,?)",
                      (run_id, candidate_id, json.dumps(data), time.time()))

    def record_notice(self, run_id: str, message: str) -> None:
        with self.tx() as c:
            c.execute("INSERT INTO notices VALUES (?,?,?)", (run_id, message, time.time()))

    def finish_run(self, run_id: str, status: str, summary: dict[str, Any] | None = None) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET status=?, summary=?, finished=? WHERE id=?",
                      (status, json.dumps(summary) if summary is not None else None, time.time(), run_id))

    # --- reading ------------------------------------------------------------------------------------

    def run(self, run_id: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
        if row is None:
            return None
        d = dict(row)
        d["settings"] = json.loads(d["settings"])
        d["summary"] = json.loads(d["summary"]) if d["summary"] else None
        return d

    def runs(self, task_path: Path | None = None, kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        q, args = "SELECT id FROM runs WHERE 1=1", []
        if task_path is not None:
            q += " AND task_path=?"
            args.append(str(task_path))
        if kind is not None:
            q += " AND kind=?"
            args.append(kind)
        q += " ORDER BY started DESC LIMIT ?"
        args.append(limit)
        return [r for r in (self.run(row[0]) for row in self.conn.execute(q, args)) if r]

    def candidates(self, run_id: str) -> list[dict[str, Any]]:
        rows = self.conn.execute("SELECT * FROM candidates WHERE run_id=? ORDER BY created", (run_id,)).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            d["flags"] = json.loads(d["flags"])
            d["outcome"] = json.loads(d["outcome"])
            out.append(d)
        return out

    def decisions(self, run_id: str) -> list[dict[str, Any]]:
        rows = self.conn.execute("SELECT * FROM decisions WHERE run_id=? ORDER BY round", (run_id,)).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            d["scores"] = json.loads(d["scores"])
            d["evidence"] = json.loads(d["evidence"])
            out.append(d)
        return out

    def model_calls(self, run_id: str) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM model_calls WHERE run_id=?", (run_id,))]

    def profile(self, run_id: str, candidate_id: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT data FROM profiles WHERE run_id=? AND candidate_id=?",
                                (run_id, candidate_id)).fetchone()
        return json.loads(row[0]) if row else None

    def profiles(self, run_id: str) -> dict[str, dict[str, Any]]:
        return {r[0]: json.loads(r[1]) for r in
                self.conn.execute("SELECT candidate_id, data FROM profiles WHERE run_id=?", (run_id,))}

    def notices(self, run_id: str) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT message FROM notices WHERE run_id=? ORDER BY created",
                                                (run_id,))]
