"""Does a change alter what `hiera optimize` does? Run the same scripted loop on two revisions and diff.

    PYTHONPATH=$PWD .venv/bin/python tools/behaviour_diff.py [OLD [NEW]] [options]

OLD and NEW are git revisions (default HEAD~1 and HEAD); NEW may be `WORKTREE`, the working tree as it is,
uncommitted changes included. OLD and NEW may name the same revision: two runs of the same code, which shows
what the normaliser leaves (it should leave nothing). Each revision is checked out into a temporary
`git worktree --detach` (removed afterwards) and runs, on the CPU, each backend in turn:

    python -m engine.cli optimize <a copy of tests/data/tasks/scale_bias_relu.py> --rounds 2 --candidates 2
        --device cpu --json --events jsonl --workspace <a fresh folder>            (--backend expert)
    ... --backend llm --llm-base-url <the scripted server> --llm-model fake-model --llm-parallel 1

The LLM backend talks to tests/fake_llm_server.py with the script in LLM_SCRIPT (a rate-limited reply, an
incorrect candidate, a reply without code, then correct candidates), both taken from the tree this tool runs
from, so that both revisions get the same server and the same replies. `--llm-parallel 1` keeps the order in
which the candidates' requests reach the server, so the same candidate gets the same reply in both runs.

From each run it collects (a) the event lines, (b) the result JSON, (c) the exit status and (d) the rows of the
run store (<workspace>/.hiera/hiera.db: runs, decisions, candidates, notices, profiles, model_calls), with its
JSON columns decoded. It normalises what legitimately differs between two runs of the same code:

- run ids (`20261202-004541-9a27` -> `<run>`), candidate ids' hash suffixes (`r1c2-847974` -> `r1c2-<h>`),
  build-cache hashes, the host name, process ids;
- absolute paths: the workspace, the checkout and the home folder become `<ws>`, `<src>`, `<home>`;
- timestamps, seconds and durations, and every measured number: a number that is not a whole number becomes
  `<num>` wherever it is (milliseconds, speedups, spreads, timing statistics), and in text a number with a
  unit (`2.38x`, `18.84 ms`, `103%`, `20 s`) or with a decimal point becomes `<n>`; whole numbers without a
  unit (counts, batch sizes, correctness trials, rounds, token counts) are kept, as are statuses, verdicts, spaces,
  directions, strategies, scores and the words of every reason.

Measured decisions. On a CPU the timings are noise (a loaded two-core machine times the same eager reference at
0.4 ms and at 18 ms within a minute), and some of the loop's decisions follow from them: which candidate is the
best (and so the best's id, round, space and direction, and the results' folder: beside the task or
`not-delivered/`), which candidates are timed again and how often (the `retime_*` events, the `-retimed`
rows, the "timed again" notices, `retimed` counts), each figure's verdict (`faster`, `unstable`, ...), how many
calls are timed (from the time per call the warm-up saw: `median of 82` or `of 100`, the timings' `trials`), the
parent of the next round's plan (the best so far: a decision's `parent_id`), whether a pair is flagged
`unstable_timing`, and the exit status (0 when the best is written beside the task, 3 when kept aside). The
`noisy_reference` flag (a paired reference far off the run's median) is one of these too. They are inherently
nondeterministic here, so by default they are masked too: `<measured>` in every `best` object and for `verdict`,
`retimed`, `trials`, `parent_id` and the exit status; the re-timing events, progress lines, rows and notices, the
three timing flags and the progress lines of a round's profile step (whether a round profiles follows from whether
its best is new) are dropped from the records; a progress line's counts, a candidate line's best so far and the
word in "0.8x slower" are masked. `--keep-measured` keeps them: meaningful on a quiet machine or a GPU, where a
change to the timing policy or the figure rule is what you want to see.

Some things differ between two runs of the same code whatever the machine, and are always masked: the inputs
are drawn under secret random seeds (os.urandom, per checker), so where a wrong candidate's outputs differ and
how many elements do (`88432 of 131072 elements`, `worst at out[157, 76]`, the error's `mismatches` and
`where`) changes from run to run; they become `<seeded>`, as do the batch sizes a candidate is verified at
besides the task's own (drawn per run: "valid at batch 1, 97, 142, ..."). The scores, the rationale's words,
the order of the rows and everything else came out identical in two runs of the same commit (expert and LLM
backends both).

Prints a unified diff of the normalised records (one JSON line per event or row, under a header per record) and
exits 1 when they differ, 0 when they are the same, 2 when a run could not be made (an engine that crashed is a
difference, not an error: its stderr tail is part of the record). `--keep DIR` keeps the workspaces, the raw
records (records.json) and the normalised ones (old-expert.txt, new-expert.txt, ...) in DIR; `--records DIR`
diffs such raw records again, running nothing (after a change to the normaliser). Four runs take about two
minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TASK = "scale_bias_relu.py"
TABLES = ("runs", "decisions", "candidates", "notices", "profiles", "model_calls")

# The LLM backend's script: the one tests/test_optimize_llm_e2e.py runs (its source files relative to it).
LLM_SCRIPT = ROOT / "tests" / "data" / "llm" / "scale_bias_relu_cpu_script.json"

# --- normalising -------------------------------------------------------------------------------------------

_RUN_ID = re.compile(r"\b\d{8}-\d{6}-[0-9a-f]{4}\b")
_CAND_ID = re.compile(r"\b(r\d+c\d+)-[0-9a-f]{6}\b")
_HEX = re.compile(r"\b[0-9a-f]{16,64}\b")
# a number with a decimal point or a unit; whole numbers alone (counts, batch sizes) are kept
_UNIT_NUM = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?=\s?(?:ms|us|µs|ns|s|x|%|GB/s|GFLOP/s)\b|%)")
_DEC_NUM = re.compile(r"(?<![\w.])[-+]?\d+\.\d+(?:e[-+]?\d+)?")
_RANGE = re.compile(r"\b\d+-\d+(?=\s?s\b)|(?<![\w.])\d+(?:\.\d+)?(?=–)")  # "20-35 s"; "12–0.8x": a range's low end
# where a wrong candidate's outputs differ depends on the inputs, drawn under secret random seeds
_MISMATCH = re.compile(r"\b\d+ of \d+ elements")
_WHERE = re.compile(r"\b(out\d*)\[[\d, ]*\]")

# keys whose whole value is a clock reading, a duration, a process or a host
_VOLATILE_KEYS = {"started", "finished", "created", "proc_start", "pid", "host", "seconds", "elapsed_s",
                  "wall_s"}
# keys whose value is a decision taken from measured numbers (masked unless --keep-measured)
# ("calls": how many calls a back-to-back burst makes follows from the time per call)
_MEASURED_KEYS = {"verdict", "retimed", "exit_status", "parent_id", "trials", "calls"}
_MEDIAN_OF = re.compile(r"\bmedian of \d+")
# what the best's choice decides: masked in every `best` object
_BEST_KEYS = ("candidate_id", "round", "space", "direction")
# keys of a wrong candidate's error statistics that depend on the seeded inputs
_SEEDED_KEYS = {"mismatches", "where"}
_RETIME_EVENTS = {"retime_started", "retime_finished"}
_RETIME_NOTICE = re.compile(r"timed again|re-tim")  # "... was timed again on its own", "3 re-timings spent; ..."
# flags a measurement raises or not
_MEASURED_FLAGS = ("unstable_timing", "noisy_reference", "timing_swing")
# "0.82x slower": whether a figure is below or above 1 is measured
_SLOWER = re.compile(r"<n>x (?:slower|faster)\b")
# the batch sizes a candidate is verified at besides the task's are drawn per run (issue 38), like the inputs
_DRAWN = re.compile(r"\bat batch (?:\d+, )*\d+")
# a progress line names the candidate it profiles (the round's best: measured), and its counts include re-timings
_PROGRESS_CAND = re.compile(r"\b(profiling|profiled) r\d+c\d+-<h>")
# whether a round profiles a candidate at all follows from whether its best is new (measured)
_PROFILE_STEP = re.compile(r"profiling .* with Nsight Compute")


class Normaliser:
    def __init__(self, paths: dict[str, Path], keep_measured: bool = False):
        # longest first, so a workspace inside a checkout is named as the workspace
        self.paths = sorted(((str(p), name) for name, p in paths.items()), key=lambda t: -len(t[0]))
        self.keep_measured = keep_measured
        self.host = socket.gethostname()

    def text(self, s: str) -> str:
        for p, name in self.paths:
            s = s.replace(p, name)
        s = _RUN_ID.sub("<run>", s)
        s = _CAND_ID.sub(r"\1-<h>", s)
        s = _HEX.sub("<hash>", s)
        if self.host:
            s = s.replace(self.host, "<host>")
        s = _RANGE.sub("<n>", s)
        s = _MISMATCH.sub("<n> of <n> elements", s)
        s = _WHERE.sub(r"\1[<seeded>]", s)
        s = _DRAWN.sub("at batch <seeded>", s)
        s = _UNIT_NUM.sub("<n>", s)
        s = _DEC_NUM.sub("<n>", s)
        if not self.keep_measured:
            s = _SLOWER.sub("<n>x", s)
            s = s.replace("slower-than-eager/", "<measured-dir>/").replace("not-delivered/", "<measured-dir>/")
            s = _MEDIAN_OF.sub("median of <measured>", s)
        return s

    def value(self, v: Any, key: str = "") -> Any:
        if key in _VOLATILE_KEYS and v is not None:
            return "<volatile>"
        if key in _SEEDED_KEYS and v is not None:
            return "<seeded>"
        if key in _MEASURED_KEYS and not self.keep_measured and v is not None:
            return "<measured>"
        if key == "checks" and isinstance(v, list):  # a shape report's drawn sizes (contracts/shapes.py)
            v = [{**c, "batch": "<seeded>"} if isinstance(c, dict) and "batch" in c else c for c in v]
        if isinstance(v, dict):
            if key == "scores":  # the direction scores: a decision, kept as numbers
                return {k: x for k, x in v.items()}
            if key in ("best", "best_so_far") and not self.keep_measured:
                v = {k: "<measured>" if k in _BEST_KEYS else x for k, x in v.items()}
            return {self.text(k): self.value(x, k) for k, x in v.items()}
        if isinstance(v, list):
            if key == "flags" and not self.keep_measured:
                v = [x for x in v if not (isinstance(x, str) and x.startswith(_MEASURED_FLAGS))]
            if key == "notices" and not self.keep_measured:
                v = [x for x in v if not (isinstance(x, str) and _RETIME_NOTICE.search(x))]
            return [self.value(x, key) for x in v]
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, float):
            return "<num>"
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            return self.text(v)
        return v

    def record(self, rec: dict[str, Any]) -> dict[str, list[str]]:
        """The record as sections of sorted-key JSON lines, normalised."""
        out: dict[str, list[str]] = {}
        events = rec["events"]
        result = rec["result"]
        if not self.keep_measured:
            events = [e for e in events if e.get("event") not in _RETIME_EVENTS
                      and not (e.get("event") in ("notice", "progress")
                               and _RETIME_NOTICE.search(e.get("message", e.get("what", ""))))]
            events = [e for e in events
                      if not (e.get("event") == "progress" and _PROFILE_STEP.search(str(e.get("what", ""))))]
            events = [self._progress(e) if e.get("event") == "progress" else e for e in events]
            # whether a candidate's line carries a best so far (and which) follows from the verdicts before it
            events = [{**e, "best": "<measured>", "best_speedup": "<measured>"}
                      if e.get("event") == "candidate_finished" else e for e in events]
        out["exit status"] = [json.dumps(self.value(rec["rc"], "exit_status"))]
        out["stderr (on failure)"] = [self.text(line) for line in rec.get("stderr_tail", [])]
        out["events"] = [self._line(e) for e in events]
        out["result"] = [self._line(result)] if result is not None else ["<no result>"]
        for table in TABLES:
            rows = rec["store"].get(table, [])
            if not self.keep_measured:
                if table == "candidates":
                    rows = [r for r in rows if not str(r.get("id", "")).endswith("-retimed")]
                if table == "notices":
                    rows = [r for r in rows if not _RETIME_NOTICE.search(r.get("message", ""))]
            lines = [self._line(r) for r in rows]
            # rows written in one transaction or by parallel requests have no order of their own
            out[f"store.{table}"] = sorted(lines) if table in ("model_calls", "notices") else lines
        return out

    def _progress(self, e: dict[str, Any]) -> dict[str, Any]:
        """A progress line with what measurement decides masked: its counts (re-timings are among them) and the
        candidate it profiles (the round's best)."""
        what = _PROGRESS_CAND.sub(r"\1 <measured>", self.text(str(e.get("what", ""))))
        return {**e, "done": "<measured>", "total": "<measured>", "what": what}

    def _line(self, obj: Any) -> str:
        return json.dumps(self.value(obj), sort_keys=True, ensure_ascii=False)


def render(sections: dict[str, list[str]]) -> list[str]:
    lines: list[str] = []
    for name, body in sections.items():
        lines.append(f"## {name} ({len(body)})")
        lines.extend(body)
    return lines


# --- running -----------------------------------------------------------------------------------------------

def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def checkout(rev: str, dest: Path) -> Path:
    if rev == "WORKTREE":
        return ROOT
    _git("worktree", "add", "--detach", str(dest), rev)
    return dest


def start_server(script_path: Path, record: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "fake_llm_server.py"), "--port", "0",
                             "--script", str(script_path), "--record", str(record)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    if not line or line[0] != "PORT":
        proc.kill()
        raise RuntimeError(f"the scripted LLM server did not start: {line}")
    return proc, f"http://127.0.0.1:{line[1]}/v1"


def read_store(db: Path) -> dict[str, list[dict[str, Any]]]:
    if not db.exists():
        return {}
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    out: dict[str, list[dict[str, Any]]] = {}
    try:
        for table in TABLES:
            try:
                order = {"runs": "started", "decisions": "round", "candidates": "created, id",
                         "notices": "created", "profiles": "created, candidate_id",
                         "model_calls": "created"}[table]
                rows = con.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
            except sqlite3.OperationalError as e:
                out[table] = [{"<error>": str(e)}]
                continue
            decoded = []
            for r in rows:
                d = dict(r)
                for k, v in d.items():
                    if isinstance(v, str) and v[:1] in "[{":
                        with contextlib.suppress(ValueError):
                            d[k] = json.loads(v)
                decoded.append(d)
            out[table] = decoded
    finally:
        con.close()
    return out


def run_one(src: Path, backend: str, base: Path, no_sandbox: bool, timeout: float) -> dict[str, Any]:
    ws = base / f"ws-{backend}"
    ws.mkdir(parents=True)
    task = ws / TASK
    shutil.copy(ROOT / "tests" / "data" / "tasks" / TASK, task)
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--rounds", "2", "--candidates", "2",
           "--device", "cpu", "--json", "--events", "jsonl", "--workspace", str(ws), "--backend", backend]
    if no_sandbox:
        cmd.append("--no-sandbox")
    server = None
    if backend == "llm":
        server, url = start_server(LLM_SCRIPT, base / "llm_requests.jsonl")
        cmd += ["--llm-base-url", url, "--llm-model", "fake-model", "--llm-parallel", "1"]
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "200", "HIERA_WORKSPACE": str(ws)}
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=src, capture_output=True, text=True, timeout=timeout, env=env)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        rc, stdout, stderr = "timeout", out.decode() if isinstance(out, bytes) else out, ""
    finally:
        if server is not None:
            server.kill()
            server.wait()
    events, result = [], None
    for line in stdout.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            events.append({"<not json>": line})
            continue
        if isinstance(obj, dict) and "event" in obj:
            events.append(obj)
        else:
            result = obj
    rec = {"rc": rc, "events": events, "result": result, "store": read_store(ws / ".hiera" / "hiera.db"),
           "stderr_tail": stderr.splitlines()[-20:] if rc not in (0, 3) else [],
           "wall_s": round(time.monotonic() - t0, 1), "paths": {"<ws>": ws, "<src>": src}}
    return rec


