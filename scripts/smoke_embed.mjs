// The shipped embed package (www/pkg-embed after scripts/wasm-embed.sh) in Node's V8 — the
// WebAssembly engine of Chrome — against the shared data: the first 200 NQ questions
// embed to cosine ≥ 0.99999 with nq.emb.f32's rows; edge texts (empty, non-Latin, emoji, longer
// than 256 word-pieces) give unit rows; gpt2Tokens equals the `tokens` field on the first 1,000
// NQ and TriviaQA questions; bad JS values throw Errors (never a trap). Prints timings.
// Usage: node scripts/smoke_embed.mjs [DATA_DIR]   (model from scripts/fetch-model.sh)
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const data = resolve(process.argv[2] ?? `${root}/../shared/data`);
const pkg = `${root}/www/pkg-embed`, model = `${root}/www/model`;
const m = await import(pathToFileURL(`${pkg}/csc_embed.js`).href);
let t0 = performance.now();
m.initSync({ module: readFileSync(`${pkg}/csc_embed_bg.wasm`) });
const e = m.Embedder.load(readFileSync(`${model}/model.f16.safetensors`), readFileSync(`${model}/tokenizer.json`),
  readFileSync(`${model}/config.json`, "utf8"));
const loadMs = performance.now() - t0;
let failed = 0;
const check = (ok, what) => { if (!ok) { failed++; console.error(`FAIL ${what}`); } };
const lines = (f, n) => readFileSync(`${data}/${f}`, "utf8").split("\n").filter(Boolean).slice(0, n).map((l) => JSON.parse(l));

const nq = lines("nq.jsonl", 200);
const raw = readFileSync(`${data}/nq.emb.f32`);
const want = new Float32Array(raw.buffer, raw.byteOffset, 200 * 384);
e.embed(["warm-up"]);
t0 = performance.now();
let minCos = Infinity;
for (const [i, q] of nq.entries()) {
  const x = e.embed([q.text]);
  let dot = 0, nn = 0;
  for (let j = 0; j < 384; j++) { dot += x[j] * want[i * 384 + j]; nn += x[j] * x[j]; }
  minCos = Math.min(minCos, dot / Math.sqrt(nn));
}
const perQ = (performance.now() - t0) / nq.length;
check(minCos >= 0.99999, `min cosine ${minCos}`);
const long = "the quick brown fox jumps over the lazy dog ".repeat(80);
const edge = e.embed(["", "東京タワーの高さは何メートルですか", "🦀🚀 who invented the 🍕?", long]);
check(edge.length === 4 * 384, "edge rows");
for (let r = 0; r < 4; r++) {
  let nn = 0;
  for (let j = 0; j < 384; j++) nn += edge[r * 384 + j] ** 2;
  check(Math.abs(Math.sqrt(nn) - 1) < 1e-5, `edge row ${r} norm ${Math.sqrt(nn)}`);
}
for (const f of ["nq.jsonl", "triviaqa.jsonl"]) {
  for (const [i, q] of lines(f, 1000).entries()) {
    if (m.gpt2Tokens(q.text) !== q.tokens) { check(false, `${f} line ${i}: ${m.gpt2Tokens(q.text)} ≠ ${q.tokens}`); break; }
  }
}
const throwsError = (f) => { try { f(); return false; } catch (err) { return err instanceof Error && !(err instanceof WebAssembly.RuntimeError); } };
for (const v of [undefined, null, 5, "x", {}, [1], [null], new Float32Array(2)]) {
  check(throwsError(() => e.embed(v)) || Array.isArray(v) && v.length === 0, `embed(${String(v)}) throws an Error`);
  check(throwsError(() => m.gpt2Tokens(v)) || typeof v === "string", `gpt2Tokens(${String(v)}) throws an Error`);
}
for (const args of [[], [1, 2, 3], [new Uint8Array(8), "{}", "{}"], [new Uint8Array(0), "x", "y"]]) {
  check(throwsError(() => m.Embedder.load(...args)), `Embedder.load(${args.length} args) throws an Error`);
}
check(e.embed([]).length === 0 && e.embed(["ok"]).length === 384, "still healthy");
console.log(`wasm (Node ${process.version}): load ${loadMs.toFixed(0)} ms, ${perQ.toFixed(1)} ms/question, min cosine ${minCos.toFixed(7)} over 200 NQ`);
console.log(failed ? `${failed} failed` : "all passed");
process.exit(failed ? 1 : 0);
