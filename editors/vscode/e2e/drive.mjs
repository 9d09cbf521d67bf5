// Drives code-server in headless Chromium through a user's path, twice: a module the machine can speed up
// (the result files arrive beside it through workspace/applyEdit) and one it cannot (nothing is written
// beside it; the results view, the status bar and the Problems panel say so, and "Open kept slower result"
// opens the kept copy). Along the way it checks that the code lens and the status bar report the same
// round and candidate, and captures the hover, the Problems panel and the results view. Started by run.sh,
// which sets the E2E_* variables. Every step is recorded in $E2E_OUT/steps.json, passed or not.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.E2E_PLAYWRIGHT);

const URL_ = process.env.E2E_URL;
const WORKSPACE = process.env.E2E_WORKSPACE;
const WIN = process.env.E2E_WIN_MODULE;
const LOSS = process.env.E2E_LOSS_MODULE;
const OUT = process.env.E2E_OUT;
const USER_DATA = process.env.E2E_USER_DATA;
const [VIEW_W, VIEW_H] = (process.env.E2E_VIEWPORT ?? '1360x860').split('x').map(Number);
const JOB_TIMEOUT_MS = Number(process.env.HIERA_E2E_JOB_TIMEOUT ?? 900) * 1000;
const END_ICONS = ['check', 'dash', 'arrow-down', 'warning', 'error', 'circle-slash'];

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

/** The status bar item's codicon (zap, loading, sync, clock, check, dash, arrow-down, warning, error, circle-slash) and text. */
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

async function waitForStatus(page, icons, timeoutMs, onPoll) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await statusIcon(page);
    if (last && icons.includes(last.icon)) {
      return last;
    }
    if (onPoll) {
      await onPoll(last);
    }
    await sleep(400);
  }
  throw new Error(`status bar never showed ${icons.join('/')}; last: ${JSON.stringify(last)}`);
}

