"""Print the table of a recording: one row per fixture, from each fixture folder's meta.json.

    python tools/ncu/summarize.py FIXTURES_DIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> int:
    root = Path(sys.argv[1])
    cols = ("fixture", "ok", "ncu_s", "expect", "best_csv", "best_ncu_report", "lines", "bottleneck", "note")
    rows = []
    for meta_path in sorted(root.glob("*/meta.json")):
        m = json.loads(meta_path.read_text())
        best_csv = m.get("best_csv", m.get("best"))
        note = str(m.get("error", ""))[:60].replace("\n", " ")
        if m.get("expect") and best_csv and best_csv != m["expect"]:
            note = f"expected {m['expect']}, got {best_csv}; " + note
        seconds = m.get("ncu_s", m.get("wall_s", ""))
        rows.append([str(m.get("fixture", meta_path.parent.name)), str(m.get("ok")), str(seconds),
                     str(m.get("expect") or ""), str(best_csv or ""), str(m.get("best_ncu_report") or ""),
                     str(m.get("lines", "")), str(m.get("bottleneck") or ""), note])
    widths = [max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)))
    slow = [r[0] for r in rows if r[2].replace(".", "", 1).isdigit() and float(r[2]) > 30]
    if slow:
        print(f"over the 30 s per-profile budget: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
