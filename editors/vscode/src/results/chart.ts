// Draws the latency chart as an inline SVG string. Drawn here rather than by a charting library so the
// webview needs no remote or bundled script: its CSP allows only our one nonce'd script. Colours come
// from CSS classes (styled with the theme's variables in html.ts), never inline styles, which the CSP
// would block.
import { escapeHtml } from './escape';
import { formatMs, formatRatio } from './format';
import { linearTicks, logTicks, type ChartModel, type ChartPoint } from './shape';

export const CHART_WIDTH = 760;
export const CHART_HEIGHT = 340;
const MARGIN = { left: 64, right: 190, top: 34, bottom: 44 };
/** Height of the strip above the plot where candidates without a latency are marked. */
const UNTIMED_Y = 16;

/**
 * Labels for the y axis's ticks. Linear ticks share one number of decimals, the fewest that tells them
 * apart ("0, 100, 200", "0.0, 0.5, 1.0", not "0.00, 100, 200"); log ticks are written each in its shortest
 * form ("0.5, 1, 2, 5").
 */
export function tickLabels(ticks: readonly number[], logScale: boolean): string[] {
  const exact = (t: number, d: number) => Math.abs(Number(t.toFixed(d)) - t) <= Math.abs(t) * 1e-9 + 1e-12;
  if (logScale) {
    return ticks.map((t) => {
      let d = 0;
      while (d < 6 && !exact(t, d)) {
        d++;
      }
      return t.toFixed(d);
    });
  }
  let decimals = 0;
  while (decimals < 6 && !ticks.every((t) => exact(t, decimals))) {
    decimals++;
  }
  return ticks.map((t) => t.toFixed(decimals));
}

function n(v: number): string {
  return v.toFixed(1);
}

export interface Scales {
  x(x: number): number;
  y(ms: number): number;
}

