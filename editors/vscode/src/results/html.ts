// The results view's HTML: a page shell with a strict content security policy (no remote content, only
// scripts and styles carrying this render's nonce) and a body rebuilt on every refresh. Pure, so the
// CSP and the escaping are unit-tested.
import type { BestCandidate, RunResults } from '../protocol';
import { renderChart } from './chart';
import { deviceWords, formatMs, formatRatio } from './format';
import { escapeHtml } from './escape';
import { shapeChart, shapeDecisions, type ChartModel, type DecisionRow, type HorizontalLine } from './shape';
import { intervalText, verdictOfInterval } from './verdict';

/** Messages the page posts to the extension. */
export type WebviewAction = 'openKernel' | 'openResult' | 'openProfile' | 'refresh';
export const WEBVIEW_ACTIONS: readonly WebviewAction[] = ['openKernel', 'openResult', 'openProfile', 'refresh'];

export function contentSecurityPolicy(nonce: string, cspSource: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

function basename(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function button(action: WebviewAction, label: string, enabled: boolean, title: string): string {
  return `<button data-action="${action}" title="${escapeHtml(title)}"${enabled ? '' : ' disabled'}>${escapeHtml(label)}</button>`;
}

function fact(label: string, value: string): string {
  return `<div class="fact"><span class="fact-label">${escapeHtml(label)}</span><span class="fact-value">${escapeHtml(value)}</span></div>`;
}

/** '8.221 ms vs 16.56 ms eager, re-timed': the best's own pair (the same as the hover and the status bar). */
function pairOf(best: BestCandidate): string {
  const eager = typeof best.reference_ms === 'number' ? ` vs ${formatMs(best.reference_ms)} eager` : '';
  return `${formatMs(best.candidate_ms)}${eager}${best.retimed ? ', re-timed' : ''}`;
}

/** The server's headline for the best ('1.4× faster than eager', '88× slower than eager', …), as it sent it. */
function headlineOf(best: BestCandidate): string {
  return best.headline ?? formatRatio(best.speedup, best.spread);
}

/** The headline with how sure it is: '1.4× faster than eager ±2%', 'level with eager 1.0× ±4%: 0.97–1.1×'. */
function bestPhrase(best: BestCandidate): string {
  return best.uncertainty ? `${headlineOf(best)} ${best.uncertainty}` : headlineOf(best);
}

/**
 * A best that was not written beside the module: the engine writes only a `faster` best there (the verdict is
 * the server's), and one it kept in the run's not-delivered folder (slower-than-eager before) is kept back.
 */
export function keptBack(best: BestCandidate | null): boolean {
  return best !== null && ((best.verdict != null && best.verdict !== 'faster') || /[\\/](not-delivered|slower-than-eager)[\\/]/.test(best.paths.py ?? ''));
}

/** The engine's flags on the best, in the server's words, one line each. */
function flagLines(best: BestCandidate): string {
  return (best.warnings ?? []).map((w) => `<p class="verdict verdict-flagged">${escapeHtml(w)}</p>`).join('');
}

function dirname(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i > 0 ? p.slice(0, i + 1) : p;
}

/** A folder as the user reads it: relative to the module's own folder when it is inside it. */
function besideModule(folder: string, task: string): string {
  const home = dirname(task);
  return folder.startsWith(home) && folder.length > home.length ? folder.slice(home.length) : folder;
}

/** One line that says what became of the run: files created beside the module, or why not and where they are. */
function outcomeLine(r: RunResults): string {
  const module = basename(r.task);
  if (r.status === 'ended') {
    return '<p class="verdict verdict-ended">This run ended without a result: its engine process is gone (killed, or the machine restarted). What it finished is below.</p>';
  }
  const best = r.best;
  if (best === null) {
    return r.status === 'running' ? '' : `<p class="verdict verdict-slower">No valid candidate: nothing was written beside ${escapeHtml(module)}.</p>`;
  }
  const why = best.why ? ` The best: ${escapeHtml(best.why)}.` : '';
  if (keptBack(best)) {
    if (r.status === 'running') {
      return '';
    }
    const lead =
      best.verdict === 'unstable'
        ? `<strong>${escapeHtml(headlineOf(best))}</strong> (${escapeHtml(best.uncertainty ?? '')}; ${escapeHtml(pairOf(best))}).`
        : `<strong>No candidate beat eager</strong>: the best is <strong>${escapeHtml(headlineOf(best))}</strong> (${escapeHtml(pairOf(best))}${best.uncertainty ? `, ${escapeHtml(best.uncertainty)}` : ''}).`;
    return (
      `<p class="verdict verdict-slower">${lead} ` +
      `Nothing was written beside ${escapeHtml(module)}; the kept files are in <span class="mono">${escapeHtml(besideModule(dirname(best.paths.py), r.task))}</span>.${why}</p>` +
      flagLines(best)
    );
  }
  const created = [r.delivered?.py, r.delivered?.cu].filter((f): f is string => !!f).map(basename);
  const where =
    created.length > 0
      ? `Created ${created.map((f) => `<span class="mono">${escapeHtml(f)}</span>`).join(' and ')} beside ${escapeHtml(module)}.`
      : `The result is in <span class="mono">${escapeHtml(besideModule(dirname(best.paths.py), r.task))}</span>.`;
  const sure = best.uncertainty ? ` ${escapeHtml(best.uncertainty)}` : '';
  return `<p class="verdict verdict-${best.verdict ?? 'faster'}"><strong>${escapeHtml(headlineOf(best))}</strong>${sure} (${escapeHtml(pairOf(best))}). ${where}${why}</p>${flagLines(best)}`;
}

function summary(r: RunResults): string {
  const facts: string[] = [
    fact('status', r.status === 'ended' ? 'ended (engine gone)' : statusText(r)),
    fact('best', r.best ? `${bestPhrase(r.best)} · ${pairOf(r.best)} · round ${r.best.round}` : 'no valid candidate'),
    fact('eager median', r.reference_ms !== null ? formatMs(r.reference_ms) : '—'),
  ];
  if (r.best?.speed_of_light_text) {
    // The server's words for the best's share of the task's bound, and what the bound is made of.
    facts.push(fact('speed of light', `${r.best.speed_of_light_text}${r.best.speed_of_light_detail ? ` · ${r.best.speed_of_light_detail}` : ''}`));
  }
  if (r.stopped_early) {
    const s = r.stopped_early;
    facts.push(fact('stopped early', `after round ${s.round}, at ${Math.round(s.fraction * 100)}% of its speed of light: ${s.candidates_saved} candidates (about ${s.seconds_saved.toFixed(0)} s) not spent`));
  }
  const compiled = r.compile_ms;
  if (compiled?.default != null) {
    facts.push(fact('torch.compile', formatMs(compiled.default)));
  }
  if (compiled?.['max-autotune'] != null) {
    facts.push(fact('max-autotune', formatMs(compiled['max-autotune'])));
  }
  facts.push(fact('device', deviceWords(r.device, r.device_name)), fact('backend', r.backend), fact('candidates', String(r.candidates)));
  if (r.seconds?.total !== undefined) {
    facts.push(fact('time', `${r.seconds.total.toFixed(0)} s`));
  }
  if (r.tokens !== undefined && r.tokens.prompt + r.tokens.completion > 0) {
    facts.push(fact('tokens', `${r.tokens.prompt} in / ${r.tokens.completion} out`));
  }
  if (typeof r.cost_usd === 'number') {
    facts.push(fact('cost', `$${r.cost_usd.toFixed(2)}`));
  }
  const leftOut = r.left_out ?? [];
  if (leftOut.length > 0) {
    facts.push(fact('left out for time', leftOut.join('; ')));
  }
  return `<div class="facts">${facts.join('')}</div>`;
}

const STOP_WORDS: Record<string, string> = {
  deadline: 'its deadline came',
  interrupted: 'Ctrl-C',
  terminated: 'cancelled',
  backend: 'the model endpoint went away',
};

/** 'stopped (its 60 s deadline came)': a stopped run's status says why. */
function statusText(r: RunResults): string {
  if (r.status !== 'stopped' || !r.stop_reason) {
    return r.status;
  }
  const why =
    r.stop_reason === 'deadline' && typeof r.deadline_s === 'number'
      ? `its ${r.deadline_s} s deadline came`
      : (STOP_WORDS[r.stop_reason] ?? r.stop_reason);
  return `stopped (${why})`;
}

function score(v: number | null): string {
  return v === null ? '—' : v.toFixed(2);
}

function outcomeItem(o: DecisionRow['outcomes'][number]): string {
  const rt = o.retime;
  const again = rt
    ? ` · <span class="retimed">re-timed: ${rt.status === 'valid' && rt.speedup !== null ? escapeHtml(formatRatio(rt.speedup)) : escapeHtml(`${rt.status}, not kept`)}` +
      `${rt.candidate_ms !== null && rt.reference_ms !== null ? ` (${escapeHtml(formatMs(rt.candidate_ms))} vs ${escapeHtml(formatMs(rt.reference_ms))} eager)` : ''}</span>`
    : '';
  // Its own first pair's verdict, read off the interval its row carries by the one rule (results/verdict.ts).
  // (a slowdown's ratio already says "slower": "1.50× slower (1.4–1.6× slower at 95%)")
  const verdict = typeof o.low === 'number' && typeof o.high === 'number' ? verdictOfInterval(o.low, o.high) : null;
  const sure =
    verdict !== null
      ? `${verdict === 'slower' ? '' : ` ${escapeHtml(verdict)}`} (${escapeHtml(intervalText(o.low, o.high, o.confidence))})`
      : '';
  return (
    `<li class="outcome outcome-${o.status === 'valid' ? 'valid' : 'invalid'}"><span class="mono">#${o.index}</span> ` +
    `${escapeHtml(o.status)}${o.ms !== null ? ` · ${escapeHtml(formatMs(o.ms))}` : ''}` +
    `${o.speedup !== null ? ` · ${escapeHtml(formatRatio(o.speedup))}${sure}` : ''}${again}` +
    `${o.reason ? ` — ${escapeHtml(o.reason)}` : ''}</li>`
  );
}

/**
 * The Decisions table, made to fit a side-by-side panel: the five direction scores share one cell, long
 * strategies wrap, the rationale sits on its own full-width row, and a panel narrower than the table
 * scrolls it sideways rather than cutting columns off.
 */
function decisionsTable(rows: DecisionRow[]): string {
  if (rows.length === 0) {
    return '<p class="empty">No round has been decided yet.</p>';
  }
  const head =
    '<tr><th>Round</th><th>Space</th><th>Scores <span class="muted">C P M R T</span></th>' +
    '<th>Strategy</th><th class="num">Valid</th><th class="num">Best</th></tr>';
  const body = rows
    .map((r) => {
      const scores = r.scores
        .map((s) => `<span class="score${s.chosen ? ' chosen' : ''}"${s.chosen ? ' title="chosen direction"' : ''}>${s.direction}&nbsp;${score(s.score)}</span>`)
        .join(' ');
      const best = r.bestSpeedup !== null ? `${escapeHtml(formatRatio(r.bestSpeedup))}${r.bestRetimed ? ' <span class="muted">re-timed</span>' : ''}` : '—';
      return (
        `<tr class="decision"><td>${r.round}</td><td>${escapeHtml(r.space)}</td><td class="scores">${scores}</td>` +
        `<td class="strategy">${escapeHtml(r.strategy)} <span class="muted">(${escapeHtml(r.direction)})</span></td>` +
        `<td class="num">${r.valid}/${r.total}</td><td class="num">${best}</td></tr>` +
        `<tr class="detail"><td colspan="6"><details><summary>${escapeHtml(r.rationale || 'candidates')}</summary><ul>${r.outcomes.map(outcomeItem).join('')}</ul></details></td></tr>`
      );
    })
    .join('');
  return `<div class="table-scroll"><table class="decisions"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

function legendLine(kind: HorizontalLine['kind'], label: string): string {
  return `<span><svg width="22" height="12"><line class="hline hline-${kind}" x1="0" y1="6" x2="22" y2="6"/></svg> ${escapeHtml(label)}</span>`;
}

/** The key under the chart: the marks, then only the horizontal lines the chart actually draws. */
export function renderLegend(model: ChartModel): string {
  const lineLabels: Record<HorizontalLine['kind'], string> = {
    reference: 'eager (median)',
    'compile-default': 'torch.compile',
    'compile-max-autotune': 'max-autotune',
  };
  return (
    '<div class="legend">' +
    '<span><svg width="12" height="12"><circle class="pt-valid" cx="6" cy="6" r="5"/></svg> valid</span>' +
    '<span><svg width="12" height="12"><path class="pt-invalid" d="M2,2L10,10M2,10L10,2"/></svg> invalid</span>' +
    '<span><svg width="22" height="12"><line class="best-so-far" x1="0" y1="6" x2="22" y2="6"/></svg> best so far</span>' +
    (model.points.some((p) => p.retime !== null)
      ? '<span><svg width="12" height="12"><path class="pt-retime" d="M6,0.5L11.5,6L6,11.5L0.5,6Z"/></svg> re-timed (the same candidate, timed again)</span>'
      : '') +
    model.lines.map((line) => legendLine(line.kind, lineLabels[line.kind])).join('') +
    (model.scaled ? "<span>latencies at the eager median: each candidate's time × the eager median ÷ its own pair's eager time</span>" : '') +
    '</div>'
  );
}

/** "(.cu)" on a GPU, "(.cpp)" for the C++ kernel of a CPU run: the button names the file it opens. */
function kernelSuffix(kernelPath: string | null | undefined): string {
  const m = kernelPath ? /\.([A-Za-z0-9]+)$/.exec(basename(kernelPath)) : null;
  return m ? `.${m[1]}` : '.cu';
}

/** Everything inside `#content`: sent whole on each refresh, which keeps the page script trivial. */
export function renderResultsBody(results: RunResults | null, note?: string): string {
  const noteHtml = note ? `<p class="note">${escapeHtml(note)}</p>` : '';
  if (results === null) {
    return `${noteHtml}<p class="empty">No HIERA run for this module yet. Put the cursor in a module class and run “HIERA: Optimize Module at Cursor”.</p>${button('refresh', 'Refresh', true, 'Ask hiera-ls again')}`;
  }
  const paths = results.best?.paths;
  // A best slower than eager was not written beside the module: its buttons open the kept copies, and say so.
  const kept = keptBack(results.best) ? 'kept slower ' : '';
  const buttons =
    '<div class="buttons">' +
    button('openKernel', `Open ${kept}kernel (${kernelSuffix(paths?.cu)})`, !!paths?.cu, paths?.cu ?? 'the best candidate has no kernel file') +
    button('openResult', `Open ${kept}result (.py)`, !!paths?.py, paths?.py ?? 'no valid candidate yet') +
    button('openProfile', 'Open profile', !!results.profile, results.profile ?? 'no profile recorded for this run') +
    button('refresh', 'Refresh', true, 'Ask hiera-ls again') +
    '</div>';
  const chart = shapeChart(results);
  return (
    noteHtml +
    `<h1>${escapeHtml(basename(results.task))} <span class="muted mono">${escapeHtml(results.run_id)}</span></h1>` +
    outcomeLine(results) +
    summary(results) +
    buttons +
    '<h2>Latency by round</h2>' +
    renderChart(chart) +
    renderLegend(chart) +
    '<h2>Decisions</h2>' +
    decisionsTable(shapeDecisions(results))
  );
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px 24px; }
h1 { font-size: 1.4em; margin: 12px 0 8px; } h2 { font-size: 1.1em; margin: 20px 0 6px; }
.muted { color: var(--vscode-descriptionForeground); font-weight: normal; }
.mono { font-family: var(--vscode-editor-font-family); }
.facts { display: flex; flex-wrap: wrap; gap: 6px 18px; margin-bottom: 10px; }
.fact-label { color: var(--vscode-descriptionForeground); margin-right: 6px; }
.buttons { display: flex; gap: 8px; flex-wrap: wrap; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 4px 12px; cursor: pointer; }
button:hover:not([disabled]) { background: var(--vscode-button-hoverBackground); }
button[disabled] { opacity: 0.5; cursor: default; }
/* The SVG scales with the panel (viewBox only), up to its natural size. */
.chart { display: block; width: 100%; max-width: 760px; height: auto; }
.chart text { fill: var(--vscode-foreground); font-size: 11px; }
.chart .tick, .chart .untimed-label, .chart .round-label { fill: var(--vscode-descriptionForeground); }
.axis { stroke: var(--vscode-foreground); stroke-width: 1; }
.grid { stroke: var(--vscode-editorWidget-border, #8884); stroke-width: 0.5; stroke-dasharray: 2 3; }
.band-even { fill: var(--vscode-editor-inactiveSelectionBackground, #8881); } .band-odd { fill: transparent; }
.pt-valid { fill: var(--vscode-charts-green, #3c3); stroke: none; }
.pt-best-ring { fill: none; stroke: var(--vscode-charts-yellow, #cc3); stroke-width: 2; }
.pt-invalid, .pt-untimed { stroke: var(--vscode-charts-red, #e44); stroke-width: 2; fill: none; }
.pt-untimed { opacity: 0.7; }
.best-so-far { fill: none; stroke: var(--vscode-charts-green, #3c3); stroke-width: 2; }
.hline { stroke-width: 1.5; stroke-dasharray: 6 4; }
.hline-reference { stroke: var(--vscode-charts-blue, #48f); }
.hline-compile-default { stroke: var(--vscode-charts-purple, #a6f); }
.hline-compile-max-autotune { stroke: var(--vscode-charts-orange, #f90); }
.hline-label-reference { fill: var(--vscode-charts-blue, #48f) !important; }
.hline-label-compile-default { fill: var(--vscode-charts-purple, #a6f) !important; }
.hline-label-compile-max-autotune { fill: var(--vscode-charts-orange, #f90) !important; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 4px 0 0 8px; color: var(--vscode-descriptionForeground); }
.legend span { white-space: nowrap; }
.legend svg { vertical-align: middle; }
.pt-retime { fill: none; stroke: var(--vscode-charts-blue, #48f); stroke-width: 2; }
.pt-retime-failed { stroke: var(--vscode-charts-red, #e44); }
.retime-tie { stroke: var(--vscode-charts-blue, #48f); stroke-width: 1; stroke-dasharray: 2 2; }
/* The table fits a side-by-side panel: cells wrap; a panel narrower still scrolls it, never clips it. */
.table-scroll { overflow-x: auto; max-width: 100%; }
table.decisions { border-collapse: collapse; width: 100%; }
.decisions th, .decisions td { padding: 3px 8px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
.decisions td.strategy { overflow-wrap: anywhere; min-width: 8em; }
.decisions td.scores { min-width: 10em; }
.decisions .score { white-space: nowrap; font-variant-numeric: tabular-nums; }
.decisions tr.detail td { border-bottom: none; padding-top: 0; overflow-wrap: anywhere; }
.decisions .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.decisions .chosen { font-weight: bold; color: var(--vscode-charts-yellow, #cc3); }
.outcome-invalid { color: var(--vscode-descriptionForeground); }
.retimed { color: var(--vscode-charts-blue, #48f); }
.empty, .note { color: var(--vscode-descriptionForeground); }
.verdict { padding: 6px 10px; border-left: 4px solid; margin: 8px 0; overflow-wrap: anywhere; }
.verdict-faster { border-color: var(--vscode-charts-green, #3c3); }
.verdict-level { border-color: var(--vscode-charts-yellow, #cc3); }
.verdict-flagged, .verdict-unstable { border-color: var(--vscode-charts-orange, #f90); }
.verdict-slower, .verdict-ended { border-color: var(--vscode-charts-orange, #f90); background: var(--vscode-inputValidation-warningBackground, #f901); }
@media (max-width: 560px) { .decisions td.scores { min-width: 0; } .decisions th, .decisions td { padding: 3px 4px; } }
`;

// The page's only script: buttons post their action; the extension answers refreshes with new body HTML.
const SCRIPT = `
const vscode = acquireVsCodeApi();
document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  if (target && !target.disabled) { vscode.postMessage({ type: target.getAttribute('data-action') }); }
});
window.addEventListener('message', (event) => {
  const message = event.data;
  if (message && message.type === 'update' && typeof message.html === 'string') {
    document.getElementById('content').innerHTML = message.html;
  }
});
`;

export function renderResultsPage(options: { nonce: string; cspSource: string; bodyHtml: string; title: string }): string {
  const { nonce, cspSource, bodyHtml, title } = options;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce, cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<div id="content">${bodyHtml}</div>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}

/** A fresh nonce per render: 32 characters from a CSPRNG, as VS Code's webview samples do. */
export function makeNonce(random: (size: number) => Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(random(32), (b) => alphabet[b % alphabet.length]).join('');
}
