// A headless Chromium session on www/ for the end-to-end scripts reproduce.mjs and sweep.mjs: the
// page served on a free port, pages opened once the app is ready (every page error and console
// error kept), and a download's name and text.
import { readFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from './static_server.mjs';
import { launchChromium, pageOpener } from './harness.mjs';
import { root } from './cli.mjs';

export const artifacts = path.join(root, 'artifacts');

export async function session() {
  const { server, origin } = await serveStatic(path.join(root, 'www'));
  const browser = await launchChromium();
  await mkdir(artifacts, { recursive: true });
  const errors = [];
  return {
    errors,
    /** The page at `query`, once its controls are wired (harness.pageOpener). */
    openPage: pageOpener(browser, origin, errors, { timeout: 60000 }),
    /** Clicks `sel` and returns the download it starts: { name, text }. */
    async download(page, sel) {
      const [d] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
      return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
    },
    async close() { await browser.close(); server.close(); },
  };
}
