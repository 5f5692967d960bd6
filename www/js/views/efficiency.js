// @ts-check
// The efficiency view: runtime against final average regret per policy (fig. d), and each
// policy's cost per round against t with its fitted growth, from the same runs as the regret view,
// with a table of the numbers.
import { JobPanel } from './job-panel.js';
import { onlineRequest } from './regret.js';
import { uploadedData } from '../upload.js';
import { efficiencyChart, growthChart, final, fmtStat, onlineKeys, sizedLabel, sizedNote, SWITCH_MEANING } from '../report.js';
/** @typedef {import('../state.js').App} App */

function table(report) {
  const st = report.stats;
  const algs = onlineKeys(st);
  const f = (s, d) => fmtStat(s, d);
  const rows = algs.map((a) => [sizedLabel(report, a), f(final(st, a, 'final_avg_regret'), 4), f(final(st, a, 'runtime_ms'), 0),
    f(final(st, a, 'final_switches'), 0), f(final(st, a, 'final_hit_rate'), 3)]);
  rows.sort((x, y) => parseFloat(x[1]) - parseFloat(y[1]));
  return rows;
}

/** @param {App} app */
export function createEfficiencyView(app) {
  const root = document.querySelector('[data-job=efficiency]');
  const tableEl = document.createElement('table');
  tableEl.className = 'numbers';
  const panel = new JobPanel(root, {
    request: () => onlineRequest(app),
    charts: (report) => [efficiencyChart(report), growthChart(report)],
    stem: () => `efficiency-${uploadedData(app)?.dataset.name || app.state.dataset}`,
    onReport: (job) => {
      const rows = job && job.report ? table(job.report) : [];
      tableEl.hidden = !rows.length;
      // A policy named with its cache size ("(1 item)"): the caption says what that means.
      const sized = job && job.report ? sizedNote(job.report, onlineKeys(job.report.stats)) : undefined;
      tableEl.innerHTML = `<caption>Final values, mean ± 95% interval over seeds${sized ? `. ${sized}` : ''}</caption><thead><tr><th scope="col">policy</th><th scope="col">R(T)/T</th><th scope="col">runtime ms</th><th scope="col" title="${SWITCH_MEANING}">switches</th><th scope="col">hit rate</th></tr></thead>`;
      const body = document.createElement('tbody');
      for (const r of rows) {
        const tr = body.insertRow();
        r.forEach((v, i) => { (i ? tr.insertCell() : tr.appendChild(Object.assign(document.createElement('th'), { scope: 'row' }))).textContent = v; });
      }
      tableEl.append(body);
    },
  });
  root.querySelector('.charts').after(tableEl);
  return { activate() { panel.activate(); }, deactivate() { panel.deactivate(); } };
}
