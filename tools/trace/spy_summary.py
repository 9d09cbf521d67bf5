"""Where a traced run's time went: a py-spy speedscope profile summarized per process and thread.

    python tools/trace/spy_summary.py spy.json [REGEX] [--top N]

For each sampled thread: its total seconds (py-spy ran with --idle, so waiting counts) and the frames with the
most inclusive time, optionally only those whose "function (file:line)" matches REGEX.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("profile")
    p.add_argument("pattern", nargs="?")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--min-s", type=float, default=0.5, help="skip threads with less time than this")
    args = p.parse_args()
    data = json.loads(Path(args.profile).read_text())
    frames = data["shared"]["frames"]
    pattern = re.compile(args.pattern) if args.pattern else None
    for prof in data["profiles"]:
        total = sum(prof["weights"])
        if total < args.min_s:
            continue
        inclusive: collections.Counter[str] = collections.Counter()
        for stack, weight in zip(prof["samples"], prof["weights"]):
            keys = {f"{frames[i]['name']} ({frames[i].get('file', '').split('/')[-1]}:{frames[i].get('line', '')})"
                    for i in stack}
            for key in keys:
                inclusive[key] += weight
        print(f"== {prof['name'][:200]}  total {total:.1f} {prof.get('unit')}")
        shown = 0
        for key, seconds in inclusive.most_common():
            if pattern and not pattern.search(key):
                continue
            print(f"   {seconds:8.2f}  {key[:200]}")
            shown += 1
            if shown >= args.top:
                break


if __name__ == "__main__":
    main()
