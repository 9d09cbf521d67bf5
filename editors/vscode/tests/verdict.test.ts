// The extension against the one verdict rule (contracts/verdict.py), on the rows every consumer is tested on
// (tests/data/verdict_rows.json; the Python side is tests/test_verdict_rule.py). The extension derives no
// verdict: it shows the one the wire carries, with the server's words; its single port of the number format
// (formatRatio) must write what the Python rule writes for each row.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { JobStatus, RunResults, Verdict } from '../src/protocol';
import { formatRatio } from '../src/results/format';
import { renderResultsBody } from '../src/results/html';
import { statusView } from '../src/statusText';
import { sampleResults } from './fixtures';

interface Row {
  name: string;
  candidate: { median_ms: number };
  reference: { median_ms: number };
  flags: string[];
  expected: {
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
  const kept = e.verdict === 'faster' ? '/ws/.hiera/ls/results/j' : '/ws/.hiera/runs/run-42/slower-than-eager';
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

  for (const row of ROWS) {
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
