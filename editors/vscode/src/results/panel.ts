// The results webview: one panel, showing one run, fed by the `hiera/runResults` request and refreshed
// while that run's job reports progress.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HieraClient } from '../client';
import { Debouncer } from '../debounce';
import { isTerminal, type JobStatus, type RunResults, type RunResultsParams } from '../protocol';
import { deliveredCopy, type FileAccess } from './delivered';
import { WEBVIEW_ACTIONS, makeNonce, renderResultsBody, renderResultsPage, type WebviewAction } from './html';

const VIEW_TYPE = 'hiera.results';
/** Candidate notifications can come in quick succession; one request per burst is enough. */
const REFRESH_DELAY_MS = 400;

const diskAccess: FileAccess = {
  list: (dir) => readdir(dir).catch(() => []),
  read: (file) => readFile(file, 'utf8').catch(() => undefined),
};

export class ResultsPanel implements vscode.Disposable {
  private static current: ResultsPanel | undefined;

  private results: RunResults | null = null;
  private body = '';
  private readonly disposables: vscode.Disposable[] = [];
  private readonly refresher: Debouncer;

  /** Opens (or reuses) the panel on the run named by `target`. */
  static async show(client: HieraClient, log: vscode.LogOutputChannel, target: RunResultsParams): Promise<void> {
    if (ResultsPanel.current === undefined) {
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'HIERA Results', vscode.ViewColumn.Beside, {
        enableScripts: true,
        // Everything is inline; the page may load no file at all.
        localResourceRoots: [],
      });
      ResultsPanel.current = new ResultsPanel(panel, client, log, target);
    } else {
      ResultsPanel.current.target = target;
      ResultsPanel.current.panel.reveal(undefined, true);
    }
    await ResultsPanel.current.refresh();
  }

  /** Forwards a job status to the open panel, if any. */
  static notify(status: JobStatus): void {
    ResultsPanel.current?.onJobStatus(status);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly client: HieraClient,
    private readonly log: vscode.LogOutputChannel,
    private target: RunResultsParams,
  ) {
    this.refresher = new Debouncer(() => void this.refresh(), REFRESH_DELAY_MS);
    this.disposables.push(
      this.refresher,
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      // A hidden webview is discarded and rebuilt from `html`, which must then hold the latest body.
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible) {
          this.setPage();
        }
      }),
    );
  }

  private get runId(): string | undefined {
    return this.results?.run_id ?? ('runId' in this.target ? this.target.runId : undefined);
  }

  private onJobStatus(status: JobStatus): void {
    const same = status.runId !== null && status.runId === this.runId;
    // A panel opened on a module's latest run must move to the run that just ended for that module too.
    const mayBeNewRun = 'uri' in this.target && isTerminal(status.state);
    if (same || mayBeNewRun) {
      this.refresher.trigger();
    }
  }

  private setPage(): void {
    const nonce = makeNonce((n) => randomBytes(n));
    this.panel.webview.html = renderResultsPage({
      nonce,
      cspSource: this.panel.webview.cspSource,
      bodyHtml: this.body,
      title: 'HIERA Results',
    });
  }

  async refresh(): Promise<void> {
    let note: string | undefined;
    try {
      this.results = await this.client.runResults(this.target);
    } catch (err) {
      note = `Could not get results from hiera-ls: ${String(err)}`;
      this.log.error(note);
    }
    if (this.results !== null) {
      // Keep following this run even if the panel was opened by module.
      this.target = { runId: this.results.run_id };
      this.panel.title = `HIERA: ${path.basename(this.results.task)}`;
    }
    const first = this.body === '';
    this.body = renderResultsBody(this.results, note);
    if (first) {
      this.setPage();
    } else {
      // Updating in place keeps the scroll position and open <details>.
      void this.panel.webview.postMessage({ type: 'update', html: this.body });
    }
  }

  private resolvePath(p: string): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    return vscode.Uri.file(path.isAbsolute(p) || folder === undefined ? p : path.join(folder, p));
  }

  private async onMessage(message: unknown): Promise<void> {
    const type = (message as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !(WEBVIEW_ACTIONS as readonly string[]).includes(type)) {
      return;
    }
    const action = type as WebviewAction;
    if (action === 'refresh') {
      await this.refresh();
      return;
    }
    const target =
      action === 'openKernel' ? this.results?.best?.paths.cu : action === 'openResult' ? this.results?.best?.paths.py : this.results?.profile;
    if (!target) {
      return;
    }
    let uri = this.resolvePath(target);
    const task = this.results?.task;
    const delivered = action === 'openKernel' ? this.results?.delivered?.cu : action === 'openResult' ? this.results?.delivered?.py : null;
    if (delivered) {
      // The server says which files it created beside the module for this run: open those.
      uri = this.resolvePath(delivered);
    } else if (action !== 'openProfile' && task) {
      // Prefer the copy the server created beside the module over the engine's copy under .hiera/.
      const beside = await deliveredCopy(uri.fsPath, this.resolvePath(task).fsPath, diskAccess).catch(() => undefined);
      if (beside !== undefined) {
        uri = vscode.Uri.file(beside);
      }
    }
    try {
      if (action === 'openProfile') {
        // Nsight reports are binary: let VS Code pick an editor for them, or offer the OS.
        await vscode.commands.executeCommand('vscode.open', uri, vscode.ViewColumn.One);
      } else {
        await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`HIERA: cannot open ${target}: ${String(err)}`);
    }
  }

  dispose(): void {
    if (ResultsPanel.current === this) {
      ResultsPanel.current = undefined;
    }
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
    this.panel.dispose();
  }
}
