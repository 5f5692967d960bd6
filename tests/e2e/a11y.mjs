// The page's accessibility check: axe-core with the WCAG 2.0/2.1 A and AA tags
// (wcag2a, wcag2aa, wcag21a, wcag21aa) and best practice, in every view of the page and embedded,
// each after it has run something, so that its charts, tables and export buttons exist. axe leaves
// its "experimental" rules out of a run by tags even when they carry those tags; they are turned
// on here, so "label in name" (WCAG 2.5.3, label-content-name-mismatch: a control's accessible
// name contains its visible text, so a speech-input user can say what they see) is checked too.
// The live view also asks a question ("Ask a question", with the embedding package and the model
// of www/pkg-embed and www/model, which scripts/dist.sh builds) and is checked with the answer
// shown, its decisions in colour ("sent to the LLM", "served").
// Finds 0 violations or fails, naming each rule, view and node. Screenshots of each view at
// 1280 px go to artifacts/a11y-*.png.
//   node tests/e2e/a11y.mjs [VIEW…]  (needs www/pkg: bash scripts/wasm.sh, and for the live view
//   www/pkg-embed and www/model: bash scripts/dist.sh; VIEW: live, regret, …, embedded-live)
import { existsSync } from 'node:fs';
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static_server.mjs';
import { checks, assert, waitFor, requirePkg, launchChromium } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const www = path.join(root, 'www');
const artifacts = path.join(root, 'artifacts');
requirePkg(www);
// `node tests/e2e/a11y.mjs regret paper`: only those views.
const only = process.argv.slice(2);
if (!only.length || only.includes('live')) for (const f of ['pkg-embed/csc_embed.js', 'model/model.f16.safetensors']) {
  if (!existsSync(path.join(www, f))) { console.error(`www/${f} is missing: the live view asks a question; build it first (bash scripts/dist.sh)`); process.exit(1); }
}
await mkdir(artifacts, { recursive: true });

