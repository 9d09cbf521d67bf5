import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOG_SCALE_RATIO, linearTicks, logTicks, shapeChart, shapeDecisions } from '../src/results/shape';
import { sampleResults } from './fixtures';

describe('shapeChart', () => {
  const model = shapeChart(sampleResults());

  it('orders candidates by round then index and numbers them along the run', () => {
    assert.deepEqual(
      model.points.map((p) => [p.x, p.candidateId]),
      [
        [1, 'c-1-1'],
        [2, 'c-1-2'],
        [3, 'c-1-3'],
        [4, 'c-2-1'],
        [5, 'c-2-2'],
      ],
    );
    assert.deepEqual(model.rounds, [
      { round: 1, fromX: 1, toX: 3 },
      { round: 2, fromX: 4, toX: 5 },
    ]);
  });

  it('keeps validity, latency and the best mark per candidate', () => {
    const byId = new Map(model.points.map((p) => [p.candidateId, p]));
    assert.equal(byId.get('c-1-2')?.valid, false);
    assert.equal(byId.get('c-1-2')?.ms, 1.0, 'an incorrect candidate still has its time');
    assert.equal(byId.get('c-2-2')?.ms, null);
    assert.deepEqual(model.points.filter((p) => p.isBest).map((p) => p.candidateId), ['c-2-1']);
  });

  it('draws best-so-far over valid candidates only', () => {
    // c-1-2 (1.0 ms) is faster than c-1-1 but incorrect, so it must not lower the line.
    assert.deepEqual(model.bestSoFar, [
      { x: 1, ms: 1.6 },
      { x: 2, ms: 1.6 },
      { x: 3, ms: 1.6 },
      { x: 4, ms: 0.8 },
      { x: 5, ms: 0.8 },
    ]);
  });

  it('adds the reference and the known torch.compile lines only', () => {
    assert.deepEqual(
      model.lines.map((l) => [l.kind, l.ms]),
      [
        ['reference', 2.0],
        ['compile-default', 1.5],
      ],
    );
  });

  it('uses a linear axis from zero covering every latency and line', () => {
    assert.equal(model.logScale, false);
    assert.deepEqual(model.yDomain, [0, 2.0 * 1.1]);
  });

  it('switches to a log axis when latencies span widely', () => {
    const r = sampleResults();
    r.chart[0] = { ...r.chart[0], candidate_ms: 2.0 * LOG_SCALE_RATIO * 2, valid: false, status: 'timeout' };
    const m = shapeChart(r);
    assert.equal(m.logScale, true);
    assert.ok(m.yDomain !== null && m.yDomain[0] > 0 && m.yDomain[0] < 0.8 && m.yDomain[1] > 200);
  });

  it('has no y range and no best line before any latency is known', () => {
    const m = shapeChart({ reference_ms: null, best: null, chart: [{ candidate_id: 'a', round: 1, index: 1, status: 'build_failed', valid: false, candidate_ms: null, speedup: null }] });
    assert.equal(m.yDomain, null);
    assert.deepEqual(m.bestSoFar, []);
    assert.equal(m.points.length, 1);
  });

  it('rebuilds the points from the rounds when the server sent no chart', () => {
    const r = sampleResults();
    const m = shapeChart({ ...r, chart: [] });
    assert.deepEqual(
      m.points.map((p) => [p.candidateId, p.valid]),
      [
        ['c-1-1', true],
        ['c-1-2', false],
        ['c-1-3', true],
        ['c-2-1', true],
        ['c-2-2', false],
      ],
    );
  });

  it('ignores non-positive or non-finite latencies', () => {
    const m = shapeChart({ reference_ms: 0, best: null, chart: [{ candidate_id: 'a', round: 1, index: 1, status: 'valid', valid: true, candidate_ms: Number.NaN, speedup: null }] });
    assert.equal(m.points[0].ms, null);
    assert.deepEqual(m.lines, []);
  });
});

describe('shapeDecisions', () => {
  const rows = shapeDecisions(sampleResults());
  it('gives one row per round in order, with the five scores and the chosen direction', () => {
    assert.deepEqual(rows.map((r) => r.round), [1, 2]);
    assert.deepEqual(rows[1].scores.map((s) => s.direction), ['C', 'P', 'M', 'R', 'T']);
    assert.deepEqual(rows[1].scores.filter((s) => s.chosen).map((s) => s.direction), ['M']);
    assert.equal(rows[1].scores[2].score, 0.9);
    assert.equal(rows[1].strategy, 'tile for shared memory');
    assert.equal(rows[1].space, 'pure CUDA');
  });
  it('names the spaces as they are on the run\'s device', () => {
    const cpu = { ...sampleResults(), device: 'cpu (x86_64)' };
    assert.deepEqual(shapeDecisions(cpu).map((r) => r.space), ['libraries + PyTorch', 'native C++']);
    cpu.rounds[0].space_title = 'as the server says';
    assert.equal(shapeDecisions(cpu)[1].space, 'as the server says');
  });
  it('counts valid candidates and the best speedup of each round', () => {
    assert.equal(rows[0].valid, 2);
    assert.equal(rows[0].total, 3);
    assert.equal(rows[0].bestSpeedup, 1.25);
    assert.equal(rows[1].bestSpeedup, 2.5);
    assert.deepEqual(rows[1].outcomes.map((o) => o.index), [1, 2]);
  });
  it('marks missing scores as null', () => {
    const r = sampleResults();
    r.rounds[0].scores = { M: 0.5 };
    assert.deepEqual(shapeDecisions(r)[1].scores.map((s) => s.score), [null, null, 0.5, null, null]);
  });
});

