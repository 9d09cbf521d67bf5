// What the status bar item says for the server state and the latest job. Pure, so the wording is tested.
import type { JobStatus, Verdict } from './protocol';
import { formatMs, formatSpeedup } from './results/format';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Command run on click; arguments included. */
  command: { id: string; args: unknown[] } | undefined;
  severity: 'normal' | 'warning' | 'error';
}

/**
 * The verdict the editor shows (the same rule as hiera_ls/best.py shown_verdict): at or under eager's speed
 * a best is "slower" even when its pair's spread makes it level, since it is not delivered and must not read
 * like a success; above 1 the server's verdict stands (from the figure alone for a server that sends none).
 */
export function verdictOf(job: Pick<JobStatus, 'bestSpeedup' | 'verdict'>): Verdict | null {
  if (job.bestSpeedup === null) {
    return null;
  }
  if (job.bestSpeedup <= 1 || job.verdict === 'slower') {
    return 'slower';
  }
  return job.verdict === 'level' ? 'level' : 'faster';
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

function finished(job: JobStatus, results: StatusView['command']): StatusView {
  const x = job.bestSpeedup;
  const pair = pairText(job);
  const detail = job.summary ? `\n${job.summary}` : pair ? ` (${pair})` : '';
  switch (verdictOf(job)) {
    case 'faster':
      return { text: `$(check) HIERA ${formatSpeedup(x as number)}`, tooltip: `Job ${job.jobId} finished: ${formatSpeedup(x as number)} faster than eager${detail}\nClick for results.`, command: results, severity: 'normal' };
    case 'level':
      return { text: `$(dash) HIERA ${formatSpeedup(x as number)} level`, tooltip: `Job ${job.jobId} finished: ${formatSpeedup(x as number)}, level with eager (within the timing spread)${detail}\nClick for results.`, command: results, severity: 'normal' };
    case 'slower':
      return {
        text: `$(arrow-down) HIERA ${formatSpeedup(x as number)} slower`,
        tooltip: `Job ${job.jobId} finished: no candidate beat eager (best ${formatSpeedup(x as number)}${job.verdict === 'level' ? ', level within its timing spread' : ''})${detail}\nNothing was written beside the module. Click for results.`,
        command: results,
        severity: 'warning',
      };
    default:
      return { text: '$(warning) HIERA no valid candidate', tooltip: `Job ${job.jobId} finished without a valid candidate.${detail}\nClick for results.`, command: results, severity: 'warning' };
  }
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
  const best = job.bestSpeedup !== null ? `best so far ${formatSpeedup(job.bestSpeedup)}` : 'no valid candidate yet';
  const message = job.message ? `\n${job.message}` : '';
  switch (job.state) {
    case 'queued':
      return { text: '$(clock) HIERA queued', tooltip: `Job ${job.jobId} is queued.${message}`, command: results, severity: 'normal' };
    case 'running': {
      const where = progressText(job);
      return {
        text: `$(sync~spin) HIERA${where ? ` ${where}` : ''}${job.bestSpeedup !== null ? ` · ${formatSpeedup(job.bestSpeedup)}` : ''}`,
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
 * a warning when nothing faster than eager came of the run, an error when it failed. Kept short, headline
 * first, so a toast that wraps never hides the verdict.
 */
export function jobEndToast(job: JobStatus): Toast | undefined {
  const said = job.summary ? job.summary.replace(/^hiera: /, 'HIERA: ') : undefined;
  if (job.state === 'failed') {
    return { kind: 'error', text: said ?? `HIERA job failed: ${job.message}`, action: 'Show Log' };
  }
  if (job.state !== 'finished' || job.runId === null) {
    return undefined;
  }
  const verdict = verdictOf(job);
  const x = job.bestSpeedup !== null ? formatSpeedup(job.bestSpeedup) : '';
  const fallback =
    verdict === null ? 'HIERA: the run found no valid candidate.' : verdict === 'slower' ? `HIERA: no candidate beat eager (best ${x}); nothing was written beside the module.` : `HIERA run finished: ${x}${verdict === 'level' ? ', level with eager' : ' faster than eager'}.`;
  return { kind: verdict === 'faster' || verdict === 'level' ? 'info' : 'warning', text: said ?? fallback, action: 'Show Results' };
}
