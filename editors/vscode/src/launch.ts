// How hiera-ls is started: `<python> [args...] -m hiera_ls` over stdio. Pure Node (no `vscode`), so the
// exact command line is unit-tested.
import { execFile } from 'node:child_process';

export const SERVER_MODULE = 'hiera_ls';

export interface LaunchSpec {
  command: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string | undefined>;
}

/**
 * The server process inherits VS Code's environment on purpose: the llm backend reads its API key from
 * the variable named by `hiera.llm.apiKeyEnv`, so the key never travels through settings or messages.
 */
export function serverLaunch(
  interpreter: readonly string[],
  options: { cwd?: string; env: Record<string, string | undefined> },
): LaunchSpec {
  if (interpreter.length === 0 || interpreter[0].trim() === '') {
    throw new Error('no Python interpreter to launch hiera-ls with');
  }
  const [command, ...pre] = interpreter;
  return {
    command,
    args: [...pre, '-m', SERVER_MODULE],
    cwd: options.cwd,
    env: {
      ...options.env,
      // A stdio server must not sit on buffered stderr logs, and must speak UTF-8 whatever the locale.
      PYTHONUNBUFFERED: '1',
      PYTHONIOENCODING: 'utf-8',
    },
  };
}

export type ModuleCheck =
  | { ok: true }
  | { ok: false; reason: 'interpreter-not-found' | 'module-missing' | 'error'; detail: string };

const MISSING_EXIT = 3;

/** Arguments that ask the interpreter whether `hiera_ls` is importable, without importing it (torch is slow). */
export function moduleCheckArgs(interpreter: readonly string[]): { command: string; args: string[] } {
  const [command, ...pre] = interpreter;
  const code = `import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(${JSON.stringify(SERVER_MODULE)}) else ${MISSING_EXIT})`;
  return { command, args: [...pre, '-c', code] };
}

/**
 * Checks before launching, because a language client whose server dies at once only reports "the server
 * crashed 5 times"; this tells the user which interpreter lacks what.
 */
export function checkServerModule(interpreter: readonly string[], timeoutMs = 20_000): Promise<ModuleCheck> {
  const { command, args } = moduleCheckArgs(interpreter);
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs }, (err, _stdout, stderr) => {
      if (err === null) {
        resolve({ ok: true });
        return;
      }
      // Spawn failures carry an errno string in `code`, exits carry the exit status.
      const e = err as Error & { code?: string | number };
      if (e.code === 'ENOENT' || e.code === 'EACCES') {
        resolve({ ok: false, reason: 'interpreter-not-found', detail: `${command}: ${e.code}` });
      } else if (e.code === MISSING_EXIT) {
        resolve({ ok: false, reason: 'module-missing', detail: `${command} cannot import ${SERVER_MODULE}` });
      } else {
        resolve({ ok: false, reason: 'error', detail: `${command}: ${stderr.trim() || e.message}` });
      }
    });
  });
}
