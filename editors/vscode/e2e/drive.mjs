// Drives code-server in headless Chromium through a user's path, twice: a module the machine can speed up
// (the result files arrive beside it through workspace/applyEdit; where the figure is over 10×, as it often is
// on 2 cores, the engine's flag "over 10× — check before trusting" reaches the hover, the results view and the
// one message at the job's end, and those three agree on it either way) and one it cannot (nothing is written beside it; the results view, the status bar, the
// hover and a warning in the Problems panel say so, by the slowdown's own size: "NN× slower"). Along the way
// it checks that the code lens and the status bar report the same round and candidate, that the figure's 95%
// interval is shown ("1.3–1.5× at 95%"), that a CPU workspace offers no Nsight Compute action, that a job ends
// in one message, that the status bar keeps the last result across a server restart, and the hover's latency while typing in a 5 MB
// module (from the LSP trace); it captures the hover, the Problems panel and the results view. Started by
// run.sh, which sets the E2E_* variables. Every step is recorded in $E2E_OUT/steps.json, passed or not.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.E2E_PLAYWRIGHT);

const URL_ = process.env.E2E_URL;
const WORKSPACE = process.env.E2E_WORKSPACE;
const WIN = process.env.E2E_WIN_MODULE;
const LOSS = process.env.E2E_LOSS_MODULE;
const BIG = process.env.E2E_BIG_MODULE; // a 5 MB module to type in (made by run.sh), or unset
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
  const input = page.locator('.quick-input-widget input');
  // The palette can close under us (an editor that opens late takes the focus) and F1 goes nowhere while a
  // webview holds the keyboard: a few tries, with both of the palette's keys.
  let last;
  for (const keys of ['F1', 'Control+Shift+P', 'F1']) {
    try {
      await page.keyboard.press(keys);
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 5_000 });
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (err) {
      last = err;
      await page.keyboard.press('Escape').catch(() => {});
      await sleep(1000);
    }
  }
  throw last;
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

/**
 * Opens the 5 MB module, waits for its class's hover (the first parse of 5 MB takes seconds), then types one
 * character every 100 ms into its docstring while the mouse comes back to the class name every half second,
 * and reads the hover latencies from the LSP trace in the HIERA log (hiera.trace.server is "messages":
 * "Received response 'textDocument/hover - (N)' in M ms").
 */
