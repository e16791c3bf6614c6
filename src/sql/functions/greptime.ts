/** GreptimeDB's own scalar functions: clamp, mod, the JSON type predicates and path match, pg_backend_pid. */
import type { Arg, Ret, ScalarDef } from "./values.ts";
import { str } from "./values.ts";
import { jsonPathMatch } from "./json_path.ts";

const isInt = (v: Arg): v is bigint => typeof v === "bigint";

function numeric(v: Arg, fn: string): bigint | number {
  if (typeof v === "bigint" || typeof v === "number") return v;
  throw new Error(`${fn} expects numeric arguments, got ${v instanceof Uint8Array ? "binary" : `'${v}'`}`);
}

/** Clamps `v` to `[lo, hi]` (either bound may be absent); integers stay integers. */
function clamp(fn: string, v: Arg, lo: Arg | undefined, hi: Arg | undefined): Ret {
  if (v === null || lo === null || hi === null) return null;
  const x = numeric(v, fn);
  const l = lo === undefined ? undefined : numeric(lo, fn);
  const h = hi === undefined ? undefined : numeric(hi, fn);
  if (l !== undefined && h !== undefined && l > h) {
    throw new Error(`${fn}: the min value ${l} is greater than the max value ${h}`);
  }
  const ints = isInt(v) && (l === undefined || isInt(l)) && (h === undefined || isInt(h));
  let r: bigint | number = x;
  if (l !== undefined && r < l) r = l;
  if (h !== undefined && r > h) r = h;
  return ints ? r : Number(r);
}

/** The JSON type of a document's top-level value, read from its text (1 is an int, 1.0 a float). */
function jsonKind(v: Arg): string | null {
  if (v === null) return null;
  const text = str(v)!.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`Invalid JSON text: '${text}'`);
  }
  if (parsed === null) return "null";
  if (Array.isArray(parsed)) return "array";
  if (typeof parsed === "number") return /^-?\d+$/.test(text) ? "int" : "float";
  return typeof parsed === "boolean" ? "bool" : typeof parsed === "string" ? "string" : "object";
}

const jsonIs = (kind: string): ScalarDef => ({
  args: [1, 1],
  int: true,
  fn: (j) => {
    const k = jsonKind(j);
    return k === null ? null : k === kind ? 1 : 0;
  },
});

/** GreptimeDB's scalar functions by name. */
export const GREPTIME_SCALARS: Record<string, ScalarDef> = {
  clamp: { args: [3, 3], bigint: true, fn: (v, lo, hi) => clamp("clamp", v, lo ?? null, hi ?? null) },
  clamp_min: { args: [2, 2], bigint: true, fn: (v, lo) => clamp("clamp_min", v, lo ?? null, undefined) },
  clamp_max: { args: [2, 2], bigint: true, fn: (v, hi) => clamp("clamp_max", v, undefined, hi ?? null) },
  mod: {
    args: [2, 2],
    bigint: true,
    fn: (a, b) => {
      if (a === null || b === null) return null;
      const x = numeric(a, "mod"), y = numeric(b, "mod");
      if (isInt(x) && isInt(y)) {
        if (y === 0n) throw new Error("Divide by zero error");
        return x % y;
      }
      if (Number(y) === 0) throw new Error("Divide by zero error");
      return Number(x) % Number(y);
    },
  },
  json_is_int: jsonIs("int"),
  json_is_float: jsonIs("float"),
  json_is_bool: jsonIs("bool"),
  json_is_string: jsonIs("string"),
  json_is_array: jsonIs("array"),
  json_is_object: jsonIs("object"),
  json_path_match: {
    int: true,
    fn: (j, path) => {
      if (j === null || path === null) return null;
      let doc: unknown;
      try {
        doc = JSON.parse(str(j)!);
      } catch {
        throw new Error(`Invalid JSON text: '${str(j)}'`);
      }
      return jsonPathMatch(doc, str(path)!) ? 1 : 0;
    },
  },
  pg_backend_pid: { args: [0, 0], int: true, fn: () => Deno.pid },
};
