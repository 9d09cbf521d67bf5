// What the client knows about the server's jobs, from the `hiera/jobStatus` notifications alone.
import { isTerminal, type JobStatus } from './protocol';

export class JobTracker {
  private readonly jobs = new Map<string, JobStatus>();
  private lastJobId: string | undefined;
  private lastRunId: string | undefined;

  /** Records a status; returns true when it ended a job (the moment deferred restarts may run). */
  update(status: JobStatus): boolean {
    const before = this.jobs.get(status.jobId);
    this.jobs.set(status.jobId, status);
    this.lastJobId = status.jobId;
    if (status.runId !== null) {
      this.lastRunId = status.runId;
    }
    return isTerminal(status.state) && (before === undefined || !isTerminal(before.state));
  }

  /** The job the status bar shows: the most recently reported one. */
  get latest(): JobStatus | undefined {
    return this.lastJobId === undefined ? undefined : this.jobs.get(this.lastJobId);
  }

  get active(): JobStatus[] {
    return [...this.jobs.values()].filter((j) => !isTerminal(j.state));
  }

  get busy(): boolean {
    return this.active.length > 0;
  }

  /** The run whose results a bare "Show Results" opens: the last run any status named. */
  get latestRunId(): string | undefined {
    return this.lastRunId;
  }

  /** A restarted server has no jobs: forget them so nothing waits on a job that cannot end. */
  clear(): void {
    this.jobs.clear();
    this.lastJobId = undefined;
  }
}
