// Drives code-server in headless Chromium through the user's path: open the module, run the "Optimize
// with HIERA" code action, watch the job, check the files it wrote, open the results view, take a
// screenshot. Started by run.sh, which sets the E2E_* variables. Every step is recorded in
// $E2E_OUT/steps.json, passed or not, so a partial run still says how far it got.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.E2E_PLAYWRIGHT);

const URL_ = process.env.E2E_URL;
const WORKSPACE = process.env.E2E_WORKSPACE;
const MODULE = process.env.E2E_MODULE;
const OUT = process.env.E2E_OUT;
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
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
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
    const s = await waitForStatus(page, ['clock', 'sync', 'check', 'error', 'circle-slash'], 60_000);
    await page.screenshot({ path: path.join(OUT, 'progress.png') });
    return s.text;
  });
  const done = await step('job ends', async () => {
    const s = await waitForStatus(page, ['check', 'error', 'circle-slash'], JOB_TIMEOUT_MS);
    return s.text;
  });
  await step('the run wrote new files into the workspace', async () => {
    // The result .py arrives through workspace/applyEdit; give the editor a moment to save it.
    // Files under .hiera/ are the server's bookkeeping (store, logs); the deliverables land beside the module.
    const deadline = Date.now() + 30_000;
    let added = [];
    const delivered = () => added.filter((f) => !f.startsWith(`.hiera${path.sep}`));
    while (Date.now() < deadline) {
      added = listFiles(WORKSPACE).filter((f) => !before.includes(f));
      if (delivered().length > 0) {
        break;
      }
      await sleep(1000);
    }
    writeFileSync(path.join(OUT, 'new-files.txt'), `${added.join('\n')}\n`);
    if (delivered().length === 0) {
      throw new Error(`no new file beside the module (job ended with "${done ?? '?'}"; new under .hiera/: ${added.length})`);
    }
    return added.join(', ');
  });
  // Show the results whatever the run's outcome, as long as the server runs: a failed run has results too.
  failed = failed && !steps.some((s) => s.name === 'job ends' && s.ok);
  await step('results view renders', async () => {
    await page.keyboard.press('Escape');
    await runCommand(page, 'HIERA: Show Results');
    const frame = await resultsFrame(page, 60_000);
    const text = await frame.locator('#content').innerText();
    writeFileSync(path.join(OUT, 'results.txt'), text);
    const hasChart = (await frame.locator('svg.chart').count()) > 0;
    await sleep(1000);
    await page.screenshot({ path: path.join(OUT, 'results.png') });
    return hasChart ? 'chart drawn' : `no chart: ${text.slice(0, 120).replace(/\s+/g, ' ')}`;
  });
  await step('"Open kernel (.cu)" opens the best kernel', async () => {
    const frame = await resultsFrame(page, 10_000);
    const open = frame.locator('button[data-action="openKernel"]');
    if ((await open.count()) === 0) {
      return 'no run to open a kernel from';
    }
    if (await open.isDisabled()) {
      return 'button disabled: the run has no best kernel';
    }
    const file = path.basename((await open.getAttribute('title')) ?? '');
    await open.click();
    await page.locator('.tabs-container .tab', { hasText: file }).first().waitFor({ timeout: 15_000 });
    return `opened ${file}`;
  });
  if (!steps.some((s) => s.name === 'results view renders' && s.ok)) {
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
