"""Dump what hiera's two report readers extract from one .ncu-rep (fixtures and debugging).

    python tools/ncu/dump_report.py REPORT.ncu-rep OUT_DIR [--ncu NCU] [--source-map BUILT=SHOWN ...]

Writes into OUT_DIR:
  ncu_report.json   the Launch readings from the ncu_report module (when it imports here); tests replay them
  rules_raw.txt     repr() of each action's rule_results_as_dicts(), to check its shape on this version
  profile.json      the Profile from the ncu_report readings, else from the CSV pages
  profile_csv.json  the Profile from raw.csv, details.csv and source.csv in OUT_DIR, when they are there
  feedback.txt      engine.profile.feedback.feedback_text(profile)
  meta.json         --meta facts plus kernels, best direction and scores per reader
Exit status 0 when at least one reader produced kernels.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

from engine.profile import profile_from_launches
from engine.profile.csv_pages import launches_from_csv
from engine.profile.feedback import feedback_text
from engine.profile.ncu import ProfilerUnavailable, find_ncu
from engine.profile.readings import launch_to_json
from engine.profile.report_api import launches_from_report, load_module


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("report")
    p.add_argument("out")
    p.add_argument("--ncu", default=None)
    p.add_argument("--source-map", action="append", default=[], help="BUILT=SHOWN path pairs for line findings")
    p.add_argument("--meta", action="append", default=[], help="KEY=VALUE facts for meta.json (fixture, wall_s, ...)")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    source_map = dict(pair.split("=", 1) for pair in args.source_map)
    profiles = {}

    try:
        ncu = find_ncu(args.ncu)
    except ProfilerUnavailable as e:
        print(e, file=sys.stderr)
        ncu = None
    module = load_module(ncu) if ncu else None
    if module is None:
        print("ncu_report does not import here: CSV reader only", file=sys.stderr)
    else:
        try:
            launches = launches_from_report(module, Path(args.report))
            (out / "ncu_report.json").write_text(json.dumps([launch_to_json(ln) for ln in launches], indent=1))
            ctx = module.load_report(args.report)
            with open(out / "rules_raw.txt", "w") as f:
                for r in range(ctx.num_ranges()):
                    rng = ctx.range_by_idx(r)
                    for a in range(rng.num_actions()):
                        f.write(f"# range {r} action {a}\n{rng.action_by_idx(a).rule_results_as_dicts()!r}\n")
            profiles["ncu_report"] = profile_from_launches(launches, source_map=source_map, target=args.report)
        except Exception:
            (out / "ncu_report_error.txt").write_text(traceback.format_exc())
            traceback.print_exc()

    pages = {name: out / f"{name}.csv" for name in ("raw", "details", "source")}
    if pages["raw"].exists():
        try:
            launches = launches_from_csv(*(pages[n].read_text() if pages[n].exists() else "" for n in pages))
            profiles["csv"] = profile_from_launches(launches, source_map=source_map, target=args.report)
            (out / "profile_csv.json").write_text(json.dumps(profiles["csv"].to_json(), indent=1))
        except Exception:
            (out / "csv_error.txt").write_text(traceback.format_exc())
            traceback.print_exc()

    best = profiles.get("ncu_report") or profiles.get("csv")
    if best is None or not best.kernels:
        print("no reader produced kernels", file=sys.stderr)
        return 1
    (out / "profile.json").write_text(json.dumps(best.to_json(), indent=1))
    (out / "feedback.txt").write_text(feedback_text(best))
    meta: dict[str, object] = dict(pair.split("=", 1) for pair in args.meta)
    meta.update(ok=True, kernels=[k.name for k in best.kernels], lines=len(best.lines),
                bottleneck=best.bottleneck.rule if best.bottleneck else None)
    for name, prof in profiles.items():
        meta[f"best_{name}"] = prof.best_direction()
        meta[f"scores_{name}"] = prof.scores
        print(f"{name}: {len(prof.kernels)} kernel(s), best {prof.best_direction()}, scores {prof.scores}, "
              f"{len(prof.lines)} line(s)")
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
