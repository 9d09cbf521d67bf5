"""Temporary device probe for the expert backend (not part of the product; deleted after use)."""
import json, os, sys, tempfile, time
from pathlib import Path
from contracts.spaces import Space
from contracts.task import load_task
from engine.agents.base import Context, RoundRecord
from engine.agents.expert import ExpertBackend
from engine.evaluate import Evaluator, EvalSettings, Precision

K, ROUNDS, TRIALS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
SKIP_TORCH = os.environ.get("SKIP_TORCH") == "1"
out_dir = Path(os.environ.get("OUT", "/tmp"))
log = open(out_dir / "results.jsonl", "a")
for p in sys.argv[4:]:
    t0 = time.time()
    s = load_task(p)
    be = ExpertBackend(); hist = []; parent = None; best = None
    wd = Path(tempfile.mkdtemp())
    with Evaluator(s, wd, EvalSettings(device="cuda:0", timing_trials=TRIALS)) as ev:
        info = ev.ensure_worker()
        for r in range(ROUNDS):
            ctx = Context(s, ev.contract_dir, "cuda:0", dict(info), Precision.FP32, r, ROUNDS, tuple(Space), parent,
                          None, None, tuple(hist))
            sc = be.ssda.select_space(ctx); ds = be.ssda.score_directions(ctx, sc.space)
            st = be.spa.plan(ctx, sc.space, ds)
            if SKIP_TORCH and st.params.get("family") == "torch":
                print(f"== {s.name} r{r}: skip torch strategy {st.name}", flush=True); break
            cands = be.oa.generate(ctx, sc.space, st, K)
            print(f"== {s.name} r{r}: {sc.space.value} / {ds.best().value} / {st.name}", flush=True)
            real = [c for c in cands if hasattr(c, "kind")]
            for c in cands:
                if not hasattr(c, "kind"): print("   INVALID", c.reason[:300], flush=True)
            outs = ev.evaluate(real) if real else []
            rb = None
            for c, o in zip(real, outs):
                print(f"   {c.id} {o.status.value} {o.speedup and round(o.speedup, 3)} "
                      f"{o.candidate.median_ms if o.candidate else ''} ref {o.reference.median_ms if o.reference else ''} "
                      f"| {c.note[:110]} {'' if o.valid else o.reason[:700]}", flush=True)
                log.write(json.dumps({"task": s.name, "round": r, "id": c.id, "note": c.note, "status": o.status.value,
                                      "speedup": o.speedup, "ms": o.candidate.median_ms if o.candidate else None,
                                      "ref_ms": o.reference.median_ms if o.reference else None,
                                      "reason": o.reason[:2000]}) + "\n")
                if not o.valid:
                    (out_dir / f"{c.id}_{s.name}.src").write_text(c.source) if len(list(out_dir.glob("*.src"))) < 5 else None
                if o.valid and (rb is None or o.speedup > rb[1]): rb = (c, o.speedup)
            if rb and (best is None or rb[1] > best[1]): best = rb; parent = rb[0]
            hist.append(RoundRecord(r, sc.space, ds.best(), st.name, rb[1] if rb else None, tuple(outs)))
    print(f"## {s.name}: best {best[1] if best else None} ({best[0].note[:120] if best else ''}) in {time.time()-t0:.0f}s",
          flush=True)
    log.flush()
