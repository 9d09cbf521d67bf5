// A hand-written stand-in for the `vscode` module, installed by hooking Node's module loader, so code that
// imports `vscode` runs under `node --test`. It covers only what the tested modules touch, and records
// what they do so tests can assert on it. Import this module before the module under test.
import Module from 'node:module';

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (listener: Listener<T>): { dispose(): void } => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

export interface MockStatusBarItem {
  id: string;
  alignment: number;
  priority: number;
  name?: string;
  text: string;
  tooltip?: string;
  command?: { command: string; arguments?: unknown[] };
  backgroundColor?: { id: string };
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export interface MockExtension {
  isActive: boolean;
  exports: unknown;
  activate(): Promise<unknown>;
}

/** State the tests set up and inspect; `reset()` between tests. */
export const state = {
  config: new Map<string, unknown>(),
  workspaceFolders: undefined as { uri: { fsPath: string } }[] | undefined,
  extensions: new Map<string, MockExtension>(),
  extensionsChanged: new EventEmitter<void>(),
  statusBarItems: [] as MockStatusBarItem[],
  reset(): void {
    this.config.clear();
    this.workspaceFolders = undefined;
    this.extensions.clear();
    this.statusBarItems = [];
  },
};

const vscode = {
  EventEmitter,
  StatusBarAlignment: { Left: 1, Right: 2 },
  ThemeColor: class {
    constructor(public readonly id: string) {}
  },
  Uri: {
    file: (fsPath: string) => ({ scheme: 'file', fsPath, path: fsPath, toString: () => `file://${fsPath}` }),
  },
  workspace: {
    getConfiguration(section?: string) {
      const prefix = section ? `${section}.` : '';
      return {
        get<T>(key: string, fallback?: T): T | undefined {
          const v = state.config.get(prefix + key);
          return v === undefined ? fallback : (v as T);
        },
      };
    },
    get workspaceFolders() {
      return state.workspaceFolders;
    },
  },
  extensions: {
    getExtension: (id: string) => state.extensions.get(id),
    onDidChange: state.extensionsChanged.event,
  },
  window: {
    createStatusBarItem(id: string, alignment: number, priority: number): MockStatusBarItem {
      const item: MockStatusBarItem = {
        id,
        alignment,
        priority,
        text: '',
        visible: false,
        show() {
          item.visible = true;
        },
        hide() {
          item.visible = false;
        },
        dispose() {
          state.statusBarItems = state.statusBarItems.filter((i) => i !== item);
        },
      };
      state.statusBarItems.push(item);
      return item;
    },
  },
};

const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const originalLoad = loader._load.bind(Module);
loader._load = (request: string, parent: unknown, isMain: boolean): unknown =>
  request === 'vscode' ? vscode : originalLoad(request, parent, isMain);

/** A log channel that keeps its lines. */
export function fakeLog(): { lines: string[]; info(m: string): void; warn(m: string): void; error(m: string): void } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
