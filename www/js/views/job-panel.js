// @ts-check
// The frame of every experiment view: Run / Cancel, a progress bar, the charts (redrawn as each
// unit finishes; SVG figures by charts.js), the summary table and the exports: the report's CSV
// and JSON, every figure as PNG 2×, and per figure SVG, PNG 2× and 3× and its caption to copy; the
// `csc` command that reproduces the result, and "Open a result…": a report file of the CLI drawn in
// its place.
import { captionText, drawChart } from '../charts.js';
import { runJob, cancelJob, getJob, onJob } from '../jobs.js';
import { downloadText, downloadFigureSvg, downloadFigurePng } from '../export.js';
import { reproduceBlock, openReport } from '../reproduce.js';
import { chartsOf, runOf } from '../report.js';

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});

export class JobPanel {
  /**
   * root: the `.job` element; opts.request() → { key, request, beside? } (beside: the reader's
   * policy played beside the units, jobs.js `runJob`) or { message } when it cannot run;
   * opts.charts(report) → chart specs for charts.js drawChart; opts.onReport(job) (optional);
   * opts.exported(job) (optional): the `{ csv, json }` the exports save (default: the job's own);
   * opts.command(spec, file) (optional): the reproducing command, when not the engine's `csc run`;
   * opts.opened(report) (optional): the chart specs of a result file opened in the panel (default:
   * report.js chartsOf, by what the report measured).
   */
  constructor(root, opts) {
    this.root = root;
    this.opts = opts;
    const bar = el('div', { className: 'row buttons jobbar controls' });
    this.runBtn = el('button', { type: 'button', className: 'primary run' }, 'Run');
    this.cancelBtn = el('button', { type: 'button', className: 'cancel' }, 'Cancel');
    this.progress = el('progress', { max: 1, value: 0 });
    this.progress.setAttribute('aria-label', 'Progress');
    this.status = el('span', { className: 'status', role: 'status' });
    this.status.setAttribute('aria-live', 'polite');
    bar.append(this.runBtn, this.cancelBtn, this.progress, this.status);
    this.chartsEl = el('div', { className: 'charts' });
    this.summary = el('details', { className: 'summary text' });
    this.summary.append(el('summary', {}, 'Summary table'), el('pre'));
    const ex = el('div', { className: 'row buttons exports controls' });
    ex.dataset.hide = 'exports'; // a link's `hide=exports` (css/style.css)
    this.csvBtn = el('button', { type: 'button', className: 'export-csv' }, 'Data (CSV)');
    this.jsonBtn = el('button', { type: 'button', className: 'export-json' }, 'Report (JSON)');
    this.pngBtn = el('button', { type: 'button', className: 'export-png' }, 'Charts (PNG 2×)');
    const open = el('label', { className: 'file open-report' });
    this.openInput = el('input', { type: 'file', accept: '.json,application/json' });
    open.append(this.openInput, el('span', {}, 'Open a result…'));
    ex.append(el('span', { className: 'muted' }, 'Export:'), this.csvBtn, this.jsonBtn, this.pngBtn, open);
    this.repro = reproduceBlock(opts.command);
    root.append(bar, this.chartsEl, ex, this.repro.el, this.summary);
    this.openInput.addEventListener('change', async () => {
      const f = this.openInput.files[0];
      this.openInput.value = '';
      if (f) this.open(f.name, await f.text());
    });
    // A result file dropped on the page opens in the panel shown (upload.js tells it apart from data).
    document.addEventListener('csc-open-report', (/** @type {CustomEvent<{ name: string, text: string }>} */ e) => { if (this.active) { e.preventDefault(); this.open(e.detail.name, e.detail.text); } });
    this.figures = [];
    this.runBtn.addEventListener('click', () => this.run());
    this.cancelBtn.addEventListener('click', () => cancelJob());
    this.csvBtn.addEventListener('click', () => this.export('csv'));
    this.jsonBtn.addEventListener('click', () => this.export('json'));
    this.pngBtn.addEventListener('click', () => this.export('png'));
    // A hidden panel still shows when its job ends (e.g. cancelled because loading data switched
    // views), so it never says "Running…" for a job that no longer runs; charts wait until shown.
    onJob((job) => {
      if (job.key !== this.key) return;
      if (this.active) this.render();
      else if (job.status !== 'running') this.renderStatus();
    });
    window.addEventListener('resize', () => { if (this.active) this.drawCharts(); });
  }

  /** Shows the job of the current settings, running it if it never ran. */
  activate(autoRun = true) {
    this.active = true;
    const r = this.opts.request();
    this.key = r.key;
    this.message = r.message;
    this.waiting = r.progress; // the fraction of the data downloaded, while the message waits for it
    if (this.loaded) this.render(); // an opened result stays until Run
    else if (autoRun && !r.message && !getJob(r.key)) this.run();
    else this.render();
  }

  deactivate() { this.active = false; }

  /** Shows the report file `name` (its text) instead of the settings' job, or why it cannot. */
  open(name, text) {
    try {
      const r = openReport(text);
      this.loaded = { status: 'done', loaded: name, report: r.report, json: r.json, csv: r.csv, summary: r.summary, spec: r.report.experiment, total: r.report.units.length, done: r.report.units.length, frac: 1 };
      this.openError = null;
    } catch (e) {
      this.loaded = null;
      this.openError = `Could not open ${name}: ${e.message}`;
    }
    this.render();
  }

  run() {
    this.loaded = this.openError = null;
    const r = this.opts.request();
    this.key = r.key;
    this.message = r.message;
    if (!r.message) runJob(r.key, r.request, r.beside || null);
    this.render();
  }

  job() { return this.loaded || (this.key ? getJob(this.key) : null); }