describe('ticks', () => {
  it('linear ticks are round numbers inside the range', () => {
    assert.deepEqual(linearTicks(0, 2.2), [0, 0.5, 1, 1.5, 2]);
    assert.deepEqual(linearTicks(0, 10), [0, 2, 4, 6, 8, 10]);
  });
  it('log ticks are 1-2-5 steps inside the range', () => {
    assert.deepEqual(logTicks(0.3, 30), [0.5, 1, 2, 5, 10, 20]);
    assert.deepEqual(logTicks(0, 10), []);
  });
});

describe('latencies at the eager median', () => {
  /** Each pair with its own eager time, on a machine where eager moved between pairs. */
  function noisy(pairs: [number, number][]): Parameters<typeof shapeChart>[0] {
    return {
      reference_ms: 2.0,
      best: null,
      chart: pairs.map(([ms, eager], i) => ({ candidate_id: `c${i}`, round: 1, index: i + 1, status: 'valid', valid: true, candidate_ms: ms, reference_ms: eager, speedup: eager / ms })),
    };
  }

  it('never lets the best-so-far line rise, though raw latencies would', () => {
    // 3.00× from a pair whose eager ran slow (1.5 ms vs 4.5 ms) after 2.00× (1.0 ms vs 2.0 ms): raw, the line rises
    const m = shapeChart(noisy([[1.0, 2.0], [1.5, 4.5]]));
    assert.ok(m.scaled);
    assert.deepEqual(m.bestSoFar.map((b) => Number(b.ms.toFixed(6))), [1.0, 0.666667]);
    assert.equal(m.points[1].measuredMs, 1.5, 'the tooltip keeps the measured time');
  });

  it('never rises on any run: each step is the eager median over a faster figure', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let run = 0; run < 200; run++) {
      const pairs: [number, number][] = Array.from({ length: 12 }, () => [0.2 + random() * 3, 0.5 + random() * 5]);
      const m = shapeChart(noisy(pairs));
      m.bestSoFar.forEach((b, i) => assert.ok(i === 0 || b.ms <= m.bestSoFar[i - 1].ms + 1e-12, `run ${run}: rose at ${b.x}`));
      const best = Math.max(...pairs.map(([ms, eager]) => eager / ms));
      assert.ok(Math.abs(2.0 / (m.bestSoFar.at(-1) as { ms: number }).ms - best) < 1e-9, 'ends at eager / the best figure');
    }
  });
});

describe('re-timings', () => {
  /** c-2-1 first read 2.50× (0.8 ms vs 2.0 ms); timed again it read 2.00× (0.9 ms vs 1.8 ms): the run keeps 2.00×. */
  function retimed() {
    const r = sampleResults();
    const again = { status: 'valid', candidate_ms: 0.9, reference_ms: 1.8, speedup: 2.0 };
    r.chart = r.chart.map((e) => (e.candidate_id === 'c-2-1' ? { ...e, retime: again } : e));
    r.best = r.best && { ...r.best, speedup: 2.0, candidate_ms: 0.9, reference_ms: 1.8, retimed: true, verdict: 'faster' as const };
    r.rounds[0].outcomes = r.rounds[0].outcomes.map((o) => (o.candidate_id === 'c-2-1' ? { ...o, retime: again } : o));
    return r;
  }

  it('are marks on the candidate they re-time, never extra candidates', () => {
    const m = shapeChart(retimed());
    assert.equal(m.points.length, 5);
    const best = m.points.find((p) => p.candidateId === 'c-2-1');
    // drawn at the run's eager median (2.0 ms): 0.9 ms × 2.0 / 1.8, its measured pair kept for the tooltip
    assert.deepEqual(best?.retime, { status: 'valid', ms: 1.0, measuredMs: 0.9, referenceMs: 1.8, speedup: 2.0 });
    assert.equal(best?.kept, 2.0);
  });

  it('put the best-so-far line on the figure the run keeps, so it ends on the best', () => {
    const m = shapeChart(retimed());
    // the eager median over the best's point is the headline figure: 2.0 ms / 1.0 ms = 2.00×
    assert.deepEqual(m.bestSoFar.at(-1), { x: 5, ms: 1.0 });
  });

  it('give the round its kept figure, marked as re-timed', () => {
    const rows = shapeDecisions(retimed());
    assert.equal(rows[1].bestSpeedup, 2.0);
    assert.equal(rows[1].bestRetimed, true);
    const failed = retimed();
    failed.rounds[0].outcomes = failed.rounds[0].outcomes.map((o) => (o.candidate_id === 'c-2-1' ? { ...o, retime: { status: 'incorrect', candidate_ms: null, reference_ms: null, speedup: null } } : o));
    assert.equal(shapeDecisions(failed)[1].bestSpeedup, null, 'a candidate whose re-timing failed is not kept');
  });
});