/** The code lens texts shown in the editor. */
async function lensTexts(page) {
  return (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts().catch(() => [])).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** The results webview's inner frame (webviews are nested iframes), once it has rendered its content. */
async function resultsFrame(page, timeoutMs, needle) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        const content = frame.locator('#content');
        if ((await content.count()) > 0) {
          const text = (await content.innerText()).trim();
          if (text !== '' && (needle === undefined || text.includes(needle))) {
            return frame;
          }
        }
      } catch {
        // Frames come and go while the webview loads.
      }
    }
    await sleep(500);
  }
  throw new Error(`the results view did not render${needle ? ` (waiting for "${needle}")` : ''}`);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: VIEW_W, height: VIEW_H } });
  let failed = false;
  const step = async (name, fn, { always = false } = {}) => {
    if (failed && !always) {
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

  await step('workbench loads', async () => {
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  });

  const openModule = async (module) => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill(module);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: module }).first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator('.editor-group-container .tab.active', { hasText: module }).first().waitFor({ timeout: 15_000 });
    await page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).first().waitFor({ timeout: 15_000 });
  };

  /** One module through the whole path; `expectWin` picks which outcome the checks expect. */
  const journey = async (module, expectWin) => {
    const tag = expectWin ? 'win' : 'loss';
    const stem = module.replace(/\.py$/, '');
    const before = listFiles(WORKSPACE);
    if (!expectWin) {
      // The first journey's results view and result files: closed, so that this module is what is in view.
      await step(`[${tag}] close the first module's editors`, async () => {
        await runCommand(page, 'View: Close All Editors');
        await sleep(800);
      });
    }
    await step(`[${tag}] open ${module}`, () => openModule(module));
    await step(`[${tag}] hiera-ls ready (status bar)`, async () => {
      const s = await waitForStatus(page, ['zap', 'error', ...END_ICONS], 90_000);
      if (s.icon === 'error') {
        throw new Error(`the extension reports a failure: "${s.text}" (see logs/ for the HIERA output)`);
      }
      return s.text;
    });
    await step(`[${tag}] run the "Optimize with HIERA" code action`, async () => {
      await page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).first().click();
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
    // While the job runs: the lens and the status bar must name the same round and candidate.
    const samples = [];
    let disagreeSince;
    let longestDisagreement = 0;
    const compare = async (status) => {
      if (!status || !['sync', 'clock'].includes(status.icon)) {
        return;
      }
      const lens = (await lensTexts(page)).find((t) => t.startsWith('HIERA:')) ?? '';
      const s = /r(\d+)(?:\/\d+)? c(\d+)\/(\d+)/.exec(status.text);
      const l = /round (\d+)\/\d+ · candidate (\d+)\/(\d+)/.exec(lens);
      const agree = !s || (l !== null && s[1] === l[1] && s[2] === l[2]);
      samples.push({ status: status.text, lens, agree });
      if (agree) {
        disagreeSince = undefined;
      } else {
        disagreeSince ??= Date.now();
        longestDisagreement = Math.max(longestDisagreement, Date.now() - disagreeSince);
      }
    };
    await step(`[${tag}] job reports progress (screenshot)`, async () => {
      // The status bar still shows the previous job's end until this one's first status arrives.
      let s = await waitForStatus(page, ['clock', 'sync'], 60_000);
      const deadline = Date.now() + 60_000;
      while (['clock', 'sync'].includes(s.icon) && !/c\d/.test(s.text) && Date.now() < deadline) {
        await sleep(400);
        s = (await statusIcon(page)) ?? s;
        await compare(s);
      }
      await sleep(1500); // the lens refreshes at most once a second
      await page.screenshot({ path: path.join(OUT, `progress-${tag}.png`) });
      return `${s.text} | lens: ${(await lensTexts(page)).join(' | ')}`;
    });
    const done = await step(`[${tag}] job ends`, async () => (await waitForStatus(page, END_ICONS, JOB_TIMEOUT_MS, compare)).text);
    await step(`[${tag}] code lens and status bar agree on the progress`, async () => {
      writeFileSync(path.join(OUT, `progress-${tag}.json`), JSON.stringify(samples, null, 2));
      const compared = samples.filter((x) => /c\d/.test(x.status));
      if (compared.length === 0) {
        return 'the job moved too fast to compare (no sample with a candidate)';
      }
      if (longestDisagreement > 3000) {
        const bad = compared.filter((x) => !x.agree).slice(0, 3);
        throw new Error(`they disagreed for ${(longestDisagreement / 1000).toFixed(1)} s, e.g. ${JSON.stringify(bad)}`);
      }
      return `${compared.length} samples, ${compared.filter((x) => !x.agree).length} transient mismatches (longest ${(longestDisagreement / 1000).toFixed(1)} s)`;
    });
    await step(`[${tag}] the status bar says ${expectWin ? 'faster' : 'slower, distinctly'}`, async () => {
      const s = await statusIcon(page);
      const ok = expectWin ? s?.icon === 'check' && /\d\.\d\d×$/.test(s.text) : s?.icon === 'arrow-down' && /× slower$/.test(s.text);
      if (!ok) {
        throw new Error(`status bar: ${JSON.stringify(s)} (job ended with "${done ?? '?'}")`);
      }
      return s.text;
    });
    const figure = /(\d+\.\d\d)×/.exec((await statusIcon(page))?.text ?? '')?.[1];
    let delivered = { py: undefined, kernel: undefined };
    await step(`[${tag}] ${expectWin ? 'the result files arrive beside the module' : 'nothing is written beside the module'}`, async () => {
      const beside = (added) => added.filter((f) => !f.includes(path.sep) && f.startsWith(`${stem}_`) && f.includes('_hiera'));
      const deadline = Date.now() + (expectWin ? 30_000 : 8_000);
      let added = [];
      while (Date.now() < deadline) {
        added = listFiles(WORKSPACE).filter((f) => !before.includes(f));
        delivered = { py: beside(added).find((f) => f.endsWith('.py')), kernel: beside(added).find((f) => f.endsWith('.cu') || f.endsWith('.cpp')) };
        if (expectWin && delivered.py && delivered.kernel && statSync(path.join(WORKSPACE, delivered.py)).size > 0) {
          break;
        }
        await sleep(1000);
      }
      writeFileSync(path.join(OUT, `new-files-${tag}.txt`), `${added.join('\n')}\n`);
      if (!expectWin) {
        if (beside(added).length > 0) {
          throw new Error(`a slower result was written beside the module: ${beside(added).join(', ')}`);
        }
        const kept = added.filter((f) => f.includes('slower-than-eager'));
        if (kept.length === 0) {
          throw new Error(`no kept copy under .hiera/runs/*/slower-than-eager/ (new files: ${added.join(', ') || 'none'})`);
        }
        return `kept in the run's folder: ${kept.join(', ')}`;
      }
      if (!delivered.py || !delivered.kernel) {
        throw new Error(`missing beside the module (job ended with "${done ?? '?'}"; new files: ${added.join(', ') || 'none'})`);
      }
      if (!/class ModelNew\b/.test(readFileSync(path.join(WORKSPACE, delivered.py), 'utf8'))) {
        throw new Error(`${delivered.py} has no class ModelNew`);
      }
      return `${delivered.py}, ${delivered.kernel}`;
    });
    if (expectWin) {
      await step(`[${tag}] the files came through workspace/applyEdit`, async () => {
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline) {
          for (const log of findFiles(USER_DATA && path.join(USER_DATA, 'logs'), 'HIERA.log')) {
            const text = readFileSync(log, 'utf8');
            if (/Received request 'workspace\/applyEdit/.test(text) && /Sending response 'workspace\/applyEdit/.test(text)) {
              return /hiera: .*created .*/.exec(text)?.[0] ?? 'applyEdit request answered';
            }
          }
          await sleep(1000);
        }
        throw new Error('no workspace/applyEdit round trip in the HIERA log');
      });
    }
    await step(`[${tag}] hover on the class: the same figure (screenshot)`, async () => {
      await page.keyboard.press('Escape');
      await page.locator('.editor-group-container .tab', { hasText: module }).first().click();
      const name = page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).first().locator('span', { hasText: /^Model$/ }).first();
      let text = '';
      for (let attempt = 0; attempt < 4 && !text.includes('HIERA'); attempt++) {
        await page.mouse.move(0, 0);
        await sleep(300);
        await name.hover();
        const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'HIERA' }).first();
        await hover.waitFor({ timeout: 8_000 }).catch(() => {});
        text = (await hover.innerText().catch(() => '')) ?? '';
      }
      writeFileSync(path.join(OUT, `hover-${tag}.txt`), text);
      await page.screenshot({ path: path.join(OUT, `hover-${tag}.png`) });
      if (!text.includes('HIERA')) {
        throw new Error('no HIERA hover on the class name');
      }
      if (figure && !text.includes(`${figure}×`)) {
        throw new Error(`the hover does not show the status bar's ${figure}×: ${text.slice(0, 200)}`);
      }
      if (!expectWin && !/slower than eager/.test(text)) {
        throw new Error(`the hover does not call the slowdown one: ${text.slice(0, 200)}`);
      }
      if (/CUDA/.test(text)) {
        throw new Error(`a CPU run's hover speaks of CUDA: ${text}`);
      }
      return text.split('\n').slice(0, 3).join(' / ');
    });
    await step(`[${tag}] the Problems panel (screenshot)`, async () => {
      await page.mouse.move(VIEW_W / 2, VIEW_H - 5);
      await page.keyboard.press('Control+Shift+M'); // View: Problems
      const panel = page.locator('.markers-panel');
      await panel.waitFor({ timeout: 10_000 });
      const want = expectWin ? /hiera found a .*faster kernel/ : /no kernel beat eager/;
      const deadline = Date.now() + 15_000;
      let text = '';
      while (Date.now() < deadline && !want.test(text)) {
        await sleep(500);
        text = (await panel.innerText().catch(() => '')) ?? '';
      }
      writeFileSync(path.join(OUT, `problems-${tag}.txt`), text);
      await page.screenshot({ path: path.join(OUT, `problems-${tag}.png`) });
      await page.keyboard.press('Control+J'); // View: Toggle Panel Visibility: out of the next screenshots' way
      if (!want.test(text)) {
        throw new Error(`the Problems panel has no ${want}: ${text.slice(0, 300)}`);
      }
      return text.split('\n').find((l) => want.test(l)) ?? '';
    });
    await step(`[${tag}] results view: chart and decisions side by side (screenshot)`, async () => {
      await runCommand(page, 'HIERA: Show Results');
      const frame = await resultsFrame(page, 60_000, expectWin ? 'Created' : 'No candidate beat eager');
      await frame.locator('svg.chart').waitFor({ timeout: 30_000 }).catch(() => {});
      const text = await frame.locator('#content').innerText();
      writeFileSync(path.join(OUT, `results-${tag}.txt`), text);
      const marks = await frame.locator('svg.chart .pt').count();
      const rows = await frame.locator('table.decisions tr.decision').count();
      // The table must fit the side-by-side panel: its Best column is inside the view (or scrollable).
      /* global document, window -- this function runs in the webview, not in Node */
      const fits = await frame.evaluate(() => {
        const table = document.querySelector('table.decisions');
        const scroller = document.querySelector('.table-scroll');
        if (!table || !scroller) {
          return 'no table';
        }
        const best = table.querySelector('tr.decision td:last-child')?.getBoundingClientRect();
        return best && best.right <= window.innerWidth + 1 ? 'fits' : scroller.scrollWidth > scroller.clientWidth ? 'scrolls' : 'clipped';
      });
      await sleep(800);
      await page.screenshot({ path: path.join(OUT, `results-${tag}.png`) });
      if (marks === 0 || rows === 0) {
        throw new Error(`chart with ${marks} candidate marks and ${rows} decision rows`);
      }
      if (fits === 'clipped' || fits === 'no table') {
        throw new Error(`the Decisions table is ${fits} in the side-by-side panel`);
      }
      if (figure && !text.includes(`${figure}×`)) {
        throw new Error(`the results view does not show the status bar's ${figure}×`);
      }
      return `${marks} candidates, ${rows} round(s), table ${fits}; ${text.split('\n').find((l) => /beat eager|faster than eager|level with eager/.test(l)) ?? ''}`;
    });
    /** Clicks a results-view button and waits for the file it opens; returns "<label> opened <file>". */
    const openFromResults = async (action, expected) => {
      const frame = await resultsFrame(page, 10_000);
      const button = frame.locator(`button[data-action="${action}"]`);
      if ((await button.count()) === 0 || (await button.isDisabled())) {
        throw new Error(`the ${action} button is ${(await button.count()) === 0 ? 'missing' : 'disabled'}`);
      }
      const label = (await button.innerText()).trim();
      await button.click();
      await page.locator('.editor-group-container .tab.active', { hasText: expected }).first().waitFor({ timeout: 15_000 });
      await sleep(500);
      const crumbs = (await page.locator('.editor-group-container.active .breadcrumbs-control').first().innerText().catch(() => '')).replace(/\s+/g, ' ');
      return { label, crumbs };
    };
    if (expectWin) {
      await step(`[${tag}] "Open kernel" and "Open result" open the files beside the module (editor screenshot)`, async () => {
        const kernel = await openFromResults('openKernel', delivered.kernel);
        if (kernel.crumbs.includes('.hiera')) {
          throw new Error(`"${kernel.label}" opened the engine's copy (${kernel.crumbs})`);
        }
        await page.locator('.editor-group-container .tab', { hasText: delivered.kernel }).first().click();
        await runCommand(page, 'View: Keep Editor');
        const result = await openFromResults('openResult', delivered.py);
        if (result.crumbs.includes('.hiera')) {
          throw new Error(`"${result.label}" opened the engine's copy (${result.crumbs})`);
        }
        await page.locator('.monaco-editor .view-line', { hasText: 'ModelNew' }).first().waitFor({ timeout: 15_000 });
        await sleep(1000);
        await page.screenshot({ path: path.join(OUT, 'editor-win.png') });
        return `"${kernel.label}", "${result.label}"`;
      });
    } else {
      await step(`[${tag}] "Open kept slower result" opens the kept copy`, async () => {
        const opened = await openFromResults('openResult', `${stem}_hiera.py`);
        if (!/kept slower/.test(opened.label) || !opened.crumbs.includes('slower-than-eager')) {
          throw new Error(`"${opened.label}" opened ${opened.crumbs}`);
        }
        return `"${opened.label}" opened ${opened.crumbs.trim()}`;
      });
    }
  };

  await journey(WIN, true);
  failed = !steps.some((s) => s.name === 'workbench loads' && s.ok); // the loss journey runs whatever the win's did
  await journey(LOSS, false);
  await browser.close();
  const bad = steps.filter((s) => !s.ok);
  console.log(`[drive] ${steps.length - bad.length} passed, ${bad.length} failed`);
  process.exit(bad.length === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
