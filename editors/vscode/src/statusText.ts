// What the status bar item says for the server state and the latest job. Pure, so the wording is tested.
import type { JobStatus } from './protocol';

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Command run on click; arguments included. */
  command: { id: string; args: unknown[] } | undefined;
  severity: 'normal' | 'warning' | 'error';
}

function speedup(x: number | null): string {
  return x === null ? '' : ` ${x.toFixed(2)}×`;
}

function progress(job: JobStatus): string {
  const parts: string[] = [];
  if (job.round !== null) {
    parts.push(`r${job.round}`);
  }
  if (job.index !== null && job.of !== null) {
    parts.push(`${job.index}/${job.of}`);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
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
  const best = job.bestSpeedup !== null ? `best ${job.bestSpeedup.toFixed(2)}×` : 'no valid candidate yet';
  const message = job.message ? `\n${job.message}` : '';
  switch (job.state) {
    case 'queued':
      return { text: '$(clock) HIERA queued', tooltip: `Job ${job.jobId} is queued.${message}`, command: results, severity: 'normal' };
    case 'running':
      return {
        text: `$(sync~spin) HIERA${progress(job)}${job.bestSpeedup !== null ? ` · ${job.bestSpeedup.toFixed(2)}×` : ''}`,
        tooltip: `Job ${job.jobId} running: ${best}.${message}\nClick for results; “HIERA: Cancel Running Job” stops it.`,
        command: results,
        severity: 'normal',
      };
    case 'finished':
      return {
        text: `$(check) HIERA${job.bestSpeedup !== null ? speedup(job.bestSpeedup) : ' no speedup'}`,
        tooltip: `Job ${job.jobId} finished: ${best}.${message}\nClick for results.`,
        command: results,
        severity: 'normal',
      };
    case 'failed':
      return { text: '$(error) HIERA failed', tooltip: `Job ${job.jobId} failed.${message}`, command: results, severity: 'error' };
    case 'cancelled':
      return { text: '$(circle-slash) HIERA cancelled', tooltip: `Job ${job.jobId} was cancelled.${message}`, command: results, severity: 'warning' };
  }
}
