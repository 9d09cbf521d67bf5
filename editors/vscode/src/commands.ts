// The commands the extension contributes (package.json `contributes.commands`).
import * as vscode from 'vscode';
import type { HieraClient } from './client';
import { findOptimizeAction } from './codeActions';
import type { JobTracker } from './jobs';
import type { RunResultsParams } from './protocol';
import type { RestartScheduler } from './restart';
import { ResultsPanel } from './results/panel';

export interface CommandDeps {
  client: HieraClient;
  jobs: JobTracker;
  restarts: RestartScheduler;
  log: vscode.LogOutputChannel;
}

function requireRunning(client: HieraClient): boolean {
  if (client.state === 'running') {
    return true;
  }
  void vscode.window
    .showWarningMessage(`HIERA: hiera-ls is ${client.state}.`, 'Show Log', 'Restart Server')
    .then((choice) => {
      if (choice === 'Show Log') {
        void vscode.commands.executeCommand('hiera.showLog');
      } else if (choice === 'Restart Server') {
        void vscode.commands.executeCommand('hiera.restart');
      }
    });
  return false;
}

/**
 * Runs the same code action the light bulb offers, so the command and the quick fix cannot drift apart:
 * the server alone decides which class is at the cursor and what `hiera.optimize` receives.
 */
async function optimizeAtCursor({ client, log }: CommandDeps): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'python') {
    void vscode.window.showInformationMessage('HIERA: open a Python file and put the cursor in a module class.');
    return;
  }
  if (!requireRunning(client)) {
    return;
  }
  if (editor.document.isDirty) {
    // The job runs the file from disk.
    await editor.document.save();
  }
  const items = await vscode.commands.executeCommand<(vscode.Command | vscode.CodeAction)[] | undefined>(
    'vscode.executeCodeActionProvider',
    editor.document.uri,
    editor.selection,
  );
  const action = findOptimizeAction<vscode.WorkspaceEdit>(items);
  if (action === undefined) {
    void vscode.window.showInformationMessage('HIERA: no module class to optimize at the cursor.');
    return;
  }
  log.info(`running code action "${action.title}"`);
  if (action.edit !== undefined) {
    await vscode.workspace.applyEdit(action.edit);
  }
  if (action.command !== undefined) {
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
  }
}

async function cancel({ client, jobs }: CommandDeps): Promise<void> {
  if (!requireRunning(client)) {
    return;
  }
  const active = jobs.active;
  let jobId: string | undefined;
  if (active.length > 1) {
    const pick = await vscode.window.showQuickPick(
      active.map((j) => ({ label: j.jobId, description: j.state, detail: j.message })),
      { placeHolder: 'Which HIERA job to cancel?' },
    );
    if (pick === undefined) {
      return;
    }
    jobId = pick.label;
  } else {
    jobId = active[0]?.jobId;
  }
  // With no jobId the server cancels its running job, which covers jobs started before this window knew.
  await client.executeServerCommand('hiera.cancel', jobId !== undefined ? [jobId] : []);
}

async function showResults({ client, jobs, log }: CommandDeps, runId?: unknown): Promise<void> {
  if (!requireRunning(client)) {
    return;
  }
  let target: RunResultsParams | undefined = typeof runId === 'string' && runId !== '' ? { runId } : undefined;
  const editor = vscode.window.activeTextEditor;
  const moduleUri = editor?.document.languageId === 'python' ? editor.document.uri.toString() : undefined;
  if (target === undefined && moduleUri !== undefined) {
    // The module in the editor first; if it has no run (e.g. it is a generated result), the latest run.
    try {
      const latest = await client.runResults({ uri: moduleUri });
      if (latest !== null) {
        target = { runId: latest.run_id };
      }
    } catch (err) {
      log.warn(`hiera/runResults for ${moduleUri}: ${String(err)}`);
    }
  }
  if (target === undefined && jobs.latestRunId !== undefined) {
    target = { runId: jobs.latestRunId };
  }
  if (target === undefined && moduleUri !== undefined) {
    target = { uri: moduleUri };
  }
  if (target === undefined) {
    void vscode.window.showInformationMessage('HIERA: no run to show yet. Open a module and optimize it first.');
    return;
  }
  await ResultsPanel.show(client, log, target);
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const guarded =
    (name: string, fn: (...args: unknown[]) => Promise<void>) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await fn(...args);
      } catch (err) {
        deps.log.error(`${name}: ${String(err)}`);
        void vscode.window.showErrorMessage(`HIERA: ${name} failed: ${String(err)}`);
      }
    };
  return [
    vscode.commands.registerCommand('hiera.optimizeAtCursor', guarded('optimize', () => optimizeAtCursor(deps))),
    vscode.commands.registerCommand('hiera.cancel', guarded('cancel', () => cancel(deps))),
    vscode.commands.registerCommand('hiera.showResults', guarded('show results', (runId) => showResults(deps, runId))),
    vscode.commands.registerCommand('hiera.restart', () => deps.restarts.now('restart command')),
    vscode.commands.registerCommand('hiera.showLog', () => deps.log.show()),
  ];
}
