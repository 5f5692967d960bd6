// What every end-to-end script shares: named checks that count and report, assertions, downloads, and
// polling a page (page.waitForFunction evaluates a string inside the page, which the page's CSP
// forbids — no 'unsafe-eval' — while page.evaluate goes through the debugger protocol).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { spawn } from 'node:child_process';

/** The shared real data (`../shared/data`, or `$CSC_DATA`) and nq-trivia's six files in it: the
 *  questions and embeddings of both sources and their gold answers. A test that needs them fails
 *  when they are missing; it never skips. */
export const SHARED_DATA = process.env.CSC_DATA
  || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data');
export const NQ_FILES = ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl', 'triviaqa.emb.f32', 'nq.answers.jsonl', 'triviaqa.answers.jsonl'];

/** `check(name, fn)` runs one named check and prints ok/FAIL; `done()` prints the tally and exits
 *  non-zero when a check failed. */
export function checks() {
  let passed = 0, failed = 0;
  return {
    async check(name, fn) {
      try { await fn(); passed++; console.log(`ok   ${name}`); }
      catch (e) { failed++; console.log(`FAIL ${name}: ${e && e.message ? e.message.split('\n')[0] : e}`); }
    },
    done() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}

export function assert(cond, msg) { if (!cond) throw new Error(msg); }

/** Polls `fn(arg)` in `target` (a page or frame) until it is truthy; an evaluation that throws
 *  (a navigating frame) counts as false. */
export async function waitFor(target, fn, arg, { timeout = 30000, every = 100 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await target.evaluate(fn, arg).catch(() => false)) return;
    if (Date.now() > end) {
      const at = await target.evaluate(() => location.href).catch(() => '?');
      throw new Error(`timed out waiting for ${fn.toString().slice(0, 90)}${arg === undefined || arg === null ? '' : ` (with ${JSON.stringify(arg)})`} at ${at}`);
    }
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The status of the experiment panel `job` (`[data-job=…]`) once the page knows whether it has
 *  a bundle of nq-trivia: it first looks for data/manifest.json ("Looking for…"), then downloads
 *  ("Loading the bundled…") or says the data is not bundled. A test that read the status while
 *  the probe was still out (a loaded machine answers it late) took "Looking for…" for a bundle
 *  and waited for a run that never started. */
export async function statusOnceDataKnown(page, job, timeout = 180000) {
  await waitFor(page, (j) => !/^(Looking for|Loading) the bundled/.test(document.querySelector(`[data-job=${j}] .status`).textContent), job, { timeout });
  return page.textContent(`[data-job=${job}] .status`);
}

/** Clicks `sel` in `page` and returns the `count` downloads it starts, as { name, body }. */
export async function grab(page, sel, count = 1) {
  const got = [];
  const done = new Promise((resolve) => {
    const on = (d) => { got.push(d); if (got.length === count) { page.off('download', on); resolve(); } };
    page.on('download', on);
  });
  await page.click(sel);
  await done;
  return Promise.all(got.map(async (d) => ({ name: d.suggestedFilename(), body: await readFile(await d.path()) })));
}

/**
 * Runs `fn(call, sid)` in a headless Firefox session through geckodriver's W3C WebDriver HTTP API
 * (both installed by scripts/setup.sh; $GECKODRIVER, $FIREFOX override them): `call(method, path,
 * body)` sends one command and returns its value. The session and the driver end with `fn`.
 */
export async function inFirefoxSession(fn) {
  const port = 4400 + Math.floor(Math.random() * 500);
  const driver = spawn(process.env.GECKODRIVER || 'geckodriver', ['--port', String(port)], { stdio: 'ignore' });
  const wd = `http://127.0.0.1:${port}`;
  const call = async (method, p, body) => {
    const r = await fetch(`${wd}${p}`, { method, headers: { 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) throw new Error(`WebDriver ${p}: ${j.value?.message || r.status}`);
    return j.value;
  };
  try {
    for (let i = 0; ; i++) { try { await fetch(`${wd}/status`); break; } catch { if (i > 100) throw new Error('geckodriver did not start'); await new Promise((r) => setTimeout(r, 100)); } }
    const binary = process.env.FIREFOX || (existsSync('/usr/bin/firefox-esr') ? '/usr/bin/firefox-esr' : 'firefox');
    const s = await call('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'firefox', 'moz:firefoxOptions': { binary, args: ['-headless'] } } } });
    const sid = s.sessionId;
    try { return await fn(call, sid); } finally { await call('DELETE', `/session/${sid}`).catch(() => {}); }
  } finally { driver.kill(); }
}

/** Exits with how to build it when `www/pkg` (the engine's package) is missing. */
export function requirePkg(www) {
  if (!existsSync(path.join(www, 'pkg', 'csc.js'))) {
    console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)');
    process.exit(1);
  }
}

/** `openPage(query = '', viewport = 1440 × 900)`: a new page of `browser` at `${origin}/${query}`
 *  (downloads accepted), returned once the page is ready (within `timeout` ms), its console errors
 *  and uncaught exceptions pushed to `errors`. */
export function pageOpener(browser, origin, errors, { timeout = 120000 } = {}) {
  return async (query = '', viewport = { width: 1440, height: 900 }, { before } = {}) => {
    const page = await browser.newPage({ viewport, acceptDownloads: true });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    if (before) await before(page); // e.g. routes set before the page loads
    await page.goto(`${origin}/${query}`);
    await waitFor(page, () => document.body.dataset.ready === 'true', null, { timeout });
    return page;
  };
}

/** What a page script starts with: the repository's paths, www/ served (its package required),
 *  Chromium launched, the tally of checks, and `openPage` (pageOpener) collecting console errors. */
export async function pageSuite() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const www = path.join(root, 'www'), artifacts = path.join(root, 'artifacts');
  requirePkg(www);
  await mkdir(artifacts, { recursive: true });
  const { server, origin } = await serveStatic(www);
  const browser = await launchChromium();
  const errors = [];
  return { root, www, artifacts, server, origin, browser, errors, tally: checks(), openPage: pageOpener(browser, origin, errors) };
}

/** A script's last check, that the pages logged no console error (a missing favicon aside); then
 *  the browser and the server close and the tally is printed (`done`). */
export async function finish({ check, done }, errors, browser, server) {
  await check('no console error', async () => {
    const real = errors.filter((e) => !/favicon/.test(e));
    assert(!real.length, real.join(' | '));
  });
  await browser.close();
  server.close();
  done();
}

/** The installed Chromium, headless (`CHROMIUM` names another binary). */
export const launchChromium = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
