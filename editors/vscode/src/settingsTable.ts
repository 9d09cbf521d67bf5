// Generated from contracts/settings_schema.py by `python3 -m contracts.settings_schema --write` (the
// extension's `npm run compile` runs it first): do not edit; change the schema.
import type { HieraSettings } from './settingsTypes';

export const DEFAULTS: Readonly<HieraSettings> = Object.freeze({
  interpreter: [],
  backend: 'expert',
  'llm.baseUrl': '',
  'llm.model': '',
  'llm.apiKeyEnv': 'OPENAI_API_KEY',
  rounds: 3,
  candidates: 6,
  budget: null,
  space: 'auto',
  precision: 'auto',
  device: 'auto',
  ncuPath: '',
  timeout: null,
  buildTimeout: null,
  deadline: 60,
  sandbox: true,
  'trace.server': 'off',
});

/** The bounds of the numeric settings, as package.json's minimum/maximum (a seconds value must be more than 0). */
export const LIMITS = Object.freeze({
  rounds: { minimum: 1, maximum: 50 },
  candidates: { minimum: 1, maximum: 64 },
  budget: { minimum: 1, maximum: 3200 },
  timeout: { minimum: 0, maximum: 86400 },
  buildTimeout: { minimum: 0, maximum: 86400 },
  deadline: { minimum: 10, maximum: 86400 },
});
