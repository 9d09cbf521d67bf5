"""The runner's reported times held to the checker's own clock: the calibration made before a candidate loads
(what an honest timed call costs beyond its own time), the cross-check of every timed call against it, and
the stability of both sides' timings (the `timing_swing` and `unstable_timing` flags).

The checker (checker.py) calls these around its timed calls; nothing here talks to a candidate beyond the
calibration requests, made while only hiera's code is in the runner.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import torch

from contracts.verdict import FlagKind, flag_text
from engine.evaluate import timing
from engine.evaluate.candidate_process import CandidateProcess, RunnerFailed
from engine.evaluate.exchange import Exchange
from engine.evaluate.outcome import Status
from engine.evaluate.requests import EvalReply, Rejected

_perf_counter = time.perf_counter

CALIBRATION_CALLS = 20


Writer = Callable[[CandidateProcess, Callable[[], None]], None]  # checker.write_unseen


def calibrate(proc: CandidateProcess, ex: Exchange, device: torch.device, rng: random.Random, writer: Writer
              ) -> tuple[list[float], timing.Overhead]:
    """What an honest timed call costs beyond its own time, measured before any candidate code is in the
    runner: the same procedure (flush, events, synchronize, output checks, reply) without the candidate, made
    CALIBRATION_CALLS times. The timed calls are held to it (cross_check). Returns the gaps and their Overhead."""
    gaps = [calibration_gap(proc, ex, device, rng, writer) for _ in range(CALIBRATION_CALLS)]
    return gaps, timing.Overhead.of(gaps)


def calibration_gap(proc: CandidateProcess, ex: Exchange, device: torch.device, rng: random.Random,
                    writer: Writer) -> float:
    # As before a timed call (checker.write_unseen): the runner stopped, the checker's own work on the inputs
    # (so the switch between its context and the runner's is in the baseline too) and on the CPU its cache
    # flush; the clock from before the thaw.
    def write() -> None:
        for buf in ex.of_role("input"):
            if buf.is_floating_point():
                buf.mul_(1.0)
        ex.poison_outputs()

    cpu = device.type == "cpu"
    try:
        writer(proc, write)
    except Rejected as e:
        raise RunnerFailed("crashed", f"the runner could not be stopped before the candidate loaded: {e}") from e
    t0 = _perf_counter()
    proc.freeze(False, wait=False)
    rep = proc.request("calibrate", 60.0, scalars={}, flush=not cpu)
    ex.snapshot_outputs(rng)  # as a timed call's span holds it
    wall = (_perf_counter() - t0) * 1e3
    if not rep.ok or rep.ms is None:
        raise RunnerFailed("crashed", f"the runner could not time a call before the candidate loaded: "
                                      f"{rep.detail[:1500]}")
    return wall - rep.ms


def cross_check(reported: list[float], walls: list[float], overhead: timing.Overhead, device: torch.device
                ) -> dict[str, float]:
    """The runner's times against the checker's clock. For every timed call the checker sees the wall time
    from request to reply; minus the reported time, that is the call's overhead, which an honest candidate
    shares with the calibration calls made before it loaded (same procedure, no candidate). A patched timer,
    a rewritten reply or work left running on a stream the timer does not see shows as extra overhead.

    The allowance is relative to the call and follows the overhead's own spread (the calibration's, and the
    timed calls' own), never a fixed number of milliseconds: on a loaded 2-core CPU an honest call's wall
    time wanders by milliseconds, and a fixed 3 ms forgave a 0.1 ms call anything. On the CPU the figure is
    the checker's clock anyway (timing.candidate_times: a forged report changes nothing), so a gap there is
    recorded (`over_allowance`), never a verdict: the clock's scatter around a 0.1 ms call on a busy machine
    is as large as the call, and an honest fp64 stencil read `suspect` on CI (0.3 ms over, 0.244 allowed)
    while a forged report could have gained nothing. On a GPU
    the figure is the runner's device events held to the clock within a quarter of the call
    (timing.candidate_times), and this bound names a larger gap as an attempt: honest kernels on the H200
    showed an overhead beyond the calibration of 0.06-0.2 ms on 0.9 ms kernels (up to 20%), 0.23 ms on a
    0.73 ms fp64 stencil (31%) and up to 0.56 ms on 4.6 ms ones (12%: torch.compile, GB-sized outputs),
    host time launching work the events do not see; the cheats it is for hide the whole kernel."""
    excess = [w - r - overhead.median_ms for w, r in zip(walls, reported)]
    gap = statistics.median(excess)
    p25, _, p75 = timing.quartiles(excess)
    cand = statistics.median(reported)
    spread = max(overhead.iqr_ms, p75 - p25)
    if device.type == "cuda":
        slack = max(0.25, 0.25 * cand, 4 * overhead.iqr_ms)
    else:
        slack = max(0.5 * statistics.median(overhead.trusted(walls)), 4 * spread)
    over = gap > slack
    if over and device.type == "cuda" and gap > max(slack, cand):
        raise Rejected(Status.SUSPECT,
                       f"the runner reported {cand:.4g} ms per call, but by the checker's clock each call took "
                       f"{gap:.3g} ms longer than the same procedure without the candidate (allowed "
                       f"{slack:.3g} ms): the reported times cannot be trusted (patched timer, rewritten reply, "
                       "work left running on another stream, or an early reply)")
    # Over the allowance but less than the call itself: honest many-kernel forwards showed this on the H200
    # (0.37-0.50 ms beyond the calibration on 1.0-1.6 ms calls: a CUDA-graph replay of MobileNetV2, eager
    # ResNet18), host time the events do not see. The figure is then the checker's clock (`charged`:
    # Checker charges it), which a forged report cannot shrink, as on the CPU: nothing is gained by forging.
    return {"gap_ms": round(gap + overhead.median_ms, 4), "calibrated_gap_ms": round(overhead.median_ms, 4),
            "slack_ms": round(slack, 4), "overhead_iqr_ms": round(spread, 4), "over_allowance": over,
            "charged": over and device.type == "cuda"}


def stability(reply: EvalReply, ref_ms: list[float], cand_ms: list[float], overhead: timing.Overhead,
              device: torch.device) -> None:
    """The spreads of both sides in the reply; a `timing_swing` flag (a warning: the figure is this machine's
    at its load) when a side's calls swung far (timing.swung); and `unstable_timing` (no verdict: the two sides
    cannot be compared) only when the candidate's call is shorter than the scatter of the checker's clock around
    it. Noise itself is not a verdict: the figure's confidence interval (contracts/verdict.py) shows it, and a
    busy machine's eager run that swung from 6 to 84 ms still lets a candidate steady at 2.5 ms read faster."""
    spreads = {"reference": timing.spread_of(ref_ms), "candidate": timing.spread_of(cand_ms)}
    swung = [f"{'eager' if k == 'reference' else 'the candidate'}'s calls ran {v['min_ms']:.4g} to "
             f"{v['median_ms']:.4g} ms (fastest to median, {v['median_over_min']:.3g}x; the middle half spread "
             f"{v['iqr_over_median']:.0%})" for k, v in spreads.items() if timing.swung(v)]
    noise = overhead.iqr_ms
    reply.extra["timing_spread"] = {**spreads, "overhead_iqr_ms": round(noise, 4)}
    if swung:
        reply.flags.append(flag_text(FlagKind.TIMING_SWING, f"{'; '.join(swung)}; the machine was busy, and the figure "
                                     "is what this machine gave at that load"))
    if device.type == "cpu" and noise > spreads["candidate"]["median_ms"]:
        # The checker's clock cannot resolve a call shorter than the scatter of the request around it.
        reply.flags.append(flag_text(FlagKind.UNSTABLE_TIMING,
                                     f"the candidate's call ({spreads['candidate']['median_ms']:.4g} ms) is shorter "
                                     f"than the scatter of the checker's clock around it ({noise:.3g} ms), so its time "
                                     "cannot be read; time it again on a quieter machine"))


