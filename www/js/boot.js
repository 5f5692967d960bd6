// @ts-check
// The page's entry point: loads the playground (main.js) and turns any failure to start into a
// visible message. A missing or broken pkg/ makes main.js's imports fail or the engine's init()
// reject; either would otherwise leave "Loading…" on screen forever.
import('./main.js').catch((e) => {
  const reason = e && e.message ? e.message : String(e);
  const banner = document.getElementById('banner');
  banner.textContent = `The playground could not start: ${reason}. The engine (pkg/) is missing or broken: ` +
    'build it with bash scripts/wasm.sh and serve www/ again; the page also needs a browser with WebAssembly.';
  banner.hidden = false;
  document.getElementById('status').textContent = 'The engine could not be loaded.';
  document.body.dataset.ready = 'error';
  console.error(e);
});
