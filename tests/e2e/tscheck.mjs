// The page's type-check can fail: scripts/test.sh runs
// `tsc -p www/jsconfig.json` on the page's modules against the engine's generated declarations
// (www/pkg/csc.d.ts); this script shows that the check bites. It copies www/js to a temporary
// tree (pkg/ and vendor/ linked, jsconfig.json copied), type-checks the untouched copy (no error),
// then appends to real modules one wrong use each of a csc.d.ts export — an argument of the wrong
// type, one argument too many, a property the declared interface lacks, a wrong field type in a
// declared state, a misspelt field of the page's state in a view — and of the hand-written vendor
// declarations (d3-delaunay, Plot), and asserts that tsc reports each at its line with its error
// code, and nothing else. Runs TypeScript's API in process (the `typescript` of
// tests/e2e/package.json). Needs www/pkg (scripts/wasm.sh).
import { cpSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { assert, checks } from './harness.mjs';

const www = fileURLToPath(new URL('../../www/', import.meta.url));
const { check, done } = checks();

/** The wrong uses: [module under js/, the line appended, the error code tsc must report there]. */
const WRONG = [
  // A declared interface's field of the wrong type (UrlState.seeds: number).
  ['state.js', "encodeUrlState({ ...urlStateDefaults('synthetic'), seeds: '3' });", 2322],
  // A property AlgorithmInfo lacks (the colour is `style.colour`).
  ['report.js', 'export const wrongColour = policies()[0].colour;', 2339],
  // One argument too many for an engine function, in a worker (`Dataset.plane()` takes none).
  ['exp-worker.js', 'Dataset.plane(1);', 2554],
  // An argument of the wrong type (`cliCommand(experiment, definitionFile: string)`).
  ['reproduce.js', "cliCommand('fig-a', 3);", 2345],
  // The engine's types reach the views through the page's App (state.js): a misspelt state field.
  ['views/paper.js', 'export const wrongWorkers = (/** @type {App} */ app) => app.state.worker;', 2551],
  // The vendor declarations are in force, not `any`: a Voronoi method d3-delaunay lacks …
  ['views/live-panel.js', 'Delaunay.from([[0, 0]]).voronoi([0, 0, 1, 1]).cellPolygons(0);', 2551],
  // A metric id the engine does not list (the page's metric names are the engine's MetricId).
  ['views/efficiency.js', "export const wrongMetric = final([], 'clcb-sc-ls-cont', 'final_hit_rat');", 2345],
  // … and a scale name Plot's drawn figures do not have.
  ['charts.js', "globalThis.Plot?.plot({}).scale('size');", 2345],
];

const tree = mkdtempSync(path.join(tmpdir(), 'csc-tscheck-'));
try {
  assert(existsSync(path.join(www, 'pkg', 'csc.d.ts')), 'www/pkg/csc.d.ts is missing: build the package first (scripts/wasm.sh)');
  cpSync(path.join(www, 'js'), path.join(tree, 'js'), { recursive: true });
  symlinkSync(path.join(www, 'pkg'), path.join(tree, 'pkg'));
  symlinkSync(path.join(www, 'vendor'), path.join(tree, 'vendor'));
  copyFileSync(path.join(www, 'jsconfig.json'), path.join(tree, 'jsconfig.json'));

  const config = ts.getParsedCommandLineOfConfigFile(path.join(tree, 'jsconfig.json'), undefined, {
    ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  assert(!config.errors.length, `jsconfig.json: ${config.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
  // The libraries and declarations parse once for both programs (only js/ changes between them).
  const host = ts.createCompilerHost(config.options);
  const parsed = new Map();
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, ...rest) => {
    if (file.startsWith(path.join(tree, 'js'))) return getSourceFile(file, ...rest);
    if (!parsed.has(file)) parsed.set(file, getSourceFile(file, ...rest));
    return parsed.get(file);
  };
  const diagnostics = () => ts.getPreEmitDiagnostics(ts.createProgram({ rootNames: config.fileNames, options: config.options, host }));
  const where = (d) => {
    const at = d.file ? `${path.relative(tree, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '(no file)';
    return `${at} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  };

  await check('the copied page type-checks as www/ does (no error)', () => {
    const ds = diagnostics();
    assert(config.fileNames.length >= 30, `only ${config.fileNames.length} files in the program`);
    assert(!ds.length, `${ds.length} error(s): ${ds.slice(0, 3).map(where).join(' | ')}`);
  });

  const lines = new Map();
  for (const [file, line] of WRONG) {
    const p = path.join(tree, 'js', file);
    const text = readFileSync(p, 'utf8');
    writeFileSync(p, `${text}${text.endsWith('\n') ? '' : '\n'}${line}\n`);
    lines.set(file, text.split('\n').length + (text.endsWith('\n') ? 0 : 1));
  }
  const found = diagnostics();
  for (const [file, line, code] of WRONG) {
    await check(`tsc reports TS${code} for js/${file}: ${line}`, () => {
      const at = found.filter((d) => d.file && path.relative(path.join(tree, 'js'), d.file.fileName) === file);
      assert(at.length === 1, `${at.length} errors in js/${file}: ${at.map(where).join(' | ') || 'none'}`);
      const d = at[0];
      const l = d.file.getLineAndCharacterOfPosition(d.start).line + 1;
      assert(d.code === code && l === lines.get(file), `expected TS${code} at line ${lines.get(file)}, got ${where(d)}`);
      console.log(`     ${where(d)}`);
    });
  }
  await check('no error beyond the wrong uses', () => {
    const others = found.filter((d) => !d.file || !WRONG.some(([f]) => path.relative(path.join(tree, 'js'), d.file.fileName) === f));
    assert(!others.length, others.map(where).join(' | '));
  });
} finally {
  rmSync(tree, { recursive: true, force: true });
}
done();
