// @ts-check
// One request/reply protocol for every worker of the page: the live run
// (worker.js), experiments (exp-worker.js via jobs.js), checking uploads (upload-worker.js via
// upload.js), embedding questions (embed-worker.js via views/ask.js) and the benchmark
// (bench-worker.js via bench.js).
//
// The page side is `Rpc`: `request(type, payload)` posts `{ id, type, payload }` and returns a
// promise of the reply's result. The worker side is `serve(handlers)`: each handler gets the
// payload and a `progress(data)` function and returns (or resolves to) the result; `reply(result,
// transfer)` hands buffers over without a copy. On the wire: `{ id, progress }` while a request
// runs, `{ note }` for news of no request (e.g. a model loading), then `{ id, ok: true, result }`
// or `{ id, ok: false, message, trapped }`.
//
// A worker that runs the page's engine gets it compiled: its Rpc's `wasm` (engine.js's
// `enginePackage`) is posted as `{ wasmModule, synthetic }` before the first request, and the
// worker instantiates that and gives it the synthetic embeddings (`startPageEngine`), so the .wasm
// and the embeddings are fetched, and the .wasm compiled, once per page.
//
// One crash and timeout path: a worker that cannot start or throws outside a handler
// (`onerror`), whose message cannot be read (`onmessageerror`), whose wasm instance trapped (a
// `WebAssembly.RuntimeError`: the worker closes itself), or that stays silent — no reply,
// progress or note — for `idleMs` while a request waits, is terminated, and every waiting
// request is rejected with one plain message naming the worker. The next request starts a
// fresh worker.
import { fetchSynthetic } from './synthetic.js';

/** A handler's result with buffers to transfer (not copy) to the page. */
export function reply(result, transfer = []) {
  return { [REPLY]: true, result, transfer };
}
const REPLY = Symbol('reply');

const message = (e) => String(e && e.message ? e.message : e);

/** @typedef {{ module: WebAssembly.Module, synthetic: ArrayBuffer }} EnginePackage */
/** @type {(engine: EnginePackage | undefined) => void} */
let moduleArrived = () => {};
/** @type {Promise<EnginePackage | undefined>} */
const arrivedModule = new Promise((resolve) => { moduleArrived = resolve; });

/**
 * The worker side: starts the page's engine — the compiled module the page posts before the first
 * request (an Rpc's `wasm`), instantiated by the package's `init`, then given the synthetic
 * embeddings posted with it (`provideSynthetic`). If a request comes first, the worker fetches and
 * compiles the .wasm and fetches the embeddings itself. Resolves when the engine is ready.
 * @param {(opts?: { module_or_path: WebAssembly.Module }) => Promise<unknown>} init
 * @param {(bytes: Uint8Array) => void} provideSynthetic
 */
export async function startPageEngine(init, provideSynthetic) {
  const posted = await arrivedModule;
  await init(posted ? { module_or_path: posted.module } : undefined);
  provideSynthetic(new Uint8Array(posted ? posted.synthetic : await fetchSynthetic()));
}

/** The worker side: answers every request with its handler (`handlers[type](payload, progress)`).
 *  `trappedSays(message)`: what a trapped instance's reply says (what the page can do next). */
export function serve(handlers, { trappedSays = (m) => `the engine stopped (${m})` } = {}) {
  const scope = workerScope();
  scope.onmessage = async ({ data: m }) => {
    if (m && 'wasmModule' in m) { moduleArrived({ module: m.wasmModule, synthetic: m.synthetic }); return; }
    moduleArrived(undefined); // a request first: no module is coming
    const { id, type, payload } = m || {};
    const progress = (data, transfer = []) => scope.postMessage({ id, progress: data }, transfer);
    try {
      const handler = handlers[type];
      if (!handler) throw new Error(`this worker has no request “${type}”`);
      const out = await handler(payload, progress);
      if (out && out[REPLY]) scope.postMessage({ id, ok: true, result: out.result }, out.transfer);
      else scope.postMessage({ id, ok: true, result: out });
    } catch (e) {
      const trapped = e instanceof WebAssembly.RuntimeError;
      scope.postMessage({ id, ok: false, trapped, message: trapped ? trappedSays(message(e)) : message(e) });
      if (trapped) scope.close();
    }
  };
}

/** News of no request (e.g. a model loading), for the page's `onNote`. */
export function note(data) {
  workerScope().postMessage({ note: data });
}

/**
 * The worker's global scope, as much of it as `serve` and `note` use. The page's modules are
 * type-checked with the DOM's types (www/jsconfig.json), where `self` is a Window; in a worker it
 * is a DedicatedWorkerGlobalScope.
 * @returns {{ onmessage: ((ev: MessageEvent) => unknown) | null, postMessage(message: unknown, transfer?: Transferable[]): void, close(): void }}
 */
