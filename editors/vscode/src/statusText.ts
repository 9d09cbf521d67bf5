// What the status bar item says for the server state and the latest job. Pure, so the wording is tested.
import { isTerminal, type JobStatus, type Verdict } from './protocol';
import { figureText, formatMs, formatRatio } from './results/format';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Command run on click; arguments included. */
  command: { id: string; args: unknown[] } | undefined;
  severity: 'normal' | 'warning' | 'error';
}

/**
 * The verdict the server sent with the job's end (contracts/verdict.py decides it, hiera-ls sends it): the
 * extension shows it and never works one out itself. Null when there is no figure, or the server sent none.
 */
export function verdictOf(job: Pick<JobStatus, 'bestSpeedup' | 'verdict'>): Verdict | null {
  return job.bestSpeedup === null ? null : (job.verdict ?? null);
}

/** 'r2/3 c3/6': the same round and candidate numbers the code lens shows (hiera-ls `round 2/3 · candidate 3/6`). */
export function progressText(job: Pick<JobStatus, 'round' | 'rounds' | 'index' | 'of'>): string {
  const parts: string[] = [];
  if (job.round !== null) {
    parts.push(`r${job.round}${job.rounds ? `/${job.rounds}` : ''}`);
  }
  if (job.index !== null && job.of !== null && job.index > 0) {
    parts.push(`c${job.index}/${job.of}`);
  }
  return parts.join(' ');
}

/** '8.221 ms vs 16.56 ms eager, re-timed': the two times the final figure is the ratio of. */
export function pairText(job: Pick<JobStatus, 'bestMs' | 'referenceMs' | 'retimed'>): string {
  if (typeof job.bestMs !== 'number' || typeof job.referenceMs !== 'number') {
    return '';
  }
  return `${formatMs(job.bestMs)} vs ${formatMs(job.referenceMs)} eager${job.retimed ? ', re-timed' : ''}`;
}

/** The server's words for the figure, then the flags: the tooltip's first lines. */
function figureLines(job: JobStatus, x: number): string {
  const headline = job.headline ?? formatRatio(x, job.spread);
  const sure = job.uncertainty ? ` ${job.uncertainty}` : '';
  const pair = pairText(job);
  const flags = (job.warnings ?? []).map((w) => `\n${w}`).join('');
  return `${headline}${sure}${pair ? ` (${pair})` : ''}${flags}`;
}

function finished(job: JobStatus, results: StatusView['command']): StatusView {
  const x = job.bestSpeedup;
  const summary = job.summary ? `\n${job.summary}` : '';
  if (x === null) {
    return { text: '$(warning) HIERA no valid candidate', tooltip: `Job ${job.jobId} finished without a valid candidate.${summary}\nClick for results.`, command: results, severity: 'warning' };
  }
  const ratio = formatRatio(x, job.spread);
  const flagged = (job.warnings ?? []).length > 0 ? ' $(warning)' : '';
  const tooltip = (what: string) => `Job ${job.jobId} finished: ${what}${summary}\nClick for results.`;
  const notWritten = '\nNothing was written beside the module.';
  switch (verdictOf(job)) {
    case 'faster':
      return { text: `$(check) HIERA ${ratio}${flagged}`, tooltip: tooltip(figureLines(job, x)), command: results, severity: flagged ? 'warning' : 'normal' };
    case 'level':
      return { text: `$(dash) HIERA level ${figureText(x, job.spread)}×`, tooltip: tooltip(figureLines(job, x) + notWritten), command: results, severity: 'warning' };
    case 'slower':
      return { text: `$(arrow-down) HIERA ${ratio}`, tooltip: tooltip(figureLines(job, x) + notWritten), command: results, severity: 'warning' };
    case 'unstable':
      return { text: '$(warning) HIERA unstable timing', tooltip: tooltip(figureLines(job, x) + notWritten), command: results, severity: 'warning' };
    default:
      // A server that sent no verdict: the figure alone, no verdict of ours.
      return { text: `$(info) HIERA ${ratio}`, tooltip: tooltip(figureLines(job, x)), command: results, severity: 'normal' };
  }
}

