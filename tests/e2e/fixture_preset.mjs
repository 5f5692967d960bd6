// Adding a paper preset is one entry of src/experiment/definition/presets.rs: the
// page's end. tests/fixture_preset.rs shows the fixture entry `sens-on-beta` (cargo feature
// `fixture-preset`) in the URL codec and `csc list`; here the page's package is built WITH that
// feature (scripts/wasm.sh into a temporary directory, never www/pkg), served as /pkg/ in place of
// www/pkg, and the paper view is used as a person would: the fixture is in its menu with its
// label, choosing it puts `preset=sens-on-beta` in the URL and runs it (its report's charts, as
// views/paper.js draws a preset it has no charts of its own for), and opening that URL restores it. The
// shipped build (www/pkg, loaded in Node) does not list it. Screenshots at 1440 and 390 px go to
// artifacts/. Prints "N passed, M failed" and exits non-zero on failure.
//   node tests/e2e/fixture_preset.mjs          (builds the package: about 1.5–2 min warm)
//   FIXTURE_PKG=DIR node tests/e2e/fixture_preset.mjs   (a package built before, e.g. by
//                                    bash scripts/wasm.sh DIR --features fixture-preset)
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, launchChromium, pageOpener } from './harness.mjs';

const ID = 'sens-on-beta';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
requirePkg(www);
await mkdir(artifacts, { recursive: true });

let pkg = process.env.FIXTURE_PKG && path.resolve(process.env.FIXTURE_PKG);
const tmp = pkg ? null : await mkdtemp(path.join(os.tmpdir(), 'csc-fixture-pkg-'));
if (!pkg) {
  pkg = path.join(tmp, 'pkg');
  const t0 = Date.now();
  const r = spawnSync('bash', ['scripts/wasm.sh', pkg, '--features', 'fixture-preset'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) { console.error(`fixture_preset: the fixture build failed (exit ${r.status})`); process.exit(1); }
  console.log(`fixture package built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
if (!existsSync(path.join(pkg, 'csc.js'))) { console.error(`fixture_preset: ${pkg} has no csc.js`); process.exit(1); }

const { server, origin } = await serveStatic(www, { '/pkg/': pkg });
const { check, done } = checks();
const browser = await launchChromium();
const errors = [];
const openPage = pageOpener(browser, origin, errors);
const menu = (page) => page.evaluate(() => [...document.getElementById('preset').options].map((o) => [o.value, o.textContent]));
const search = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));

// The shipped build: the fixture is not in its list.
await check(`the shipped package (www/pkg) does not list ${ID}`, async () => {
  const csc = await import(pathToFileURL(path.join(www, 'pkg', 'csc.js')).href);
  csc.initSync({ module: readFileSync(path.join(www, 'pkg', 'csc_bg.wasm')) });
  const ids = csc.paperPresets().map((p) => p.id);
  assert(ids.length > 0 && !ids.includes(ID), ids.join(', '));
});

const page = await openPage();
// The engine's list as the page's package (the fixture build) gives it.
const list = await page.evaluate(async () => (await import('./pkg/csc.js')).paperPresets().map((p) => [p.id, p.label]));
const fixture = list.find(([id]) => id === ID);

await check(`the page serves the fixture build: its preset list has ${ID}`, async () => {
  assert(fixture, `paperPresets() of the served package: ${list.map(([id]) => id).join(', ')}`);
  assert(fixture[1].trim() !== '', 'the fixture has no label');
});

await check('the paper view\'s menu shows the fixture with its label, after the other presets', async () => {
  await page.click('#tab-paper');
  await waitFor(page, () => !document.getElementById('view-paper').hidden);
  const got = await menu(page);
  assert(JSON.stringify(got) === JSON.stringify(list), `menu ${JSON.stringify(got)} vs ${JSON.stringify(list)}`);
  assert(got.at(-1)[0] === ID && got.at(-1)[1] === fixture[1], `last entry ${got.at(-1)}`);
  assert(await page.isVisible('#preset'), 'the menu is not visible');
});

let url;
await check(`choosing it puts preset=${ID} in the URL and describes its settings`, async () => {
  await page.selectOption('#preset', ID);
  await waitFor(page, (id) => new URLSearchParams(location.search).get('preset') === id, ID, { timeout: 15000 });
  const keys = await search(page);
  assert(keys.view === 'paper' && keys.preset === ID, JSON.stringify(keys));
  const settings = await page.textContent('#preset-settings');
  assert(/^Quick settings: .+\. Full: .+\./.test(settings), `#preset-settings: "${settings}"`);
  url = await page.evaluate(() => location.href);
});

await check('its quick run finishes and draws its report\'s charts (no chart code of its own)', async () => {
  await waitFor(page, () => ['done', 'error'].includes(document.querySelector('[data-job=paper]').dataset.status), null, { timeout: 300000, every: 250 });
  const status = await page.evaluate(() => document.querySelector('[data-job=paper]').dataset.status);
  assert(status === 'done', `the run ended with status ${status}`);
  const drawn = await page.evaluate(() => [...document.querySelectorAll('[data-job=paper] figure.chart')].filter((f) => !f.hidden && f.querySelector('svg')).length);
  assert(drawn > 0, 'no chart drawn');
  await page.screenshot({ path: path.join(artifacts, 'fixture-preset-1440.png'), fullPage: false });
});

await check('opening that URL restores the paper view with the fixture chosen', async () => {
  assert(url, 'no URL from the previous check');
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const again = await openPage(url.slice(origin.length + 1), viewport);
    assert(await again.inputValue('#preset') === ID, `#preset after reload: ${await again.inputValue('#preset')}`);
    const shown = await again.evaluate(() => { const s = document.getElementById('preset'); return s.options[s.selectedIndex].textContent; });
    assert(shown === fixture[1], `shown label "${shown}"`);
    assert(await again.getAttribute('#tab-paper', 'aria-selected') === 'true', 'the paper tab is not selected');
    assert(await again.isVisible('#preset'), 'the menu is not visible');
    assert(await again.evaluate(() => location.href) === url, 'the restored URL differs');
    if (viewport.width === 390) await again.screenshot({ path: path.join(artifacts, 'fixture-preset-390.png'), fullPage: false });
    await again.close();
  }
});

await check('no console errors', async () => {
  assert(!errors.length, errors.join(' | '));
});

await browser.close();
server.close();
if (tmp) await rm(tmp, { recursive: true, force: true });
done();
