// The status bar item: server state, then the latest job's state and best speedup (fed by hiera/jobStatus).
import * as vscode from 'vscode';
import type { JobStatus } from './protocol';
import { keptAcrossRestart, statusView, type ServerState } from './statusText';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private server: ServerState = 'stopped';
  private job: JobStatus | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem('hiera.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'HIERA';
    this.render();
    this.item.show();
  }

  setServerState(state: ServerState): void {
    this.server = state;
    if (state === 'starting') {
      this.job = keptAcrossRestart(this.job);
    }
    this.render();
  }

  setJob(job: JobStatus | undefined): void {
    this.job = job;
    this.render();
  }

  private render(): void {
    const view = statusView(this.server, this.job);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.command ? { title: 'HIERA', command: view.command.id, arguments: view.command.args } : undefined;
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
