// The page's settings come from the engine's one table (js/controls.js over pageControls()): every
// control of the table is generated with the table's range, choices and reference; changing one
// writes the URL and a reload restores it; a link's hide list hides exactly the named controls and
// parts (and `embed=1` hides the controls and text); a bad hide name is one
// plain message; the live view's policies, speed and colouring are the table's too (hidden by
// name, written to the URL, read back); the paper view's menu is the engine's preset list; every convention a hint cites
// links to the rendered notes; an embedded page, with or without hide flags, passes axe-core. Screenshots of the settings at 1440 and 390 px go to artifacts/.
// Prints "N passed, M failed" and exits non-zero on failure.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { assert, waitFor, pageSuite, finish } from './harness.mjs';

const { root, artifacts, origin, browser, errors, tally, openPage, server } = await pageSuite();
const { check } = tally;
/** The engine's table, read in the page through the built package. */
const table = (page) => page.evaluate(async () => (await import('./pkg/csc.js')).pageControls());
const visible = (page, id) => page.evaluate((id) => {
  const e = document.getElementById(id);
  return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
}, id);
const urlKeys = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));

const page = await openPage();
const { controls, groups, embedHide } = await table(page);

await check('every control of the engine\'s table is generated, with its range, choices and reference', async () => {
  assert(controls.length >= 15, `only ${controls.length} controls in the table`);
  for (const c of controls) {
    const got = await page.evaluate((c) => {
      const e = document.getElementById(c.id);
      if (!e) return null;
      const label = e.closest('label');
      return {
        tag: e.tagName.toLowerCase(), type: e.type, min: e.getAttribute('min'), max: e.getAttribute('max'), step: e.getAttribute('step'),
        options: e.tagName === 'SELECT' ? [...e.options].map((o) => o.value) : null,
        count: document.querySelectorAll(`#${CSS.escape(c.id)}`).length,
        hint: label?.querySelector('small')?.textContent || '',
        links: [...(label?.querySelectorAll('small a') || [])].map((a) => a.getAttribute('href')),
      };
    }, c);
    assert(got, `#${c.id} was not generated`);
    assert(got.count === 1, `#${c.id} appears ${got.count} times`);
    assert(got.tag === (c.kind === 'select' ? 'select' : 'input'), `#${c.id}: ${got.tag}`);
    if (c.kind === 'number') {
      assert(got.min === (c.min == null ? null : String(c.min)) && got.step === String(c.step), `#${c.id}: min ${got.min} step ${got.step}`);
      if (c.max != null) assert(got.max === String(c.max), `#${c.id}: max ${got.max}`);
    }
    if (c.kind === 'select') assert(JSON.stringify(got.options) === JSON.stringify(c.choices.map((o) => o.value)), `#${c.id}: ${got.options}`);
    assert(got.hint.startsWith(c.hint.slice(0, 20)), `#${c.id}: hint "${got.hint}"`);
    assert(!/SPEC §/.test(got.hint), `#${c.id}: a SPEC section in "${got.hint}"`);
    const notes = (c.reference.match(/SPEC-NOTES#[a-z0-9-]+/g) || []).map((r) => r.slice(11));
    assert(got.links.length === notes.length && got.links.every((h, i) => h.endsWith(`docs/SPEC-NOTES.html#${notes[i]}`)), `#${c.id}: links ${got.links} for ${c.reference}`);
  }
});

await check('no hand-written copy is left: the settings panels hold only the table\'s inputs', async () => {
  const ids = new Set(controls.map((c) => c.id));
  const extra = await page.evaluate(() => [...document.querySelectorAll('[data-controls] input, [data-controls] select')].map((e) => e.id));
  // The paper view's figure menu is built by views/paper.js from paperPresets().
  const stray = extra.filter((id) => !ids.has(id) && id !== 'preset');
  assert(!stray.length, `inputs outside the table: ${stray}`);
});

await check('the paper view\'s menu is the engine\'s preset list', async () => {
  const [menu, list] = await page.evaluate(async () => [
    [...document.getElementById('preset').options].map((o) => [o.value, o.textContent]),
    (await import('./pkg/csc.js')).paperPresets().map((p) => p.id),
  ]);
  assert(JSON.stringify(menu.map((m) => m[0])) === JSON.stringify(list), `${menu} vs ${list}`);
});

await check('changing a control updates the URL, and a reload restores it', async () => {
  await page.click('#more-params summary');
  const edits = [['#k', '4', 'k'], ['#epsilon', '0.3', 'epsilon'], ['#beta', '0.5', 'beta'], ['#horizon', '1500', 'horizon']];
  for (const [sel, v, key] of edits) {
    await page.fill(sel, v);
    await page.locator(sel).blur();
    await waitFor(page, (k) => new URLSearchParams(location.search).has(k), key, { timeout: 15000 });
  }
  await page.click('#tab-regret');
  await page.fill('#seeds', '4');
  await page.locator('#seeds').blur();
  await waitFor(page, () => new URLSearchParams(location.search).get('seeds') === '4');
  await page.click('#tab-offline');
  await page.selectOption('#offline', 'abl-k');
  await waitFor(page, () => new URLSearchParams(location.search).get('offline') === 'abl-k');
  assert(await page.inputValue('#seeds-offline') === '4', 'the two seeds inputs share one state');
  await page.click('#tab-paper');
  await page.check('#full');
  await waitFor(page, () => new URLSearchParams(location.search).get('full') === '1');
  const keys = await urlKeys(page);
  assert(keys.k === '4' && keys.epsilon === '0.3' && keys.beta === '0.5' && keys.horizon === '1500' && keys.seeds === '4', JSON.stringify(keys));
  const url = await page.evaluate(() => location.href);
  const again = await openPage(url.slice(origin.length + 1));
  for (const [sel, v] of [['#k', '4'], ['#epsilon', '0.3'], ['#beta', '0.5'], ['#horizon', '1500'], ['#seeds', '4'], ['#seeds-offline', '4'], ['#offline', 'abl-k']]) {
    assert(await again.inputValue(sel) === v, `${sel} after reload: ${await again.inputValue(sel)}`);
  }
  assert(await again.isChecked('#full'), '#full after reload');
  assert(await again.evaluate(() => location.href) === url, 'the reloaded URL differs');
  await again.close();
  // A new dataset takes its own defaults for the parameters left at the old one's (plane: ε = 0.1).
  const fresh = await openPage();
  await fresh.selectOption('#dataset', 'plane');
  await waitFor(fresh, () => new URLSearchParams(location.search).get('dataset') === 'plane');
  assert(await fresh.inputValue('#epsilon') === '0.1', `plane ε: ${await fresh.inputValue('#epsilon')}`);
  await fresh.close();
});

await check('hide flags hide exactly the named controls and parts', async () => {
  const named = ['seed', 'k', 'beta', 'tabs', 'ask'];
  const p = await openPage(`?hide=${named.join(',')}`);
  await p.evaluate(() => { document.getElementById('more-params').open = true; });
  const liveControls = controls.filter((c) => ['settings', 'more'].includes(c.section));
  for (const c of liveControls) {
    const shown = await visible(p, c.id);
    assert(shown === !named.includes(c.id), `#${c.id} ${shown ? 'shown' : 'hidden'}`);
  }
  assert(!(await visible(p, 'tab-live')), 'the tabs are shown');
  assert(!(await visible(p, 'ask-text')), 'Ask a question is shown');
  assert(await visible(p, 'play') && await visible(p, 'p1'), 'an unnamed part is hidden');
  await p.close();
  // embed=1: the engine's default (controls and text hidden); hide flags add to it (tests/e2e/navigation.mjs).
  const q = await openPage('?embed=1');
  assert(await q.evaluate(() => document.body.classList.contains('embed')), 'not in embed mode');
  assert(await visible(q, 'embed-credit'), 'the embedded page lost its credit line');
  assert(JSON.stringify(embedHide) === JSON.stringify(['controls', 'text']), embedHide);
  assert(!(await visible(q, 'k')) && !(await visible(q, 'play')) && !(await visible(q, 'tab-live')), 'embed=1 shows controls');
  assert(await visible(q, 'panel-0'), 'embed=1 hides the picture');
  await q.close();
  // A part of the page named in `groups` and a control of another view.
  const r = await openPage('?embed=1&hide=controls&view=regret');
  assert(!(await visible(r, 'seeds')) && !(await visible(r, 'tab-live')), 'hide=controls shows controls');
  assert(groups.some((g) => g.name === 'controls'), 'no controls group');
  await r.close();
});

await check('the live view\'s policies, speed and colouring are the table\'s: hidden by name, written to the URL', async () => {
  // The policy choices are the engine's online list (p3, p4: "none" first, no panel).
  const ids = await page.evaluate(async () => (await import('./pkg/csc.js')).policies().map((p) => p.id));
  for (const k of ['p1', 'p2', 'p3', 'p4']) {
    const c = controls.find((x) => x.id === k);
    assert(c && c.section === 'live' && c.restart, `${k} is not a live control of the table`);
    const want = k === 'p3' || k === 'p4' ? ['', ...ids] : ids;
    const got = await page.evaluate((k) => [...document.getElementById(k).options].map((o) => o.value), k);
    assert(JSON.stringify(got) === JSON.stringify(want), `${k}: ${got}`);
  }
  const h = await openPage('?hide=speed,colour-by');
  assert(!(await visible(h, 'speed')) && !(await visible(h, 'colour-by')), 'speed or colour-by shown');
  for (const id of ['p1', 'p2', 'p3', 'p4', 'play']) assert(await visible(h, id), `#${id} hidden though not named`);
  await h.close();
  const p = await openPage();
  // A new policy restarts the run and reaches the URL; the page reads it back.
  await p.selectOption('#p2', 'lru');
  await waitFor(p, () => new URLSearchParams(location.search).get('p2') === 'lru');
  await p.selectOption('#p3', 'lfu');
  await waitFor(p, () => new URLSearchParams(location.search).get('p3') === 'lfu');
  await waitFor(p, () => !document.getElementById('panel-2').hidden, null, { timeout: 60000 });
  await p.selectOption('#p3', '');
  await waitFor(p, () => !new URLSearchParams(location.search).has('p3'));
  await waitFor(p, () => document.getElementById('panel-2').hidden, null, { timeout: 60000 });
  // The speed applies at once and is in the link; beyond the table's range it is refused, plainly.
  await p.fill('#speed', '37');
  await p.locator('#speed').blur();
  await waitFor(p, () => new URLSearchParams(location.search).get('speed') === '37');
  const max = controls.find((c) => c.id === 'speed').max;
  await p.fill('#speed', String(max + 1));
  await p.locator('#speed').blur();
  await waitFor(p, () => !document.getElementById('banner').hidden);
  const msg = await p.textContent('#banner');
  assert(msg.includes(`[1, ${max}]`), msg);
  assert(await p.inputValue('#speed') === '37' && new URL(p.url()).searchParams.get('speed') === '37', 'the refused speed was kept');
  // The colouring is in the link too, and redraws the legend.
  await p.selectOption('#colour-by', 'cell');
  await waitFor(p, () => new URLSearchParams(location.search).get('colour') === 'cell');
  assert(/Voronoi cell of the projected/.test(await p.textContent('#legend')), 'the legend does not colour by cell');
  await p.selectOption('#colour-by', 'decision');
  await waitFor(p, () => new URLSearchParams(location.search).get('colour') === 'decision');
  assert(!/Voronoi cell of the projected/.test(await p.textContent('#legend')), 'the legend still colours by cell');
  const url = p.url();
  await p.close();
  const again = await openPage(url.slice(origin.length + 1));
  for (const [sel, v] of [['#p2', 'lru'], ['#p3', ''], ['#speed', '37'], ['#colour-by', 'decision']]) {
    assert(await again.inputValue(sel) === v, `${sel} after reload: ${await again.inputValue(sel)}`);
  }
  await again.close();
});

await check('a bad hide name shows one plain message and the rest of the link is used', async () => {
  const p = await openPage('?embed=1&hide=seed,kapa&k=3');
  await waitFor(p, () => !document.getElementById('banner').hidden);
  const msg = await p.textContent('#banner');
  assert(/`hide`/.test(msg) && /unknown name `kapa`/.test(msg) && /epsilon/.test(msg), msg);
  assert(await p.inputValue('#k') === '3', 'k=3 lost');
  await p.close();
});

await check('embedded, with or without hide flags, axe-core finds no accessibility violation', async () => {
  const axe = await readFile(path.join(root, 'tests/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
  const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const found = [];
  for (const query of ['?embed=1&dataset=plane', '?embed=1&hide=seed,k,tabs,ask', '?embed=1&hide=controls&view=regret']) {
    const p = await ctx.newPage();
    await p.goto(`${origin}/${query}`);
    await waitFor(p, () => document.body.dataset.ready === 'true', null, { timeout: 120000 });
    await p.addScriptTag({ content: axe });
    const v = await p.evaluate(async () => (await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }))
      .violations.map((x) => `${x.id}: ${x.help} at ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
    found.push(...v.map((x) => `${query}: ${x}`));
    await p.close();
  }
  await ctx.close();
  assert(!found.length, found.join(' | '));
});

await check('screenshots of the settings at 1440 and 390 px', async () => {
  for (const width of [1440, 390]) {
    const p = await openPage('', { width, height: 900 });
    await p.evaluate(() => { document.getElementById('more-params').open = true; });
    const box = p.locator('#settings').locator('xpath=..').locator('xpath=..');
    await box.screenshot({ path: path.join(artifacts, `controls-settings-${width}.png`) });
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    assert(!overflow, `horizontal overflow at ${width} px`);
    await p.close();
  }
});

await finish(tally, errors, browser, server);