/** The tags of WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

const axe = await readFile(path.join(root, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
/** axe's violations in `page`, one line per rule with up to 3 of its nodes and how many. */
async function violations(page) {
  await page.addScriptTag({ content: axe });
  return page.evaluate(async (tags) => {
    const ax = /** @type {any} */ (window).axe;
    // Every rule under these tags, the experimental ones included.
    const rules = Object.fromEntries(ax.getRules(tags).map((r) => [r.ruleId, { enabled: true }]));
    const res = await ax.run(document, { runOnly: { type: 'tag', values: tags }, rules });
    return res.violations.map((x) => `${x.id} (${x.impact}, ${x.nodes.length} node${x.nodes.length === 1 ? '' : 's'}): ${x.help} at ${x.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} "${(n.any[0] || n.all[0] || n.none[0])?.message || ''}"`).join(', ')}`);
  }, AXE_TAGS);
}

const { server, origin } = await serveStatic(www);
const { check, done } = checks();
const browser = await launchChromium();
const errors = [];

const small = 'seeds=2&horizon=300&n_eval=300';
/** Each view, the link that opens it, and what to do so that it shows its results. */
const VIEWS = [
  ['live', '?view=live', async (p) => {
    await waitFor(p, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
    await p.click('#step');
    await waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]').textContent) >= 1);
    // A question asked: the answer names each policy's decision in its colour ("sent to the
    // LLM" in the LLM's orange); a new question founds a center, so the LLM is called for it.
    await waitFor(p, () => document.body.dataset.askReady === 'true', null, { timeout: 30000 });
    const round = await p.evaluate(() => Number(document.body.dataset.round));
    await p.fill('#ask-text', 'who wrote the declaration of independence');
    await p.click('#ask-go');
    await waitFor(p, () => /^(Played as round|Could not)/.test(document.getElementById('ask-status').textContent), null, { timeout: 240000 });
    assert(/^Played as round/.test(await p.textContent('#ask-status')), await p.textContent('#ask-status'));
    assert(await p.evaluate(() => Number(document.body.dataset.round)) === round + 1, 'the question was not played as the next round');
    assert(await p.locator('#ask-out b.llm').count() > 0, `no decision "sent to the LLM" to check: ${await p.textContent('#ask-out')}`);
  }],
  ['regret', `?view=regret&${small}&policies=greedy,lfu`, (p) => jobDone(p, 'regret')],
  ['offline', `?view=offline&${small}`, (p) => jobDone(p, 'offline')],
  ['efficiency', `?view=efficiency&${small}&policies=greedy,lfu`, (p) => jobDone(p, 'efficiency')],
  ['theory', `?view=theory&${small}&policies=clcb-sc-ls-cont,greedy`, (p) => jobDone(p, 'theory')],
  ['threats', '?view=threats&tenants=2&threat_policies=lru,threshold,vcache&attack_p=0,0.5', async (p) => {
    await p.click('[data-job=threats-tenants] .run');
    await jobDone(p, 'threats-tenants');
    await p.click('[data-job=threats-attack] .run');
    await jobDone(p, 'threats-attack');
  }],
  ['paper', '?view=paper&preset=fig-c', (p) => jobDone(p, 'paper')],
  ['sweep', `?view=sweep&${small}&policies=greedy,lfu`, async (p) => {
    await p.fill('#sweep-v1', '0.2, 0.4');
    await p.press('#sweep-v1', 'Tab');
    await p.click('[data-job=sweep] .run');
    await jobDone(p, 'sweep');
  }],
  // The frontier's full run is long: its first units drawn (chart and table), then cancelled.
  // On synthetic (plane has no ground truth, so the frontier refuses it); a failed run fails at once.
  ['frontier', '?view=frontier&dataset=synthetic&seeds=2', async (p) => {
    await waitFor(p, () => {
      const job = document.querySelector('[data-job=frontier]');
      return job?.dataset.status === 'error' || (!!job?.querySelector('svg.chart-plot') && !!job?.querySelector('table tbody tr'));
    }, null, { timeout: 600000, every: 500 });
    assert(await p.getAttribute('[data-job=frontier]', 'data-status') !== 'error', `frontier: ${await p.textContent('[data-job=frontier] .status')}`);
    await p.click('[data-job=frontier] .cancel');
    await waitFor(p, () => document.querySelector('[data-job=frontier]').dataset.status === 'cancelled');
  }],
  ['embedded live', '?embed=1&dataset=plane', (p) => waitFor(p, () => Number(document.querySelector('#panel-0 [data-counter=round]')?.textContent) >= 1)],
];

async function jobDone(page, job) {
  await waitFor(page, (j) => ['done', 'error', 'cancelled'].includes(document.querySelector(`[data-job=${j}]`)?.dataset.status), job, { timeout: 1200000, every: 250 });
  const status = await page.textContent(`[data-job=${job}] .status`);
  assert(/^Done/.test(status), `${job}: ${status}`);
}

try {
  // axe runs inside the page: a context that lets its script in past the page's CSP.
  const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  for (const [what, query, show] of VIEWS.filter(([w]) => !only.length || only.includes(w.replace(/\s+/g, '-')))) {
    await check(`${what}: axe-core (WCAG 2.1 A/AA with its experimental rules, best practice) finds no violation once it has run`, async () => {
      const p = await ctx.newPage();
      p.on('pageerror', (e) => errors.push(`${what}: ${e}`));
      p.on('console', (m) => { if (m.type() === 'error') errors.push(`${what}: ${m.text()}`); });
      try {
        await p.goto(`${origin}/${query}`);
        await waitFor(p, () => document.body.dataset.ready === 'true', null, { timeout: 120000 });
        await show(p);
        await p.waitForTimeout(500);
        await p.screenshot({ path: path.join(artifacts, `a11y-${what.replace(/\s+/g, '-')}.png`), fullPage: true });
        const v = await violations(p);
        assert(v.length === 0, v.join(' | '));
      } finally { await p.close(); }
    });
  }
  await ctx.close();
  await check('no console errors', async () => assert(errors.length === 0, errors.join(' | ')));
} finally {
  await browser.close();
  server.close();
}
done();
