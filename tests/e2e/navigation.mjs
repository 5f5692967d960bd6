// The page's navigation and its link, used as a person would:
// - hide flags only ever remove: `?embed=1&hide=X` shows nothing `?embed=1` hides (it used to bring
//   back the header, a second h1, the citation and the footer), for every name `hide` takes;
// - every part of the page the engine names (its hide groups) is found by the page's own markup and
//   hidden by its name alone;
// - the tabs push history entries: Back returns to the view before with its results, not off the page;
// - a link with a bad value for every key says, in plain words, the key, the value and what is
//   allowed (never a Rust type such as "expected u64");
// - `?embed=figure&view=…` shows one chart, its caption and the attribution, as wide as its frame,
//   and the full page offers that `<iframe>`; screenshots at 390, 768 and 1440 px go to artifacts/.
// Prints "N passed, M failed" and exits non-zero on failure.
import path from 'node:path';
import { assert, waitFor, pageSuite, finish } from './harness.mjs';

const { artifacts, origin, browser, errors, tally, openPage, server } = await pageSuite();
const { check } = tally;
// A small run, so that an experiment view finishes in seconds.
const SMALL = 'horizon=200&n_eval=200&seeds=1&policies=greedy,lfu';

/** Every element shown, each named by its path from <body> (tag, id or position). */
const shownElements = (page) => page.evaluate(() => {
  const name = (e) => {
    const parts = [];
    for (let n = e; n && n !== document.body; n = n.parentElement) {
      parts.unshift(n.id ? `#${n.id}` : `${n.tagName.toLowerCase()}:${[...n.parentElement.children].indexOf(n)}`);
      if (n.id) break;
    }
    return parts.join('>');
  };
  return [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden').map(name);
});
const visible = (page, sel) => page.evaluate((sel) => [...document.querySelectorAll(sel)].some((e) => e.getClientRects().length > 0), sel);

const first = await openPage();
const { groups, hideNames } = await first.evaluate(async () => (await import('./pkg/csc.js')).pageControls());
await first.close();

await check('hide flags only ever remove: ?embed=1&hide=X shows nothing ?embed=1 hides, for every name', async () => {
  const base = await openPage('?embed=1');
  const shown = new Set(await shownElements(base));
  assert(shown.size > 10, `embed=1 shows only ${shown.size} elements`);
  await base.close();
  // `controls` first: the case that showed the header, a second h1, the citation and the footer.
  for (const name of ['controls', ...hideNames.filter((n) => n !== 'controls')]) {
    const p = await openPage(`?embed=1&hide=${name}`);
    const more = (await shownElements(p)).filter((e) => !shown.has(e));
    assert(!more.length, `?embed=1&hide=${name} shows ${more.length} more: ${more.slice(0, 6).join(', ')}`);
    const h1s = await p.evaluate(() => [...document.querySelectorAll('h1')].filter((e) => e.getClientRects().length).length);
    assert(h1s === 1, `?embed=1&hide=${name}: ${h1s} visible h1`);
    await p.close();
  }
});

await check('every hide group of the engine is found by the page\'s markup and hidden by its name', async () => {
  for (const g of groups) {
    const sel = g.name === 'controls' || g.name === 'text' ? `.${g.name}` : `[data-hide~="${g.name}"]`;
    const plain = await openPage();
    assert(await plain.evaluate((sel) => document.querySelectorAll(sel).length, sel) > 0, `no element is marked for the group ${g.name}`);
    await plain.close();
    const p = await openPage(`?hide=${g.name}`);
    const left = await p.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length).length, sel);
    assert(left === 0, `?hide=${g.name}: ${left} of its elements shown`);
    assert(await visible(p, '#tab-live') === (g.name !== 'tabs' && g.name !== 'controls'), `?hide=${g.name}: the tabs`);
    await p.close();
  }
});

await check('tabs push history: Back returns to the view before, with its results, and never leaves the page', async () => {
  const p = await openPage(`?${SMALL}`);
  const href = () => p.evaluate(() => location.href);
  const start = await href();
  await p.click('#tab-regret');
  await waitFor(p, () => new URLSearchParams(location.search).get('view') === 'regret');
  await waitFor(p, () => document.querySelector('[data-job=regret]').dataset.status === 'done' && document.querySelector('#view-regret figure.chart svg.chart-plot'), null, { timeout: 180000, every: 250 });
  const title = await p.textContent('#view-regret figure.chart .chart-title');
  await p.click('#tab-offline');
  await waitFor(p, () => new URLSearchParams(location.search).get('view') === 'offline');
  await p.goBack();
  await waitFor(p, () => new URLSearchParams(location.search).get('view') === 'regret');
  await waitFor(p, () => !document.getElementById('view-regret').hidden && document.getElementById('view-offline').hidden);
  assert(await p.getAttribute('#tab-regret', 'aria-selected') === 'true', 'the regret tab is not selected after Back');
  // Its results are shown again at once (kept, not re-run).
  assert(await p.isVisible('#view-regret figure.chart svg.chart-plot'), 'the regret view lost its chart');
  assert(await p.textContent('#view-regret figure.chart .chart-title') === title, 'another chart after Back');
  await p.goBack();
  await waitFor(p, () => !document.getElementById('view-live').hidden);
  assert(await href() === start, `Back to ${await href()}, not ${start}`);
  assert(await p.getAttribute('#tab-live', 'aria-selected') === 'true', 'the live tab is not selected');
  await p.goForward();
  await waitFor(p, () => !document.getElementById('view-regret').hidden);
  // A parameter change stays in its entry (no new one): Back from here is the live view.
  await p.fill('#seeds', '2');
  await p.locator('#seeds').blur();
  await waitFor(p, () => new URLSearchParams(location.search).get('seeds') === '2');
  await p.goBack();
  await waitFor(p, () => !document.getElementById('view-live').hidden);
  await p.close();
});

