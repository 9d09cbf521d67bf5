// The shape of the `hiera.*` settings as the extension holds them, on its own so that the generated table
// (settingsTable.ts) and the reader (settings.ts) both import it and neither imports the other. The table's
// `Readonly<HieraSettings>` holds these keys to the schema's at compile time (contracts/settings_schema.py).
export type Backend = 'expert' | 'llm';
export type Trace = 'off' | 'messages' | 'verbose';

export interface HieraSettings {
  interpreter: string[];
  backend: Backend;
  'llm.baseUrl': string;
  'llm.model': string;
  /** The NAME of the environment variable holding the key; the key itself never passes through here. */
  'llm.apiKeyEnv': string;
  rounds: number;
  candidates: number;
  /** Candidates per run in all (the engine's --budget); null: rounds × candidates. */
  budget: number | null;
  space: string;
  precision: string;
  device: string;
  ncuPath: string;
  /** Seconds per candidate run / per build; null: the engine's own limit (no flag is passed). */
  timeout: number | null;
  buildTimeout: number | null;
  /** false is an explicit opt-out: candidates then run without the engine's sandbox. */
  sandbox: boolean;
  /** Seconds an optimize run may take (the engine's --deadline); null: no deadline. */
  deadline: number | null;
  'trace.server': Trace;
}
