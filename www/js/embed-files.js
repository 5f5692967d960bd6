// @ts-check
// The files "Ask a question" needs beside the page, for the embedding worker (which loads them:
// embed-worker.js) and the Ask panel (which waits until they are served: views/ask.js).
// scripts/serve.sh serves the page first and builds these after it (scripts/dist-ask.sh: the
// embedding package, scripts/wasm-embed.sh; the model, scripts/fetch-model.sh), so for a while a
// page may be served without them; scripts/dist.sh's bundle always has them.

/** The model's files under model/ (all-MiniLM-L6-v2 as f16, its tokenizer, its configuration). */
export const MODEL_FILES = { weights: 'model.f16.safetensors', tokenizer: 'tokenizer.json', config: 'config.json' };

/** Under model/: the size in bytes of each of its files, `{ "bytes": { "tokenizer.json": 466247, … } }`
 *  (scripts/fetch-model.sh), so that the download's progress counts against its real total
 *  whatever the server says of lengths (none when it sends chunks; the encoded size when it
 *  compresses). */
export const MODEL_MANIFEST = 'manifest.json';

/** Which parts of Ask are served: ASK_STATUS (beside index.html) maps each part's `id` to
 *  whether it is in place, `{ "parts": { "pkg-embed": false, "model": true } }`, written by
 *  scripts/dist-ask.sh as it places each part. A page served without the file (a bundle built
 *  before it existed) has them all. */
export const ASK_STATUS = 'ask.json';

/** The parts, with how the Ask panel names the ones it waits for. */
export const ASK_PARTS = [
  { id: 'pkg-embed', name: 'the embedding package (pkg-embed/)' },
  { id: 'model', name: 'the model (model/)' },
];
