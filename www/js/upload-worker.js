// @ts-check
// Parses and checks uploaded data off the main thread (building a dataset measures its distance
// scale, O(n²·d)), so the page stays responsive while a large file is read: a user's JSONL (with
// its embedding file, and the index file of arrivals of `replay`), or the four nq-trivia files.
// One request, `check` (rpc.js): progress `[rowsDone, rows]` as the distances are measured, then
// `{ size, dim, checksum, arrivals, noGroundTruth, notes }`, or the engine's message as the failed reply.
import init, { Dataset, provideSynthetic } from '../pkg/csc.js';
import { startPageEngine, serve } from './rpc.js';
import { answersOption } from './nq-trivia.js';

// the page's compiled engine (engine.js), else fetched here
const ready = startPageEngine(init, provideSynthetic);
ready.catch(() => {}); // reported as the failed reply below

serve({
  async check(u, progress) {
    await ready;
    let last = 0;
    const onProgress = (done, total) => {
      const now = performance.now();
      if (now - last > 100 || done === total) { last = now; progress([done, total]); }
    };
    let d;
    if (u.kind === 'nq') {
      const text = (b) => new TextDecoder().decode(b);
      d = Dataset.nqTrivia(text(u.nq), new Uint8Array(u.nqEmb), text(u.tq), new Uint8Array(u.tqEmb), undefined, undefined, { onProgress, ...answersOption(u) });
    } else {
      const options = { onProgress, replayIndex: u.index ? new Uint8Array(u.index) : undefined, replayIndexName: u.indexName };
      d = Dataset.fromJsonl(u.name, new Uint8Array(u.jsonl), u.emb ? new Uint8Array(u.emb) : undefined, u.dim || undefined, undefined, options);
    }
    // noGroundTruth: why the data has no gold answers or labels (SPEC §14), or null; notes: what
    // loading changed in the data (rows normalised to unit length, SPEC §1), said with "Loaded".
    const info = d.info();
    const out = { size: d.size, dim: d.dim, checksum: d.checksum, arrivals: u.index ? d.replayLength : undefined, noGroundTruth: info.no_ground_truth ?? null, notes: info.notes ?? [] };
    d.free();
    return out;
  },
});