def collect(rev: str, label: str, base: Path, backends: list[str], no_sandbox: bool,
            timeout: float) -> dict[str, dict[str, Any]]:
    src = checkout(rev, base / f"src-{label}")
    out = {}
    for backend in backends:
        print(f"behaviour_diff: {label} ({rev}) {backend} ...", file=sys.stderr, flush=True)
        out[backend] = run_one(src, backend, base / f"run-{label}", no_sandbox, timeout)
        print(f"behaviour_diff: {label} {backend}: exit {out[backend]['rc']}, {len(out[backend]['events'])} events, "
              f"{out[backend]['wall_s']} s", file=sys.stderr, flush=True)
    return out


def normalised(rec: dict[str, Any], keep_measured: bool) -> list[str]:
    paths = {**rec["paths"], "<home>": Path.home()}
    return render(Normaliser(paths, keep_measured).record(rec))


def compare(recs: dict[str, dict[str, Any]], backends: list[str], args: argparse.Namespace,
            keep: Path | None) -> int:
    """Prints the unified diff of the normalised records of each backend; 1 when any differ."""
    differ = False
    for backend in backends:
        a = normalised(recs["old"][backend], args.keep_measured)
        b = normalised(recs["new"][backend], args.keep_measured)
        if keep is not None:
            (keep / f"old-{backend}.txt").write_text("\n".join(a) + "\n")
            (keep / f"new-{backend}.txt").write_text("\n".join(b) + "\n")
        diff = list(difflib.unified_diff(a, b, f"{args.old} ({backend})", f"{args.new} ({backend})", lineterm=""))
        if diff:
            differ = True
            print("\n".join(diff))
        print(f"behaviour_diff: {backend}: {'DIFFERENT' if diff else 'same'} ({len(a)} normalised lines)",
              file=sys.stderr)
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", nargs="?", default="HEAD~1")
    ap.add_argument("new", nargs="?", default="HEAD", help="a revision, or WORKTREE (default HEAD)")
    ap.add_argument("--backends", default="expert,llm", help="comma-separated (default expert,llm)")
    ap.add_argument("--keep-measured", action="store_true",
                    help="keep the decisions taken from timings (best, re-timings, verdicts, exit status)")
    ap.add_argument("--no-sandbox", action="store_true", help="pass --no-sandbox to hiera optimize")
    ap.add_argument("--keep", type=Path, default=None, help="keep checkouts, workspaces and records here")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per run (default 900)")
    ap.add_argument("--records", type=Path, default=None,
                    help="diff the raw records a --keep run saved in this folder again, running nothing")
    args = ap.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b]
    if args.records is not None:
        raw = json.loads((args.records / "records.json").read_text())
        for side in raw.values():
            for rec in side.values():
                rec["paths"] = {k: Path(v) for k, v in rec["paths"].items()}
        return compare(raw, backends, args, None)
    base = Path(tempfile.mkdtemp(prefix="behaviour_diff-")) if args.keep is None else args.keep.resolve()
    base.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    try:
        recs = {}
        for label, rev in (("old", args.old), ("new", args.new)):
            if rev != "WORKTREE":
                made.append(base / f"src-{label}")
            recs[label] = collect(rev, label, base, backends, args.no_sandbox, args.timeout)
        if args.keep is not None:
            (base / "records.json").write_text(json.dumps(recs, default=str, indent=1))
        return compare(recs, backends, args, base if args.keep is not None else None)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as e:
        detail = getattr(e, "stderr", "") or ""
        print(f"behaviour_diff: could not run: {e} {detail}", file=sys.stderr)
        return 2
    finally:
        for d in made:
            if d.exists():
                subprocess.run(["git", "worktree", "remove", "--force", str(d)], cwd=ROOT, capture_output=True)
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
