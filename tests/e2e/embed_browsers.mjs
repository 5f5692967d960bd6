// The shipped embedding package (dist/pkg-embed, dist/model from scripts/dist.sh) in headless
// Chrome and Firefox: embed-check.html embeds the first 200 NQ questions one by one
// and as a batch and compares them with ../shared/data's rows (min cosine ≥ 0.99999), embeds edge
// texts (empty, non-Latin, emoji, longer than 256 word-pieces) to unit rows, counts GPT-2 tokens
// of the first 1,000 NQ and 1,000 TriviaQA questions against their `tokens`, and checks that bad
// values throw Errors. Chrome through playwright-core, Firefox through geckodriver's WebDriver
// (both installed by scripts/setup.sh; nothing downloaded). Fails when the data is missing.
//   node tests/e2e/embed_browsers.mjs [DATA_DIR]     (default $CSC_DATA, else ../shared/data)
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { inFirefoxSession } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const data = path.resolve(process.argv[2] || process.env.CSC_DATA || path.join(root, '../shared/data'));
for (const f of ['pkg-embed/csc_embed.js', 'model/model.f16.safetensors']) {
  if (!existsSync(path.join(dist, f))) { console.error(`dist/${f} is missing: build the bundle first (bash scripts/dist.sh)`); process.exit(1); }
}
for (const f of ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl']) {
  if (!existsSync(path.join(data, f))) { console.error(`${data}/${f} is missing: give the shared data directory as the argument or CSC_DATA`); process.exit(1); }
}
const extra = { '/__check__/embed.html': path.join(root, 'tests/e2e/embed-check.html') };
for (const f of ['nq.jsonl', 'nq.emb.f32', 'triviaqa.jsonl']) extra[`/__data__/${f}`] = path.join(data, f);
const { server, origin } = await serveStatic(dist, extra);
const url = `${origin}/__check__/embed.html`;
const TIMEOUT = 600_000;

async function inChrome() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__result, null, { timeout: TIMEOUT, polling: 500 });
    return await page.evaluate(() => window.__result);
  } finally { await browser.close(); }
}

/** Firefox through geckodriver's W3C WebDriver HTTP API (harness.mjs). */
function inFirefox() {
  return inFirefoxSession(async (call, sid) => {
    await call('POST', `/session/${sid}/url`, { url });
    const end = Date.now() + TIMEOUT;
    for (;;) {
      const r = await call('POST', `/session/${sid}/execute/sync`, { script: 'return window.__result || null;', args: [] });
      if (r) return r;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((res) => setTimeout(res, 500));
    }
  });
}

let failed = 0;
for (const [name, run] of [['Chrome', inChrome], ['Firefox', inFirefox]]) {
  let r;
  try { r = await run(); } catch (e) { r = { problems: [`could not run: ${e.message}`] }; }
  const problems = [...(r.problems || [])];
  if (!(r.minCos >= 0.99999)) problems.push(`min cosine ${r.minCos} < 0.99999`);
  if (!(r.minCosBatch >= 0.99999)) problems.push(`batched min cosine ${r.minCosBatch} < 0.99999`);
  if (!r.edgeNorms || r.edgeNorms.some((n) => Math.abs(n - 1) > 1e-5)) problems.push(`edge rows' norms ${r.edgeNorms}`);
  if (r.tokenChecked !== 2000 || r.tokenMismatches !== 0) problems.push(`${r.tokenMismatches} token counts of ${r.tokenChecked} differ`);
  if (problems.length) { failed++; console.log(`FAIL ${name}: ${problems.join('; ')}`); continue; }
  console.log(`ok   ${name}: min cosine ${r.minCos.toFixed(7)} (batched ${r.minCosBatch.toFixed(7)}, max |Δ| ${r.maxAbs.toExponential(1)}) over 200 NQ; ` +
    `2,000 token counts equal; load ${r.loadMs.toFixed(0)} ms, ${r.msPerQuestion.toFixed(1)} ms/question (${r.userAgent.match(/(Chrome|Firefox)\/[\d.]+/)?.[0]})`);
}
server.close();
console.log(failed ? `${failed} of 2 browsers failed` : 'both browsers passed');
process.exit(failed ? 1 : 0);
