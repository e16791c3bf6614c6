/** Math and string functions SQLite lacks (no MATH_FUNCTIONS in this build), and the division guard. */
import type { Arg, ScalarDef } from "./values.ts";
import { big, math1, num, str } from "./values.ts";

/** The value at a GreptimeDB JSON path (`a.b[0]`, `$.a.b`) of JSON text; undefined when absent. */
function jsonAt(text: Arg, path: Arg): unknown {
  if (text === null || path === null) return undefined;
  const raw = typeof text === "string"
    ? text
    : text instanceof Uint8Array
    ? new TextDecoder().decode(text)
    : String(text);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const steps = String(path).replace(/^\$\.?/, "").match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (const step of steps) {
    if (value === null || typeof value !== "object") return undefined;
    const key = step.startsWith("[") ? Number(step.slice(1, -1)) : step;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** Scalar functions by name. */
export const SCALARS: Record<string, ScalarDef> = {
  __petrel_nonzero: {
    bigint: true,
    fn: (v) => {
      if (v === 0 || v === 0n) throw new Error("Divide by zero error");
      return v;
    },
  },
  __petrel_fill_guard: {
    bigint: true,
    fn: (slots, most) => {
      if (slots !== null && Number(slots) > Number(most)) {
        throw new Error(
          `Range Query: FILL would generate ${slots} rows (more than ${most}); use a larger ALIGN or a shorter time range`,
        );
      }
      return 1;
    },
  },
  abs: {
    args: [1, 1],
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      if (typeof v === "bigint") return v < 0n ? -v : v;
      if (typeof v === "number") return Math.abs(v);
      throw new Error(`abs does not support a ${typeof v === "string" ? "string" : "binary"} argument`);
    },
  },
  json_get_string: {
    args: [2, 2],
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return v === undefined || v === null ? null : typeof v === "string" ? v : JSON.stringify(v);
    },
  },
  json_get_int: {
    args: [2, 2],
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return typeof v === "number" && Number.isFinite(v)
        ? BigInt(Math.trunc(v))
        : typeof v === "boolean"
        ? BigInt(v)
        : null;
    },
  },
  json_get_float: {
    args: [2, 2],
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : null;
    },
  },
  json_get_bool: {
    args: [2, 2],
    int: true,
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return typeof v === "boolean" ? (v ? 1 : 0) : null;
    },
  },
  // GreptimeDB's json_get_object: the object at the path as JSON, NULL when the value there is not an object
  json_get_object: {
    args: [2, 2],
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return v !== null && typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : null;
    },
  },
  json_is_null: { args: [1, 2], int: true, fn: (j, p) => (jsonAt(j, p ?? "$") === null ? 1 : 0) },
  json_path_exists: { args: [2, 2], int: true, fn: (j, p) => (jsonAt(j, p) === undefined ? 0 : 1) },
  json_to_string: { args: [1, 1], fn: (j) => (j === null ? null : str(j)) },
  parse_json: {
    args: [1, 1],
    fn: (j) => {
      if (j === null) return null;
      JSON.parse(str(j)!);
      return str(j);
    },
  },
  sqrt: math1(Math.sqrt),
  cbrt: math1(Math.cbrt),
  exp: math1(Math.exp),
  ln: math1(Math.log),
  log10: math1(Math.log10),
  log2: math1(Math.log2),
  log: {
    args: [1, 2],
    fn: (a, b) => {
      const x = num(a);
      if (x === null) return null;
      if (b === undefined) return Math.log10(x);
      const y = num(b);
      return y === null ? null : Math.log(y) / Math.log(x);
    },
  },
  pow: {
    args: [2, 2],
    fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)),
  },
  power: {
    args: [2, 2],
    fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)),
  },
  floor: math1(Math.floor),
  ceil: math1(Math.ceil),
  ceiling: math1(Math.ceil),
  // DataFusion's: x scaled by 10^d, truncated (or rounded half away from zero) and scaled back; d may be
  // negative (trunc(104, -1) is 100), where SQLite's round reads a negative d as 0
  trunc: { args: [1, 2], fn: (x, d) => scaled(x, d, Math.trunc) },
  round: { binary: true, fn: (x, d) => scaled(x, d, (v) => Math.sign(v) * Math.round(Math.abs(v))) },
  sin: math1(Math.sin),
  cos: math1(Math.cos),
  tan: math1(Math.tan),
  asin: math1(Math.asin),
  acos: math1(Math.acos),
  atan: math1(Math.atan),
  atan2: {
    args: [2, 2],
    fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.atan2(num(a)!, num(b)!)),
  },
  sinh: math1(Math.sinh),
  cosh: math1(Math.cosh),
  tanh: math1(Math.tanh),
  degrees: math1((x) => (x * 180) / Math.PI),
  radians: math1((x) => (x * Math.PI) / 180),
  signum: math1(Math.sign),
  sign: math1(Math.sign),
  pi: { args: [0, 0], fn: () => Math.PI },
  isnan: { args: [1, 1], int: true, fn: (a) => (typeof a === "number" && Number.isNaN(a) ? 1 : 0) },
  greatest: {
    args: [1, Infinity],
    bigint: true,
    fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! > m! ? x : m))),
  },
  least: {
    args: [1, Infinity],
    bigint: true,
    fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! < m! ? x : m))),
  },
  strpos: {
    args: [2, 2],
    int: true,
    // a position in characters (DataFusion's, and SQLite's instr that `position(… IN …)` becomes)
    fn: (s, sub) => {
      if (s === null || sub === null) return null;
      const text = str(s)!, at = text.indexOf(str(sub)!);
      return at < 0 ? 0 : [...text.slice(0, at)].length + 1;
    },
  },
  left: { args: [2, 2], fn: (s, n) => (s === null || n === null ? null : str(s)!.slice(0, Number(n))) },
  right: {
    args: [2, 2],
    // a negative n keeps all but the first |n| characters (PostgreSQL's and DataFusion's)
    fn: (s, n) => {
      if (s === null || n === null) return null;
      const k = Number(n);
      return k === 0 ? "" : [...str(s)!].slice(-k).join("");
    },
  },
  lpad: {
    args: [2, 3],
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padStart(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  rpad: {
    args: [2, 3],
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padEnd(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  starts_with: {
    args: [2, 2],
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.startsWith(str(p)!) ? 1 : 0),
  },
  ends_with: {
    args: [2, 2],
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.endsWith(str(p)!) ? 1 : 0),
  },
  split_part: {
    args: [3, 3],
    // DataFusion counts a negative position from the end and refuses position 0
    fn: (s, d, n) => {
      if (s === null || d === null || n === null) return null;
      const parts = str(s)!.split(str(d)!), k = Number(n);
      if (k === 0) throw new Error("field position must not be zero");
      return parts[k > 0 ? k - 1 : parts.length + k] ?? "";
    },
  },
  btrim: {
    args: [1, 2],
    fn: (s, chars) => {
      if (s === null) return null;
      const c = chars === undefined || chars === null ? " " : str(chars)!;
      let v = str(s)!;
      while (v.length > 0 && c.includes(v[0])) v = v.slice(1);
      while (v.length > 0 && c.includes(v[v.length - 1])) v = v.slice(0, -1);
      return v;
    },
  },
  initcap: {
    args: [1, 1],
    fn: (
      s,
    ) => (s === null
      ? null
      : str(s)!.toLowerCase().replace(/(^|[^a-zA-Z0-9])([a-z])/g, (_, a, b) => a + b.toUpperCase())),
  },
  reverse: { args: [1, 1], fn: (s) => (s === null ? null : [...str(s)!].reverse().join("")) },
  repeat: {
    args: [2, 2],
    fn: (s, n) => (s === null || n === null ? null : str(s)!.repeat(Math.max(0, Number(n)))),
  },
  char_length: { args: [1, 1], int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  character_length: { args: [1, 1], int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  octet_length: {
    args: [1, 1],
    int: true,
    fn: (s) => (s === null ? null : new TextEncoder().encode(str(s)!).length),
  },
  chr: {
    args: [1, 1],
    fn: (n) => {
      if (n === null) return null;
      const code = Number(n);
      // DataFusion's refusals: NUL, and numbers that are no Unicode scalar value
      if (code === 0) throw new Error("null character not permitted.");
      if (!Number.isInteger(code) || code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw new Error("requested character too large for encoding.");
      }
      return String.fromCodePoint(code);
    },
  },
  ascii: { args: [1, 1], int: true, fn: (s) => (s === null ? null : (str(s)!.codePointAt(0) ?? 0)) },
  to_hex: { args: [1, 1], fn: (n) => (n === null ? null : BigInt.asUintN(64, big(n)!).toString(16)) },
  uuid: { args: [0, 0], fn: () => crypto.randomUUID(), deterministic: false },
  version: { args: [0, 0], fn: () => "8.0.0-petrel" },
};

/** `f` of `x` at `d` decimal places (0 when absent), as DataFusion's `round`/`trunc` compute it; NaN → NULL. */
function scaled(x: Arg, d: Arg | undefined, f: (v: number) => number): number | null {
  const v = num(x);
  if (v === null) return null;
  const places = d === undefined ? 0 : num(d);
  if (places === null) return null;
  const factor = 10 ** Math.trunc(places);
  const r = places === 0 ? f(v) : f(v * factor) / factor;
  return Number.isNaN(r) ? null : r;
}
