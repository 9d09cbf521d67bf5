// When to restart hiera-ls. Interpreter and settings change events come in bursts (the Python extension is
// known to fire several per selection, astral-sh/ty-vscode#397), and a restart kills a running job, so
// requests are debounced and settings-only restarts wait for the job to end.
import { Debouncer, realTimers, type Timers } from './debounce';

export const RESTART_DELAY_MS = 500;

export class RestartScheduler {
  private readonly debouncer: Debouncer;
  private reasons = new Set<string>();
  private deferred = new Set<string>();

  constructor(
    private readonly restart: (reason: string) => void,
    private readonly isBusy: () => boolean,
    delayMs: number = RESTART_DELAY_MS,
    timers: Timers = realTimers,
  ) {
    this.debouncer = new Debouncer(() => this.fire(), delayMs, timers);
  }

  /** Restart soon, once per burst of requests. */
  request(reason: string): void {
    this.reasons.add(reason);
    this.debouncer.trigger();
  }

  /** Restart soon if no job is running; otherwise once the job has ended (see `jobEnded`). */
  requestWhenIdle(reason: string): void {
    if (this.isBusy()) {
      this.deferred.add(reason);
    } else {
      this.request(reason);
    }
  }

  /** To be called when a job reaches a terminal state. */
  jobEnded(): void {
    if (this.deferred.size > 0 && !this.isBusy()) {
      const reasons = [...this.deferred];
      this.deferred.clear();
      for (const r of reasons) {
        this.request(r);
      }
    }
  }

  /** Restart at once (the restart command): whatever was pending is folded in. */
  now(reason: string): void {
    this.debouncer.cancel();
    this.reasons.add(reason);
    for (const r of this.deferred) {
      this.reasons.add(r);
    }
    this.deferred.clear();
    this.fire();
  }

  get hasDeferred(): boolean {
    return this.deferred.size > 0;
  }

  private fire(): void {
    const reason = [...this.reasons].join(', ');
    this.reasons.clear();
    this.restart(reason);
  }

  dispose(): void {
    this.debouncer.dispose();
  }
}