/**
 * What the status bar keeps when the server restarts: a job that ended keeps its result (as the code lens keeps
 * the run's), a queued or running one is gone with the old server and is dropped.
 */
export function keptAcrossRestart(job: JobStatus | undefined): JobStatus | undefined {
  return job !== undefined && isTerminal(job.state) ? job : undefined;
}

export function statusView(server: ServerState, job: JobStatus | undefined): StatusView {
  if (server === 'failed') {
    return {
      text: '$(error) HIERA',
      tooltip: 'hiera-ls is not running. Click for the log.',
      command: { id: 'hiera.showLog', args: [] },
      severity: 'error',
    };
  }
  if (server === 'starting' || server === 'stopped') {
    return {
      text: '$(loading~spin) HIERA',
      tooltip: server === 'starting' ? 'hiera-ls is starting…' : 'hiera-ls is stopped',
      command: { id: 'hiera.showLog', args: [] },
      severity: 'normal',
    };
  }
  if (job === undefined) {
    return {
      text: '$(zap) HIERA',
      tooltip: 'hiera-ls is ready. Put the cursor in a module class and run “HIERA: Optimize Module at Cursor”.',
      command: { id: 'hiera.showLog', args: [] },
      severity: 'normal',
    };
  }
  const results = job.runId !== null ? { id: 'hiera.showResults', args: [job.runId] } : { id: 'hiera.showLog', args: [] };
  const best = job.bestSpeedup !== null ? `best so far ${formatRatio(job.bestSpeedup)}` : 'no valid candidate yet';
  const message = job.message ? `\n${job.message}` : '';
  switch (job.state) {
    case 'queued':
      return { text: '$(clock) HIERA queued', tooltip: `Job ${job.jobId} is queued.${message}`, command: results, severity: 'normal' };
    case 'running': {
      // Re-timing the best takes a while on a slow machine: said as such, not as the last candidate's progress.
      const where = job.retiming ? 're-timing' : progressText(job);
      return {
        text: `$(sync~spin) HIERA${where ? ` ${where}` : ''}${job.bestSpeedup !== null ? ` · ${formatRatio(job.bestSpeedup)}` : ''}`,
        tooltip: `Job ${job.jobId} running: ${best}.${message}\nClick for results; “HIERA: Cancel Running Job” stops it.`,
        command: results,
        severity: 'normal',
      };
    }
    case 'finished':
      return finished(job, results);
    case 'failed':
      return { text: '$(error) HIERA failed', tooltip: `Job ${job.jobId} failed.${job.summary ? `\n${job.summary}` : message}`, command: results, severity: 'error' };
    case 'cancelled':
      return { text: '$(circle-slash) HIERA cancelled', tooltip: `Job ${job.jobId} was cancelled.${message}`, command: results, severity: 'warning' };
  }
}

export interface Toast {
  kind: 'info' | 'warning' | 'error';
  text: string;
  action: 'Show Results' | 'Show Log';
}

/**
 * The one notification for a job's end: the server's own sentence (it logs it and leaves the toast to us),
 * a warning when nothing faster than eager came of the run or the engine flagged the best, an error when it
 * failed. The server keeps it short, headline first, so a toast that wraps never hides the verdict.
 */
export function jobEndToast(job: JobStatus): Toast | undefined {
  if (job.state === 'failed') {
    return { kind: 'error', text: job.summary ?? `HIERA: the job failed: ${job.message}`, action: 'Show Log' };
  }
  if (job.state !== 'finished' || job.runId === null) {
    return undefined;
  }
  const verdict = verdictOf(job);
  const fallback =
    job.bestSpeedup === null ? 'HIERA: the run found no valid candidate.' : `HIERA: the run finished: ${job.headline ?? formatRatio(job.bestSpeedup, job.spread)}.`;
  const good = (verdict === 'faster' || verdict === null) && (job.warnings ?? []).length === 0 && job.bestSpeedup !== null;
  return { kind: good ? 'info' : 'warning', text: job.summary ?? fallback, action: 'Show Results' };
}
