import { EventEmitter, fakeLog, state } from './vscodeMock';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { FALLBACK_PYTHON, PYTHON_EXTENSION_ID, PythonExtensionInterpreter, chooseInterpreter } from '../src/python';

describe('chooseInterpreter', () => {
  it('prefers hiera.interpreter, then the Python extension, then python3', () => {
    assert.deepEqual(chooseInterpreter(['/venv/bin/python'], '/usr/bin/python3.12'), { command: ['/venv/bin/python'], source: 'hiera.interpreter' });
    assert.deepEqual(chooseInterpreter([], '/usr/bin/python3.12'), { command: ['/usr/bin/python3.12'], source: 'Python extension' });
    assert.deepEqual(chooseInterpreter([], undefined), { command: [FALLBACK_PYTHON], source: 'default' });
    assert.deepEqual(chooseInterpreter([], ''), { command: [FALLBACK_PYTHON], source: 'default' });
  });
});

describe('PythonExtensionInterpreter (through the vscode API)', () => {
  beforeEach(() => state.reset());
  const log = fakeLog() as unknown as vscode.LogOutputChannel;

  function installPythonExtension(executable: string | undefined) {
    const changed = new EventEmitter<unknown>();
    const api = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'env', path: '/envs/a' }),
        resolveEnvironment: () => Promise.resolve(executable === undefined ? undefined : { executable: { uri: { fsPath: executable } } }),
        onDidChangeActiveEnvironmentPath: changed.event,
      },
    };
    state.extensions.set(PYTHON_EXTENSION_ID, { isActive: true, exports: api, activate: () => Promise.resolve(api) });
    return changed;
  }

  it('answers nothing when the Python extension is not installed', async () => {
    const p = new PythonExtensionInterpreter(log);
    assert.equal(await p.executable(), undefined);
    p.dispose();
  });

  it("returns the selected environment's executable, or its path when it cannot be resolved", async () => {
    installPythonExtension('/envs/a/bin/python');
    const p = new PythonExtensionInterpreter(log);
    assert.equal(await p.executable(), '/envs/a/bin/python');
    p.dispose();
    state.reset();
    installPythonExtension(undefined);
    const q = new PythonExtensionInterpreter(log);
    assert.equal(await q.executable(), '/envs/a');
    q.dispose();
  });

  it('reports a change of the selected interpreter and the extension appearing', async () => {
    const p = new PythonExtensionInterpreter(log);
    let changes = 0;
    p.onDidChange(() => changes++);
    const envChanged = installPythonExtension('/envs/a/bin/python');
    state.extensionsChanged.fire();
    assert.equal(changes, 1, 'the extension was installed');
    await p.executable();
    envChanged.fire({});
    assert.equal(changes, 2, 'the active environment changed');
    p.dispose();
  });
});
