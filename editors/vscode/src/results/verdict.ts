// The verdict rule (contracts/verdict.py), ported: the 95% interval of a speedup from its pair's samples, the
// verdict read off it, and the interval's words. The server sends a best's verdict and words; the results view
// reads each candidate's own verdict off the interval its row carries (`low`, `high`) with this same rule, and
// tests/data/verdict_rows.json holds the sample rows both test suites check (editors/vscode/tests/verdict.test.ts
// and tests/test_verdict_rule.py), so the two ports cannot drift. Pure.
import type { Verdict } from '../protocol';
import { figureText } from './format';

/** The confidence of an interval, and each side's share of it (independent sides: the product). */
export const CONFIDENCE = 0.95;
export const SIDE_CONFIDENCE = Math.sqrt(CONFIDENCE);
/** Exact binomial sums up to this many samples, the normal approximation (Z_SIDE) beyond. */
export const EXACT_N = 1000;
export const Z_SIDE = 2.2365;
/** A straddling interval whose upper end is over this many times its lower end is too wide to say anything. */
export const WIDE = 2.0;

/**
 * 0-based indexes [lo, hi] into n sorted samples that bound their median with at least `confidence`: x_(k) and
 * x_(n+1-k) for the largest k with P(Binomial(n, 1/2) <= k - 1) <= (1 - confidence) / 2 (at least k = 1).
 */
export function medianRanks(n: number, confidence: number = SIDE_CONFIDENCE): [number, number] {
  if (n <= 0) {
    throw new Error('no samples');
  }
  const tail = (1.0 - confidence) / 2.0;
  let k = 0;
  if (n > EXACT_N) {
    k = Math.floor(n / 2 - (Z_SIDE * Math.sqrt(n)) / 2);
  } else {
    let pmf = 0.5 ** n;
    let cdf = pmf;
    let i = 0;
    while (cdf <= tail && i < n) {
      k = i + 1;
      pmf = (pmf * (n - i)) / (i + 1);
      i += 1;
      cdf += pmf;
    }
  }
  k = Math.max(k, 1);
  return [k - 1, n - k];
}

/** The interval of eager's median over the candidate's at `confidence`; null when a side has no positive samples. */
export function ratioInterval(candidate: readonly number[], reference: readonly number[], confidence: number = CONFIDENCE): [number, number] | null {
  const c = [...candidate].sort((a, b) => a - b);
  const r = [...reference].sort((a, b) => a - b);
  if (c.length === 0 || r.length === 0 || c[0] <= 0 || r[0] <= 0) {
    return null;
  }
  const side = Math.sqrt(confidence);
  const [cLo, cHi] = medianRanks(c.length, side);
  const [rLo, rHi] = medianRanks(r.length, side);
  return [r[rLo] / c[cHi], r[rHi] / c[cLo]];
}

/** For a record without samples: eager's p25 over the candidate's p75 to eager's p75 over the candidate's p25. */
export function quartileInterval(candidateP25: number, candidateP75: number, referenceP25: number, referenceP75: number): [number, number] | null {
  if (!(candidateP25 > 0 && candidateP75 > 0 && referenceP25 > 0 && referenceP75 > 0)) {
    return null;
  }
  return [referenceP25 / candidateP75, referenceP75 / candidateP25];
}

/** Faster when the whole interval is above 1, slower when it is below 1, level when it straddles 1. */
export function verdictOfInterval(low: number, high: number): Verdict {
  if (low > 1.0) {
    return 'faster';
  }
  if (high < 1.0) {
    return 'slower';
  }
  return 'level';
}

export function tooWide(low: number | null | undefined, high: number | null | undefined): boolean {
  return typeof low === 'number' && typeof high === 'number' && low <= 1.0 && 1.0 <= high && high > WIDE * low;
}

const positive = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/**
 * '2.1–5.6× at 95%', '5.3–6.4× slower at 95%' (wholly below 1), '0.80–1.3× at 95%' (straddling 1), '(quartile range)'
 * for a record without samples, '' for none (contracts/verdict.py interval_text).
 */
export function intervalText(low: number | null | undefined, high: number | null | undefined, confidence: number | null | undefined, spread?: number | null, sign = '×'): string {
  if (!positive(low) || !positive(high)) {
    return '';
  }
  const slowdown = high < 1.0;
  const [lo, hi] = slowdown ? [1.0 / high, 1.0 / low] : [low, high];
  let a = figureText(lo, spread);
  let b = figureText(hi, spread);
  if (a === b) {
    a = lo.toFixed(2);
    b = hi.toFixed(2);
  }
  const ends = a === b ? `${a}${sign}` : `${a}–${b}${sign}`;
  const at = typeof confidence === 'number' ? `at ${(confidence * 100).toFixed(0)}%` : '(quartile range)';
  return `${ends}${slowdown ? ' slower' : ''} ${at}`;
}
