"""The run store's schema and its one reader: SQLite at `<workspace>/.hiera/hiera.db`, artifacts beside it.

The engine writes the store (engine/store.py RunStore, which reads through RunReader too); the language
server and `hiera report` read it. RunReader decodes every row the one way (JSON columns parsed);
StoreReader is the read-only reader that creates nothing: it opens the database only once it exists, in
SQLite's read-only mode, and a read that fails (a store not yet migrated, or not a hiera store) reads as
nothing rather than raising. The store is in WAL mode, so a reader never blocks a running job.

Imports nothing beyond the standard library (not torch, not engine/, not hiera_ls/).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1

SCHEMA = """
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
    pid INTEGER,
    host TEXT,                        -- the machine running it (socket.gethostname())
    proc_start REAL                   -- its process's start time, seconds since the epoch (pid reuse)
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


# Columns added after schema 1 was first written: (table, column, type). Added in place when missing.
ADDED_COLUMNS = (("runs", "host", "TEXT"), ("runs", "proc_start", "REAL"),
                 # the run's best as it stands (its figure and the kept files), rewritten at each new best, so a
                 # run killed before its end still names its answer
                 ("runs", "best_so_far", "TEXT"),
                 # the device's name ("NVIDIA H200"), apart from `device` ("cuda:0"), which held both before
                 ("runs", "device_name", "TEXT"))

# The columns holding JSON, by table: decoded on reading.
JSON_COLUMNS = {"runs": ("settings", "summary", "best_so_far"), "candidates": ("flags", "outcome"),
                "decisions": ("scores", "evidence")}


def decode(table: str, row: sqlite3.Row) -> dict[str, Any]:
    """A stored row as a dict, its JSON columns parsed (an empty or unreadable summary reads as None)."""
    d = dict(row)
    for col in JSON_COLUMNS.get(table, ()):
        if d.get(col):
            try:
                d[col] = json.loads(d[col])
            except ValueError:
                d[col] = None
        else:
            d[col] = None if col == "summary" else d.get(col)
    return d


def _json_dict(text: str) -> dict[str, Any] | None:
    try:
        v = json.loads(text)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


