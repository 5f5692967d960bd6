// A headless Chromium session on www/ for the end-to-end scripts reproduce.mjs and sweep.mjs: the
// page served on a free port, pages opened once the app is ready (every page error and console
// error kept), and a download's name and text.
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from './static_server.mjs';
import { waitFor } from './harness.mjs';
import { root } from './cli.mjs';

export const artifacts = path.join(root, 'artifacts');

export async function session() {
  const { server, origin } = await serveStatic(path.join(root, 'www'));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  await mkdir(artifacts, { recursive: true });
  const errors = [];
  return {
    errors,
    /** The page at `query`, once its controls are wired. */
    async openPage(query, viewport = { width: 1440, height: 900 }) {
      const page = await browser.newPage({ viewport, acceptDownloads: true });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${origin}/${query}`);
      await waitFor(page, () => document.body.dataset.ready === 'true', null, { timeout: 60000 });
      return page;
    },
    /** Clicks `sel` and returns the download it starts: { name, text }. */
    async download(page, sel) {
      const [d] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
      return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
    },
    async close() { await browser.close(); server.close(); },
  };
}
