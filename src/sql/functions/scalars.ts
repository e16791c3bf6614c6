/** Math and string functions SQLite lacks (no MATH_FUNCTIONS in this build), and the division guard. */
import { createHash } from "node:crypto";
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
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      if (typeof v === "bigint") return v < 0n ? -v : v;
      if (typeof v === "number") return Math.abs(v);
      throw new Error(`abs does not support a ${typeof v === "string" ? "string" : "binary"} argument`);
    },
  },
  json_get_string: {
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return v === undefined || v === null ? null : typeof v === "string" ? v : JSON.stringify(v);
    },
  },
  json_get_int: {
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
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : null;
    },
  },
  json_get_bool: {
    int: true,
    fn: (j, p) => {
      const v = jsonAt(j, p);
      return typeof v === "boolean" ? (v ? 1 : 0) : null;
    },
  },
  json_is_null: { int: true, fn: (j, p) => (jsonAt(j, p ?? "$") === null ? 1 : 0) },
  json_path_exists: { int: true, fn: (j, p) => (jsonAt(j, p) === undefined ? 0 : 1) },
  json_to_string: { fn: (j) => (j === null ? null : str(j)) },
  parse_json: {
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
    fn: (a, b) => {
      const x = num(a);
      if (x === null) return null;
      if (b === undefined) return Math.log10(x);
      const y = num(b);
      return y === null ? null : Math.log(y) / Math.log(x);
    },
  },
  pow: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)) },
  power: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.pow(num(a)!, num(b)!)) },
  floor: math1(Math.floor),
  ceil: math1(Math.ceil),
  ceiling: math1(Math.ceil),
  // DataFusion's: x scaled by 10^d, truncated (or rounded half away from zero) and scaled back; d may be
  // negative (trunc(104, -1) is 100), where SQLite's round reads a negative d as 0
  trunc: { fn: (x, d) => scaled(x, d, Math.trunc) },
  round: { binary: true, fn: (x, d) => scaled(x, d, (v) => Math.sign(v) * Math.round(Math.abs(v))) },
  sin: math1(Math.sin),
  cos: math1(Math.cos),
  tan: math1(Math.tan),
  asin: math1(Math.asin),
  acos: math1(Math.acos),
  atan: math1(Math.atan),
  atan2: { fn: (a, b) => (num(a) === null || num(b) === null ? null : Math.atan2(num(a)!, num(b)!)) },
  sinh: math1(Math.sinh),
  cosh: math1(Math.cosh),
  tanh: math1(Math.tanh),
  degrees: math1((x) => (x * 180) / Math.PI),
  radians: math1((x) => (x * Math.PI) / 180),
  signum: math1(Math.sign),
  sign: math1(Math.sign),
  pi: { fn: () => Math.PI },
  isnan: { int: true, fn: (a) => (typeof a === "number" && Number.isNaN(a) ? 1 : 0) },
  greatest: {
    bigint: true,
    fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! > m! ? x : m))),
  },
  least: {
    bigint: true,
    fn: (...a) => (a.some((x) => x === null) ? null : a.reduce((m, x) => (x! < m! ? x : m))),
  },
  strpos: { int: true, fn: (s, sub) => (s === null || sub === null ? null : str(s)!.indexOf(str(sub)!) + 1) },
  left: { fn: (s, n) => (s === null || n === null ? null : str(s)!.slice(0, Number(n))) },
  right: {
    fn: (s, n) => (s === null || n === null ? null : Number(n) <= 0 ? "" : str(s)!.slice(-Number(n))),
  },
  lpad: {
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padStart(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  rpad: {
    fn: (
      s,
      n,
      p,
    ) => (s === null || n === null
      ? null
      : str(s)!.padEnd(Number(n), str(p ?? " ") ?? " ").slice(0, Number(n))),
  },
  starts_with: {
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.startsWith(str(p)!) ? 1 : 0),
  },
  ends_with: {
    int: true,
    fn: (s, p) => (s === null || p === null ? null : str(s)!.endsWith(str(p)!) ? 1 : 0),
  },
  split_part: {
    fn: (
      s,
      d,
      n,
    ) => (s === null || d === null || n === null ? null : str(s)!.split(str(d)!)[Number(n) - 1] ?? ""),
  },
  btrim: {
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
    fn: (
      s,
    ) => (s === null
      ? null
      : str(s)!.toLowerCase().replace(/(^|[^a-zA-Z0-9])([a-z])/g, (_, a, b) => a + b.toUpperCase())),
  },
  reverse: { fn: (s) => (s === null ? null : [...str(s)!].reverse().join("")) },
  repeat: { fn: (s, n) => (s === null || n === null ? null : str(s)!.repeat(Math.max(0, Number(n)))) },
  char_length: { int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  character_length: { int: true, fn: (s) => (s === null ? null : [...str(s)!].length) },
  octet_length: { int: true, fn: (s) => (s === null ? null : new TextEncoder().encode(str(s)!).length) },
  chr: { fn: (n) => (n === null ? null : String.fromCodePoint(Number(n))) },
  ascii: { int: true, fn: (s) => (s === null ? null : (str(s)!.codePointAt(0) ?? 0)) },
  md5: { fn: (s) => (s === null ? null : createHash("md5").update(str(s)!).digest("hex")) },
  to_hex: { fn: (n) => (n === null ? null : BigInt.asUintN(64, big(n)!).toString(16)) },
  uuid: { fn: () => crypto.randomUUID(), deterministic: false },
  version: { fn: () => "8.0.0-petrel" },
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