class RunReader:
    """Every read of the store, over a connection the subclass provides (`_connection`)."""

    db_path: Path

    def _connection(self) -> sqlite3.Connection | None:
        raise NotImplementedError

    def _query(self, table: str, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        c = self._connection()
        if c is None:
            return []
        return [decode(table, r) for r in c.execute(sql, args).fetchall()]

    # --- runs ---------------------------------------------------------------------------------------------

    def run(self, run_id: str) -> dict[str, Any] | None:
        rows = self._query("runs", "SELECT * FROM runs WHERE id=?", (run_id,))
        return rows[0] if rows else None

    def runs(self, task_path: Path | None = None, kind: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        q, args = "SELECT * FROM runs WHERE 1=1", []
        if task_path is not None:
            q += " AND task_path=?"
            args.append(str(task_path))
        if kind is not None:
            q += " AND kind=?"
            args.append(kind)
        q += " ORDER BY started DESC LIMIT ?"
        args.append(limit)
        return self._query("runs", q, tuple(args))

    def latest_run(self, task_paths: list[str], kind: str = "optimize") -> dict[str, Any] | None:
        if not task_paths:
            return None
        marks = ",".join("?" * len(task_paths))
        rows = self._query("runs", f"SELECT * FROM runs WHERE task_path IN ({marks}) AND kind=? "
                                   "ORDER BY started DESC LIMIT 1", (*task_paths, kind))
        return rows[0] if rows else None

    def recent_runs(self, kind: str = "optimize", limit: int = 200) -> list[dict[str, Any]]:
        return self.runs(kind=kind, limit=limit)

    # --- what a run recorded ------------------------------------------------------------------------------

    def candidates(self, run_id: str) -> list[dict[str, Any]]:
        return self._query("candidates", "SELECT * FROM candidates WHERE run_id=? ORDER BY created", (run_id,))

    def candidate(self, run_id: str, candidate_id: str) -> dict[str, Any] | None:
        rows = self._query("candidates", "SELECT * FROM candidates WHERE run_id=? AND id=?", (run_id, candidate_id))
        return rows[0] if rows else None

    def candidate_by_source(self, source_path: str) -> dict[str, Any] | None:
        rows = self._query("candidates", "SELECT * FROM candidates WHERE source_path=? ORDER BY created DESC "
                                         "LIMIT 1", (source_path,))
        return rows[0] if rows else None

    def decisions(self, run_id: str) -> list[dict[str, Any]]:
        return self._query("decisions", "SELECT * FROM decisions WHERE run_id=? ORDER BY round", (run_id,))

    def model_calls(self, run_id: str) -> list[dict[str, Any]]:
        return self._query("model_calls", "SELECT * FROM model_calls WHERE run_id=?", (run_id,))

    def profile(self, run_id: str, candidate_id: str) -> dict[str, Any] | None:
        rows = self._query("profiles", "SELECT data FROM profiles WHERE run_id=? AND candidate_id=?",
                           (run_id, candidate_id))
        return _json_dict(rows[0]["data"]) if rows else None

    def profiles(self, run_id: str) -> dict[str, dict[str, Any]]:
        rows = self._query("profiles", "SELECT candidate_id, data FROM profiles WHERE run_id=? ORDER BY created",
                           (run_id,))
        return {r["candidate_id"]: d for r in rows if (d := _json_dict(r["data"])) is not None}

    def notices(self, run_id: str) -> list[str]:
        return [r["message"] for r in self._query("notices", "SELECT message FROM notices WHERE run_id=? "
                                                             "ORDER BY created", (run_id,))]


class StoreReader(RunReader):
    """The read-only reader of a workspace's store: creates nothing, and a failed read reads as nothing."""

    def __init__(self, workspace: Path):
        self.workspace = workspace
        self.db_path = workspace / ".hiera" / "hiera.db"
        self._conn: sqlite3.Connection | None = None

    @classmethod
    def of_file(cls, db_path: Path) -> StoreReader:
        """A store copied out of its workspace (a bench's runs.db), read the same way."""
        reader = cls(db_path.parent)
        reader.db_path = db_path
        return reader

    # The connection is used from one thread only; check_same_thread=False merely allows closing it from the
    # language server's shutdown path.
    def _connection(self) -> sqlite3.Connection | None:
        if self._conn is None:
            if not self.db_path.exists():
                return None
            try:
                conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=2,
                                       check_same_thread=False)
                conn.row_factory = sqlite3.Row
                conn.execute("SELECT 1 FROM runs LIMIT 1")
            except sqlite3.Error as e:  # not yet migrated by the engine, or not a hiera store
                log.info("store %s not readable yet: %s", self.db_path, e)
                return None
            self._conn = conn
        return self._conn

    def _query(self, table: str, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        try:
            return super()._query(table, sql, args)
        except sqlite3.Error as e:
            log.warning("store read failed (%s): %s", sql.split(" WHERE")[0], e)
            return []

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # --- the one write: a run whose process the language server killed -----------------------------------

    def mark_ended(self, run_id: str, status: str) -> None:
        """Set a run the server killed to `status` if it still says running (the engine had no chance to).

        Same effect as RunStore.finish_run without a summary; its own short connection, since ours is read-only.
        """
        if not self.db_path.exists():
            return
        try:
            with sqlite3.connect(self.db_path, timeout=5) as c:
                c.execute("UPDATE runs SET status=?, finished=? WHERE id=? AND status='running'",
                          (status, time.time(), run_id))
        except sqlite3.Error as e:
            log.warning("could not mark run %s %s: %s", run_id, status, e)


def engine_alive(pid: object) -> bool:
    """Whether a run's recorded engine pid (runs.pid, written by RunStore.start_run/resume_run) is a live hiera
    process: it exists, is not a zombie, and (where /proc tells) its command line is hiera's or the engine's,
    so a pid the kernel has since given to another program does not keep a dead run "running"."""
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmdline = f.read().lower()
    except (OSError, IndexError):
        return True  # no /proc here: existence is all there is to go on
    return state not in (b"Z", b"X") and (b"hiera" in cmdline or b"engine" in cmdline)
