// Parses and checks an uploaded dataset off the main thread (Dataset.fromJsonl builds the whole
// dataset, O(n²·d) for its distances), so the page stays responsive while a large file is read.
// Replies { ok, size, dim, checksum } or { ok: false, message } with the engine's message.
import init, { Dataset } from '../pkg/csc.js';

const ready = init();
ready.catch(() => {}); // reported as a reply below

self.onmessage = async ({ data: u }) => {
  try {
    await ready;
    const d = Dataset.fromJsonl(u.name, new Uint8Array(u.jsonl), u.emb ? new Uint8Array(u.emb) : undefined, u.dim || undefined);
    const reply = { ok: true, size: d.size, dim: d.dim, checksum: d.checksum };
    d.free();
    self.postMessage(reply);
  } catch (e) {
    self.postMessage({ ok: false, message: String(e && e.message ? e.message : e) });
  }
};
