// The `hiera.*` settings: their types, how raw values are validated, and which changes need the server
// restarted. Their defaults and limits (settingsTable.ts) and package.json's settings are generated from the one
// table, contracts/settings_schema.py, by `npm run compile` (tests/test_settings_schema.py holds them to it).
import * as os from 'node:os';
import * as vscode from 'vscode';
import { DEFAULTS, LIMITS } from './settingsTable';
import type { HieraSettings } from './settingsTypes';

export const SECTION = 'hiera';

export type { Backend, HieraSettings, Trace } from './settingsTypes';

// Generated from the one table (contracts/settings_schema.py) at build time.
export { DEFAULTS, LIMITS };

type Limited = keyof typeof LIMITS;

/** The slice of `vscode.WorkspaceConfiguration` this module reads; a plain object satisfies it in tests. */
export interface ConfigReader {
  get<T>(key: string): T | undefined;
}

function str(config: ConfigReader, key: keyof HieraSettings, fallback: string): string {
  const v = config.get<unknown>(key);
  return typeof v === 'string' ? v : fallback;
}

function oneOf<T extends string>(config: ConfigReader, key: keyof HieraSettings, allowed: readonly T[], fallback: T): T {
  const v = config.get<unknown>(key);
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

function seconds(config: ConfigReader, key: 'timeout' | 'buildTimeout'): number | null {
  const v = config.get<unknown>(key);
  return typeof v === 'number' && Number.isFinite(v) && v > LIMITS[key].minimum && v <= LIMITS[key].maximum ? v : null;
}

/** The run's deadline: null (no deadline) as it is, a number within LIMITS, else the default. */
function deadline(config: ConfigReader): number | null {
  const v = config.get<unknown>('deadline');
  if (v === null) {
    return null;
  }
  return typeof v === 'number' && Number.isFinite(v) && v >= LIMITS.deadline.minimum && v <= LIMITS.deadline.maximum
    ? v
    : DEFAULTS.deadline;
}

function wholeNumber<F extends number | null>(config: ConfigReader, key: Limited, fallback: F): number | F {
  const v = config.get<unknown>(key);
  return typeof v === 'number' && Number.isInteger(v) && v >= LIMITS[key].minimum && v <= LIMITS[key].maximum ? v : fallback;
}

/**
 * Validates raw setting values. A hand-edited settings.json can hold anything; a wrong type falls back
 * to the default instead of reaching the server or the launch command.
 */
export function readSettings(config: ConfigReader): HieraSettings {
  const rawInterpreter = config.get<unknown>('interpreter');
  const interpreter = Array.isArray(rawInterpreter)
    ? rawInterpreter.filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    : typeof rawInterpreter === 'string' && rawInterpreter.trim() !== ''
      ? [rawInterpreter] // tolerate the common mistake of a plain string
      : [];
  return {
    interpreter,
    backend: oneOf(config, 'backend', ['expert', 'llm'], DEFAULTS.backend),
    'llm.baseUrl': str(config, 'llm.baseUrl', DEFAULTS['llm.baseUrl']),
    'llm.model': str(config, 'llm.model', DEFAULTS['llm.model']),
    'llm.apiKeyEnv': str(config, 'llm.apiKeyEnv', DEFAULTS['llm.apiKeyEnv']),
    rounds: wholeNumber(config, 'rounds', DEFAULTS.rounds),
    candidates: wholeNumber(config, 'candidates', DEFAULTS.candidates),
    budget: wholeNumber(config, 'budget', DEFAULTS.budget),
    space: str(config, 'space', DEFAULTS.space),
    precision: str(config, 'precision', DEFAULTS.precision),
    device: str(config, 'device', DEFAULTS.device),
    ncuPath: str(config, 'ncuPath', DEFAULTS.ncuPath),
    timeout: seconds(config, 'timeout'),
    buildTimeout: seconds(config, 'buildTimeout'),
    sandbox: config.get<unknown>('sandbox') !== false,
    deadline: deadline(config),
    'trace.server': oneOf(config, 'trace.server', ['off', 'messages', 'verbose'], DEFAULTS['trace.server']),
  };
}

export interface Substitutions {
  workspaceFolder?: string;
  home: string;
  env: Record<string, string | undefined>;
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a path setting, so a
 * workspace can point at its own venv without an absolute path. Unknown variables are left as they are,
 * which makes the resulting "file not found" error show the unexpanded text.
 */
export function substitute(value: string, subs: Substitutions): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'workspaceFolder') {
      return subs.workspaceFolder ?? whole;
    }
    if (name === 'userHome') {
      return subs.home;
    }
    return envName !== undefined ? (subs.env[envName] ?? '') : whole;
  });
  if (out === '~' || out.startsWith('~/')) {
    out = subs.home + out.slice(1);
  }
  return out;
}

/** Current settings of the window, with variables in `hiera.interpreter` expanded. */
export function getSettings(): HieraSettings {
  const settings = readSettings(vscode.workspace.getConfiguration(SECTION));
  const subs: Substitutions = {
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    home: os.homedir(),
    env: process.env,
  };
  return { ...settings, interpreter: settings.interpreter.map((part) => substitute(part, subs)) };
}

export type ChangeEffect = 'restart' | 'restartWhenIdle' | 'none';

/**
 * What a configuration change asks of the server.
 * - The interpreter decides which process runs: restart now.
 * - `trace.server` is applied live by vscode-languageclient: nothing to do.
 * - Any other `hiera.*` setting is pulled by the server through `workspace/configuration`; a restart makes
 *   sure a server that cached them sees the new values, but it would kill a running job, so it waits for
 *   the job to end.
 */
export function classifyChange(affects: (section: string) => boolean): ChangeEffect {
  if (!affects(SECTION)) {
    return 'none';
  }
  if (affects(`${SECTION}.interpreter`)) {
    return 'restart';
  }
  const serverKeys = Object.keys(DEFAULTS).filter((k) => k !== 'interpreter' && k !== 'trace.server');
  return serverKeys.some((k) => affects(`${SECTION}.${k}`)) ? 'restartWhenIdle' : 'none';
}
