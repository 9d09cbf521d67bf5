import { state } from './vscodeMock';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { JobTracker } from '../src/jobs';
import type { JobStatus } from '../src/protocol';
import { StatusItem } from '../src/status';
import { jobEndToast, statusView } from '../src/statusText';

function job(overrides: Partial<JobStatus>): JobStatus {
  return { jobId: 'j1', state: 'running', runId: 'run-1', round: 2, index: 3, of: 6, bestSpeedup: 1.734, message: '', ...overrides };
}

describe('statusView', () => {
  it('shows round, candidate and best speedup while running, and opens the results on click', () => {
    const v = statusView('running', job({}));
    assert.equal(v.text, '$(sync~spin) HIERA r2 c3/6 · 1.73×');
    assert.deepEqual(v.command, { id: 'hiera.showResults', args: ['run-1'] });
    // the same round and candidate numbers as the code lens ("round 2/3 · candidate 3/6")
    assert.equal(statusView('running', job({ rounds: 3 })).text, '$(sync~spin) HIERA r2/3 c3/6 · 1.73×');
    assert.equal(statusView('running', job({ round: null, index: null, bestSpeedup: null })).text, '$(sync~spin) HIERA');
  });

  it('shows a win, a level result and a slowdown each with its own icon and words', () => {
    const done = { state: 'finished' as const, bestMs: 8.2213, referenceMs: 16.56, retimed: true, delivered: true };
    const win = statusView('running', job({ ...done, bestSpeedup: 2.0143, verdict: 'faster' }));
    assert.equal(win.text, '$(check) HIERA 2.01×');
    assert.match(win.tooltip, /2\.01× faster than eager \(8\.221 ms vs 16\.56 ms eager, re-timed\)/);
    assert.equal(win.severity, 'normal');
    assert.equal(statusView('running', job({ ...done, bestSpeedup: 1.01, verdict: 'level' })).text, '$(dash) HIERA 1.01× level');
    const loss = statusView('running', job({ ...done, bestSpeedup: 0.39, verdict: 'slower', delivered: false }));
    assert.equal(loss.text, '$(arrow-down) HIERA 0.39× slower');
    assert.equal(loss.severity, 'warning');
    assert.match(loss.tooltip, /Nothing was written beside the module/);
    // under eager's speed is a slowdown even when the pair's spread calls it level: it was not delivered
    assert.equal(statusView('running', job({ ...done, bestSpeedup: 0.67, verdict: 'level', delivered: false })).text, '$(arrow-down) HIERA 0.67× slower');
    // a server without verdicts: the figure decides, and a slowdown never gets the check mark
    assert.equal(statusView('running', job({ state: 'finished', bestSpeedup: 0.39 })).text, '$(arrow-down) HIERA 0.39× slower');
    assert.equal(statusView('running', job({ state: 'finished', bestSpeedup: null })).text, '$(warning) HIERA no valid candidate');
  });

  it('makes one toast per job end: the server sentence, a warning when nothing beat eager', () => {
    const summary = 'hiera: Model is 2.01× faster than eager (8.221 ms vs 16.56 ms eager, re-timed): created m_hiera.py';
    assert.deepEqual(jobEndToast(job({ state: 'finished', bestSpeedup: 2.01, verdict: 'faster', summary })), {
      kind: 'info',
      text: summary.replace('hiera:', 'HIERA:'),
      action: 'Show Results',
    });
    const loss = jobEndToast(job({ state: 'finished', bestSpeedup: 0.39, verdict: 'slower' }));
    assert.equal(loss?.kind, 'warning');
    assert.match(loss?.text ?? '', /no candidate beat eager \(best 0\.39×\); nothing was written/);
    assert.equal(jobEndToast(job({ state: 'failed', message: 'failed: nvcc' }))?.kind, 'error');
    assert.equal(jobEndToast(job({ state: 'running' })), undefined);
  });

  it('flags failures and cancellations', () => {
    assert.equal(statusView('running', job({ state: 'failed', message: 'nvcc missing' })).severity, 'error');
    assert.match(statusView('running', job({ state: 'failed', message: 'nvcc missing' })).tooltip, /nvcc missing/);
    assert.equal(statusView('running', job({ state: 'cancelled' })).severity, 'warning');
  });

  it('shows the server state before any job, and the log when the server failed', () => {
    assert.equal(statusView('running', undefined).text, '$(zap) HIERA');
    const failed = statusView('failed', job({}));
    assert.equal(failed.severity, 'error');
    assert.deepEqual(failed.command, { id: 'hiera.showLog', args: [] });
  });

  it('falls back to the log when a job has no run yet', () => {
    assert.deepEqual(statusView('running', job({ state: 'queued', runId: null })).command, { id: 'hiera.showLog', args: [] });
  });
});

describe('StatusItem (through the vscode API)', () => {
  beforeEach(() => state.reset());

  it('creates a visible item and follows server and job updates', () => {
    const item = new StatusItem();
    const mock = state.statusBarItems[0];
    assert.ok(mock.visible);
    assert.equal(mock.id, 'hiera.status');
    item.setServerState('running');
    item.setJob(job({ state: 'failed' }));
    assert.equal(mock.text, '$(error) HIERA failed');
    assert.equal(mock.backgroundColor?.id, 'statusBarItem.errorBackground');
    assert.deepEqual(mock.command?.arguments, ['run-1']);
    item.setServerState('starting');
    assert.equal(mock.text, '$(loading~spin) HIERA', 'a restarted server forgets the old job');
    item.dispose();
    assert.equal(state.statusBarItems.length, 0);
  });
});

describe('JobTracker', () => {
  it('tracks busy jobs and reports the moment one ends, once', () => {
    const t = new JobTracker();
    assert.equal(t.update(job({ state: 'queued', runId: null })), false);
    assert.ok(t.busy);
    assert.equal(t.update(job({ state: 'running' })), false);
    assert.equal(t.update(job({ state: 'finished' })), true);
    assert.equal(t.update(job({ state: 'finished' })), false, 'a repeated terminal status is not a new end');
    assert.ok(!t.busy);
    assert.equal(t.latestRunId, 'run-1');
  });

  it('keeps the latest job for the status bar and the latest run across a clear', () => {
    const t = new JobTracker();
    t.update(job({ jobId: 'a', runId: 'run-a' }));
    t.update(job({ jobId: 'b', runId: 'run-b', state: 'queued' }));
    assert.equal(t.latest?.jobId, 'b');
    assert.equal(t.active.length, 2);
    t.clear();
    assert.ok(!t.busy);
    assert.equal(t.latest, undefined);
    assert.equal(t.latestRunId, 'run-b');
  });
});
