// @ts-check
// Reproduce from the page. Under every result: the `csc` command that
// regenerates it (the engine's cliCommand, csc::experiment::reproduce), ready to copy, with the
// JSON definition to save beside it when the command names a file. And the other way: a result
// file of the CLI (or the page's own JSON export) opened on the page, read back by the engine's
// readReport, which re-derives its statistics from its units and refuses, with one plain
// message, what is not a report, a shard or an edited file.
import { cliCommand, readReport } from '../pkg/csc.js';
import { downloadText } from './export.js';

const el = (tag, attrs = {}, text = '') => Object.assign(document.createElement(tag), attrs, text ? { textContent: text } : {});

/** The file the command names when a definition must be saved beside it. */
export const definitionFile = (spec) => `${spec.id}.definition.json`;

/**
 * The command and, when it names the definition file (as any of its arguments: `csc run FILE`,
 * `csc tune-threshold FILE --precision 0.9`), that file's text (`null` otherwise), so the
 * command can always be run from what the page gives.
 * `commandOf(spec, file)` makes the command: the engine's cliCommand (`csc run`) unless a view
 * gives its own (the "Pick a threshold" answer: the engine's tuneCommand).
 * @param {any} spec
 * @param {(spec: any, file: string) => string} [commandOf]
 */
export function reproduction(spec, commandOf = cliCommand) {
  const file = definitionFile(spec);
  const command = commandOf(spec, file);
  const names = command.split(/\s+/).includes(file);
  return { command, file, definition: names ? JSON.stringify(spec, null, 2) : null };
}

/** Copies `text`, saying so on `button` (or how to copy by hand if the browser refuses). */
async function copy(button, text, label) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select the text to copy it';
  }
  setTimeout(() => { button.textContent = label; }, 2000);
}

/**
 * The "Reproduce with the CLI" block of a result: `el` to place under it, `update(spec)` to show
 * the command of a finished run's resolved definition (`null`: hidden). `commandOf` as in
 * `reproduction`.
 * @param {(spec: any, file: string) => string} [commandOf]
 */
export function reproduceBlock(commandOf = cliCommand) {
  const box = el('div', { className: 'reproduce text' });
  const code = el('code', { className: 'cli-command' });
  const copyBtn = el('button', { type: 'button', className: 'copy-command' }, 'Copy command');
  const defBox = el('details', { className: 'definition' });
  const defName = el('summary');
  const def = el('pre', { className: 'cli-definition' });
  const saveBtn = el('button', { type: 'button', className: 'save-definition' }, 'Save definition (JSON)');
  const pre = el('pre');
  pre.append(code);
  const row = el('div', { className: 'row buttons' });
  row.append(copyBtn);
  defBox.append(defName, def, saveBtn);
  box.append(el('p', { className: 'note' }, 'Reproduce with the CLI (same engine, same numbers; nq-trivia reads --data DIR or $CSC_DATA):'),
    pre, row, defBox);
  let current = null;
  copyBtn.addEventListener('click', () => current && copy(copyBtn, current.command, 'Copy command'));
  saveBtn.addEventListener('click', () => current?.definition && downloadText(current.file, current.definition, 'application/json'));
  return {
    el: box,
    update(spec) {
      box.hidden = !spec;
      if (!spec) return;
      try {
        current = reproduction(spec, commandOf);
      } catch (e) {
        current = null;
        code.textContent = `(no command: ${e.message})`;
        return;
      }
      code.textContent = current.command;
      defBox.hidden = !current.definition;
      if (current.definition) {
        defName.textContent = `The definition: save it as ${current.file} in the folder you run the command from`;
        def.textContent = current.definition;
      }
    },
  };
}

/**
 * A result file's text read back: `{ report, json, csv, summary }` (the report re-derived from
 * its units), or an Error with the engine's one plain message.
 */
export function openReport(text) {
  return readReport(text);
}

/** Whether `text` looks like a report (to tell a dropped result from a dataset file). */
export function looksLikeReport(text) {
  try {
    const j = JSON.parse(text);
    return !!j && typeof j === 'object' && !Array.isArray(j) && 'experiment' in j && 'stats' in j;
  } catch {
    return false;
  }
}
