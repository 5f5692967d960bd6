// @ts-check
// The dataset a run's request names, built in a worker: the live run's (worker.js) and your own
// policy's (policy-worker.js), so both play the same data.
import { answersOption } from './nq-trivia.js';

/**
 * @param {typeof import('../pkg/csc.js').Dataset} Dataset
 * @param {any} msg `{ dataset, nq?, upload? }`
 */
export function makeDataset(Dataset, msg) {
  if (msg.dataset === 'plane') return Dataset.plane();
  if (msg.dataset === 'nq-trivia' && msg.nq) {
    const f = msg.nq, text = (b) => new TextDecoder().decode(b);
    return Dataset.nqTrivia(text(f.nq), new Uint8Array(f.nqEmb), text(f.tq), new Uint8Array(f.tqEmb), undefined, undefined, answersOption(f));
  }
  if (msg.dataset === 'upload' && msg.upload) {
    // with the group field of `bursty` and the index file of `replay` (upload.js uploadedData)
    const u = msg.upload;
    const options = { groupBy: u.groupBy, replayIndex: u.index ? new Uint8Array(u.index) : undefined, replayIndexName: u.indexName };
    return Dataset.fromJsonl(u.name, new Uint8Array(u.jsonl), u.emb ? new Uint8Array(u.emb) : undefined, u.dim || undefined, undefined, options);
  }
  return Dataset.synthetic();
}
