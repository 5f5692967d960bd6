// The `csc` CLI for the end-to-end tests of reproduce.mjs and sweep.mjs: the binary built by
// cargo (test profile, the target dir of CARGO_TARGET_DIR), a command as the page prints it split
// into words, and a run's report.
import { readFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `csc args` in `cwd` (built if needed; CSC_DATA as the caller's environment has it). */
export async function csc(args, cwd) {
  const manifest = path.join(root, 'Cargo.toml');
  return run('cargo', ['run', '--quiet', '--locked', '--profile', 'test', '--manifest-path', manifest, '--bin', 'csc', '--', ...args],
    { cwd, maxBuffer: 64 << 20 });
}

/** A POSIX shell command's words (plain words and '…' quoting, as the engine's cliCommand writes). */
export function shellWords(command) {
  const words = [];
  let w = null, i = 0;
  while (i < command.length) {
    const c = command[i];
    if (c === ' ') { if (w !== null) { words.push(w); w = null; } i++; continue; }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote in ${command}`);
      w = (w ?? '') + command.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '\\') { w = (w ?? '') + command[i + 1]; i += 2; continue; }
    w = (w ?? '') + c;
    i++;
  }
  if (w !== null) words.push(w);
  return words;
}

/** Runs `command` (`csc run …` as the page shows it) in `cwd` with `--out out`; the report
 *  out/<id>.json as text. */
export async function runCommand(command, cwd, id, extra = []) {
  const words = shellWords(command);
  if (words[0] !== 'csc' || words[1] !== 'run') throw new Error(`not a csc run command: ${command}`);
  await csc([...words.slice(1), '--out', 'out', '--quiet', ...extra], cwd);
  return readFile(path.join(cwd, 'out', `${id}.json`), 'utf8');
}

/** A fresh scratch folder. */
export const scratch = (name) => mkdtemp(path.join(os.tmpdir(), `csc-e2e-${name}-`));

/** The statistics of a report as comparable JSON, without the wall-clock runtime. */
export const stats = (report) => JSON.stringify(report.stats.filter((s) => s.metric !== 'runtime_ms'));