async function typingHover(page) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(BIG);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: BIG }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  const cls = page.locator('.monaco-editor .view-line', { hasText: 'class FusedBlock' }).first();
  await cls.waitFor({ timeout: 60_000 });
  const name = cls.locator('span', { hasText: /^FusedBlock$/ }).first();
  const deadline = Date.now() + 120_000;
  for (;;) {
    await page.mouse.move(0, 0);
    await name.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'HIERA' }).first();
    if (await hover.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
      break;
    }
    if (Date.now() > deadline) {
      throw new Error('the 5 MB module\'s class never got its hover');
    }
  }
  const logBefore = new Map(findFiles(path.join(USER_DATA, 'logs'), 'HIERA.log').map((f) => [f, readFileSync(f, 'utf8').length]));
  // the cursor inside the module's docstring, near the start of line 1 (the view then never scrolls sideways,
  // and the class name stays where the mouse is), the mouse on the class name
  await page.locator('.monaco-editor .view-line').first().click();
  await page.keyboard.press('Home');
  for (let k = 0; k < 6; k++) {
    await page.keyboard.press('ArrowRight');
  }
  // VS Code hides a hover on every keystroke and asks for one when the mouse has rested on a word (300 ms):
  // five keystrokes at 100 ms, then the mouse on the class name until the hover shows, twelve times.
  let hovered = 0;
  for (let round = 0; round < 12; round++) {
    const t0 = Date.now();
    for (let k = 0; k < 5; k++) {
      await page.keyboard.type('x');
      await sleep(Math.max(0, t0 + (k + 1) * 100 - Date.now()));
    }
    await page.mouse.move(0, 0);
    await name.hover({ timeout: 2_000 }).catch(() => {});
    const shown = await page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'HIERA' }).first().waitFor({ timeout: 3_000 }).then(() => 1, () => 0);
    hovered += shown;
  }
  await sleep(3000);
  await page.screenshot({ path: path.join(OUT, 'typing-5mb.png') });
  const ms = [];
  for (const f of findFiles(path.join(USER_DATA, 'logs'), 'HIERA.log')) {
    const text = readFileSync(f, 'utf8').slice(logBefore.get(f) ?? 0);
    for (const m of text.matchAll(/Received response 'textDocument\/hover - \(\d+\)' in (\d+)ms/g)) {
      ms.push(Number(m[1]));
    }
  }
  writeFileSync(path.join(OUT, 'typing-hover-ms.json'), JSON.stringify(ms));
  if (ms.length < 5) {
    throw new Error(`only ${ms.length} hover responses in the LSP trace`);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] / 2 + sorted[Math.ceil((sorted.length - 1) / 2)] / 2;
  const summary = `${ms.length} hovers between keystrokes (${hovered} of 12 shown): median ${median} ms, max ${sorted.at(-1)} ms`;
  if (median > 200) {
    throw new Error(summary);
  }
  return summary;
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
    let offered = [];
    await step(`[${tag}] run the "Optimize with HIERA" code action`, async () => {
      // On a loaded 2-core machine the first code action request can outlast the menu's wait (the server is
      // still parsing, or the click landed before the editor had focus): three tries before the command
      // palette, and the check after this one still fails if the menu was never read.
      const items = page.locator('.action-widget .action-list-item, .action-widget .monaco-list-row');
      const action = items.filter({ hasText: /Optimize with HIERA(?! in)/ }).first();
      for (let attempt = 1; attempt <= 3; attempt++) {
        await page.locator('.monaco-editor .view-line', { hasText: 'class Model' }).first().click();
        await page.keyboard.press('Control+.');
        try {
          await action.waitFor({ timeout: 15_000 });
          offered = (await items.allInnerTexts()).map((t) => t.trim()).filter((t) => t);
          await page.screenshot({ path: path.join(OUT, `actions-${tag}.png`) });
          await action.click();
          return `via the quick fix menu${attempt > 1 ? ` (try ${attempt})` : ''}, which offered: ${offered.join(' | ')}`;
        } catch {
          await page.keyboard.press('Escape');
          await sleep(2000);
        }
      }
      await runCommand(page, 'HIERA: Optimize Module at Cursor');
      return 'quick fix menu had no such item after 3 tries; ran HIERA: Optimize Module at Cursor';
    });
    await step(`[${tag}] a CPU workspace offers no Nsight Compute action`, async () => {
      if (offered.length === 0) {
        throw new Error('the quick fix menu was not read');
      }
      const ncu = offered.filter((t) => /Nsight|Profile/.test(t));
      if (ncu.length > 0) {
        throw new Error(`offered on the CPU: ${ncu.join(' | ')}`);
      }
      return `${offered.length} actions, none of them Nsight Compute`;
    });
    // While the job runs: the lens and the status bar must name the same round and candidate.
    const samples = [];
    let disagreeSince;
    let longestDisagreement = 0;
    const toasts = new Set();
    const readToasts = async () => {
      for (const t of await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts().catch(() => [])) {
        // Only this module's: a job of the other journey that ended late must not count as this one's message.
        if (/HIERA/i.test(t) && t.includes(module)) {
          toasts.add(t.replace(/\s+/g, ' ').trim());
        }
      }
    };
    const compare = async (status) => {
      await readToasts();
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
      // The lens follows the job through workspace/codeLens/refresh (at most once a second) and VS Code's own
      // re-request: on a loaded 2-core machine that lags the status bar by a few seconds.
      if (longestDisagreement > 6000) {
        const bad = compared.filter((x) => !x.agree).slice(0, 3);
        throw new Error(`they disagreed for ${(longestDisagreement / 1000).toFixed(1)} s, e.g. ${JSON.stringify(bad)}`);
      }
      return `${compared.length} samples, ${compared.filter((x) => !x.agree).length} transient mismatches (longest ${(longestDisagreement / 1000).toFixed(1)} s)`;
    });
    await step(`[${tag}] the status bar says ${expectWin ? 'faster' : 'slower, by the slowdown\'s size'}`, async () => {
      const s = await statusIcon(page);
      const ok = expectWin ? s?.icon === 'check' && /\d+(\.\d+)?×/.test(s.text) : s?.icon === 'arrow-down' && /\d+(\.\d+)?× slower$/.test(s.text);
      if (!ok) {
        throw new Error(`status bar: ${JSON.stringify(s)} (job ended with "${done ?? '?'}")`);
      }
      await page.locator('.statusbar-item', { hasText: 'HIERA' }).first().screenshot({ path: path.join(OUT, `statusbar-${tag}.png`) }).catch(() => {});
      return s.text;
    });
    const figure = /(\d+(?:\.\d+)?)×/.exec((await statusIcon(page))?.text ?? '')?.[1];
    // Whether the engine flagged the win as over 10× depends on how fast this machine ran it (15× on one run
    // of a 2-core machine, 9.0× on another): the message must carry the flag when the figure is clearly over
    // 10×, and the hover and the results view must say what the message says.
    let flaggedOver10 = false;
    await step(`[${tag}] one message at the job's end${expectWin ? ', with the flag if over 10×' : ''}`, async () => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && toasts.size === 0) {
        await readToasts();
        await sleep(300);
      }
      const seen = [...toasts];
      writeFileSync(path.join(OUT, `toasts-${tag}.txt`), `${seen.join('\n')}\n`);
      if (seen.length !== 1) {
        throw new Error(`${seen.length} HIERA toasts for one job: ${JSON.stringify(seen)}`);
      }
      flaggedOver10 = /Flagged: over 10× — check before trusting/.test(seen[0]);
      if (expectWin && figure && Number(figure) >= 11 && !flaggedOver10) {
        throw new Error(`the message does not carry the flag of a figure over 10×: ${seen[0]}`);
      }
      if (!expectWin && !/\d+(\.\d+)?× slower than eager/.test(seen[0])) {
        throw new Error(`the message does not give the slowdown's size: ${seen[0]}`);
      }
      if (/hiera:|\d\.\d\dx\b/.test(seen[0])) {
        throw new Error(`the message mixes "hiera:" or "x" with "HIERA:" and "×": ${seen[0]}`);
      }
      return seen[0];
    });
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
        const kept = added.filter((f) => f.includes('not-delivered'));
        if (kept.length === 0) {
          throw new Error(`no kept copy under .hiera/runs/*/not-delivered/ (new files: ${added.join(', ') || 'none'})`);
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
      if (!expectWin && !/\d+(\.\d+)?× slower than eager/.test(text)) {
        throw new Error(`the hover does not give the slowdown's size: ${text.slice(0, 200)}`);
      }
      if (!/× (slower )?at 95%/.test(text)) {
        throw new Error(`the hover shows no interval: ${text.slice(0, 300)}`);
      }
      if (text.includes('flagged: over 10× — check before trusting') !== flaggedOver10) {
        throw new Error(`the hover and the message disagree on the flag of a figure over 10× (message: ${flaggedOver10}): ${text.slice(0, 300)}`);
      }
      if (/CUDA/.test(text)) {
        throw new Error(`a CPU run's hover speaks of CUDA: ${text}`);
      }
      // The best beside what this CPU can do: its share of the task's bound from the measured ceilings.
      if (!/Speed of light: \d+(\.\d+)?% of speed of light, (memory|compute)-bound/.test(text)) {
        throw new Error(`the hover shows no speed of light: ${text.slice(0, 400)}`);
      }
      if (!expectWin && /nothing was written/i.test(text.split('HIERA ·').slice(1).join(''))) {
        throw new Error(`the hover repeats the diagnostic's sentence: ${text.slice(0, 400)}`);
      }
      return text.split('\n').slice(0, 4).join(' / ');
    });
    await step(`[${tag}] the Problems panel (screenshot)`, async () => {
      await page.mouse.move(VIEW_W / 2, VIEW_H - 5);
      await page.keyboard.press('Control+Shift+M'); // View: Problems
      const panel = page.locator('.markers-panel');
      await panel.waitFor({ timeout: 10_000 });
      const want = expectWin ? /HIERA found a kernel .*faster than eager/ : /no kernel beat eager: the best is \d+(\.\d+)?× slower than eager/;
      const deadline = Date.now() + 15_000;
      let text = '';
      while (Date.now() < deadline && !want.test(text)) {
        await sleep(500);
        text = (await panel.innerText().catch(() => '')) ?? '';
      }
      writeFileSync(path.join(OUT, `problems-${tag}.txt`), text);
      await page.screenshot({ path: path.join(OUT, `problems-${tag}.png`) });
      // a loss is a warning there, a win information: the panel tells them apart at a glance (read before the
      // panel is hidden, which takes its rows out of the page)
      const icon = expectWin ? 'info' : 'warning';
      writeFileSync(path.join(OUT, `problems-${tag}.html`), (await panel.innerHTML().catch(() => '')) ?? '');
      const marks = await panel.locator(`.codicon-${icon}`).count();
      // on the win's turn the panel holds the win alone: no warning may be there
      const stray = expectWin ? await panel.locator('.codicon-warning').count() : 0;
      await page.keyboard.press('Control+J'); // View: Toggle Panel Visibility: out of the next screenshots' way
      if (!want.test(text)) {
        throw new Error(`the Problems panel has no ${want}: ${text.slice(0, 300)}`);
      }
      if (marks === 0 || stray > 0) {
        throw new Error(`the ${tag}'s entry in the Problems panel is not marked ${icon} (problems-${tag}.html)`);
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
      if (!/× (slower )?at 95%/.test(text)) {
        throw new Error('the results view shows no interval');
      }
      if (text.includes('flagged: over 10× — check before trusting') !== flaggedOver10) {
        throw new Error(`the results view and the message disagree on the flag of a figure over 10× (message: ${flaggedOver10})`);
      }
      if (!expectWin && !/\d+(\.\d+)?× slower than eager/.test(text)) {
        throw new Error("the results view does not give the slowdown's size");
      }
      if (!/speed of light\s*\d+(\.\d+)?% of speed of light, (memory|compute)-bound/.test(text)) {
        throw new Error(`the results view shows no speed of light: ${text.slice(0, 400)}`);
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
        if (!/kept slower/.test(opened.label) || !opened.crumbs.includes('not-delivered')) {
          throw new Error(`"${opened.label}" opened ${opened.crumbs}`);
        }
        return `"${opened.label}" opened ${opened.crumbs.trim()}`;
      });
    }
  };

  await journey(WIN, true);
  failed = !steps.some((s) => s.name === 'workbench loads' && s.ok); // the loss journey runs whatever the win's did
  // A win journey that failed part-way may have left its job running: the loss journey starts when it has
  // ended, so that its status bar, its message and its files are its own.
  await step('no job of the first journey still running', async () => {
    const s = await statusIcon(page);
    if (s && ['sync', 'clock', 'loading'].includes(s.icon)) {
      return `waited for it: ${(await waitForStatus(page, END_ICONS, JOB_TIMEOUT_MS)).text}`;
    }
    return s?.text ?? 'no status';
  });
  await journey(LOSS, false);

  await step('after a server restart the status bar keeps the last result', async () => {
    const before = await statusIcon(page);
    await runCommand(page, 'HIERA: Restart Server');
    await sleep(2000);
    const after = await waitForStatus(page, ['zap', 'error', ...END_ICONS], 60_000);
    if (after.icon !== before?.icon || after.text !== before?.text) {
      throw new Error(`before the restart ${JSON.stringify(before)}, after it ${JSON.stringify(after)}`);
    }
    return after.text;
  });

  if (BIG) {
    failed = !steps.some((s) => s.name === 'workbench loads' && s.ok);
    await step(`hover while typing in a 5 MB module (${BIG})`, async () => typingHover(page), {});
  }
  await browser.close();
  const bad = steps.filter((s) => !s.ok);
  console.log(`[drive] ${steps.length - bad.length} passed, ${bad.length} failed`);
  // The step log as a page (editors/vscode/e2e/last-run.md is a copy of the last full run's).
  const minutes = ((Date.parse(steps.at(-1)?.at ?? '') - Date.parse(steps[0]?.at ?? '')) / 60000).toFixed(1);
  const cell = (t) => String(t).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  writeFileSync(
    path.join(OUT, 'steps.md'),
    `# e2e run ${steps[0]?.at ?? ''}: ${steps.length - bad.length} passed, ${bad.length} failed (${minutes} min of driving)\n\n` +
      '| step | ok | detail |\n|---|---|---|\n' +
      steps.map((s) => `| ${cell(s.name)} | ${s.ok ? 'ok' : '**FAIL**'} | ${cell(s.detail).slice(0, 400)} |`).join('\n') +
      '\n',
  );
  process.exit(bad.length === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
