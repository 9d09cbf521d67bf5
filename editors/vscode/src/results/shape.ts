// Turns a `hiera/runResults` answer into what the results view draws: chart points in run order (one per
// candidate; a re-timing is a mark on the candidate it re-times, never another point), the best-so-far
// step line, the horizontal reference lines, the y range, and one row per round's decision. Every figure
// is the one the run keeps: a re-timed candidate's re-timing. Pure (no `vscode`), so it is unit-tested.
//
// Each candidate is timed against its own eager run, and on a loaded machine eager itself moves from pair to
// pair: a candidate's raw latency next to the run's eager median would imply a ratio the run never measured
// (31× drawn where the headline says 17×), and a best-so-far line drawn through raw latencies could rise. So a
// latency is drawn scaled to the run's eager median (candidate_ms × eager median / its own pair's eager ms,
// where the pair is known): the eager line over a point is that point's own speedup, the best's point sits at
// eager / headline figure, and the best-so-far line, led by the figure the run keeps, never rises.
import { DIRECTIONS, type ChartEntry, type Direction, type Outcome, type Retime, type RunResults } from '../protocol';
import { spaceTitle } from './format';

export interface ChartPoint {
  /** 1-based position in the run: round by round, candidate by candidate. */
  x: number;
  round: number;
  index: number;
  candidateId: string;
  status: string;
  valid: boolean;
  /** Latency as drawn (scaled to the run's eager median, see above), when the candidate got that far. */
  ms: number | null;
  /** The latency as measured, and its own pair's eager time, for the tooltip. */
  measuredMs: number | null;
  pairEagerMs: number | null;
  speedup: number | null;
  isBest: boolean;
  /** Its re-timing (the engine times the best again before it reports it); drawn on this candidate. */
  retime: { status: string; ms: number | null; measuredMs: number | null; referenceMs: number | null; speedup: number | null } | null;
  /** The figure the run keeps for it: its re-timing's when re-timed (null when not kept: invalid, or its
   * re-timing failed), and the latency that goes with that figure. */
  kept: number | null;
  keptMs: number | null;
}

export interface RoundSpan {
  round: number;
  fromX: number;
  toX: number;
}

export interface HorizontalLine {
  kind: 'reference' | 'compile-default' | 'compile-max-autotune';
  label: string;
  ms: number;
}

export interface ChartModel {
  points: ChartPoint[];
  rounds: RoundSpan[];
  /** The run's best so far by the figure it keeps, at that candidate's latency, one point per x from the
   * first kept candidate on: it ends on the best, ring and all. */
  bestSoFar: { x: number; ms: number }[];
  lines: HorizontalLine[];
  /** [low, high] of the y axis in ms; null when nothing has a latency yet. */
  yDomain: [number, number] | null;
  /** Log scale when latencies span more than `LOG_SCALE_RATIO`: one slow candidate must not flatten the rest. */
  logScale: boolean;
  /** Whether latencies are drawn scaled to the run's eager median (the server sent each pair's eager time). */
  scaled: boolean;
}

export const LOG_SCALE_RATIO = 50;

type ChartInput = Pick<RunResults, 'reference_ms' | 'best'> &
  Partial<Pick<RunResults, 'chart' | 'rounds' | 'compile_ms'>>;

function finitePositive(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0;
}

/** The chart entries, or, from a server that sent none, the same data rebuilt from the rounds' outcomes. */
function entries(results: ChartInput): ChartEntry[] {
  if (Array.isArray(results.chart) && results.chart.length > 0) {
    return results.chart;
  }
  return (results.rounds ?? []).flatMap((r) =>
    r.outcomes.map((o) => ({
      candidate_id: o.candidate_id,
      round: r.round,
      index: o.index,
      status: o.status,
      valid: o.status === 'valid',
      candidate_ms: o.candidate_ms,
      speedup: o.speedup,
      retime: o.retime ?? null,
    })),
  );
}

function finiteOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function keptOf(valid: boolean, ms: number | null, speedup: number | null, retime: Retime | null | undefined): [number | null, number | null] {
  if (retime) {
    return retime.status === 'valid' ? [finiteOrNull(retime.speedup), finitePositive(retime.candidate_ms) ? retime.candidate_ms : null] : [null, null];
  }
  return valid ? [speedup, ms] : [null, null];
}

export function shapeChart(results: ChartInput): ChartModel {
  // A server may leave round/index empty for an entry it could not place; such entries sort first.
  const sorted = entries(results)
    .map((e) => ({ ...e, round: e.round ?? 0, index: e.index ?? 0 }))
    .sort((a, b) => a.round - b.round || a.index - b.index);
  const bestId = results.best?.candidate_id ?? null;
  const eager = finitePositive(results.reference_ms) ? results.reference_ms : null;
  let scaled = false;
  /** A latency as drawn: scaled to the run's eager median by its own pair's eager time, where both are known. */
  const drawn = (ms: unknown, pairEager: unknown): number | null => {
    if (!finitePositive(ms)) {
      return null;
    }
    if (eager !== null && finitePositive(pairEager)) {
      scaled = true;
      return (ms * eager) / pairEager;
    }
    return ms;
  };
  const points: ChartPoint[] = sorted.map((e, i) => {
    const ms = drawn(e.candidate_ms, e.reference_ms);
    const speedup = finiteOrNull(e.speedup);
    const rt = e.retime ?? null;
    const retimeMs = rt ? drawn(rt.candidate_ms, rt.reference_ms) : null;
    const [kept, keptMs] = keptOf(e.valid, ms, speedup, rt && { ...rt, candidate_ms: retimeMs });
    return {
      x: i + 1,
      round: e.round,
      index: e.index,
      candidateId: e.candidate_id,
      status: e.status,
      valid: e.valid,
      ms,
      measuredMs: finitePositive(e.candidate_ms) ? e.candidate_ms : null,
      pairEagerMs: finitePositive(e.reference_ms) ? e.reference_ms : null,
      speedup,
      isBest: bestId !== null && e.candidate_id === bestId,
      retime: rt && {
        status: rt.status,
        ms: retimeMs,
        measuredMs: finitePositive(rt.candidate_ms) ? rt.candidate_ms : null,
        referenceMs: finitePositive(rt.reference_ms) ? rt.reference_ms : null,
        speedup: finiteOrNull(rt.speedup),
      },
      kept,
      keptMs,
    };
  });

  const rounds: RoundSpan[] = [];
  for (const p of points) {
    const last = rounds[rounds.length - 1];
    if (last !== undefined && last.round === p.round) {
      last.toX = p.x;
    } else {
      rounds.push({ round: p.round, fromX: p.x, toX: p.x });
    }
  }

  const bestSoFar: { x: number; ms: number }[] = [];
  let lead: ChartPoint | undefined;
  for (const p of points) {
    if (p.kept !== null && p.keptMs !== null && (lead === undefined || p.kept > (lead.kept as number))) {
      lead = p;
    }
    if (lead !== undefined) {
      bestSoFar.push({ x: p.x, ms: lead.keptMs as number });
    }
  }

  const lines: HorizontalLine[] = [];
  if (finitePositive(results.reference_ms)) {
    // The run's median eager time: each candidate's own ratio is against its own paired eager run.
    lines.push({ kind: 'reference', label: 'eager median', ms: results.reference_ms });
  }
  const compiled = results.compile_ms;
  if (compiled !== undefined && compiled !== null) {
    if (finitePositive(compiled.default)) {
      lines.push({ kind: 'compile-default', label: 'torch.compile', ms: compiled.default });
    }
    if (finitePositive(compiled['max-autotune'])) {
      lines.push({ kind: 'compile-max-autotune', label: 'max-autotune', ms: compiled['max-autotune'] });
    }
  }

  const values = [
    ...points.flatMap((p) => (p.ms === null ? [] : [p.ms])),
    ...points.flatMap((p) => (p.retime?.ms != null ? [p.retime.ms] : [])),
    ...lines.map((l) => l.ms),
  ];
  let yDomain: [number, number] | null = null;
  let logScale = false;
  if (values.length > 0) {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    logScale = hi / lo > LOG_SCALE_RATIO;
    yDomain = logScale ? [lo / 1.5, hi * 1.5] : [0, hi * 1.1];
  }
  return { points, rounds, bestSoFar, lines, yDomain, logScale, scaled };
}

