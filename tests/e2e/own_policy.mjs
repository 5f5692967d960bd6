// End-to-end test of "Your own policy" (views/own-policy.js, policy-worker.js) in headless Chromium:
//   - the shipped LRU-threshold example, picked from the examples and run beside the built-in
//     threshold cache in the live view, equals it round by round (every round's checkpoint: T =
//     200 records one per round — average regret, switches, realised cost, hit rate, loss), and
//     its counters equal the threshold panel's at T;
//   - the link then carries the policy (#policy=…, deflate-raw + base64url): a new page opened
//     from it shows the same code, runs it in the live view to T and in the regret view on the
//     same seeds (a table per seed and its mean);
//   - hostile policies — a throw, garbage, a member it does not hold, more than k, an endless loop
//     (the per-round watchdog), unbounded allocation, a module that does not load — each give one
//     plain message naming the round (or the module) in the policy's panel, stop only that
//     policy, and leave the built-in panels' results equal to a run without it.
// Prints "N passed, M failed".   node tests/e2e/own_policy.mjs
import { readFile } from 'node:fs/promises';
import { assert, waitFor, pageSuite, finish } from './harness.mjs';

const { root, server, browser, errors, tally, openPage } = await pageSuite();
const { check } = tally;
const QUERY = '?dataset=plane&p1=threshold&p2=greedy&horizon=200&n_eval=200&seed=3&k=5&speed=50';

const ready = (page) => waitFor(page, () => /^Ready/.test(document.getElementById('status').textContent), null, { timeout: 120000 });
const finished = (page) => waitFor(page, () => document.body.dataset.liveMode === 'finished', null, { timeout: 120000 });
/** Puts `code` in the code box and runs it beside. */
async function runCode(page, code) {
  await page.evaluate(() => { /** @type {any} */ (document.getElementById('own-details')).open = true; });
  await page.fill('#own-code', code);
  await page.click('#own-apply');
  await waitFor(page, () => !document.getElementById('own-panel').hidden, null, { timeout: 30000 });
}
const ownRound = (page) => page.evaluate(() => Number(document.getElementById('own-panel').dataset.round));
const stopped = (page) => page.evaluate(() => document.getElementById('own-panel').dataset.stopped);
/** Panel p's counters as shown. */
const shown = (page, sel) => page.evaluate((sel) => Object.fromEntries([...document.querySelectorAll(`${sel} [data-counter]`)].map((e) => [e.dataset.counter, e.textContent])), sel);
/** The live view's curves (the CSV export), per policy name. */
async function curves(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = await readFile(await dl.path(), 'utf8');
  const [head, ...rows] = text.trim().split('\n');
  const cols = head.split(',');
  const out = {};
  for (const r of rows) {
    const cells = r.split(',');
    const name = JSON.parse(cells[0]);
    (out[name] ||= []).push(Object.fromEntries(cols.slice(1).map((c, i) => [c, cells[i + 1] === '' ? NaN : Number(cells[i + 1])])));
  }
  return out;
}

