"""The run store: SQLite in the workspace's `.hiera/`, artifacts under `.hiera/runs/<id>/`.

Every decision, candidate, outcome, profile and model call is written as it happens, in its own
transaction, in WAL mode: killing the process at any moment loses nothing already recorded, and a
reader (the language server, `hiera report`) never blocks the writer.

A run records the process that runs it (pid, host, the process's start time). A run still `running` whose
process is gone (killed, kill -9, a crash) is set to `stopped`, with a notice saying so, whenever the engine
opens the store (RunStore.__init__); `hiera optimize --resume RUN_ID` continues it. The rule, for readers
that do not open the store through this class (the language server): status 'running', host equal to this
machine's socket.gethostname(), and no live process with that pid whose start time (proc_start, seconds
since the epoch) is within PROC_START_SLACK_S of the recorded one (a pid the system has since reused for
another process does not keep the run alive).

The schema and every read are in contracts/runstore.py, the store's one reader (torch-free: the language
server reads through it too); this module is the writer.
"""

from __future__ import annotations

import os
import secrets
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from contracts import strict_json
from contracts.runstore import ADDED_COLUMNS, SCHEMA, SCHEMA_VERSION, RunReader
from engine.evaluate.outcome import Candidate, Outcome


def _dumps(value: object) -> str:
    """A record's JSON: strict (no NaN), values only (the typed readers have no key for a flag)."""
    return strict_json.dumps(value, flag=False)

# How far a process's start time read back may be from the recorded one and still be the same process
# (/proc's start time has clock-tick resolution; the boot time it is added to is whole seconds).
PROC_START_SLACK_S = 2.0

# The tables holding a run's rows: the run first, then the rows that reference it (the order of inserting).
RUN_TABLES = ("runs", "decisions", "candidates", "model_calls", "profiles", "notices")


class StoreError(RuntimeError):
    pass


def _boot_time() -> float | None:
    try:
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("btime "):
                return float(line.split()[1])
    except OSError:
        pass
    return None


