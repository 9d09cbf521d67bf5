import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderChart, spreadLabels, tickLabels } from '../src/results/chart';
import { contentSecurityPolicy, makeNonce, renderResultsBody, renderResultsPage } from '../src/results/html';
import { shapeChart } from '../src/results/shape';
import { sampleResults } from './fixtures';

function count(haystack: string, needle: RegExp): number {
  return (haystack.match(needle) ?? []).length;
}

describe('renderChart', () => {
  const svg = renderChart(shapeChart(sampleResults()));

  it('marks valid candidates as dots and invalid ones as crosses', () => {
    assert.equal(count(svg, /class="pt pt-valid"/g), 3);
    assert.equal(count(svg, /class="pt pt-invalid"/g), 1, 'the incorrect candidate with a time');
    assert.equal(count(svg, /class="pt pt-untimed"/g), 1, 'the build failure without a time');
    assert.equal(count(svg, /class="pt-best-ring"/g), 1);
  });

  it('draws the best-so-far line and the reference and torch.compile lines', () => {
    assert.equal(count(svg, /class="best-so-far"/g), 1);
    assert.equal(count(svg, /class="hline hline-reference"/g), 1);
    assert.equal(count(svg, /class="hline hline-compile-default"/g), 1);
    assert.equal(count(svg, /hline-compile-max-autotune"/g), 0, 'unknown max-autotune time is not drawn');
    assert.match(svg, /round 1<\/text>.*round 2<\/text>/s);
  });

  it('plots latency upwards from zero: the faster candidate sits lower', () => {
    const cy = (id: string) => Number(new RegExp(`data-candidate="${id}"[^>]*cy="([0-9.]+)"`).exec(svg)?.[1]);
    assert.ok(cy('c-2-1') > 0 && cy('c-1-1') > 0 && cy('c-1-3') > 0);
    // SVG y grows downwards: 0.8 ms is below 1.6 ms, which is below 2.0 ms.
    assert.ok(cy('c-2-1') > cy('c-1-1'));
    assert.ok(cy('c-1-1') > cy('c-1-3'));
  });

  it('uses no inline style attributes, which the CSP would block', () => {
    assert.doesNotMatch(svg, /\sstyle=/);
  });

  it('says so when there are no candidates', () => {
    assert.match(renderChart(shapeChart({ reference_ms: 1, best: null, chart: [] })), /No candidates yet/);
  });
});

describe('tickLabels', () => {
  it('gives linear ticks one number of decimals, the fewest that is exact', () => {
    assert.deepEqual(tickLabels([0, 100, 200, 300], false), ['0', '100', '200', '300']);
    assert.deepEqual(tickLabels([0, 0.5, 1, 1.5, 2], false), ['0.0', '0.5', '1.0', '1.5', '2.0']);
    assert.deepEqual(tickLabels([0, 0.025, 0.05], false), ['0.000', '0.025', '0.050']);
  });

  it('writes log ticks each in its shortest form', () => {
    assert.deepEqual(tickLabels([0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10], true), ['0.05', '0.1', '0.2', '0.5', '1', '2', '5', '10']);
  });

  it('labels a chart of CPU latencies without a stray "0.00"', () => {
    const cpu = sampleResults();
    cpu.reference_ms = 64.4;
    cpu.compile_ms = { default: null, 'max-autotune': null };
    cpu.chart = [
      { candidate_id: 'a', round: 1, index: 1, status: 'valid', valid: true, candidate_ms: 176, speedup: 0.37 },
      { candidate_id: 'b', round: 1, index: 2, status: 'valid', valid: true, candidate_ms: 288, speedup: 0.22 },
    ];
    const ticks = [...renderChart(shapeChart(cpu)).matchAll(/class="tick"[^>]*>([^<]*)</g)].map((m) => m[1]);
    assert.deepEqual(ticks, ['0', '100', '200', '300']);
  });
});

describe('spreadLabels', () => {
  it('separates labels that would overlap and keeps their order', () => {
    assert.deepEqual(spreadLabels([100, 104, 50], 13), [100, 113, 50]);
  });
});

describe('results page', () => {
  const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => i * 7));
  const page = renderResultsPage({ nonce, cspSource: 'vscode-webview://abc', bodyHtml: renderResultsBody(sampleResults()), title: 'T' });

  it('has a CSP that allows only nonce scripts and styles and no remote content', () => {
    const csp = contentSecurityPolicy(nonce, 'vscode-webview://abc');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.ok(page.includes('http-equiv="Content-Security-Policy"'));
  });

  it('gives every script and style element the nonce and loads nothing remote', () => {
    assert.equal(nonce.length, 32);
    assert.equal(count(page, /<script\b/g), count(page, new RegExp(`<script nonce="${nonce}">`, 'g')));
    assert.equal(count(page, /<style\b/g), count(page, new RegExp(`<style nonce="${nonce}">`, 'g')));
    assert.doesNotMatch(page, /\s(src|href)="https?:/);
  });

  it('shows the decisions with the five scores and the strategy', () => {
    assert.match(page, /tile for shared memory/);
    assert.match(page, /<span class="score chosen" title="chosen direction">M&nbsp;0\.90<\/span>/);
    assert.match(page, /gemm_relu\.py/);
    assert.match(page, /2\.50×/);
    // six columns and a full-width rationale row: nothing to clip in a side-by-side panel
    assert.equal(count(page, /<th[ >]/g), 6);
    assert.match(page, /<tr class="detail"><td colspan="6">/);
  });

  it('says what became of a win: its one figure with its own eager time, and the files created', () => {
    const r = sampleResults();
    // as the server sends it: the verdict and the words of contracts/verdict.py, the engine's flag in words
    const words = { headline: '2.0× faster than eager', uncertainty: '±3%', why: 'c-2-1, timed again on its own (its first pair read 2.31×)' };
    const flag = 'flagged: over 10× — check before trusting';
    r.best = r.best && { ...r.best, speedup: 2.0143, candidate_ms: 8.2213, reference_ms: 16.56, retimed: true, spread: 0.03, verdict: 'faster' as const, ...words, warnings: [flag] };
    r.delivered = { py: '/ws/models/gemm_relu_hiera.py', cu: '/ws/models/gemm_relu_hiera.cu' };
    const body = renderResultsBody(r);
    assert.match(body, /class="verdict verdict-faster"><strong>2\.0× faster than eager<\/strong> ±3% \(8\.221 ms vs 16\.56 ms eager, re-timed\)/);
    assert.match(body, /Created <span class="mono">gemm_relu_hiera\.py<\/span> and <span class="mono">gemm_relu_hiera\.cu<\/span> beside gemm_relu\.py/);
    assert.match(body, /The best: c-2-1, timed again on its own \(its first pair read 2\.31×\)\./);
    assert.match(body, /<p class="verdict verdict-flagged">flagged: over 10× — check before trusting<\/p>/);
    assert.match(body, /2\.0× faster than eager ±3% · 8\.221 ms vs 16\.56 ms eager, re-timed · round 2/);
    assert.doesNotMatch(body, /2\.3\d× faster/);
  });

  it('says a slowdown is one: nothing written, where the kept files are, buttons that say "kept slower"', () => {
    const r = sampleResults();
    const kept = '/ws/models/.hiera/runs/run-42/not-delivered';
    r.best = r.best && { ...r.best, speedup: 0.39, candidate_ms: 5.1, reference_ms: 2.0, spread: 0.02, verdict: 'slower' as const, headline: '2.6× slower than eager', uncertainty: '±2%', paths: { py: `${kept}/gemm_relu_hiera.py`, cu: `${kept}/gemm_relu_hiera.cpp` } };
    const body = renderResultsBody(r);
    // a slowdown by its own size, never "0.39×"
    assert.match(body, /class="verdict verdict-slower"><strong>No candidate beat eager<\/strong>: the best is <strong>2\.6× slower than eager<\/strong> \(5\.1 ms vs 2 ms eager, ±2%\)/);
    assert.doesNotMatch(body, /0\.39/);
    // relative to the module's folder (/ws/models/): where the user looks
    assert.match(body, /Nothing was written beside gemm_relu\.py; the kept files are in <span class="mono">\.hiera\/runs\/run-42\/not-delivered\/<\/span>/);
    assert.match(body, />Open kept slower result \(\.py\)</);
    assert.match(body, />Open kept slower kernel \(\.cpp\)</);
  });

  it('says a run whose engine died ended', () => {
    assert.match(renderResultsBody({ ...sampleResults(), status: 'ended' }), /ended without a result: its engine process is gone/);
  });

  it('draws a re-timing as a labelled mark on its candidate', () => {
    const r = sampleResults();
    r.chart = r.chart.map((e) => (e.candidate_id === 'c-2-1' ? { ...e, retime: { status: 'valid', candidate_ms: 0.9, reference_ms: 1.8, speedup: 2.0 } } : e));
    const body = renderResultsBody(r);
    assert.equal(count(body, /class="pt pt-valid"/g), 3, 'still three valid candidates');
    assert.equal(count(body, /class="pt-retime" data-retime="c-2-1"/g), 1);
    assert.match(body, /re-timed: round 2, candidate 1 · 2\.00× \(900 µs vs 1\.8 ms eager\)/);
    assert.match(body, /> re-timed \(the same candidate, timed again\)<\/span>/);
    assert.equal(count(body, /class="pt-best-ring"/g), 1, 'one ring, on the re-timed figure');
  });

  it('enables the open buttons only for files the run has', () => {
    assert.match(page, /data-action="openKernel" title="[^"]*best\.cu">/);
    const noCu = sampleResults();
    noCu.best = noCu.best && { ...noCu.best, paths: { py: noCu.best.paths.py, cu: null } };
    noCu.profile = null;
    const body = renderResultsBody(noCu);
    assert.match(body, /data-action="openKernel"[^>]*disabled/);
    assert.match(body, /data-action="openProfile"[^>]*disabled/);
    assert.doesNotMatch(body, /data-action="openResult"[^>]*disabled/);
  });

  it('names the kernel file the button opens: .cu on a GPU, .cpp for a CPU run', () => {
    assert.match(page, />Open kernel \(\.cu\)</);
    const cpu = sampleResults();
    cpu.best = cpu.best && { ...cpu.best, paths: { py: '/ws/m_hiera.py', cu: '/ws/m_hiera.cpp' } };
    assert.match(renderResultsBody(cpu), />Open kernel \(\.cpp\)</);
  });

  it('lists in the legend only the horizontal lines the chart draws', () => {
    assert.match(page, /<div class="legend">.*> eager \(median\)<\/span>.*> torch\.compile<\/span><\/div>/s);
    assert.doesNotMatch(page, /> max-autotune<\/span>/);
    const noCompile = sampleResults();
    noCompile.compile_ms = { default: null, 'max-autotune': null };
    const body = renderResultsBody(noCompile);
    assert.match(body, /> eager \(median\)<\/span>/);
    assert.doesNotMatch(body, /> torch\.compile<\/span>/);
  });

  it('escapes text from the server', () => {
    const evil = sampleResults();
    evil.rounds[0].outcomes[0].reason = '<img src=x onerror=alert(1)>';
    evil.task = '/ws/<script>.py';
    const body = renderResultsBody(evil);
    assert.doesNotMatch(body, /<img|<script/);
    assert.match(body, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  it('explains an empty result', () => {
    assert.match(renderResultsBody(null), /No HIERA run for this module yet/);
    assert.match(renderResultsBody(null, 'server down'), /server down/);
  });
});

describe('the speed of light in the results view', () => {
  it('shows the server\'s words for the best\'s share of its bound, and a stop at it', () => {
    const r = sampleResults();
    assert.ok(r.best);
    r.best.speed_of_light = { bound: 'memory', bytes: 1050624, flops: 262144, ceiling: 'memory 40 GB/s', fraction: 0.62, bound_ms: 0.026, time_ms: 0.042, notes: [] };
    r.best.speed_of_light_text = '62% of speed of light, memory-bound';
    r.best.speed_of_light_detail = 'bound 26 us (memory): 1.05 MB and 262 kFLOP, at memory 40 GB/s';
    r.stopped_early = { round: 1, fraction: 0.91, bound: 'memory', candidates_saved: 12, seconds_saved: 40 };
    const html = renderResultsBody(r);
    assert.match(html, /speed of light<\/span><span class="fact-value">62% of speed of light, memory-bound · bound 26 us/);
    assert.match(html, /stopped early<\/span><span class="fact-value">after round 1, at 91% of its speed of light: 12 candidates \(about 40 s\) not spent/);
  });

  it('says nothing of it where there is no bound', () => {
    assert.doesNotMatch(renderResultsBody(sampleResults()), /speed of light/);
  });
});