export interface DecisionRow {
  round: number;
  /** The space as it reads on the run's device. */
  space: string;
  /** The five direction scores in C P M R T order; null where the server sent none. */
  scores: { direction: Direction; score: number | null; chosen: boolean }[];
  direction: string;
  strategy: string;
  rationale: string;
  valid: number;
  total: number;
  /** The round's best by the figure the run keeps (its re-timing's where re-timed). */
  bestSpeedup: number | null;
  bestRetimed: boolean;
  outcomes: {
    index: number;
    candidateId: string;
    status: string;
    reason: string;
    ms: number | null;
    speedup: number | null;
    /** Its first pair's interval (the verdict is read off it: results/verdict.ts). */
    low: number | null;
    high: number | null;
    confidence: number | null;
    retime: Retime | null;
  }[];
}

/** The round's kept best: the server's, or worked out from the outcomes by a server that sends none. */
function roundBest(outcomes: Outcome[], fromServer: { speedup: number; retimed: boolean } | null | undefined): [number | null, boolean] {
  if (fromServer) {
    return [fromServer.speedup, fromServer.retimed];
  }
  let best: [number | null, boolean] = [null, false];
  for (const o of outcomes) {
    const [kept] = keptOf(o.status === 'valid', o.candidate_ms, finiteOrNull(o.speedup), o.retime);
    if (kept !== null && (best[0] === null || kept > best[0])) {
      best = [kept, !!o.retime];
    }
  }
  return best;
}

export function shapeDecisions(results: Pick<RunResults, 'rounds'> & Partial<Pick<RunResults, 'device'>>): DecisionRow[] {
  return [...(results.rounds ?? [])]
    .sort((a, b) => a.round - b.round)
    .map((r) => {
      const outcomes = [...(r.outcomes ?? [])].sort((a, b) => a.index - b.index);
      const [bestSpeedup, bestRetimed] = roundBest(outcomes, r.best);
      return {
        round: r.round,
        space: spaceTitle(r.space, results.device, r.space_title),
        scores: DIRECTIONS.map((d) => {
          const s = r.scores?.[d];
          return { direction: d, score: typeof s === 'number' ? s : null, chosen: r.direction === d };
        }),
        direction: r.direction,
        strategy: r.strategy,
        rationale: r.rationale,
        valid: outcomes.filter((o) => o.status === 'valid').length,
        total: outcomes.length,
        bestSpeedup,
        bestRetimed,
        outcomes: outcomes.map((o) => ({
          index: o.index,
          candidateId: o.candidate_id,
          status: o.status,
          reason: o.reason,
          ms: o.candidate_ms,
          speedup: o.speedup,
          low: finiteOrNull(o.low ?? null),
          high: finiteOrNull(o.high ?? null),
          confidence: finiteOrNull(o.confidence ?? null),
          retime: o.retime ?? null,
        })),
      };
    });
}

/** Rounded axis ticks ("nice numbers") covering [lo, hi] for a linear axis. */
export function linearTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) {
    return [lo];
  }
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    ticks.push(Number(t.toPrecision(12)));
  }
  return ticks;
}

/** Ticks at 1, 2 and 5 times the powers of ten inside [lo, hi], for a log axis. */
export function logTicks(lo: number, hi: number): number[] {
  if (!(lo > 0) || !(hi > lo)) {
    return [];
  }
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const t = Number((m * 10 ** e).toPrecision(12));
      if (t >= lo && t <= hi) {
        ticks.push(t);
      }
    }
  }
  return ticks;
}