export function scalesFor(model: ChartModel): Scales {
  const count = Math.max(model.points.length, 1);
  const plotW = CHART_WIDTH - MARGIN.left - MARGIN.right;
  const plotH = CHART_HEIGHT - MARGIN.top - MARGIN.bottom;
  const [lo, hi] = model.yDomain ?? [0, 1];
  const bottom = CHART_HEIGHT - MARGIN.bottom;
  return {
    // Candidates sit in the middle of equal slots, so the first and last are not on the plot's edges.
    x: (x) => MARGIN.left + ((x - 0.5) / count) * plotW,
    y: model.logScale
      ? (ms) => bottom - ((Math.log(ms) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * plotH
      : (ms) => bottom - ((ms - lo) / (hi - lo)) * plotH,
  };
}

function tooltip(p: ChartPoint): string {
  const parts = [`round ${p.round}, candidate ${p.index}`, p.status];
  if (p.measuredMs !== null) {
    parts.push(`${formatMs(p.measuredMs)}${p.pairEagerMs !== null ? ` vs ${formatMs(p.pairEagerMs)} eager` : ''}`);
  }
  if (p.speedup !== null) {
    parts.push(formatRatio(p.speedup));
  }
  if (p.isBest && !p.retime) {
    parts.push('best');
  }
  const again = p.retime ? `\nre-timed: ${retimeText(p.retime)}` : '';
  return `${parts.join(' · ')}${again}\n${p.candidateId}`;
}

function retimeText(rt: NonNullable<ChartPoint['retime']>): string {
  if (rt.status !== 'valid') {
    return `${rt.status} (not kept)`;
  }
  const pair = rt.measuredMs !== null && rt.referenceMs !== null ? ` (${formatMs(rt.measuredMs)} vs ${formatMs(rt.referenceMs)} eager)` : '';
  return `${rt.speedup !== null ? formatRatio(rt.speedup) : '?'}${pair}`;
}

function diamond(cx: number, cy: number, r: number): string {
  return `M${n(cx)},${n(cy - r)}L${n(cx + r)},${n(cy)}L${n(cx)},${n(cy + r)}L${n(cx - r)},${n(cy)}Z`;
}

/** A re-timing: a hollow diamond at its own latency, tied to the candidate's dot by a dotted line. */
function retimeMark(p: ChartPoint, s: Scales): string {
  const rt = p.retime;
  if (rt === null || rt.ms === null) {
    return '';
  }
  const cx = s.x(p.x);
  const cy = s.y(rt.ms);
  const tie = p.ms !== null ? `<line class="retime-tie" x1="${n(cx)}" x2="${n(cx)}" y1="${n(s.y(p.ms))}" y2="${n(cy)}"/>` : '';
  const ring = p.isBest && rt.status === 'valid' ? `<circle class="pt-best-ring" cx="${n(cx)}" cy="${n(cy)}" r="9"/>` : '';
  const cls = rt.status === 'valid' ? 'pt-retime' : 'pt-retime pt-retime-failed';
  const title = `<title>${escapeHtml(`re-timed: round ${p.round}, candidate ${p.index} · ${retimeText(rt)}\n${p.candidateId}`)}</title>`;
  return `${tie}${ring}<path class="${cls}" data-retime="${escapeHtml(p.candidateId)}" d="${diamond(cx, cy, 5.5)}">${title}</path>`;
}

function cross(cx: number, cy: number, r: number): string {
  return `M${n(cx - r)},${n(cy - r)}L${n(cx + r)},${n(cy + r)}M${n(cx - r)},${n(cy + r)}L${n(cx + r)},${n(cy - r)}`;
}

function marker(p: ChartPoint, s: Scales): string {
  const cx = s.x(p.x);
  const title = `<title>${escapeHtml(tooltip(p))}</title>`;
  const attrs = `data-candidate="${escapeHtml(p.candidateId)}" data-status="${escapeHtml(p.status)}"`;
  if (p.ms === null) {
    return `<path class="pt pt-untimed" ${attrs} d="${cross(cx, UNTIMED_Y, 4)}">${title}</path>`;
  }
  const cy = s.y(p.ms);
  if (!p.valid) {
    return `<path class="pt pt-invalid" ${attrs} d="${cross(cx, cy, 4.5)}">${title}</path>`;
  }
  // The best's ring goes on the figure the run reports: its re-timing's where it was re-timed.
  const ring = p.isBest && !p.retime ? `<circle class="pt-best-ring" cx="${n(cx)}" cy="${n(cy)}" r="9"/>` : '';
  return `${ring}<circle class="pt pt-valid" ${attrs} cx="${n(cx)}" cy="${n(cy)}" r="5">${title}</circle>`;
}

/**
 * Moves label baselines apart so that none is closer than `gap` to the next: the reference and
 * torch.compile latencies are often within a few pixels of each other. Keeps the input order.
 */
export function spreadLabels(ys: readonly number[], gap: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k++) {
    if (order[k].y - order[k - 1].y < gap) {
      order[k].y = order[k - 1].y + gap;
    }
  }
  const out = new Array<number>(ys.length);
  for (const o of order) {
    out[o.i] = o.y;
  }
  return out;
}

/** The whole chart as an `<svg>` element; an explanatory paragraph when there is nothing to draw. */
export function renderChart(model: ChartModel): string {
  if (model.points.length === 0) {
    return '<p class="empty">No candidates yet.</p>';
  }
  const s = scalesFor(model);
  const left = MARGIN.left;
  const right = CHART_WIDTH - MARGIN.right;
  const top = MARGIN.top;
  const bottom = CHART_HEIGHT - MARGIN.bottom;
  const out: string[] = [];
  out.push(
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" preserveAspectRatio="xMinYMin meet" role="img" aria-label="Candidate latency by round">`,
  );

  // Round bands, shaded alternately, labelled at the top.
  const slot = (s.x(2) - s.x(1)) || (right - left);
  model.rounds.forEach((r, i) => {
    const x0 = s.x(r.fromX) - slot / 2;
    const x1 = s.x(r.toX) + slot / 2;
    out.push(`<rect class="band ${i % 2 === 0 ? 'band-even' : 'band-odd'}" x="${n(x0)}" y="${top}" width="${n(x1 - x0)}" height="${bottom - top}"/>`);
    out.push(`<text class="round-label" x="${n((x0 + x1) / 2)}" y="${bottom + 30}" text-anchor="middle">round ${r.round}</text>`);
  });

  // Y axis with ticks and grid.
  if (model.yDomain !== null) {
    const [lo, hi] = model.yDomain;
    const ticks = model.logScale ? logTicks(lo, hi) : linearTicks(lo, hi);
    const labels = tickLabels(ticks, model.logScale);
    ticks.forEach((t, i) => {
      const y = s.y(t);
      out.push(`<line class="grid" x1="${left}" x2="${right}" y1="${n(y)}" y2="${n(y)}"/>`);
      out.push(`<text class="tick" x="${left - 6}" y="${n(y + 4)}" text-anchor="end">${escapeHtml(labels[i])}</text>`);
    });
  }
  const axis = `latency (ms${model.logScale ? ', log' : ''}${model.scaled ? ', at the eager median' : ''})`;
  out.push(`<text class="axis-title" x="14" y="${n((top + bottom) / 2)}" transform="rotate(-90 14 ${n((top + bottom) / 2)})" text-anchor="middle">${axis}</text>`);
  out.push(`<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"/>`);
  out.push(`<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`);
  if (model.points.some((p) => p.ms === null)) {
    out.push(`<text class="untimed-label" x="${left - 6}" y="${UNTIMED_Y + 4}" text-anchor="end">no time</text>`);
  }

  // Reference and torch.compile lines, labelled in the right margin.
  const labelYs = spreadLabels(model.lines.map((line) => s.y(line.ms) + 4), 13);
  model.lines.forEach((line, i) => {
    const y = s.y(line.ms);
    out.push(`<line class="hline hline-${line.kind}" x1="${left}" x2="${right}" y1="${n(y)}" y2="${n(y)}"><title>${escapeHtml(`${line.label}: ${formatMs(line.ms)}`)}</title></line>`);
    out.push(`<text class="hline-label hline-label-${line.kind}" x="${right + 6}" y="${n(labelYs[i])}">${escapeHtml(`${line.label} ${formatMs(line.ms)}`)}</text>`);
  });

  // Best-so-far as a step line: it only changes when a faster valid candidate arrives.
  if (model.bestSoFar.length > 0) {
    const pts: string[] = [];
    model.bestSoFar.forEach((b, i) => {
      const x = s.x(b.x);
      const y = s.y(b.ms);
      if (i > 0) {
        pts.push(`${n(x)},${n(s.y(model.bestSoFar[i - 1].ms))}`);
      }
      pts.push(`${n(x)},${n(y)}`);
    });
    const lastX = s.x(model.bestSoFar[model.bestSoFar.length - 1].x) + slot / 2;
    pts.push(`${n(lastX)},${n(s.y(model.bestSoFar[model.bestSoFar.length - 1].ms))}`);
    out.push(`<polyline class="best-so-far" points="${pts.join(' ')}"/>`);
  }

  for (const p of model.points) {
    out.push(retimeMark(p, s), marker(p, s));
  }
  out.push('</svg>');
  return out.join('');
}
