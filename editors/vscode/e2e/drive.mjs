// Drives code-server in headless Chromium through the user's path: open the module, run the "Optimize
// with HIERA" code action, watch the job, check the files it wrote, open the results view, take a
// screenshot. Started by run.sh, which sets the E2E_* variables. Every step is recorded in
// $E2E_OUT/steps.json, passed or not, so a partial run still says how far it got.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.E2E_PLAYWRIGHT);

const URL_ = process.env.E2E_URL;
const WORKSPACE = process.env.E2E_WORKSPACE;
const MODULE = process.env.E2E_MODULE;
const OUT = process.env.E2E_OUT;
const USER_DATA = process.env.E2E_USER_DATA;
// A moderate viewport keeps the screenshots legible and small enough for the docs (~150-250 KB).
const [VIEW_W, VIEW_H] = (process.env.E2E_VIEWPORT ?? '1360x860').split('x').map(Number);
const JOB_TIMEOUT_MS = Number(process.env.HIERA_E2E_JOB_TIMEOUT ?? 900) * 1000;

const steps = [];
function record(name, ok, detail = '') {
  steps.push({ name, ok, detail, at: new Date().toISOString() });
  console.log(`[drive] ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  writeFileSync(path.join(OUT, 'steps.json'), JSON.stringify(steps, null, 2));
}

/** Files under the workspace, relative, leaving out editor state. */
function listFiles(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === '.vscode' || name === '__pycache__') {
      continue;
    }
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      out.push(...listFiles(full, base));
    } else {
      out.push(path.relative(base, full));
    }
  }
  return out.sort();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Files called `name` anywhere under `dir`: used to find the extension host's HIERA log. */
function findFiles(dir, name) {
  if (!dir || !existsSync(dir)) {
    return [];
  }
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      out.push(...findFiles(full, name));
    } else if (entry === name) {
      out.push(full);
    }
  }
  return out;
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

/** The status bar item's codicon: zap (ready), loading, sync (running), check, error, circle-slash, clock. */
async function statusIcon(page) {
  const item = page.locator('.statusbar-item', { hasText: 'HIERA' }).first();
  if ((await item.count()) === 0) {
    return undefined;
  }
  const cls = (await item.locator('.codicon').first().getAttribute('class').catch(() => '')) ?? '';
  const icon = /codicon-([a-z-]+)/.exec(cls.replace(/codicon-modifier-[a-z]+/g, ''))?.[1];
  const text = ((await item.innerText().catch(() => '')) ?? '').trim();
  return { icon, text };
}

async function waitForStatus(page, icons, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await statusIcon(page);
    if (last && icons.includes(last.icon)) {
      return last;
    }
    await sleep(500);
  }
  throw new Error(`status bar never showed ${icons.join('/')}; last: ${JSON.stringify(last)}`);
}

/** The results webview's inner frame (webviews are nested iframes), once it has rendered its content. */
async function resultsFrame(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        if ((await frame.locator('#content').count()) > 0 && (await frame.locator('#content').innerText()).trim() !== '') {
          return frame;
        }
      } catch {
        // Frames come and go while the webview loads.
      }
    }
    await sleep(500);
  }
  throw new Error('the results view did not render');
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: VIEW_W, height: VIEW_H } });
  let failed = false;
  const step = async (name, fn) => {
    if (failed) {
      record(name, false, 'skipped after an earlier failure');
      return undefined;
    }
    try {
      const detail = await fn();
      record(name, true, typeof detail === 'string' ? detail : '');
      return detail;
    } catch (err) {
      failed = true;
      record(name, false, String(err?.message ?? err));
      await page.screenshot({ path: path.join(OUT, `failure-${steps.length}.png`) }).catch(() => {});
      return undefined;
    }
  };

  const before = listFiles(WORKSPACE);
  await step('workbench loads', async () => {
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  });
  await step(`open ${MODULE}`, async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill(MODULE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: MODULE }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).waitFor({ timeout: 15_000 });
  });
  await step('hiera-ls starts (status bar ready)', async () => {
    const s = await waitForStatus(page, ['zap', 'error'], 90_000);
    if (s.icon === 'error') {
      throw new Error(`the extension reports the server failed: "${s.text}" (see logs/ for the HIERA output)`);
    }
    return s.text;
  });
  await step('run the "Optimize with HIERA" code action', async () => {
    await page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).click();
    await page.keyboard.press('Control+.');
    const action = page.locator('.action-widget .action-list-item, .action-widget .monaco-list-row', { hasText: /Optimize with HIERA(?! in)/ }).first();
    try {
      await action.waitFor({ timeout: 20_000 });
      await action.click();
      return 'via the quick fix menu';
    } catch {
      await page.keyboard.press('Escape');
      await runCommand(page, 'HIERA: Optimize Module at Cursor');
      return 'quick fix menu had no such item; ran HIERA: Optimize Module at Cursor';
    }
  });
  await step('job reports progress', async () => {
    let s = await waitForStatus(page, ['clock', 'sync', 'check', 'error', 'circle-slash'], 60_000);
    // Give the job a few seconds to report its round and candidate ("HIERA r1 1/2") for the screenshot.
    const deadline = Date.now() + 20_000;
    while (['clock', 'sync'].includes(s.icon) && !/r\d/.test(s.text) && Date.now() < deadline) {
      await sleep(500);
      s = (await statusIcon(page)) ?? s;
    }
    await page.screenshot({ path: path.join(OUT, 'progress.png') });
    return s.text;
  });
  const done = await step('job ends', async () => {
    const s = await waitForStatus(page, ['check', 'error', 'circle-slash'], JOB_TIMEOUT_MS);
    return s.text;
  });
  const stem = MODULE.replace(/\.py$/, '');
  let delivered = { py: undefined, kernel: undefined };
  await step('the run wrote new files into the workspace', async () => {
    // The result .py and kernel arrive through workspace/applyEdit; give the editor a moment to save them.
    // Files under .hiera/ are the server's bookkeeping (store, logs); the deliverables land beside the module:
    // <stem>_hiera.py and the kernel, <stem>_hiera.cu on a GPU or <stem>_hiera.cpp on the CPU.
    const deadline = Date.now() + 30_000;
    let added = [];
    const beside = () => added.filter((f) => !f.includes(path.sep) && f.startsWith(`${stem}_hiera`));
    const pick = () => ({
      py: beside().find((f) => f.endsWith('.py')),
      kernel: beside().find((f) => f.endsWith('.cu') || f.endsWith('.cpp')),
    });
    while (Date.now() < deadline) {
      added = listFiles(WORKSPACE).filter((f) => !before.includes(f));
      delivered = pick();
      if (delivered.py && delivered.kernel && statSync(path.join(WORKSPACE, delivered.py)).size > 0) {
        break;
      }
      await sleep(1000);
    }
    writeFileSync(path.join(OUT, 'new-files.txt'), `${added.join('\n')}\n`);
    const missing = [!delivered.py && `${stem}_hiera.py`, !delivered.kernel && `${stem}_hiera.cu/.cpp`].filter(Boolean);
    if (missing.length > 0) {
      throw new Error(`missing beside the module: ${missing.join(', ')} (job ended with "${done ?? '?'}"; new files: ${added.join(', ') || 'none'})`);
    }
    for (const f of [delivered.py, delivered.kernel]) {
      if (statSync(path.join(WORKSPACE, f)).size === 0) {
        throw new Error(`${f} is empty on disk: the edit created it but its text was not saved`);
      }
    }
    if (!/class ModelNew\b/.test(readFileSync(path.join(WORKSPACE, delivered.py), 'utf8'))) {
      throw new Error(`${delivered.py} has no class ModelNew`);
    }
    return `${delivered.py}, ${delivered.kernel} (all new: ${added.length} files, the rest under .hiera/)`;
  });
  await step('the files came through workspace/applyEdit', async () => {
    // hiera.trace.server is "messages" in the test workspace, so the HIERA log records the request.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      for (const log of findFiles(USER_DATA && path.join(USER_DATA, 'logs'), 'HIERA.log')) {
        const text = readFileSync(log, 'utf8');
        if (/Received request 'workspace\/applyEdit/.test(text) && /Sending response 'workspace\/applyEdit/.test(text)) {
          const created = /hiera: .*created .*/.exec(text)?.[0];
          return created ?? 'applyEdit request answered';
        }
      }
      await sleep(1000);
    }
    throw new Error('no workspace/applyEdit round trip in the HIERA log');
  });
  // Show the results whatever the run's outcome, as long as the server runs: a failed run has results too.
  failed = failed && !steps.some((s) => s.name === 'job ends' && s.ok);
  await step('results view renders the chart with real data', async () => {
    await page.keyboard.press('Escape');
    await runCommand(page, 'HIERA: Show Results');
    const frame = await resultsFrame(page, 60_000);
    // The view first renders what it has; wait for the run's chart.
    await frame.locator('svg.chart').waitFor({ timeout: 30_000 }).catch(() => {});
    const text = await frame.locator('#content').innerText();
    writeFileSync(path.join(OUT, 'results.txt'), text);
    const marks = await frame.locator('svg.chart .pt').count();
    const valid = await frame.locator('svg.chart .pt-valid').count();
    const rows = await frame.locator('table.decisions tr.decision').count();
    await sleep(1000);
    await page.screenshot({ path: path.join(OUT, 'results.png') });
    if ((await frame.locator('svg.chart').count()) === 0) {
      throw new Error(`no chart: ${text.slice(0, 160).replace(/\s+/g, ' ')}`);
    }
    if (marks === 0 || rows === 0) {
      throw new Error(`chart with ${marks} candidate marks and ${rows} decision rows`);
    }
    const best = /best\s*([^\n]*)/.exec(text)?.[1]?.trim() ?? '?';
    return `chart drawn: ${marks} candidates (${valid} valid), ${rows} round decision(s), best ${best}`;
  });
  await step('results view maximized (screenshot)', async () => {
    // The same view with the whole editor area: the screenshot the docs use.
    await page.locator('.tabs-container .tab', { hasText: 'HIERA' }).first().click();
    await runCommand(page, 'View: Toggle Maximize Editor Group');
    await sleep(1500);
    const frame = await resultsFrame(page, 10_000);
    await frame.locator('svg.chart').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(OUT, 'results-view.png') });
    await page.locator('.tabs-container .tab', { hasText: 'HIERA' }).first().click();
    await runCommand(page, 'View: Toggle Maximize Editor Group');
    await sleep(1000);
  });
  /** Clicks a results-view button and waits for the file it opens; returns "<label> opened <path>". */
  const openFromResults = async (action, expected) => {
    const frame = await resultsFrame(page, 10_000);
    const button = frame.locator(`button[data-action="${action}"]`);
    if ((await button.count()) === 0 || (await button.isDisabled())) {
      throw new Error(`the ${action} button is ${(await button.count()) === 0 ? 'missing' : 'disabled'}`);
    }
    const label = (await button.innerText()).trim();
    await button.click();
    // The file beside the module, not the engine's copy under .hiera/ that hiera/runResults names.
    await page.locator('.editor-group-container .tab.active', { hasText: expected }).first().waitFor({ timeout: 15_000 });
    await sleep(500);
    const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').first().innerText().catch(() => '')).replace(/\s+/g, ' ');
    if (crumbs.includes('.hiera')) {
      throw new Error(`"${label}" opened the engine's copy (${crumbs.trim()}) instead of ${expected} beside the module`);
    }
    return `"${label}" opened ${expected}`;
  };
  await step('"Open kernel" opens the kernel beside the module', async () => {
    if (!delivered.kernel) {
      throw new Error('no delivered kernel');
    }
    const detail = await openFromResults('openKernel', delivered.kernel);
    if (!detail.includes(`(${path.extname(delivered.kernel)})`)) {
      throw new Error(`the button does not name the file it opens: ${detail}`);
    }
    return detail;
  });
  await step('"Open result" opens the .py beside the module; editor screenshot', async () => {
    if (!delivered.py || !delivered.kernel) {
      throw new Error('no delivered files to open');
    }
    // The kernel opened as a preview editor, which the next file would replace: keep it open.
    await page.locator('.editor-group-container .tab', { hasText: delivered.kernel }).first().click();
    await runCommand(page, 'View: Keep Editor');
    const detail = await openFromResults('openResult', delivered.py);
    // Kernel in the second group (over the results view), the result module in the first.
    await page.locator('.editor-group-container .tab', { hasText: delivered.kernel }).first().click();
    await runCommand(page, 'View: Move Editor into Next Group');
    await page.locator('.editor-group-container.active .tab.active', { hasText: delivered.kernel }).first().waitFor({ timeout: 10_000 });
    await page.locator('.editor-group-container .tab', { hasText: delivered.py }).first().click();
    await page.locator('.monaco-editor .view-line', { hasText: 'ModelNew' }).first().waitFor({ timeout: 15_000 });
    await page.mouse.move(VIEW_W / 2, VIEW_H - 1);
    await sleep(1500);
    await page.screenshot({ path: path.join(OUT, 'editor.png') });
    return detail;
  });
  if (!steps.some((s) => s.name.startsWith('results view renders') && s.ok)) {
    await page.screenshot({ path: path.join(OUT, 'results.png') }).catch(() => {});
  }
  await browser.close();
  const bad = steps.filter((s) => !s.ok);
  console.log(`[drive] ${steps.length - bad.length} passed, ${bad.length} failed`);
  process.exit(bad.length === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
