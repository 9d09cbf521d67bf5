// Entry point: wires the server client, the status bar, the commands and the restart triggers together.
import * as vscode from 'vscode';
import { HieraClient } from './client';
import { registerCommands } from './commands';
import { JobTracker } from './jobs';
import { PythonExtensionInterpreter } from './python';
import { RestartScheduler } from './restart';
import { ResultsPanel } from './results/panel';
import { classifyChange } from './settings';
import { StatusItem } from './status';
import { jobEndToast } from './statusText';

let client: HieraClient | undefined;

export function activate(context: vscode.ExtensionContext): void {
  // A LogOutputChannel: its level (Developer: Set Log Level) filters our logs, and LSP traces land here too.
  const log = vscode.window.createOutputChannel('HIERA', { log: true });
  const python = new PythonExtensionInterpreter(log);
  const jobs = new JobTracker();
  const status = new StatusItem();
  client = new HieraClient(log, python);
  const hiera = client;
  const restarts = new RestartScheduler(
    (reason) => {
      jobs.clear();
      void hiera.restart(reason);
    },
    () => jobs.busy,
  );

  context.subscriptions.push(
    log,
    python,
    status,
    restarts,
    hiera,
    hiera.onDidChangeState((state) => status.setServerState(state)),
    hiera.onJobStatus((job) => {
      const ended = jobs.update(job);
      status.setJob(jobs.latest);
      ResultsPanel.notify(job);
      if (ended) {
        restarts.jobEnded();
        const toast = jobEndToast(job);
        if (toast !== undefined) {
          const show = { info: vscode.window.showInformationMessage, warning: vscode.window.showWarningMessage, error: vscode.window.showErrorMessage }[toast.kind];
          void show(toast.text, toast.action).then((choice) => {
            if (choice === 'Show Results') {
              void vscode.commands.executeCommand('hiera.showResults', job.runId);
            } else if (choice === 'Show Log') {
              log.show();
            }
          });
        }
      }
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      const effect = classifyChange((section) => e.affectsConfiguration(section));
      if (effect === 'restart') {
        restarts.request('hiera.interpreter changed');
      } else if (effect === 'restartWhenIdle') {
        if (jobs.busy) {
          log.info('settings changed; hiera-ls restarts when the running job ends');
        }
        restarts.requestWhenIdle('settings changed');
      }
    }),
    python.onDidChange(() => {
      // The Python extension's selection only matters when hiera.interpreter does not override it.
      if (vscode.workspace.getConfiguration('hiera').get<string[]>('interpreter', []).length === 0) {
        restarts.request('Python interpreter changed');
      }
    }),
    ...registerCommands({ client: hiera, jobs, restarts, log }),
  );

  // Not awaited: activation must not wait on the interpreter check and the server handshake.
  void hiera.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
