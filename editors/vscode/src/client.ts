// Owns the hiera-ls process: starts it with the chosen interpreter, stops and restarts it (one operation
// at a time), and relays the server's custom messages.
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { checkServerModule, serverLaunch } from './launch';
import { JOB_STATUS_NOTIFICATION, RUN_RESULTS_REQUEST, isJobStatus, type JobStatus, type RunResults, type RunResultsParams } from './protocol';
import { chooseInterpreter, type PythonExtensionInterpreter } from './python';
import { guardCommandRegistration } from './serverCommands';
import { SECTION, getSettings } from './settings';
import type { ServerState } from './statusText';

/** The client id: vscode-languageclient reads `<id>.trace.server`, i.e. `hiera.trace.server`. */
export const CLIENT_ID = 'hiera';
const STOP_TIMEOUT_MS = 3000;

export class HieraClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private queue: Promise<void> = Promise.resolve();
  private _state: ServerState = 'stopped';
  /** Set while we stop the client ourselves, so that stop is not reported as a crash. */
  private stopping = false;
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly jobStatusEmitter = new vscode.EventEmitter<JobStatus>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onJobStatus = this.jobStatusEmitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly python: PythonExtensionInterpreter,
  ) {}

  get state(): ServerState {
    return this._state;
  }

  private setState(state: ServerState): void {
    this._state = state;
    this.stateEmitter.fire(state);
  }

  /** Runs lifecycle operations one after another, so a restart never overlaps a start or a stop. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(op, op).catch((err: unknown) => {
      this.log.error(`hiera-ls lifecycle error: ${String(err)}`);
    });
    return this.queue;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  restart(reason: string): Promise<void> {
    return this.enqueue(async () => {
      this.log.info(`restarting hiera-ls (${reason})`);
      await this.doStop();
      await this.doStart();
    });
  }

  private async doStart(): Promise<void> {
    this.setState('starting');
    const settings = getSettings();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const fromExtension = settings.interpreter.length > 0 ? undefined : await this.python.executable(folder?.uri);
    const interpreter = chooseInterpreter(settings.interpreter, fromExtension);
    this.log.info(`interpreter: ${interpreter.command.join(' ')} (from ${interpreter.source})`);

    const check = await checkServerModule(interpreter.command);
    if (!check.ok) {
      this.setState('failed');
      const why =
        check.reason === 'module-missing'
          ? `hiera-ls is not installed in ${interpreter.command[0]} (pip install hiera there, or set hiera.interpreter).`
          : check.reason === 'interpreter-not-found'
            ? `Python interpreter not found: ${interpreter.command[0]} (from ${interpreter.source}).`
            : `Could not run ${interpreter.command[0]}: ${check.detail}`;
      this.log.error(`${why} [${check.detail}]`);
      void this.offerFix(why);
      return;
    }

    const spec = serverLaunch(interpreter.command, { cwd: folder?.uri.fsPath, env: process.env });
    this.log.info(`launching: ${spec.command} ${spec.args.join(' ')}`);
    const serverOptions: ServerOptions = {
      command: spec.command,
      args: spec.args,
      transport: TransportKind.stdio,
      options: { cwd: spec.cwd, env: spec.env },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        // Kernels written by a run: the server offers `hiera.profileKernel` on them.
        { scheme: 'file', pattern: '**/*.cu' },
      ],
      outputChannel: this.log,
      // Server settings are pulled through workspace/configuration; this also notifies it of changes.
      synchronize: { configurationSection: SECTION },
      // The extension shows a job's end itself, from hiera/jobStatus (with a Show Results button); the server
      // then only logs its sentence, so one event makes one toast.
      initializationOptions: { clientShowsJobEnd: true },
    };
    const client = new LanguageClient(CLIENT_ID, 'HIERA', serverOptions, clientOptions);
    guardCommandRegistration(client.getFeature(ExecuteCommandRequest.method));
    client.onNotification(JOB_STATUS_NOTIFICATION, (params: unknown) => {
      if (isJobStatus(params)) {
        this.jobStatusEmitter.fire(params);
      } else {
        this.log.warn(`ignored malformed ${JOB_STATUS_NOTIFICATION}: ${JSON.stringify(params)}`);
      }
    });
    // After the client's own restarts are exhausted it stays stopped: show that instead of "ready".
    client.onDidChangeState((e) => {
      if (this.client === client && !this.stopping && e.newState === State.Stopped && this._state === 'running') {
        this.log.error('hiera-ls stopped unexpectedly; "HIERA: Restart Server" starts it again');
        this.setState('failed');
      } else if (this.client === client && e.newState === State.Running && this._state === 'failed') {
        this.setState('running');
      }
    });
    this.client = client;
    try {
      await client.start();
      this.setState('running');
      this.log.info('hiera-ls started');
    } catch (err) {
      this.setState('failed');
      this.log.error(`hiera-ls failed to start: ${String(err)}`);
      void this.offerFix(`hiera-ls failed to start: ${String(err)}`);
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      this.setState('stopped');
      return;
    }
    this.stopping = true;
    try {
      if (client.isRunning()) {
        await client.stop(STOP_TIMEOUT_MS);
      }
    } catch (err) {
      this.log.warn(`hiera-ls did not stop cleanly: ${String(err)}`);
    }
    try {
      await client.dispose();
    } catch {
      // Disposing a client that never started rejects; nothing is left to clean up then.
    } finally {
      this.stopping = false;
    }
    this.setState('stopped');
  }

  private async offerFix(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(`HIERA: ${message}`, 'Open Settings', 'Show Log');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'hiera.interpreter');
    } else if (choice === 'Show Log') {
      this.log.show();
    }
  }

  private running(): LanguageClient {
    if (this.client === undefined || !this.client.isRunning()) {
      throw new Error('hiera-ls is not running');
    }
    return this.client;
  }

  async runResults(params: RunResultsParams): Promise<RunResults | null> {
    return this.running().sendRequest<RunResults | null>(RUN_RESULTS_REQUEST, params);
  }

  /** Sends `workspace/executeCommand` directly, for the ids the extension owns (see serverCommands.ts). */
  async executeServerCommand(command: string, args: unknown[]): Promise<unknown> {
    return this.running().sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.jobStatusEmitter.dispose();
  }
}
