// @ts-check
// Your policy's declared parameters (docs/JS-API.md, "Your own policy"): a module may export
// `params`, an object naming each parameter with its `default`, `min`, `max` (numbers; each
// optional) and `what` (a short description). The policy receives the values in use as
// `setup.params` in `start(setup)`: each declared default, with the value a sweep sets in place of
// its own. `declared` reads the export (in the policy's worker: the page never runs your code),
// `sweepValues` the values the reader types; each refuses with one plain message.

/** @typedef {{ default?: number, min?: number, max?: number, what: string }} Declared */

const MAX_PARAMS = 32;
/** The most values a sweep takes (each is played on every seed). */
export const MAX_VALUES = 20;
const NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,39}$/;

/**
 * The declared parameters of a module's `params` export (undefined: none), as plain data, or one
 * plain message naming what is wrong.
 * @param {unknown} params @returns {Record<string, Declared>}
 */
export function declared(params) {
  if (params === undefined) return {};
  const bad = (why) => new Error(`the module's \`params\` export ${why} (docs/JS-API.md, "Your own policy")`);
  if (!params || typeof params !== 'object' || Array.isArray(params)) throw bad('must be an object: { name: { default, min, max, what }, … }');
  const names = Object.keys(params);
  if (names.length > MAX_PARAMS) throw bad(`names ${names.length} parameters; at most ${MAX_PARAMS} are read`);
  /** @type {Record<string, Declared>} */
  const out = {};
  for (const name of names) {
    if (!NAME.test(name)) throw bad(`has the name ${JSON.stringify(name.slice(0, 40))}: a parameter's name is a JavaScript identifier of at most 40 characters`);
    const p = params[name];
    if (!p || typeof p !== 'object' || Array.isArray(p)) throw bad(`gives ${name} as ${p === null ? 'null' : typeof p}: each parameter is an object { default, min, max, what }`);
    /** @type {Declared} */
    const d = { what: '' };
    for (const k of ['default', 'min', 'max']) {
      const v = p[k];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`gives ${name}.${k} as ${typeof v === 'number' ? String(v) : typeof v}: it must be a finite number or absent`);
      d[k] = v;
    }
    if (p.what !== undefined && typeof p.what !== 'string') throw bad(`gives ${name}.what as ${typeof p.what}: it must be a string`);
    d.what = String(p.what ?? '').slice(0, 200);
    if (d.min !== undefined && d.max !== undefined && d.min > d.max) throw bad(`gives ${name} min ${d.min} > max ${d.max}`);
    if (d.default !== undefined && ((d.min !== undefined && d.default < d.min) || (d.max !== undefined && d.default > d.max))) {
      throw bad(`gives ${name} the default ${d.default}, outside [${d.min ?? '−∞'}, ${d.max ?? '∞'}]`);
    }
    out[name] = d;
  }
  return out;
}

/** The values in use when `set` (a parameter's value, or nothing) is swept: every declared default, then `set`. */
export function valuesInUse(/** @type {Record<string, Declared>} */ decl, /** @type {Record<string, number>} */ set = {}) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const [k, d] of Object.entries(decl)) if (d.default !== undefined) out[k] = d.default;
  return { ...out, ...set };
}

/**
 * The sweep's values of parameter `name` from the reader's text ("0.1, 0.2, 0.4"), checked
 * against its declaration; one plain message for an unknown name, a value that is not a number or
 * is outside [min, max], a repeat, none, or too many.
 * @param {Record<string, Declared>} decl @param {string} name @param {string} text @returns {number[]}
 */
export function sweepValues(decl, name, text) {
  const names = Object.keys(decl);
  if (!names.length) throw new Error('Your policy declares no parameters to sweep: export `params` from its module, e.g. export const params = { threshold: { default: 0.3, min: 0, max: 1, what: \'the hit radius\' } }.');
  if (!Object.hasOwn(decl, name)) throw new Error(`Your policy has no parameter ${JSON.stringify(String(name).slice(0, 40))}: it declares ${names.join(', ')}.`);
  const d = decl[name];
  const cells = String(text).split(',').map((c) => c.trim());
  if (cells.length === 1 && cells[0] === '') throw new Error(`Values of ${name}: give at least one number, e.g. ${d.default ?? d.min ?? 0}.`);
  if (cells.length > MAX_VALUES) throw new Error(`Values of ${name}: ${cells.length} values; at most ${MAX_VALUES}.`);
  const out = [];
  for (const c of cells) {
    const v = c === '' ? NaN : Number(c);
    if (!Number.isFinite(v)) throw new Error(`Values of ${name}: ${JSON.stringify(c.slice(0, 20))} is not a number (give numbers separated by commas).`);
    if ((d.min !== undefined && v < d.min) || (d.max !== undefined && v > d.max)) throw new Error(`Values of ${name}: ${v} is outside its range [${d.min ?? '−∞'}, ${d.max ?? '∞'}].`);
    if (out.includes(v)) throw new Error(`Values of ${name}: ${v} is given twice.`);
    out.push(v);
  }
  return out.sort((a, b) => a - b);
}
