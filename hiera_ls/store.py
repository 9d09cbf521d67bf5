"""Read-only view of a workspace's run store (`<workspace>/.hiera/hiera.db`, written by engine/store.py).

Why not `engine.store.RunStore`: importing it pulls in the evaluator and so torch (over a second, and the
server never imports torch), and opening it creates `.hiera/` and migrates the schema — the editor must not
create files in every folder it opens. This reader opens the database read-only, only once it exists, and
decodes rows the way RunStore does. The store is SQLite in WAL mode, so reads never block a running job.
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

_JSON_COLS = {"runs": ("settings", "summary"), "candidates": ("flags", "outcome"), "decisions": ("scores", "evidence")}


def _decode(table: str, row: sqlite3.Row) -> dict[str, Any]:
    d = dict(row)
    for col in _JSON_COLS.get(table, ()):
        if d.get(col):
            try:
                d[col] = json.loads(d[col])
            except ValueError:
                d[col] = None
        else:
            d[col] = None if col == "summary" else d.get(col)
    return d


class StoreReader:
    def __init__(self, workspace: Path):
        self.workspace = workspace
        self.db_path = workspace / ".hiera" / "hiera.db"
        self._conn: sqlite3.Connection | None = None

    # The connection is used from the event loop thread only; check_same_thread=False merely allows
    # closing it from the shutdown path.
    def _c(self) -> sqlite3.Connection | None:
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
        c = self._c()
        if c is None:
            return []
        try:
            return [_decode(table, r) for r in c.execute(sql, args).fetchall()]
        except sqlite3.Error as e:
            log.warning("store read failed (%s): %s", sql.split(" WHERE")[0], e)
            return []

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # --- runs ---------------------------------------------------------------------------------------------

    def run(self, run_id: str) -> dict[str, Any] | None:
        rows = self._query("runs", "SELECT * FROM runs WHERE id=?", (run_id,))
        return rows[0] if rows else None

    def latest_run(self, task_paths: list[str], kind: str = "optimize") -> dict[str, Any] | None:
        if not task_paths:
            return None
        marks = ",".join("?" * len(task_paths))
        rows = self._query("runs", f"SELECT * FROM runs WHERE task_path IN ({marks}) AND kind=? "
                                   "ORDER BY started DESC LIMIT 1", (*task_paths, kind))
        return rows[0] if rows else None

    def recent_runs(self, kind: str = "optimize", limit: int = 200) -> list[dict[str, Any]]:
        return self._query("runs", "SELECT * FROM runs WHERE kind=? ORDER BY started DESC LIMIT ?", (kind, limit))

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
        return _json_or_none(rows[0]["data"]) if rows else None

    def profiles(self, run_id: str) -> dict[str, dict[str, Any]]:
        rows = self._query("profiles", "SELECT candidate_id, data FROM profiles WHERE run_id=? ORDER BY created",
                           (run_id,))
        return {r["candidate_id"]: d for r in rows if (d := _json_or_none(r["data"])) is not None}

    def notices(self, run_id: str) -> list[str]:
        return [r["message"] for r in self._query("notices", "SELECT message FROM notices WHERE run_id=? "
                                                             "ORDER BY created", (run_id,))]

    # --- the one write: a run whose process the server killed ---------------------------------------------

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


def _json_or_none(text: str) -> dict[str, Any] | None:
    try:
        v = json.loads(text)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


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
