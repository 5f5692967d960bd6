// @ts-check
// Downloads: the curves as CSV, results and trace as JSON, canvases as PNG, experiment figures
// as SVG (vector, text as text: charts.js figureSvg) and as PNG at 2× or 3× their CSS size.
// Everything is made locally (blob: URLs); nothing is sent anywhere.
import { figureSvg } from './charts.js';

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

/** A drawn chart (charts.js drawChart) as standalone SVG text, or null when it has no figure. */
export function figureSvgText(chart) {
  const svg = figureSvg(chart);
  return svg ? `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(svg)}\n` : null;
}

/** A chart's figure as PNG at `scale` × its CSS size (the SVG rasterised by the browser). */
export async function figurePng(chart, scale) {
  const svg = figureSvg(chart);
  if (!svg) return null;
  const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(h * scale);
    canvas.getContext('2d').drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function downloadFigureSvg(name, chart) {
  const text = figureSvgText(chart);
  if (text) downloadText(name, text, 'image/svg+xml');
}

export async function downloadFigurePng(name, chart, scale) {
  const blob = await figurePng(chart, scale);
  if (blob) download(name, blob);
  return blob;
}