# The checker's probe may run this much slower than the runner's before the two sides are called not alike:
# contention only adds time, and both figures are the fastest of several runs.
PARITY_LIMIT = 1.6


def parity(reply: EvalReply, checker_ms: float | None, runner_ms: float | None) -> None:
    """The parity probe's verdict (wire.probe_ms): both figures in the reply, and `unstable_timing` among its
    flags when the checker ran the same trusted work more than PARITY_LIMIT times slower than the candidate's
    runner did: the reference was then timed slower than its own code runs beside the candidate, and the
    speedup overstated. The other way (a runner slower than the checker: its threads spin between calls, which
    costs it more on a busy machine) understates a speedup and is only recorded."""
    if checker_ms is None or runner_ms is None or not (checker_ms > 0 and runner_ms > 0):
        return
    ratio = checker_ms / runner_ms
    reply.extra["parity_probe"] = {"checker_ms": round(checker_ms, 4), "runner_ms": round(runner_ms, 4),
                                   "ratio": round(ratio, 3)}
    if ratio <= PARITY_LIMIT:
        return
    reply.flags.append(flag_text(FlagKind.UNSTABLE_TIMING,
                                 f"the same trusted work took {checker_ms:.3g} ms in the checker and {runner_ms:.3g} "
                                 f"ms in the candidate's runner ({ratio:.1f}x slower where the reference runs): the "
                                 "reference and the candidate were not timed alike (a math-library setting, a thread "
                                 "or CPU limit on one process, or a runner not stopped while the reference ran), so "
                                 "the speedup is overstated; time it again"))
