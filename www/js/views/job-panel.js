// The frame of every experiment view: Run / Cancel, a progress bar, the charts (redrawn as each
// unit finishes), the summary table and the exports (CSV, JSON, PNG), the `csc` command that
// reproduces the result, and "Open a result…": a report file of the CLI drawn in its place.
import { drawChart, summarise } from '../charts.js';
import { runJob, cancelJob, getJob, onJob } from '../jobs.js';
import { downloadText, downloadCanvas } from '../export.js';
import { reproduceBlock, openReport } from '../reproduce.js';
import { chartsOf } from '../report.js';

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});

export class JobPanel {
  /**
   * root: the `.job` element; opts.request() → { key, request, stem } or { message } when it
   * cannot run; opts.charts(report) → chart options for drawChart; opts.onReport(job) (optional).
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
    this.csvBtn = el('button', { type: 'button', className: 'export-csv' }, 'Data (CSV)');
    this.jsonBtn = el('button', { type: 'button', className: 'export-json' }, 'Report (JSON)');
    this.pngBtn = el('button', { type: 'button', className: 'export-png' }, 'Charts (PNG)');
    const open = el('label', { className: 'file open-report' });
    this.openInput = el('input', { type: 'file', accept: '.json,application/json' });
    open.append(this.openInput, el('span', {}, 'Open a result…'));
    ex.append(el('span', { className: 'muted' }, 'Export:'), this.csvBtn, this.jsonBtn, this.pngBtn, open);
    this.repro = reproduceBlock();
    root.append(bar, this.chartsEl, ex, this.repro.el, this.summary);
    this.openInput.addEventListener('change', async () => {
      const f = this.openInput.files[0];
      this.openInput.value = '';
      if (f) this.open(f.name, await f.text());
    });
    // A result file dropped on the page opens in the panel shown (upload.js tells it apart from data).
    document.addEventListener('csc-open-report', (e) => { if (this.active) { e.preventDefault(); this.open(e.detail.name, e.detail.text); } });
    this.canvases = [];
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
    if (!r.message) runJob(r.key, r.request);
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
    const secs = job ? ((performance.now() - job.started) / 1000).toFixed(0) : 0;
    this.status.textContent = this.openError ? this.openError
      : job?.loaded ? `Opened ${job.loaded}: ${job.total} unit${job.total === 1 ? '' : 's'} of ${job.spec.id}, statistics re-derived from them by this engine.`
      : this.message ? this.message
      : !job ? 'Not run yet.'
        : job.status === 'error' ? `Error: ${job.error}`
          : job.status === 'cancelled' ? `Cancelled after ${job.done} of ${job.total} units; showing those.`
            : job.status === 'done' ? `Done: ${job.total} unit${job.total === 1 ? '' : 's'} in ${secs} s.`
              : `Running: ${job.done} of ${job.total || '?'} units done (${secs} s)…`;
    this.root.dataset.status = job ? job.status : 'idle';
    const done = job && job.status === 'done';
    this.csvBtn.disabled = this.jsonBtn.disabled = !done;
    this.pngBtn.disabled = !(job && job.report);
    return job;
  }

  drawCharts() {
    const job = this.job();
    const charts = job && job.report ? (job.loaded ? chartsOf : this.opts.charts)(job.report) : [];
    while (this.canvases.length < charts.length) {
      const c = el('canvas', { className: 'chart' });
      c.setAttribute('role', 'img');
      this.chartsEl.append(c);
      this.canvases.push(c);
    }
    this.canvases.forEach((c, i) => {
      c.hidden = i >= charts.length;
      // The canvas's text alternative: title, axes and where each series ends (charts.js summarise).
      if (i < charts.length) { c.setAttribute('aria-label', summarise(charts[i])); drawChart(c, charts[i]); }
    });
  }

  async export(kind) {
    const job = this.job();
    if (!job) return;
    const stem = `csc-${this.opts.stem ? this.opts.stem() : job.spec?.id || 'experiment'}`;
    if (kind === 'csv') downloadText(`${stem}.csv`, job.csv, 'text/csv');
    else if (kind === 'json') downloadText(`${stem}.json`, job.json, 'application/json');
    else {
      for (const [i, c] of this.canvases.entries()) if (!c.hidden) await downloadCanvas(`${stem}-${i + 1}.png`, c);
    }
  }
}