await check('a bad value for every key is named in plain words: key, value, what is allowed', async () => {
  const p = await openPage();
  const keys = await p.evaluate(async () => {
    const csc = await import('./pkg/csc.js');
    const s = csc.urlStateDefaults('synthetic');
    return [...Object.keys(s).filter((k) => k !== 'params'), ...Object.keys(s.params)];
  });
  await p.close();
  const q = await openPage(`?${keys.map((k) => `${k}=zzz`).join('&')}`);
  await waitFor(q, () => !document.getElementById('banner').hidden);
  const msg = await q.textContent('#banner');
  for (const k of keys) assert(msg.includes(`\`${k}\``), `the banner does not name \`${k}\`: ${msg.slice(0, 200)}`);
  for (const rust of ['u64', 'usize', 'u32', 'f64', 'invalid type', 'expected']) assert(!msg.includes(rust), `"${rust}" in the banner: ${msg.slice(msg.indexOf(rust) - 80, msg.indexOf(rust) + 40)}`);
  assert(msg.includes('`speed`: `zzz` is not allowed; allowed: a whole number from 1 to'), msg.slice(0, 300));
  assert(/`seed`: `zzz` is not allowed; allowed: a whole number, 0 or more/.test(msg), 'seed');
  await q.close();
});

await check('?embed=figure shows one chart, its caption and the attribution, as wide as its frame', async () => {
  const full = await openPage(`?view=regret&${SMALL}`);
  await full.click('#embed-figure summary');
  const snippet = await full.inputValue('#embed-snippet');
  assert(/^<iframe src="[^"]*embed=figure[^"]*" title="[^"]+"/.test(snippet) && /view=regret/.test(snippet), snippet);
  await full.close();
  const src = snippet.match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  for (const width of [390, 768, 1440]) {
    const p = await openPage(src.slice(origin.length + 1), { width, height: Math.round(width * 0.75) });
    await waitFor(p, () => document.querySelector('#view-regret figure.chart svg.chart-plot'), null, { timeout: 180000 });
    const charts = await p.evaluate(() => [...document.querySelectorAll('figure.chart')].filter((e) => e.getClientRects().length).length);
    assert(charts === 1, `${width} px: ${charts} charts shown`);
    assert(await visible(p, '#view-regret figure.chart .chart-caption'), `${width} px: no caption`);
    assert(await visible(p, '#embed-credit a[href*="arxiv.org"]') && await visible(p, '#embed-full'), `${width} px: no attribution`);
    for (const sel of ['header', 'nav', '#cite', 'footer', '.tabs', '.jobbar button', '.chart-tools', '.summary', '#view-regret > p.text', '.exports']) {
      assert(!(await visible(p, sel)), `${width} px: ${sel} shown`);
    }
    const box = await p.evaluate(() => {
      const f = [...document.querySelectorAll('figure.chart')].find((e) => e.getClientRects().length).getBoundingClientRect();
      return { left: f.left, right: f.right, scroll: document.documentElement.scrollWidth, inner: innerWidth };
    });
    assert(box.scroll <= box.inner + 1, `${width} px: horizontal overflow ${box.scroll} > ${box.inner}`);
    assert(box.right - box.left > 0.9 * width - 24, `${width} px: the chart is ${box.right - box.left} px wide`);
    await p.screenshot({ path: path.join(artifacts, `embed-figure-${width}.png`) });
    await p.close();
  }
  // The live view's figure is its first panel, playing.
  const live = await openPage('?embed=figure&dataset=plane', { width: 768, height: 600 });
  const panels = await live.evaluate(() => [...document.querySelectorAll('figure.live')].filter((e) => e.getClientRects().length).map((e) => e.id));
  assert(JSON.stringify(panels) === '["panel-0"]', `live: panels shown ${panels}`);
  assert(await visible(live, '#embed-credit') && !(await visible(live, 'header')) && !(await visible(live, '#play')), 'live: attribution, header or toolbar');
  await waitFor(live, () => /round t\s*[1-9]\d{2}/.test(document.querySelector('#panel-0 .counters')?.textContent || ''), null, { timeout: 60000 });
  await live.screenshot({ path: path.join(artifacts, 'embed-figure-live-768.png') });
  await live.close();
});

await finish(tally, errors, browser, server);