  render() {
    const job = this.renderStatus();
    const done = job && job.status === 'done';
    this.summary.hidden = !done;
    if (done) this.summary.querySelector('pre').textContent = job.summary;
    this.repro.update(done ? job.spec : null);
    if (this.opts.onReport) this.opts.onReport(job);
    this.drawCharts();
  }

  /** The status line, progress and buttons of the panel's job (returned). */
  renderStatus() {
    const job = this.job();
    const running = job && job.status === 'running';
    this.runBtn.disabled = running || !!this.message;
    this.runBtn.textContent = job && job.status === 'done' ? 'Run again' : 'Run';
    this.cancelBtn.disabled = !running;
    // Before the job: the download of its data, when the request waits for one (determinate when
    // its size is known, else an indeterminate bar).
    if (job) this.progress.value = job.frac || 0;
    else if (this.message && this.waiting !== undefined) {
      if (this.waiting === null) this.progress.removeAttribute('value');
      else this.progress.value = this.waiting;
    } else this.progress.value = 0;
    // The run's own time: a finished job keeps the seconds it took (jobs.js `seconds`), so a view
    // opened later does not count the time until it was opened.
    const secs = job ? (job.seconds ?? (performance.now() - job.started) / 1000).toFixed(0) : 0;
    this.status.textContent = this.openError ? this.openError
      : job?.loaded ? `Opened ${job.loaded}: ${job.total} unit${job.total === 1 ? '' : 's'} of ${job.spec.id}, statistics re-derived from them by this engine.`
      : this.message ? this.message
      : !job ? 'Not run yet.'
        : job.status === 'error' ? `Error: ${job.error}`
          : job.status === 'cancelled' ? `Cancelled after ${job.done} of ${job.total} units; showing those.`
            : job.status === 'done' ? `Done: ${job.total} unit${job.total === 1 ? '' : 's'} in ${secs} s.`
              : `Running: ${job.done} of ${job.total || '?'} units done (${secs} s)…`;
    // The reader's policy beside the units: how far it is while it plays (its outcome is the view's to say).
    if (job?.beside && job.status === 'running' && !this.openError && !job.loaded && !this.message) {
      const b = job.beside;
      this.status.textContent += b.status === 'running' ? ` Your policy: ${Math.floor(b.frac * b.runs)} of ${b.runs} runs.` : ` Your policy: ${b.status}.`;
    }
    this.root.dataset.status = job ? job.status : 'idle';
    const done = job && job.status === 'done';
    this.csvBtn.disabled = this.jsonBtn.disabled = !done;
    this.pngBtn.disabled = !(job && job.report);
    return job;
  }

  drawCharts() {
    const job = this.job();
    const charts = job && job.report ? (job.loaded ? this.opts.opened || chartsOf : this.opts.charts)(job.report) : [];
    while (this.figures.length < charts.length) {
      const f = el('figure', { className: 'chart' });
      this.chartsEl.append(f);
      this.figures.push(f);
    }
    const run = job && job.report ? runOf(job.report) : {};
    this.figures.forEach((f, i) => {
      f.hidden = i >= charts.length;
      if (i < charts.length) drawChart(f, charts[i], { caption: captionText(charts[i], run), tools: this.chartTools(f, i) });
    });
  }

  /** A figure's own exports: SVG, PNG at 2× and 3×, and its caption to copy. */
  chartTools(figure, i) {
    const box = el('div', { className: 'chart-tools controls' });
    const name = () => `${this.stem()}-${i + 1}`;
    // The accessible name starts with the visible text (WCAG 2.5.3, label in name: a speech-input
    // user says what they see), then what the button does and to which figure; `say` changes both.
    const say = (b, text, label) => {
      b.textContent = text;
      b.setAttribute('aria-label', `${text}: ${label}, ${figure.chartData?.title || `chart ${i + 1}`}`);
    };
    const btn = (cls, text, label, fn) => {
      const b = el('button', { type: 'button', className: cls, title: label });
      say(b, text, label);
      b.addEventListener('click', fn);
      box.append(b);
      return b;
    };
    btn('chart-svg', 'SVG', 'download the figure as SVG', () => downloadFigureSvg(`${name()}.svg`, figure));
    btn('chart-png2', 'PNG 2×', 'download the figure as PNG at twice its size', () => downloadFigurePng(`${name()}@2x.png`, figure, 2));
    btn('chart-png3', 'PNG 3×', 'download the figure as PNG at three times its size', () => downloadFigurePng(`${name()}@3x.png`, figure, 3));
    const copyWhat = 'copy the figure\'s caption';
    const copy = btn('chart-copy-caption', 'Copy caption', copyWhat, async () => {
      try {
        await navigator.clipboard.writeText(figure.caption);
        say(copy, 'Caption copied', copyWhat);
      } catch {
        // No clipboard (permission, insecure origin): select the caption for the reader to copy.
        const cap = figure.querySelector('.chart-caption');
        getSelection().selectAllChildren(cap);
        say(copy, 'Caption selected', copyWhat);
      }
    });
    return box;
  }

  stem() {
    const job = this.job();
    return `csc-${this.opts.stem ? this.opts.stem() : job?.spec?.id || 'experiment'}`;
  }

  async export(kind) {
    const job = this.job();
    if (!job) return;
    const stem = this.stem();
    const out = kind !== 'png' && !job.loaded && this.opts.exported ? this.opts.exported(job) : job;
    if (kind === 'csv') downloadText(`${stem}.csv`, out.csv, 'text/csv');
    else if (kind === 'json') downloadText(`${stem}.json`, out.json, 'application/json');
    else {
      for (const [i, f] of this.figures.entries()) if (!f.hidden) await downloadFigurePng(`${stem}-${i + 1}@2x.png`, f, 2);
    }
  }
}
