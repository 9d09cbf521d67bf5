import { state } from './vscodeMock';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { DEFAULTS, LIMITS, classifyChange, getSettings, readSettings, substitute, type ConfigReader } from '../src/settings';

function reader(values: Record<string, unknown>): ConfigReader {
  return { get: <T>(key: string) => values[key] as T | undefined };
}

interface ManifestProperty {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  markdownDescription?: string;
  enum?: string[];
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, ManifestProperty> } };
};
const properties = manifest.contributes.configuration.properties;

describe('readSettings', () => {
  it('returns the documented defaults for an empty configuration', () => {
    assert.deepEqual(readSettings(reader({})), DEFAULTS);
  });

  it('keeps valid values', () => {
    const s = readSettings(
      reader({ backend: 'llm', rounds: 5, candidates: 2, 'llm.model': 'm', 'llm.apiKeyEnv': 'MY_KEY', interpreter: ['/p/python', '-X', 'dev'] }),
    );
    assert.equal(s.backend, 'llm');
    assert.equal(s.rounds, 5);
    assert.equal(s.candidates, 2);
    assert.equal(s['llm.model'], 'm');
    assert.equal(s['llm.apiKeyEnv'], 'MY_KEY');
    assert.deepEqual(s.interpreter, ['/p/python', '-X', 'dev']);
  });

  it('falls back to defaults for values of the wrong type or out of range', () => {
    const s = readSettings(reader({ backend: 'gpt', rounds: 0, candidates: 2.5, space: 3, 'trace.server': 'loud', interpreter: 42 }));
    assert.equal(s.backend, 'expert');
    assert.equal(s.rounds, 3);
    assert.equal(s.candidates, 6);
    assert.equal(s.space, 'auto');
    assert.equal(s['trace.server'], 'off');
    assert.deepEqual(s.interpreter, []);
  });

  it('reads the run limits as seconds or unset, and the sandbox as on unless turned off', () => {
    assert.deepEqual(
      [readSettings(reader({ timeout: 30, buildTimeout: 120.5, sandbox: false }))].map((s) => [s.timeout, s.buildTimeout, s.sandbox]),
      [[30, 120.5, false]],
    );
    const odd = readSettings(reader({ timeout: -1, buildTimeout: 'soon', sandbox: 'no' }));
    assert.deepEqual([odd.timeout, odd.buildTimeout, odd.sandbox], [null, null, true], 'only an explicit false turns the sandbox off');
    assert.match(properties['hiera.sandbox'].markdownDescription ?? '', /explicit opt-out/);
  });

  it('keeps whole numbers within LIMITS and falls back outside them, at both ends', () => {
    const within = readSettings(reader({ rounds: 50, candidates: 64, budget: 3200 }));
    assert.deepEqual([within.rounds, within.candidates, within.budget], [50, 64, 3200]);
    const low = readSettings(reader({ rounds: 1, candidates: 1, budget: 1 }));
    assert.deepEqual([low.rounds, low.candidates, low.budget], [1, 1, 1]);
    const over = readSettings(reader({ rounds: 51, candidates: 65, budget: 3201 }));
    assert.deepEqual([over.rounds, over.candidates, over.budget], [3, 6, null]);
    const odd = readSettings(reader({ budget: 0 }));
    assert.equal(odd.budget, null, 'a budget of 0 is no budget: rounds × candidates');
    assert.equal(readSettings(reader({ budget: 7.5 })).budget, null);
    assert.equal(readSettings(reader({ budget: '8' })).budget, null);
  });

  it('reads seconds up to a day, as the engine accepts them', () => {
    assert.equal(readSettings(reader({ timeout: 86400 })).timeout, 86400);
    assert.equal(readSettings(reader({ timeout: 86401 })).timeout, null);
    assert.equal(readSettings(reader({ buildTimeout: 0 })).buildTimeout, null);
  });

  it('accepts a plain string interpreter and drops blank items', () => {
    assert.deepEqual(readSettings(reader({ interpreter: '/usr/bin/python3' })).interpreter, ['/usr/bin/python3']);
    assert.deepEqual(readSettings(reader({ interpreter: ['', '/x/python', 7] })).interpreter, ['/x/python']);
  });
});

