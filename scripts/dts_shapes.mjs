// The object declarations of a shipped csc.d.ts, read back, and a check that a value the package
// returned has exactly the keys and the value kinds its declaration names. scripts/smoke_pkg.mjs
// uses it on every export that returns an object the bindings build by hand (typed arrays:
// `EpsilonNetResult`, `LiveFrame`, …), whose declarations (src/bindings/types.rs) cannot be
// generated from a Rust type, and on serialised ones (`Params`, …) as a cross-check.
//
// Understood: `export interface Name [extends Base] { member[?]: Type; … }` and ts-rs's
// `export type Name = { member[?]: Type, … };`. Types: number, string, boolean, null, the typed
// arrays, `T[]`, `Array<T>`, `[T, U]`, inline `{ … }`, unions `A | B`, names declared in the file.

const TYPED = ["Uint8Array", "Int8Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array"];

/** Comments removed (block and line; the declarations hold no `//` inside strings). */
const uncomment = (text) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");

/** The text between the brace at `open` and its match. */
function braced(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced braces after: ${text.slice(open, open + 60)}`);
}

/** `text` split at `seps` outside brackets, braces, parentheses and angle brackets. */
function splitTop(text, seps) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ("{[(<".includes(c)) depth++;
    else if ("}])>".includes(c) && !(c === ">" && text[i - 1] === "=")) depth--;
    else if (depth === 0 && seps.includes(c)) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/** The members of an object type's body: `[{ name, optional, type }]`. */
function members(body) {
  return splitTop(body, ";,").map((m) => {
    const key = m.slice(0, m.startsWith("[") ? m.indexOf("]") + 1 : m.indexOf(":")).trim().replace(/^"(.*)"$/, "$1");
    const type = m.slice(m.indexOf(":", key.startsWith("[") ? m.indexOf("]") : 0) + 1).trim();
    // `[key in string]: T` (ts-rs's maps) or `[key: string]: T`: any key, each value a T.
    if (key.startsWith("[")) return { index: true, type };
    return { name: key.replace(/\?$/, ""), optional: key.endsWith("?"), type };
  });
}

/**
 * Every object declaration of `dts`: name → `{ members, base }` for interfaces and object types,
 * name → `{ alias }` for other type aliases (unions, literals).
 */
export function declarations(dts) {
  const text = uncomment(dts);
  const out = new Map();
  for (const m of text.matchAll(/export interface (\w+)(?:<[^>]*>)?(?:\s+extends\s+(\w+))?\s*\{/g)) {
    out.set(m[1], { members: members(braced(text, m.index + m[0].length - 1)), base: m[2] ?? null });
  }
  for (const m of text.matchAll(/export type (\w+)(?:<[^>]*>)? = /g)) {
    const start = m.index + m[0].length;
    const rhs = text.slice(start, text.indexOf(";\n", start)).trim();
    // One object type, or a union or alias (which may start with an object: `{ … } | { … }`).
    if (rhs.startsWith("{") && braced(rhs, 0).length === rhs.length - 2) {
      out.set(m[1], { members: members(braced(rhs, 0)), base: null });
    } else {
      out.set(m[1], { alias: rhs });
    }
  }
  return out;
}

/** Every member of `name`, its bases' included. */
function allMembers(decls, name) {
  const d = decls.get(name);
  if (!d || !d.members) throw new Error(`csc.d.ts declares no object type \`${name}\``);
  return [...(d.base ? allMembers(decls, d.base) : []), ...d.members];
}

/** Why `v` is not of type `type` (a list of problems at `path`; empty: it is). */
function problems(decls, type, v, path) {
  const alts = splitTop(type, "|");
  if (alts.length > 1) {
    const each = alts.map((t) => problems(decls, t, v, path));
    return each.some((p) => p.length === 0) ? [] : [`${path}: ${describe(v)} is none of ${type}`];
  }
  type = type.trim();
  if (type.startsWith("(") && type.endsWith(")")) return problems(decls, type.slice(1, -1), v, path);
  const arrayOf = type.match(/^(.*)\[\]$/s) ?? type.match(/^Array<(.*)>$/s);
  if (arrayOf) {
    if (!Array.isArray(v)) return [`${path}: ${describe(v)}, not an array`];
    return v.flatMap((x, i) => problems(decls, arrayOf[1], x, `${path}[${i}]`));
  }
  if (type.startsWith("[")) {
    const items = splitTop(type.slice(1, -1), ",");
    if (!Array.isArray(v) || v.length !== items.length) return [`${path}: ${describe(v)}, not a ${type}`];
    return items.flatMap((t, i) => problems(decls, t, v[i], `${path}[${i}]`));
  }
  if (type.startsWith("{")) return objectProblems(decls, members(braced(type, 0)), v, path);
  if (TYPED.includes(type)) return v instanceof globalThis[type] ? [] : [`${path}: ${describe(v)}, not a ${type}`];
  const plain = { number: "number", string: "string", boolean: "boolean" }[type];
  if (plain) return typeof v === plain ? [] : [`${path}: ${describe(v)}, not a ${type}`];
  if (type === "null") return v === null ? [] : [`${path}: ${describe(v)}, not null`];
  if (/^".*"$/.test(type)) return v === JSON.parse(type) ? [] : [`${path}: ${describe(v)}, not ${type}`];
  const d = decls.get(type);
  if (!d) throw new Error(`${path}: csc.d.ts declares no type \`${type}\``);
  return d.alias ? problems(decls, d.alias, v, path) : objectProblems(decls, allMembers(decls, type), v, path);
}

function objectProblems(decls, ms, v, path) {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return [`${path}: ${describe(v)}, not an object`];
  const out = [];
  const index = ms.find((m) => m.index);
  const named = ms.filter((m) => !m.index);
  const declared = new Set(named.map((m) => m.name));
  for (const k of Object.keys(v)) {
    if (declared.has(k)) continue;
    if (index) out.push(...problems(decls, index.type, v[k], `${path}.${k}`));
    else out.push(`${path}.${k}: not declared`);
  }
  for (const m of named) {
    if (!(m.name in v)) {
      if (!m.optional) out.push(`${path}.${m.name}: declared, missing`);
    } else {
      out.push(...problems(decls, m.type, v[m.name], `${path}.${m.name}`));
    }
  }
  return out;
}

const describe = (v) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? `a ${v.constructor?.name ?? "object"}` : `${typeof v} ${JSON.stringify(v)}`;

/** The problems of `value` as an instance of the declared type `name` (empty: none). */
export function mismatches(decls, name, value) {
  return problems(decls, name, value, name);
}
