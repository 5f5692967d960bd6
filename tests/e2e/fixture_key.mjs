// Adding a link key is one entry of the key table: the page's end.
// src/bindings/url_state/tests.rs shows the fixture entry `fixture` (cargo feature `fixture-key`)
// in parse, encode, validation and the control table; here the page's package is built WITH that
// feature (scripts/wasm.sh into a temporary directory, never www/pkg), served as /pkg/ in place of
// www/pkg, and the page is used as a person would: the fixture's control is built into the live
// view's settings from that one entry, changing it puts `fixture=N` in the URL and a reload
// restores it, `?hide=fixture` hides it, and a bad value is one plain message naming the key, the
// value and what is allowed. The shipped build (www/pkg, loaded in Node) knows no such key.
// Prints "N passed, M failed" and exits non-zero on failure.
//   node tests/e2e/fixture_key.mjs          (builds the package: a few minutes warm)
//   FIXTURE_PKG=DIR node tests/e2e/fixture_key.mjs   (a package built before, e.g. by
//                                    bash scripts/wasm.sh DIR --features fixture-key)
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, launchChromium, pageOpener, finish } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
requirePkg(www);

let pkg = process.env.FIXTURE_PKG && path.resolve(process.env.FIXTURE_PKG);
const tmp = pkg ? null : await mkdtemp(path.join(os.tmpdir(), 'csc-fixture-key-'));
if (!pkg) {
  pkg = path.join(tmp, 'pkg');
  const r = spawnSync('bash', ['scripts/wasm.sh', pkg, '--features', 'fixture-key'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) { console.error(`fixture_key: the fixture build failed (exit ${r.status})`); process.exit(1); }
}
if (!existsSync(path.join(pkg, 'csc.js'))) { console.error(`fixture_key: ${pkg} has no csc.js`); process.exit(1); }

const { server, origin } = await serveStatic(www, { '/pkg/': pkg });
const tally = checks();
const { check } = tally;
const browser = await launchChromium();
const errors = [];
const openPage = pageOpener(browser, origin, errors);
const shown = (page, id) => page.evaluate((id) => { const e = document.getElementById(id); return !!e && e.getClientRects().length > 0; }, id);

await check('the shipped package (www/pkg) knows no key `fixture`', async () => {
  const csc = await import(pathToFileURL(path.join(www, 'pkg', 'csc.js')).href);
  csc.initSync({ module: readFileSync(path.join(www, 'pkg', 'csc_bg.wasm')) });
  const { errors: errs } = csc.decodeUrlState('fixture=3');
  assert(errs.length === 1 && errs[0].includes('unknown key `fixture`'), errs.join('; '));
  assert(!csc.pageControls().hideNames.includes('fixture'), 'the shipped hide names list fixture');
});

let url;
await check('the fixture entry is a control of the page, and changing it writes the URL', async () => {
  const page = await openPage();
  const table = await page.evaluate(async () => (await import('./pkg/csc.js')).pageControls());
  const c = table.controls.find((x) => x.id === 'fixture');
  assert(c && c.section === 'live' && c.key === 'fixture' && c.max === 9, JSON.stringify(c));
  assert(table.hideNames.includes('fixture'), 'not a hide name');
  assert(await page.evaluate(() => !!document.querySelector('[data-controls="live"] #fixture')), 'no #fixture in the live settings');
  assert(await shown(page, 'fixture'), '#fixture is not shown');
  await page.fill('#fixture', '3');
  await page.locator('#fixture').blur();
  await waitFor(page, () => new URLSearchParams(location.search).get('fixture') === '3');
  url = page.url();
  await page.close();
});

await check('a reload restores it; ?hide=fixture hides it; a bad value is named in plain words', async () => {
  assert(url, 'no URL from the previous check');
  const again = await openPage(url.slice(origin.length + 1));
  assert(await again.inputValue('#fixture') === '3', `#fixture after reload: ${await again.inputValue('#fixture')}`);
  await again.close();
  const hidden = await openPage('?hide=fixture');
  assert(!(await shown(hidden, 'fixture')) && await shown(hidden, 'speed'), 'hide=fixture');
  await hidden.close();
  const bad = await openPage('?fixture=12&k=3');
  await waitFor(bad, () => !document.getElementById('banner').hidden);
  const msg = await bad.textContent('#banner');
  assert(msg.includes('`fixture`') && msg.includes('[0, 9], got 12'), msg);
  assert(await bad.inputValue('#fixture') === '0' && await bad.inputValue('#k') === '3', 'the rest of the link was not used');
  await bad.close();
});

if (tmp) await rm(tmp, { recursive: true, force: true });
await finish(tally, errors, browser, server);