const workerScope = () => /** @type {any} */ (self);

/** The page side: one worker (started on the first request, again after a failure). */
export class Rpc {
  /**
   * `url`: the worker's module; `name`: how messages name it ("the engine's worker");
   * `idleMs`: the longest silence a waiting request accepts; `onNote(data)`: news of no request;
   * `onFail(message)`: called once per failure of the worker (after the requests are rejected);
   * `startHint`: why a worker may not start (e.g. "is pkg/ built and served?"); `wasm`: the
   * compiled engine and the synthetic embeddings (engine.js's `enginePackage`), posted to each
   * worker started before its first request.
   * @param {string | URL} url
   * @param {{ name?: string, idleMs?: number, onNote?: (data: any) => void, onFail?: (message: string) => void, startHint?: string, wasm?: Promise<EnginePackage> | null }} [options]
   */
  constructor(url, { name = 'the worker', idleMs = 120000, onNote = () => {}, onFail = () => {}, startHint = 'it could not be started', wasm = null } = {}) {
    this.url = url;
    this.name = name;
    this.idleMs = idleMs;
    this.onNote = onNote;
    this.onFail = onFail;
    this.startHint = startHint;
    this.wasm = wasm;
    /** Resolves when the worker may be sent requests (its module posted first). */
    this.started = Promise.resolve();
    this.worker = null;
    this.waiting = new Map(); // id → { resolve, reject, onProgress }
    this.nextId = 1;
    this.timer = null;
  }

  /** Whether a worker is running now. */
  get running() { return this.worker !== null; }

  spawn() {
    const w = new Worker(this.url, { type: 'module' });
    w.onerror = (ev) => { ev.preventDefault(); this.fail(`${this.name} failed: ${ev.message || this.startHint}`); };
    w.onmessageerror = () => this.fail(`a message from ${this.name} could not be read`);
    w.onmessage = ({ data: m }) => this.receive(m);
    this.worker = w;
    if (this.wasm) {
      this.started = this.wasm.then(
        ({ module, synthetic }) => { if (this.worker === w) w.postMessage({ wasmModule: module, synthetic }); },
        (e) => { if (this.worker === w) this.fail(`${this.name} could not be given the engine: ${message(e)}`); },
      );
    }
  }

  receive(m) {
    this.arm();
    if (m && 'note' in m) { this.onNote(m.note); return; }
    const w = this.waiting.get(m.id);
    if (!w) return;
    if ('progress' in m) { if (w.onProgress) w.onProgress(m.progress); return; }
    this.waiting.delete(m.id);
    if (!this.waiting.size) this.disarm();
    if (m.ok) w.resolve(m.result);
    else if (m.trapped) { w.reject(new Error(m.message)); this.fail(m.message); } else w.reject(new Error(m.message));
  }

  /** Posts a request; resolves with the handler's result, rejects with one plain message.
   *  `onProgress(data)` hears the handler's progress; `transfer` hands buffers over. */
  request(type, payload = {}, { onProgress = null, transfer = [] } = {}) {
    if (!this.worker) this.spawn();
    const id = this.nextId++, w = this.worker;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onProgress });
      this.arm();
      const send = () => {
        if (this.worker !== w) return; // failed or stopped meanwhile: already rejected
        try { w.postMessage({ id, type, payload }, transfer); } catch (e) { this.waiting.delete(id); reject(new Error(`${this.name} could not be sent the request: ${message(e)}`)); }
      };
      // After the engine's module (in order: every request waits on the same promise).
      if (this.wasm) this.started.then(send); else send();
    });
  }

  /** Restarts the silence clock while requests wait. */
  arm() {
    this.disarm();
    if (!this.waiting.size || !Number.isFinite(this.idleMs)) return;
    this.timer = setTimeout(() => this.fail(`${this.name} stopped answering (nothing for ${Math.round(this.idleMs / 1000)} s); it was stopped`), this.idleMs);
  }

  disarm() { if (this.timer !== null) { clearTimeout(this.timer); this.timer = null; } }

  /** The one failure path: the worker goes, every waiting request is rejected with `why`. */
  fail(why) {
    const had = this.worker !== null;
    this.terminate(new Error(why));
    if (had) this.onFail(why);
  }

  /** Stops the worker; waiting requests are rejected (with `error`, else "cancelled"). */
  terminate(error = new Error(`${this.name} was stopped`)) {
    this.disarm();
    if (this.worker) { this.worker.terminate(); this.worker = null; }
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(error);
  }
}