describe('package.json configuration', () => {
  it('declares every setting with a description and the same default as DEFAULTS', () => {
    for (const [key, value] of Object.entries(DEFAULTS)) {
      const p = properties[`hiera.${key}`];
      assert.ok(p, `hiera.${key} missing from package.json`);
      assert.deepEqual(p.default, value, `default of hiera.${key}`);
      assert.ok((p.description ?? p.markdownDescription ?? '').length > 10, `description of hiera.${key}`);
    }
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(DEFAULTS).map((k) => `hiera.${k}`).sort());
  });

  it('declares the same minimum and maximum as LIMITS, and none elsewhere', () => {
    for (const [key, p] of Object.entries(properties)) {
      const limits = (LIMITS as Record<string, { minimum: number; maximum: number } | undefined>)[key.slice('hiera.'.length)];
      assert.deepEqual([p.minimum, p.maximum], [limits?.minimum, limits?.maximum], `limits of ${key}`);
    }
  });

  it('declares hiera.budget as a nullable whole number whose change waits for an idle server', () => {
    assert.deepEqual((properties['hiera.budget'] as { type?: unknown }).type, ['integer', 'null']);
    assert.equal(classifyChange((s) => s === 'hiera' || s === 'hiera.budget'), 'restartWhenIdle');
  });

  it('has enums for backend, trace and precision that readSettings accepts', () => {
    assert.deepEqual(properties['hiera.backend'].enum, ['expert', 'llm']);
    assert.deepEqual(properties['hiera.trace.server'].enum, ['off', 'messages', 'verbose']);
    for (const v of properties['hiera.backend'].enum ?? []) {
      assert.equal(readSettings(reader({ backend: v })).backend, v);
    }
  });
});

describe('substitute', () => {
  const subs = { workspaceFolder: '/ws', home: '/home/u', env: { VENV: '/venvs/a' } };
  it('expands workspaceFolder, userHome, env and ~', () => {
    assert.equal(substitute('${workspaceFolder}/.venv/bin/python', subs), '/ws/.venv/bin/python');
    assert.equal(substitute('${userHome}/py', subs), '/home/u/py');
    assert.equal(substitute('${env:VENV}/bin/python', subs), '/venvs/a/bin/python');
    assert.equal(substitute('~/bin/python', subs), '/home/u/bin/python');
  });
  it('leaves ${workspaceFolder} alone without a folder, and a ~ inside a path', () => {
    assert.equal(substitute('${workspaceFolder}/x', { ...subs, workspaceFolder: undefined }), '${workspaceFolder}/x');
    assert.equal(substitute('/a/~/b', subs), '/a/~/b');
  });
});

describe('getSettings (through the vscode API)', () => {
  beforeEach(() => state.reset());

  it('reads the hiera section and expands the interpreter against the first workspace folder', () => {
    state.workspaceFolders = [{ uri: { fsPath: '/work/proj' } }];
    state.config.set('hiera.interpreter', ['${workspaceFolder}/.venv/bin/python']);
    state.config.set('hiera.rounds', 7);
    state.config.set('other.rounds', 1);
    const s = getSettings();
    assert.deepEqual(s.interpreter, ['/work/proj/.venv/bin/python']);
    assert.equal(s.rounds, 7);
    assert.equal(s.candidates, 6);
  });
});

describe('classifyChange', () => {
  const affecting = (...sections: string[]) => (s: string) => sections.some((x) => x === s || x.startsWith(`${s}.`));
  it('restarts now for the interpreter', () => {
    assert.equal(classifyChange(affecting('hiera.interpreter')), 'restart');
  });
  it('restarts when idle for server settings, nested ones included', () => {
    assert.equal(classifyChange(affecting('hiera.rounds')), 'restartWhenIdle');
    assert.equal(classifyChange(affecting('hiera.llm.baseUrl')), 'restartWhenIdle');
  });
  it('ignores the trace setting and other sections', () => {
    assert.equal(classifyChange(affecting('hiera.trace.server')), 'none');
    assert.equal(classifyChange(affecting('python.defaultInterpreterPath')), 'none');
  });
});
