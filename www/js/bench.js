// @ts-check
// The browser benchmark page (www/bench.html): runs bench-worker.js on a list of tasks and shows
// each measurement as it arrives. tests/e2e/bench.mjs drives it headless through
// `window.cscBench.start(tasks)` and reads `window.cscBench.events`; the Run button runs the
// synthetic workload by hand.
import { Rpc } from './rpc.js';

/** The default task list: the benchmark's workloads (datasets other than the built-in ones need
 *  `dataUrl`; without `policies` the worker runs the engine's `compared` policies). */
export function defaultTasks({ datasets = ['synthetic'], policies = undefined, horizon = 5000, seed = 0, dataUrl = '', reps = 5 } = {}) {
  return [
    { kind: 'online', datasets, policies, params: { horizon, seed, k: 5 }, dataUrl },
    { kind: 'reverse-greedy', m: 5000, k: 5, reps },
    { kind: 'krr', l: 2000, tracked: 500, reps },
  ];
}

const $ = (id) => document.getElementById(id);
const MiB = 2 ** 20;

function describe(e) {
  const ms = (x) => `${x.toFixed(1)} ms`;
  switch (e.type) {
    case 'init': return `wasm initialised in the worker: ${ms(e.ms)}`;
    case 'fetch': return `${e.dataset}: ${(e.bytes / MiB).toFixed(1)} MiB fetched in ${ms(e.ms)}`;
    case 'load': return `${e.dataset}: loaded ${e.size} × ${e.dim} in ${ms(e.ms)}`;
    case 'setup': return `${e.dataset}: trace + oracle ${ms(e.ms)} (T = ${e.horizon}, L(M_orc) = ${e.oracleLoss.toFixed(6)})`;
    case 'net': return `${e.dataset}: shared ε-net ${ms(e.ms)} (${e.centers} centers)`;
    case 'policy': return `${e.dataset}: ${e.policy} ${ms(e.ms)}  avg regret ${e.avgRegret.toFixed(6)}  switches ${e.switches}`;
    case 'rg-build': return `reverse greedy: ${e.m} candidates + distance matrix built in ${ms(e.ms)}`;
    case 'rg': return `reverse greedy m = ${e.m}, k = ${e.k}: ${ms(e.ms)} (loss ${e.loss.toFixed(6)})`;
    case 'krr-build': return `krr: grown to ℓ = ${e.l - 1} with ${e.tracked} tracked centers in ${ms(e.ms)}`;
    case 'krr': return `krr: observation ${e.nObs} + refresh of ${e.tracked} centers: ${ms(e.ms)}`;
    case 'done': return 'done';
    case 'error': return `error: ${e.message}`;
    default: return JSON.stringify(e);
  }
}

const bench = {
  events: [],
  running: false,
  /** Runs `tasks` in a new worker (through rpc.js); resolves when it is done (rejects on an error). */
  async start(tasks) {
    if (bench.running) throw new Error('a benchmark is already running');
    bench.running = true;
    bench.events = [];
    $('state').textContent = 'running…';
    const show = (e) => {
      bench.events.push(e);
      const memNote = e.mem ? `  [wasm memory ${(e.mem / MiB).toFixed(1)} MiB]` : '';
      $('out').textContent += `${describe(e)}${memNote}\n`;
    };
    const w = new Rpc(new URL('./bench-worker.js', import.meta.url), { name: 'the benchmark worker', idleMs: 30 * 60 * 1000, startHint: 'it failed to load' });
    try {
      show(await w.request('run', tasks, { onProgress: show }));
      $('state').textContent = 'done';
      return bench.events;
    } catch (err) {
      show({ type: 'error', message: err.message });
      $('state').textContent = `failed: ${err.message}`;
      throw err;
    } finally {
      bench.running = false;
      w.terminate();
    }
  },
};
/** @type {any} */ (window).cscBench = bench; // the one global this page adds, for scripts/bench.sh
$('run').addEventListener('click', () => { bench.start(defaultTasks()).catch(() => {}); });
document.body.dataset.ready = 'true';
