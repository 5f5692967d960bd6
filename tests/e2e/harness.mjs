// What every end-to-end script shares: named checks that count and report, assertions, and
// polling a page (page.waitForFunction evaluates a string inside the page, which the page's CSP
// forbids — no 'unsafe-eval' — while page.evaluate goes through the debugger protocol).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

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

/** Exits with how to build it when `www/pkg` (the engine's package) is missing. */
export function requirePkg(www) {
  if (!existsSync(path.join(www, 'pkg', 'csc.js'))) {
    console.error('www/pkg is missing: build it first (bash scripts/wasm.sh)');
    process.exit(1);
  }
}

/** The installed Chromium, headless (`CHROMIUM` names another binary). */
export const launchChromium = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
