// "Ask a question" arriving after the page, in headless Chromium: scripts/serve.sh
// serves dist/ as soon as the engine and the page are built and adds the embedding package and
// the model afterwards (scripts/dist-ask.sh: each part renamed into place, then dist/ask.json
// says so). Simulated here on the bundle (dist/ from scripts/dist.sh): pkg-embed/, model/ and
// ask.json are served from a temporary directory where, as dist-ask.sh does, ask.json first says
// both parts are missing, then the package appears, then the model. The Ask panel must say what
// it waits for, with Ask disabled and no error; then, in the same page (no reload, no navigation),
// name only the model; then work: a typed question is played as the next round. No console error,
// no request leaves the origin. Screenshots of the waiting and the working panel in artifacts/.
//   node tests/e2e/ask_later.mjs
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, launchChromium } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
for (const f of ['pkg/csc.js', 'pkg-embed/csc_embed.js', 'model/model.f16.safetensors', 'data/manifest.json']) {
  if (!existsSync(path.join(dist, f))) { console.error(`dist/${f} is missing: build the bundle first (bash scripts/dist.sh)`); process.exit(1); }
}
// The late parts: nothing there at first.
const late = mkdtempSync(path.join(os.tmpdir(), 'csc-ask-later-'));
const status = path.join(late, 'ask.json');
const say = (parts) => writeFileSync(status, JSON.stringify({ parts }));
/** `name` copied from dist/ and renamed into place, as scripts/dist-ask.sh places it. */
const arrive = (name) => { cpSync(path.join(dist, name), path.join(late, `.${name}.part`), { recursive: true }); renameSync(path.join(late, `.${name}.part`), path.join(late, name)); };
say({ 'pkg-embed': false, model: false });
const { server, origin } = await serveStatic(dist, {
  '/ask.json': status, '/pkg-embed/': path.join(late, 'pkg-embed'), '/model/': path.join(late, 'model'),
});
const { check, done } = checks();
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
const errors = [], foreign = [], lateRequests = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
page.context().on('request', (r) => {
  const u = r.url();
  if (!u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')) foreign.push(u);
  if (/\/(pkg-embed|model)\//.test(u)) lateRequests.push(u);
});
const askStatus = () => page.textContent('#ask-status');
const shots = path.join(root, 'artifacts');
mkdirSync(shots, { recursive: true });

await page.goto(`${origin}/?dataset=nq-trivia`);
await waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 180000 });
// A mark in the page's global scope: a reload would drop it (the page's own URL updates do not).
await page.evaluate(() => { /** @type {any} */ (window).askLaterMark = 'same page'; });
await check('without the package and the model, the Ask panel says what it waits for, Ask disabled, no error', async () => {
  await waitFor(page, () => document.body.dataset.askReady === 'false', null, { timeout: 10000 });
  const s = await askStatus();
  assert(/^Ask is waiting for the embedding package \(pkg-embed\/\) and the model \(model\/\)/.test(s), s);
  assert(/starts working here by itself once they arrive/.test(s), s);
  assert(await page.isDisabled('#ask-go'), 'Ask is enabled while its parts are missing');
  // Typing and pressing Enter does nothing but leave the message (no worker started, no error).
  await page.fill('#ask-text', 'who wrote hamlet');
  await page.press('#ask-text', 'Enter');
  await page.waitForTimeout(500);
  assert(/^Ask is waiting/.test(await askStatus()), await askStatus());
  assert(!lateRequests.length, `requested before they were there: ${lateRequests.join(', ')}`);
  assert(!errors.length, `errors: ${errors.join(' | ')}`);
  await page.locator('#ask').screenshot({ path: path.join(shots, 'ask-later-waiting.png') });
});
await check('the package arrives first: the panel then waits for the model only', async () => {
  arrive('pkg-embed');
  say({ 'pkg-embed': true, model: false });
  await waitFor(page, () => /^Ask is waiting for the model \(model\/\): this server does not have it yet/.test(document.getElementById('ask-status').textContent), null, { timeout: 15000 });
  assert(await page.isDisabled('#ask-go'), 'Ask is enabled without the model');
});
await check('the model arrives: Ask works in the same page, a question is the next round', async () => {
  arrive('model');
  say({ 'pkg-embed': true, model: true });
  await waitFor(page, () => document.body.dataset.askReady === 'true', null, { timeout: 15000 });
  assert(/^Ask is ready: the embedding package \(pkg-embed\/\) and the model \(model\/\) have arrived/.test(await askStatus()), await askStatus());
  assert(!(await page.isDisabled('#ask-go')), 'Ask stays disabled');
  const before = await page.evaluate(() => Number(document.body.dataset.round));
  await page.fill('#ask-text', 'who wrote the declaration of independence');
  await page.click('#ask-go');
  await waitFor(page, () => /^Round/.test(document.getElementById('ask-out').textContent.trim())
    || /^Could not/.test(document.getElementById('ask-status').textContent), null, { timeout: 240000 });
  assert(!/^Could not/.test(await askStatus()), await askStatus());
  const after = await page.evaluate(() => Number(document.body.dataset.round));
  assert(after === before + 1, `round ${before} → ${after}`);
  assert((await page.textContent('#ask-out')).includes('who wrote the declaration of independence'), 'the question is not shown');
  assert(await page.evaluate(() => /** @type {any} */ (window).askLaterMark) === 'same page', 'the page was reloaded');
  await page.locator('#ask').screenshot({ path: path.join(shots, 'ask-later-working.png') });
});
await check('no console error, no request outside the origin', async () => {
  assert(!errors.length, `errors: ${errors.join(' | ')}`);
  assert(!foreign.length, `foreign requests: ${foreign.join(', ')}`);
});
await browser.close();
server.close();
rmSync(late, { recursive: true, force: true });
done();
