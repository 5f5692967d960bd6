// Downloads: the curves as CSV, results and trace as JSON, canvases as PNG. Everything is made
// locally (blob: URLs); nothing is sent anywhere.

export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(name, text, type) {
  download(name, new Blob([text], { type }));
}

const COLUMNS = [['t', 't'], ['avg_regret', 'avgRegret'], ['switches', 'switches'],
  ['avg_realised_cost', 'avgRealisedCost'], ['hit_rate', 'hitRate'], ['loss', 'loss'], ['est_rmse', 'estRmse']];

/** curves: one Curves per policy; names: the policies' names. */
export function curvesCsv(names, curves) {
  const lines = [['policy', ...COLUMNS.map(([h]) => h)].join(',')];
  curves.forEach((c, p) => {
    for (let i = 0; i < c.t.length; i++) {
      lines.push([JSON.stringify(names[p]), ...COLUMNS.map(([, k]) => (Number.isFinite(c[k][i]) ? c[k][i] : ''))].join(','));
    }
  });
  return `${lines.join('\n')}\n`;
}

export function downloadCanvas(name, canvas) {
  return new Promise((resolve) => canvas.toBlob((blob) => { if (blob) download(name, blob); resolve(blob); }, 'image/png'));
}
