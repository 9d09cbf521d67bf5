import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Debouncer, type Timers } from '../src/debounce';
import { RestartScheduler } from '../src/restart';

/** Timers under the test's control: `advance(ms)` runs what falls due. */
class FakeTimers implements Timers {
  now = 0;
  private next = 1;
  private pending = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= this.now) {
        this.pending.delete(id);
        t.fn();
      }
    }
  }
}

describe('Debouncer', () => {
  it('calls once, delay after the last trigger of a burst', () => {
    const timers = new FakeTimers();
    let calls = 0;
    const d = new Debouncer(() => calls++, 100, timers);
    d.trigger();
    timers.advance(60);
    d.trigger();
    timers.advance(60);
    assert.equal(calls, 0, 'the second trigger pushed the call back');
    assert.ok(d.pending);
    timers.advance(40);
    assert.equal(calls, 1);
    assert.ok(!d.pending);
    timers.advance(1000);
    assert.equal(calls, 1);
  });

  it('does not call after cancel', () => {
    const timers = new FakeTimers();
    let calls = 0;
    const d = new Debouncer(() => calls++, 100, timers);
    d.trigger();
    d.cancel();
    timers.advance(500);
    assert.equal(calls, 0);
  });
});

describe('RestartScheduler', () => {
  function setup(busy = false) {
    const timers = new FakeTimers();
    const restarts: string[] = [];
    const flags = { busy };
    const s = new RestartScheduler((r) => restarts.push(r), () => flags.busy, 500, timers);
    return { timers, restarts, flags, s };
  }

  it('folds a burst of interpreter and settings changes into one restart', () => {
    const { timers, restarts, s } = setup();
    s.request('Python interpreter changed');
    timers.advance(100);
    s.request('Python interpreter changed');
    s.requestWhenIdle('settings changed');
    timers.advance(499);
    assert.deepEqual(restarts, []);
    timers.advance(1);
    assert.deepEqual(restarts, ['Python interpreter changed, settings changed']);
  });

  it('holds settings restarts while a job runs and restarts once it has ended', () => {
    const { timers, restarts, flags, s } = setup(true);
    s.requestWhenIdle('settings changed');
    timers.advance(10_000);
    assert.deepEqual(restarts, []);
    assert.ok(s.hasDeferred);
    flags.busy = false;
    s.jobEnded();
    timers.advance(500);
    assert.deepEqual(restarts, ['settings changed']);
    assert.ok(!s.hasDeferred);
  });

  it('does not restart at job end when nothing was deferred', () => {
    const { timers, restarts, s } = setup();
    s.jobEnded();
    timers.advance(1000);
    assert.deepEqual(restarts, []);
  });

  it('restarts at once on the command, absorbing pending and deferred requests', () => {
    const { timers, restarts, flags, s } = setup(true);
    s.requestWhenIdle('settings changed');
    flags.busy = false;
    s.request('Python interpreter changed');
    s.now('restart command');
    assert.equal(restarts.length, 1);
    assert.match(restarts[0], /restart command/);
    assert.match(restarts[0], /settings changed/);
    timers.advance(1000);
    assert.equal(restarts.length, 1, 'the pending debounce was cancelled');
  });
});