def process_start(pid: int) -> float | None:
    """When process pid started (seconds since the epoch); None when it is not running (or a zombie) or
    this system has no /proc to ask."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state is field 3, starttime field 22
    if fields[0] in ("Z", "X"):
        return None
    boot = _boot_time()
    if boot is None:
        return None
    return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")


def process_alive(pid: int | None, started: float | None) -> bool:
    """Whether the process recorded as (pid, started) on this host still runs."""
    if not pid:
        return False
    now = process_start(pid)
    if now is not None:
        return started is None or abs(now - started) <= PROC_START_SLACK_S
    if Path("/proc/self/stat").exists():
        return False  # /proc answers for live processes: this one is gone
    try:  # no /proc (not Linux): the pid alone
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


class RunStore(RunReader):
    """The writer of the store; it reads through RunReader (contracts/runstore.py), the one reader."""

    def __init__(self, root: Path):
        """root is the `.hiera` folder of a workspace; created if missing (see `existing` for readers)."""
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.db_path = root / "hiera.db"
        self.conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        self.end_dead_runs()

    @staticmethod
    def for_workspace(workspace: Path) -> RunStore:
        return RunStore(workspace / ".hiera")

    @staticmethod
    def existing(workspace: Path) -> RunStore | None:
        """The workspace's store if it has one; None (and nothing created) otherwise: for commands that only
        read, or that must not leave a `.hiera/` behind when they fail."""
        root = workspace / ".hiera"
        return RunStore(root) if (root / "hiera.db").is_file() else None

    def _migrate(self) -> None:
        self.conn.executescript(SCHEMA)
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            self.conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.db_path} was written by a newer hiera (schema {row[0]}); upgrade hiera")
        for table, column, kind in ADDED_COLUMNS:
            have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    def run_alive(self, run: dict[str, Any]) -> bool:
        """Whether a `running` run's process is still at work (on another host: assumed so, it cannot be
        asked)."""
        if run.get("host") and run["host"] != socket.gethostname():
            return True
        return process_alive(run.get("pid"), run.get("proc_start"))

    def end_dead_runs(self) -> list[str]:
        """Set every `running` run of this host whose process is gone to `stopped` (with a notice); their ids."""
        ended = []
        for row in self.conn.execute("SELECT * FROM runs WHERE status='running'").fetchall():
            run = dict(row)
            if (run.get("host") or socket.gethostname()) != socket.gethostname() or self.run_alive(run):
                continue
            with self.tx() as c:
                changed = c.execute("UPDATE runs SET status='stopped', finished=? WHERE id=? AND status='running'",
                                    (time.time(), run["id"])).rowcount
                if changed:
                    c.execute("INSERT INTO notices VALUES (?,?,?)", (run["id"], (
                        f"the run's process (pid {run['pid']} on {run.get('host') or 'this host'}) ended without "
                        "finishing it (killed, or it crashed); what it finished is kept: "
                        f"hiera optimize --resume {run['id']} continues it"), time.time()))
            if changed:
                ended.append(run["id"])
        return ended

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
                " started, pid, host, proc_start) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, kind, str(task_path), task_name, task_hash, "running", backend, device,
                 _dumps(settings), time.time(), os.getpid(), socket.gethostname(), process_start(os.getpid())),
            )
        self.run_dir(run_id)
        return run_id

    def resume_run(self, run_id: str) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET status='running', finished=NULL, pid=?, host=?, proc_start=? WHERE id=?",
                      (os.getpid(), socket.gethostname(), process_start(os.getpid()), run_id))

    def set_reference(self, run_id: str, reference_ms: float | None, device: str | None = None,
                      device_name: str | None = None) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET reference_ms=?, device=COALESCE(?, device), "
                      "device_name=COALESCE(?, device_name) WHERE id=?", (reference_ms, device, device_name or None,
                                                                           run_id))

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
                 cand.origin, cand.note, str(src), outcome.status.value, outcome.reason, _dumps(o["flags"]),
                 o["speedup"], o["candidate_ms"], o["reference_ms"], outcome.build_s, outcome.verify_s,
                 outcome.time_s, _dumps(o), time.time()),
            )
        return src

    def record_decision(self, run_id: str, round: int, space: str, scores: dict[str, float],
                        evidence: dict[str, list[str]], direction: str, strategy: str, rationale: str,
                        parent_id: str | None = None, profile_bottleneck: str | None = None) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO decisions VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, round, space, _dumps(scores), _dumps(evidence), direction, strategy, rationale,
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
                      (run_id, candidate_id, _dumps(data), time.time()))

    def set_best_so_far(self, run_id: str, best: dict[str, Any]) -> None:
        """The run's best as it stands now (a figure, with the kept files' paths)."""
        with self.tx() as c:
            c.execute("UPDATE runs SET best_so_far=? WHERE id=?", (_dumps(best), run_id))

    def record_notice(self, run_id: str, message: str) -> None:
        with self.tx() as c:
            c.execute("INSERT INTO notices VALUES (?,?,?)", (run_id, message, time.time()))

    def finish_run(self, run_id: str, status: str, summary: dict[str, Any] | None = None) -> None:
        with self.tx() as c:
            c.execute("UPDATE runs SET status=?, summary=?, finished=? WHERE id=?",
                      (status, _dumps(summary) if summary is not None else None, time.time(), run_id))

    # --- moving runs between stores -------------------------------------------------------------------

    def export_runs(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of every run, as stored (JSON columns left as text), by table: what a Ray worker's private
        store sends back to the driver (engine/distributed.py)."""
        return {t: [dict(r) for r in self.conn.execute(f"SELECT * FROM {t}")] for t in RUN_TABLES}

    def import_runs(self, rows: dict[str, list[dict[str, Any]]]) -> list[str]:
        """Add another store's runs (export_runs' rows) in one transaction, all or none; a run already here
        is replaced whole, so importing the same rows twice keeps one copy (notices and model calls have no
        key of their own to replace by). Columns this store lacks are left out. Returns the run ids."""
        ids = [r["id"] for r in rows.get("runs", [])]
        known = set(ids)
        with self.tx() as c:
            for t in reversed(RUN_TABLES):  # what references a run before the run
                c.executemany(f"DELETE FROM {t} WHERE {'id' if t == 'runs' else 'run_id'}=?", [(i,) for i in ids])
            for t in RUN_TABLES:
                have = {r[1] for r in c.execute(f"PRAGMA table_info({t})")}
                for row in rows.get(t, []):
                    if (row["id"] if t == "runs" else row.get("run_id")) not in known:
                        continue
                    cols = [k for k in row if k in have]
                    c.execute(f"INSERT INTO {t} ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})",
                              [row[k] for k in cols])
        return ids

    # --- reading: RunReader's, over this connection ---------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        return self.conn
