"""Copy the timing samples of a real run into tests/data/timing_samples.json: the fixtures the verdict rule is
tested on (tests/test_verdict_rule.py, and through tests/data/verdict_rows.json the extension's port).

    .venv/bin/python scripts/timing_fixtures.py WORKSPACE/.hiera/hiera.db RUN_ID --label cpu-busy-1 \\
        --note "hiera optimize examples/fused_gelu_scale.py, 2-core CPU, load 3-5"

adds every valid candidate of the run whose outcome kept its samples (an engine from issue 37 on), each side's
calls in the order they were made, under the label; entries already there under the same label are replaced.
On a GPU machine the same two commands record the GPU's:

    .venv/bin/hiera optimize examples/fused_gelu_scale.py --workspace /tmp/w
    .venv/bin/python scripts/timing_fixtures.py /tmp/w/.hiera/hiera.db RUN_ID --label h200-1 --note "..."
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "data" / "timing_samples.json"


def samples_of(db: Path, run_id: str) -> list[dict]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    device = con.execute("SELECT device FROM runs WHERE id = ?", (run_id,)).fetchone()
    if device is None:
        raise SystemExit(f"no run {run_id} in {db}")
    out = []
    for cid, outcome in con.execute("SELECT id, outcome FROM candidates WHERE run_id = ? AND status = 'valid' "
                                    "ORDER BY created", (run_id,)):
        o = json.loads(outcome)
        t = o.get("timing") or {}
        c, r = (t.get("candidate") or {}).get("samples"), (t.get("reference") or {}).get("samples")
        if c and r:
            out.append({"run_id": run_id, "candidate_id": cid, "device": o.get("device") or device[0],
                        "flags": o.get("flags") or [], "candidate_ms": c, "reference_ms": r})
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("db", type=Path)
    p.add_argument("run_id")
    p.add_argument("--label", required=True, help="a name for this recording (cpu-busy-1, h200-1)")
    p.add_argument("--note", default="", help="where and how it was recorded (machine, load, command)")
    a = p.parse_args()
    data = json.loads(FIXTURES.read_text()) if FIXTURES.exists() else {
        "about": "Timing samples of real runs (scripts/timing_fixtures.py): each valid candidate's calls and its "
                 "eager calls, in milliseconds, in the order they were made.", "recordings": {}}
    found = samples_of(a.db, a.run_id)
    if not found:
        raise SystemExit(f"run {a.run_id} kept no samples (an engine before issue 37?)")
    data["recordings"][a.label] = {"note": a.note, "pairs": found}
    FIXTURES.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{len(found)} pair(s) under {a.label} in {FIXTURES}")


if __name__ == "__main__":
    main()
