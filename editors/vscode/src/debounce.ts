// Trailing-edge debounce with injectable timers, so tests control time instead of sleeping.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Calls `fn` once, `delayMs` after the last of a burst of `trigger()` calls. */
export class Debouncer {
  private handle: unknown = undefined;

  constructor(
    private readonly fn: () => void,
    private readonly delayMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  get pending(): boolean {
    return this.handle !== undefined;
  }

  trigger(): void {
    this.cancel();
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      this.fn();
    }, this.delayMs);
  }

  cancel(): void {
    if (this.handle !== undefined) {
      this.timers.clearTimeout(this.handle);
      this.handle = undefined;
    }
  }

  dispose(): void {
    this.cancel();
  }
}
