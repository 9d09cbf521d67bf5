// The extension against the one verdict rule (contracts/verdict.py), on the rows every consumer is tested on
// (tests/data/verdict_rows.json, real busy-CPU samples and H200 quartiles among them; the Python side is
// tests/test_verdict_rule.py). The best's verdict and words are the server's; the port of the rule
// (results/verdict.ts: the interval from the samples, the verdict read off it, its words) and of the number format
// (formatRatio) must say what the Python rule says for each row.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { JobStatus, RunResults, Verdict } from '../src/protocol';
import { formatRatio } from '../src/results/format';
import { intervalText, quartileInterval, ratioInterval, verdictOfInterval } from '../src/results/verdict';
import { renderResultsBody } from '../src/results/html';
import { statusView } from '../src/statusText';
import { sampleResults } from './fixtures';

interface Side {
  median_ms: number;
  p25_ms: number;
  p75_ms: number;
  samples?: number[];
}

interface Row {
  name: string;
  candidate: Side;
  reference: Side;
  flags: string[];
  expected: {
    low: number;
    high: number;
    confidence: number | null;
    interval: string;
    speedup: number;
    spread: number;
    candidate_spread: number;
    reference_spread: number;
    verdict: Verdict;
    ratio: string;
    headline: string;
    uncertainty: string;
    warnings: string[];
  };
}

// out/tests/verdict.test.js -> the repository's tests/data
const ROWS: Row[] = (JSON.parse(readFileSync(path.resolve(__dirname, '../../../../tests/data/verdict_rows.json'), 'utf8')) as { rows: Row[] }).rows;

/** The job status hiera-ls sends at the end of a run whose best is this row (hiera_ls/jobs.py status_json). */
function jobOf(row: Row): JobStatus {
  const e = row.expected;
  return {
    jobId: 'j',
    state: 'finished',
    runId: 'run-1',
    round: 1,
    index: 2,
    of: 2,
    bestSpeedup: e.speedup,
    message: `done: ${e.headline}`,
    verdict: e.verdict,
    bestMs: row.candidate.median_ms,
    referenceMs: row.reference.median_ms,
    retimed: true,
    spread: e.spread,
    headline: e.headline,
    uncertainty: e.uncertainty,
    warnings: e.warnings,
    delivered: e.verdict === 'faster',
  };
}

/** The results hiera-ls answers for it (hiera/runResults: its best is the canonical one, words and all). */
function resultsOf(row: Row): RunResults {
  const e = row.expected;
  const r = sampleResults();
  const kept = e.verdict === 'faster' ? '/ws/.hiera/ls/results/j' : '/ws/.hiera/runs/run-42/not-delivered';
  r.best = {
    ...(r.best as NonNullable<RunResults['best']>),
    speedup: e.speedup,
    candidate_ms: row.candidate.median_ms,
    reference_ms: row.reference.median_ms,
    retimed: true,
    spread: e.spread,
    candidate_spread: e.candidate_spread,
    reference_spread: e.reference_spread,
    verdict: e.verdict,
    flags: row.flags,
    headline: e.headline,
    uncertainty: e.uncertainty,
    warnings: e.warnings,
    paths: { py: `${kept}/gemm_relu_hiera.py`, cu: `${kept}/gemm_relu_hiera.cu` },
  };
  return r;
}

const unescape = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&quot;/g, '"');

describe('the verdict rule, as the extension shows it', () => {
  it('reads the shared rows, every verdict among them', () => {
    assert.ok(ROWS.length >= 10);
    assert.deepEqual(new Set(ROWS.map((r) => r.expected.verdict)), new Set(['faster', 'level', 'slower', 'unstable']));
  });

  it('holds real samples, and every verdict among the sampled rows', () => {
    const sampled = ROWS.filter((r) => r.candidate.samples && r.reference.samples);
    assert.ok(sampled.length >= 5);
    assert.deepEqual(new Set(sampled.map((r) => r.expected.verdict)), new Set(['faster', 'level', 'slower']));
  });

  for (const row of ROWS) {
    it(`${row.name}: the port's interval, verdict and words`, () => {
      const e = row.expected;
      const c = row.candidate;
      const r = row.reference;
      const interval = c.samples && r.samples ? ratioInterval(c.samples, r.samples) : quartileInterval(c.p25_ms, c.p75_ms, r.p25_ms, r.p75_ms);
      assert.ok(interval !== null);
      assert.equal(interval[0], e.low, 'low');
      assert.equal(interval[1], e.high, 'high');
      assert.equal(intervalText(interval[0], interval[1], e.confidence, e.spread), e.interval);
      const unstable = row.flags.some((f) => f.startsWith('unstable_timing'));
      assert.equal(unstable ? 'unstable' : verdictOfInterval(interval[0], interval[1]), e.verdict);
    });

    it(`${row.name}: the same number, verdict and words`, () => {
      const e = row.expected;
      assert.equal(formatRatio(e.speedup, e.spread), e.ratio, 'formatRatio and contracts/verdict.py ratio_text');
      const view = statusView('running', jobOf(row));
      const icon = { faster: '$(check)', level: '$(dash)', slower: '$(arrow-down)', unstable: '$(warning)' }[e.verdict];
      assert.ok(view.text.startsWith(`${icon} HIERA`), view.text);
      if (e.verdict === 'faster' || e.verdict === 'slower') {
        assert.ok(view.text.includes(e.ratio), `${view.text} shows ${e.ratio}`);
      }
      for (const words of [e.headline, e.uncertainty, ...e.warnings]) {
        assert.ok(view.tooltip.includes(words), `status bar tooltip has "${words}": ${view.tooltip}`);
      }
      const body = unescape(renderResultsBody(resultsOf(row)));
      for (const words of [e.headline, e.uncertainty, ...e.warnings]) {
        assert.ok(body.includes(words), `results view has "${words}"`);
      }
      assert.equal(view.severity === 'normal', e.verdict === 'faster' && e.warnings.length === 0, `severity ${view.severity}`);
    });
  }

  it('shows the verdict the wire carries, never one of its own', () => {
    // a 0.67× figure the server calls level stays level; a server that sent no verdict gets none
    const level = statusView('running', { ...jobOf(ROWS[0]), bestSpeedup: 0.67, verdict: 'level' });
    assert.ok(level.text.startsWith('$(dash) HIERA level'), level.text);
    const none = statusView('running', { ...jobOf(ROWS[0]), bestSpeedup: 0.39, verdict: null, spread: null, headline: null, uncertainty: null });
    assert.equal(none.text, '$(info) HIERA 2.56× slower');
  });
});

describe('each candidate in the results view: its verdict read off its own interval', () => {
  it('says faster, level or slower by the port of the rule, with the interval', () => {
    const r = sampleResults();
    const outcomes = r.rounds[1].outcomes;
    outcomes[0] = { ...outcomes[0], low: 1.12, high: 1.4, confidence: 0.95, verdict: 'faster' };
    outcomes[2] = { ...outcomes[2], low: 0.8, high: 1.3, confidence: 0.95, verdict: 'level' };
    r.rounds[0].outcomes[1] = { ...r.rounds[0].outcomes[1], speedup: 0.5, low: 0.45, high: 0.55, confidence: 0.95 };
    const body = unescape(renderResultsBody(r));
    assert.ok(body.includes('1.25× faster (1.12–1.40× at 95%)'), body);
    assert.ok(body.includes('1.00× level (0.80–1.30× at 95%)'), body);
    assert.ok(body.includes('2.00× slower (1.82–2.22× slower at 95%)'), body);
  });
});
