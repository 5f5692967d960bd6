// The localhost server the browser scripts share (run.mjs, bench.mjs): www/ as scripts/serve.sh
// serves it, the long-run worker of long_run.mjs, and optionally read-only extra files under
// fixed paths (bench.mjs: the four NQ/TriviaQA files under /__data__/, never copied into the
// repository) or directories in place of www/'s (fixture_preset.mjs: another build as /pkg/).
// Nothing outside www/ and those files and directories is reachable.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LONG_RUN_WORKER, LONG_RUN_WORKER_SOURCE } from './long_run.mjs';

export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.ts': 'text/plain',
};

// Starts the server on a free port of 127.0.0.1; `extra` maps URL paths to files, and URL
// prefixes ending in '/' to directories served there instead of www/'s. Returns { server, origin }.
export async function serveStatic(www, extra = {}) {
  const server = http.createServer(async (req, res) => {
    try {
      let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (p === LONG_RUN_WORKER) {
        res.writeHead(200, { 'Content-Type': TYPES['.js'], 'Cache-Control': 'no-cache' });
        res.end(LONG_RUN_WORKER_SOURCE);
        return;
      }
      let file = extra[p];
      const dir = Object.keys(extra).find((k) => k.endsWith('/') && p.startsWith(k));
      if (!file && dir) {
        file = path.join(extra[dir], path.normalize(p.slice(dir.length)));
        if (!file.startsWith(extra[dir])) throw new Error('outside');
      }
      if (!file) {
        if (p.endsWith('/')) p += 'index.html';
        file = path.join(www, path.normalize(p));
        if (!file.startsWith(www)) throw new Error('outside');
      }
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      res.end(body);
    } catch {
      res.writeHead(404); res.end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}
