// Which Python runs hiera-ls: the `hiera.interpreter` setting, else the interpreter selected in the
// Python extension (when it is installed), else `python3` on PATH.
import { PythonExtension } from '@vscode/python-extension';
import * as vscode from 'vscode';

export const PYTHON_EXTENSION_ID = 'ms-python.python';
export const FALLBACK_PYTHON = 'python3';

export type InterpreterSource = 'hiera.interpreter' | 'Python extension' | 'default';

export interface ResolvedInterpreter {
  /** Executable followed by any arguments that must precede `-m hiera_ls`. */
  command: string[];
  source: InterpreterSource;
}

/**
 * An explicit `hiera.interpreter` wins over the Python extension's selection: someone who wrote the
 * setting wants that Python (often the project's venv holding hiera), whatever the editor has selected
 * for other tools. This is also the order of vscode-python-tools-extension-template.
 */
export function chooseInterpreter(setting: readonly string[], fromExtension: string | undefined): ResolvedInterpreter {
  if (setting.length > 0) {
    return { command: [...setting], source: 'hiera.interpreter' };
  }
  if (fromExtension !== undefined && fromExtension !== '') {
    return { command: [fromExtension], source: 'Python extension' };
  }
  return { command: [FALLBACK_PYTHON], source: 'default' };
}

/**
 * Reads the active interpreter from the Python extension and reports when it changes. Everything degrades
 * to "no answer" when the extension is missing, disabled or fails: hiera must work without it.
 */
export class PythonExtensionInterpreter implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private api: PythonExtension | undefined;
  private subscribed = false;

  constructor(private readonly log: vscode.LogOutputChannel) {
    // The Python extension may be installed or enabled while we run; a new interpreter source then exists.
    let present = vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
    this.disposables.push(
      vscode.extensions.onDidChange(() => {
        const now = vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
        if (now !== present) {
          present = now;
          this.api = undefined;
          this.subscribed = false;
          this.changed.fire();
        }
      }),
    );
  }

  private async getApi(): Promise<PythonExtension | undefined> {
    if (this.api !== undefined) {
      return this.api;
    }
    if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID) === undefined) {
      return undefined;
    }
    try {
      this.api = await PythonExtension.api();
    } catch (err) {
      this.log.warn(`Python extension API unavailable: ${String(err)}`);
      return undefined;
    }
    if (!this.subscribed) {
      this.subscribed = true;
      this.disposables.push(this.api.environments.onDidChangeActiveEnvironmentPath(() => this.changed.fire()));
    }
    return this.api;
  }

  /** Path of the selected Python executable, or undefined when there is none to ask. */
  async executable(resource?: vscode.Uri): Promise<string | undefined> {
    const api = await this.getApi();
    if (api === undefined) {
      return undefined;
    }
    try {
      const active = api.environments.getActiveEnvironmentPath(resource);
      const resolved = await api.environments.resolveEnvironment(active);
      return resolved?.executable.uri?.fsPath ?? active.path;
    } catch (err) {
      this.log.warn(`could not resolve the Python extension's interpreter: ${String(err)}`);
      return undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}
