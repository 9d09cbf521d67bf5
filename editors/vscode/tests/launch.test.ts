import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SERVER_MODULE, checkServerModule, moduleCheckArgs, serverLaunch } from '../src/launch';

describe('serverLaunch', () => {
  it('runs `<python> -m hiera_ls` in the workspace folder', () => {
    const spec = serverLaunch(['/ws/.venv/bin/python'], { cwd: '/ws', env: {} });
    assert.equal(spec.command, '/ws/.venv/bin/python');
    assert.deepEqual(spec.args, ['-m', 'hiera_ls']);
    assert.equal(spec.cwd, '/ws');
  });

  it('puts the interpreter arguments before -m', () => {
    const spec = serverLaunch(['conda', 'run', '-n', 'gpu', 'python'], { env: {} });
    assert.equal(spec.command, 'conda');
    assert.deepEqual(spec.args, ['run', '-n', 'gpu', 'python', '-m', SERVER_MODULE]);
  });

  it('passes the environment through (the API key variable included) and forces unbuffered UTF-8 output', () => {
    const spec = serverLaunch(['python3'], { env: { OPENAI_API_KEY: 'sk-test', PATH: '/bin', PYTHONUNBUFFERED: '0' } });
    assert.equal(spec.env.OPENAI_API_KEY, 'sk-test');
    assert.equal(spec.env.PATH, '/bin');
    assert.equal(spec.env.PYTHONUNBUFFERED, '1');
    assert.equal(spec.env.PYTHONIOENCODING, 'utf-8');
  });

  it('refuses an empty interpreter', () => {
    assert.throws(() => serverLaunch([], { env: {} }), /no Python interpreter/);
    assert.throws(() => serverLaunch([' '], { env: {} }), /no Python interpreter/);
  });
});

describe('checkServerModule', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hiera-launch-'));
  function fakePython(name: string, body: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }

  it('asks find_spec about hiera_ls without importing it', () => {
    const { command, args } = moduleCheckArgs(['/py', '-I']);
    assert.equal(command, '/py');
    assert.deepEqual(args.slice(0, 2), ['-I', '-c']);
    assert.match(args[2], /find_spec\("hiera_ls"\)/);
    assert.doesNotMatch(args[2], /import hiera_ls/);
  });

  it('reports a missing interpreter', async () => {
    const r = await checkServerModule([path.join(dir, 'no-such-python')]);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, 'interpreter-not-found');
  });

  it('reports a missing module from the exit status', async () => {
    const r = await checkServerModule([fakePython('missing', 'exit 3')]);
    assert.equal(!r.ok && r.reason, 'module-missing');
  });

  it('passes when the interpreter says the module is there', async () => {
    assert.deepEqual(await checkServerModule([fakePython('present', 'exit 0')]), { ok: true });
  });

  it('reports other failures with stderr', async () => {
    const r = await checkServerModule([fakePython('broken', 'echo boom >&2; exit 1')]);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.reason === 'error' && r.detail.includes('boom'));
  });
});
