import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { waitFor } from './harness.mjs';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { server, origin } = await serveStatic(path.join(root, 'www'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
for (const [name, q, job] of [['offline', '?view=offline&seeds=2', 'offline'], ['regret', '?view=regret&seeds=2&horizon=300&n_eval=300&policies=greedy,lfu,vcache', 'regret'], ['regret-plane', '?view=regret&dataset=plane&seeds=2&horizon=300&n_eval=300&policies=greedy,lfu', 'regret']]) {
  const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  p.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
  await p.goto(origin + '/' + q);
  await waitFor(p, (j) => ['done', 'error'].includes(document.querySelector(`[data-job=${j}]`)?.dataset.status), job, { timeout: 600000, every: 500 });
  console.log(name, await p.textContent(`[data-job=${job}] .status`));
  await p.screenshot({ path: `/tmp/h4shots/${name}.png`, fullPage: true });
  await p.close();
}
await browser.close(); server.close();