let link = '';
await check('the LRU-threshold example equals the built-in threshold cache round by round', async () => {
  const page = await openPage(QUERY);
  await ready(page);
  await page.evaluate(() => { /** @type {any} */ (document.getElementById('own-details')).open = true; });
  await page.selectOption('#own-example', 'lru-threshold');
  await waitFor(page, () => /** @type {HTMLTextAreaElement} */ (document.getElementById('own-code')).value.includes('class LruThreshold'), null, { timeout: 20000 });
  await page.click('#own-apply');
  await waitFor(page, () => !document.getElementById('own-panel').hidden, null, { timeout: 30000 });
  await page.click('#play');
  await finished(page);
  await waitFor(page, () => Number(document.getElementById('own-panel').dataset.round) === 200, null, { timeout: 60000 });
  assert(!(await stopped(page)), await stopped(page));
  const all = await curves(page);
  const threshold = Object.entries(all).find(([n]) => /threshold/i.test(n))?.[1];
  assert(threshold && threshold.length === 200, `threshold curve of ${threshold?.length} points`);
  const own = await page.evaluate(() => /** @type {any} */ (document.getElementById('own-panel')).ownCurves);
  assert(own.t.length === 200, `own curve of ${own.t.length} points`);
  const keys = { t: 't', avgRegret: 'avg_regret', switches: 'switches', avgRealisedCost: 'avg_realised_cost', hitRate: 'hit_rate', loss: 'loss' };
  const csvKey = (k) => Object.keys(threshold[0]).find((c) => c.toLowerCase().replace(/[^a-z]/g, '') === keys[k].replace(/_/g, '')) || keys[k];
  for (let i = 0; i < 200; i++) {
    for (const k of Object.keys(keys)) {
      const a = own[k][i], b = threshold[i][csvKey(k)];
      // The CSV writes JS numbers as text (shortest round trip): equal numbers print equal.
      assert(a === b, `round ${i + 1}: ${k} ${a} (your policy) ≠ ${b} (threshold cache)`);
    }
  }
  const hits = own.hitRate[199];
  assert(hits > 0.05, `the run must hit to test serving (hit rate ${hits})`);
  const mine = await shown(page, '#own-panel');
  const theirs = await shown(page, '#panel-0');
  assert(mine.switches === theirs.switches, `switches ${mine.switches} vs ${theirs.switches}`);
  link = page.url();
  assert(/#(.*&)?policy=[A-Za-z0-9_-]+/.test(link), `the link carries no policy: ${link}`);
  await page.close();
});

await check('a shared link runs the policy in the live and the regret views', async () => {
  assert(link, 'no link from the first check');
  const page = await openPage(link.slice(link.indexOf('?')).replace(/seed=3/, 'seed=5'));
  await ready(page);
  const code = await page.inputValue('#own-code');
  assert(code.includes('class LruThreshold') && code.includes('explain()'), 'the link did not restore the code');
  await waitFor(page, () => !document.getElementById('own-panel').hidden, null, { timeout: 30000 });
  await page.click('#play');
  await finished(page);
  await waitFor(page, () => Number(document.getElementById('own-panel').dataset.round) === 200, null, { timeout: 60000 });
  const why = await page.textContent('#own-panel .why');
  assert(/^Round 199: (served from its cache|sent to the LLM) — /.test(why), `why this round: ${why}`);
  await page.click('#tab-regret');
  await waitFor(page, () => !document.getElementById('own-regret').hidden, null, { timeout: 10000 });
  await page.click('#own-regret-run');
  await waitFor(page, () => document.querySelector('#own-regret-out tr[data-seed=mean]') !== null || document.getElementById('own-regret-status').classList.contains('bad'), null, { timeout: 120000 });
  const status = await page.textContent('#own-regret-status');
  assert(/^Your policy on seeds/.test(status), status);
  const rows = await page.$$eval('#own-regret-out tr[data-seed]', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert(rows.length >= 2 && rows.every((r) => r.slice(1, 4).every((v) => /^-?\d+\.\d+$/.test(v))), JSON.stringify(rows));
  await page.close();
});

// Hostile policies: each stops with one message naming the round; the built-in panels are as without it.
const LRU = await readFile(new URL('../../www/policies/lru-threshold.js', import.meta.url), 'utf8');
const at = (round, body) => LRU.replace('decide({ round, members, distances }) {', `decide({ round, members, distances }) {\n    if (round === ${round}) { ${body} }`);
const HOSTILE = [
  ['a throw', at(4, "throw new Error('my bug');"), /^the policy stopped in round 4: decide threw Error: my bug$/],
  ['garbage', at(6, 'return { serve: 0 };'), /^the policy stopped in round 6: decide must return the index of a cache member .* got an object$/],
  ['NaN', at(6, 'return NaN;'), /^the policy stopped in round 6: decide must return .* got NaN$/],
  ['a member it does not hold', at(9, 'return members.length + 3;'), /^the policy stopped in round 9: it served from cache member \d+, but its cache holds members 0 to \d+$/],
  ['more than k', LRU.replace('return this.members;', 'return round >= 8 ? [0, 1, 2, 3, 4, 5, 6] : this.members;'), /^the policy stopped in round \d+: its new cache has 7 members, more than k = 5$/],
  ['an endless loop', at(7, 'for (;;) {}'), /^the policy stopped in round 7: it ran longer than the 2 s a round may take /],
  ['unbounded allocation', at(5, 'const a = []; for (;;) a.push(new Array(1e6).fill(round));'), /^the policy stopped in round 5: it ran longer than the 2 s a round may take \(an endless loop, or allocation without bound\?\)|^the policy stopped in round 5: its worker died/],
  ['its worker dies', at(3, "setTimeout(() => { throw new Error('later'); });"), /^the policy stopped (in|after) round \d+: its worker died \(.*later.*; out of memory\?\)$/],
  ['a module that does not load', 'export default class { decide( {', /could not be loaded/],
  ['no decide', 'export default { observe() {} };', /default export must be an object, or a class, with the methods decide/],
];
let clean = null;
await check('without a policy of yours: the built-in panels at T', async () => {
  const page = await openPage(QUERY);
  await ready(page);
  await page.click('#play');
  await finished(page);
  clean = [await shown(page, '#panel-0'), await shown(page, '#panel-1')];
  await page.close();
});
for (const [name, code, message] of HOSTILE) {
  await check(`hostile policy: ${name}`, async () => {
    const page = await openPage(QUERY);
    await ready(page);
    await runCode(page, code);
    await page.click('#play');
    await finished(page);
    await waitFor(page, () => document.getElementById('own-panel').dataset.stopped !== '', null, { timeout: 60000 });
    const m = await stopped(page);
    assert(message.test(m), `message: ${m}`);
    console.log(`     ${name}: ${m}`);
    assert(await page.textContent('#own-panel .own-status') === m, 'the panel shows the message');
    const after = [await shown(page, '#panel-0'), await shown(page, '#panel-1')];
    assert(JSON.stringify(after) === JSON.stringify(clean), `the built-in panels changed: ${JSON.stringify(after)} vs ${JSON.stringify(clean)}`);
    assert(await ownRound(page) < 200, 'it played on after its fault');
    await page.close();
  });
}

await finish(tally, errors.filter((e) => !/Failed to fetch dynamically imported module|SyntaxError|Unexpected token/.test(e)), browser, server);
void root;
