// @ts-check
// The efficiency view: runtime against final average regret per policy (fig. d), and each
// policy's cost per round against t with its fitted growth, from the same runs as the regret view,
// with a table of the numbers; and a whole run's cost against the horizon T, from `thy-horizon` at
// its quick settings (the Theory view's job, shared) or a horizon sweep's result file.
import { JobPanel } from './job-panel.js';
import { quickJob } from '../jobs.js';
import { onlineRequest } from './regret.js';
import { uploadedData } from '../upload.js';
import { efficiencyChart, growthChart, horizonCostChart, final, fmtStat, onlineKeys, sizedLabel, sizedNote, SWITCH_MEANING } from '../report.js';
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
  // Across horizons: a run per T, its whole time against T; a result file of the CLI's
  // `thy-horizon`, `thy-horizon-nystrom` or `thy-switch` opens here with the same chart.
  const hroot = /** @type {HTMLElement} */ (document.querySelector('[data-job=efficiency-horizon]'));
  const horizons = new JobPanel(hroot, {
    request: () => quickJob('thy-horizon'),
    charts: (report) => [horizonCostChart(report)],
    opened: (report) => [horizonCostChart(report)],
    stem: () => 'thy-horizon-quick-cost',
  });
  return {
    activate() { panel.activate(); horizons.activate(false); },
    deactivate() { panel.deactivate(); horizons.deactivate(); },
  };
}
