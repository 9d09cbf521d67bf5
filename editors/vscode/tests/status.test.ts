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

  it('shows a win, a level result, a slowdown and unstable timing each with its own icon and the server\'s words', () => {
    const done = { state: 'finished' as const, bestMs: 8.2213, referenceMs: 16.56, retimed: true, delivered: true, spread: 0.03 };
    const win = statusView('running', job({ ...done, bestSpeedup: 2.0143, verdict: 'faster', headline: '2.0× faster than eager', uncertainty: '±3%' }));
    assert.equal(win.text, '$(check) HIERA 2.0×');
    assert.match(win.tooltip, /2\.0× faster than eager ±3% \(8\.221 ms vs 16\.56 ms eager, re-timed\)/);
    assert.equal(win.severity, 'normal');
    // a flag makes the win a warning, and the tooltip says it in words
    const flagged = statusView('running', job({ ...done, bestSpeedup: 17.04, verdict: 'faster', warnings: ['flagged: over 10× — check before trusting'] }));
    assert.equal(flagged.text, '$(check) HIERA 17× $(warning)');
    assert.equal(flagged.severity, 'warning');
    assert.match(flagged.tooltip, /flagged: over 10× — check before trusting/);
    assert.equal(statusView('running', job({ ...done, bestSpeedup: 1.01, verdict: 'level' })).text, '$(dash) HIERA level 1.0×');
    // a slowdown by its own size: 88× slower, never 0.01×
    const loss = statusView('running', job({ ...done, bestSpeedup: 0.0114, verdict: 'slower', delivered: false, headline: '88× slower than eager' }));
    assert.equal(loss.text, '$(arrow-down) HIERA 88× slower');
    assert.equal(loss.severity, 'warning');
    assert.match(loss.tooltip, /88× slower than eager.*\nNothing was written beside the module/s);
    const unstable = statusView('running', job({ ...done, bestSpeedup: 9.0, verdict: 'unstable', uncertainty: '9.0× from timings spread ±137% (candidate) and ±163% (eager), over the ±100% limit' }));
    assert.equal(unstable.text, '$(warning) HIERA unstable timing');
    assert.match(unstable.tooltip, /±137% \(candidate\)/);
    // a level figure under 1 is level, as the server says: no verdict of the extension's own
    assert.equal(statusView('running', job({ ...done, bestSpeedup: 0.67, verdict: 'level', spread: 0.45, delivered: false })).text, '$(dash) HIERA level 0.67×');
    assert.equal(statusView('running', job({ state: 'finished', bestSpeedup: null })).text, '$(warning) HIERA no valid candidate');
  });

  it('shows re-timing as progress, not as the last candidate', () => {
    assert.equal(statusView('running', job({ retiming: 'r1c2' })).text, '$(sync~spin) HIERA re-timing · 1.73×');
  });

  it('makes one toast per job end: the server sentence, a warning when nothing beat eager or the best is flagged', () => {
    const summary = 'HIERA: Model is 2.0× faster than eager (8.221 ms vs 16.56 ms eager, re-timed, ±3%). Created m_hiera.py.';
    assert.deepEqual(jobEndToast(job({ state: 'finished', bestSpeedup: 2.01, verdict: 'faster', summary })), {
      kind: 'info',
      text: summary,
      action: 'Show Results',
    });
    const loss = jobEndToast(job({ state: 'finished', bestSpeedup: 0.39, verdict: 'slower', headline: '2.6× slower than eager' }));
    assert.equal(loss?.kind, 'warning');
    assert.equal(loss?.text, 'HIERA: the run finished: 2.6× slower than eager.');
    assert.equal(jobEndToast(job({ state: 'finished', bestSpeedup: 17, verdict: 'faster', summary, warnings: ['flagged: over 10× — check before trusting'] }))?.kind, 'warning');
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
    assert.equal(mock.text, '$(loading~spin) HIERA');
    item.setServerState('running');
    // a job that ended keeps its result across a restart, as the code lens keeps the run's
    assert.equal(mock.text, '$(error) HIERA failed');
    item.setJob(job({ state: 'finished', bestSpeedup: 2.5, verdict: 'faster' }));
    item.setServerState('starting');
    item.setServerState('running');
    assert.equal(mock.text, '$(check) HIERA 2.50×');
    // a running one is gone with the old server
    item.setJob(job({ state: 'running' }));
    item.setServerState('starting');
    item.setServerState('running');
    assert.equal(mock.text, '$(zap) HIERA');
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
