/**
 * DataFusion's string, math and hash functions SQLite lacks: nanvl, iszero, levenshtein, translate,
 * substr_index (and its alias substring_index), find_in_set, bit_length, cot, factorial, gcd, lcm,
 * encode/decode, contains, overlay and the inverse hyperbolic functions.
 * Hashes and `decode` answer bytes (DataFusion's Binary).
 */
import { Buffer } from "node:buffer";
import { editDistance } from "../../common/edit_distance.ts";
import type { Arg, ScalarDef } from "./values.ts";
import { math1, num, str } from "./values.ts";

/** A value's bytes: blobs as they are, anything else as its UTF-8 text. */
export function bytesOf(v: Arg): Uint8Array {
  return v instanceof Uint8Array ? v : new TextEncoder().encode(str(v)!);
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function integers(fn: string, ...vs: Arg[]): bigint[] {
  return vs.map((v) => {
    if (typeof v === "bigint") return v;
    if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
    throw new Error(`${fn} expects integer arguments, got ${v instanceof Uint8Array ? "binary" : v}`);
  });
}

function encoding(e: Arg, fn: string): "base64" | "hex" {
  const name = str(e)?.toLowerCase();
  if (name === "base64" || name === "hex") return name;
  throw new Error(
    `${fn}: there is no built-in encoding named '${str(e)}', currently supported encodings are: base64, hex`,
  );
}

/**
 * DataFusion's `overlay(str, substr, pos [, count])`: `count` characters of `str` from `pos` (1-based)
 * replaced by `substr`; `count` defaults to the length of `substr`. As DataFusion, the head before
 * `pos` is kept only when `pos` lies inside `str`, the tail only when it starts inside `str`.
 */
function overlay(text: string, put: string, pos: number, count: number): string {
  const chars = [...text];
  const head = pos > 1 && pos - 1 < chars.length ? chars.slice(0, pos - 1).join("") : "";
  const tailFrom = pos + count - 1;
  const tail = tailFrom < chars.length ? chars.slice(Math.max(0, tailFrom)).join("") : "";
  return head + put + tail;
}

const wholeNumber = (fn: string, v: Arg): number => {
  const n = num(v);
  if (n === null || !Number.isInteger(n)) throw new Error(`${fn} expects integer positions, got ${str(v)}`);
  return n;
};

/**
 * DataFusion's `substr(str, start [, count])`: characters `start … start+count-1` (1-based) that lie
 * in the string, so a start before 1 eats into the count (SQLite's counts a negative start from the
 * end); a negative count fails.
 */
const SUBSTR: ScalarDef = {
  args: [2, 3],
  fn: (s, start, count) => {
    if (s === null || start === null || count === null) return null;
    const from = wholeNumber("substr", start);
    const chars = [...str(s)!];
    if (count === undefined) return chars.slice(Math.max(from, 1) - 1).join("");
    const n = wholeNumber("substr", count);
    if (n < 0) throw new Error(`negative substring length not allowed: substr(<str>, ${from}, ${n})`);
    const end = from + n;
    return end <= 1 ? "" : chars.slice(Math.max(from, 1) - 1, end - 1).join("");
  },
};

const SUBSTR_INDEX: ScalarDef = {
  args: [3, 3],
  fn: (s, delim, count) => {
    if (s === null || delim === null || count === null) return null;
    const text = str(s)!, d = str(delim)!, n = Number(count);
    if (d === "" || n === 0) return "";
    const parts = text.split(d);
    return n > 0 ? parts.slice(0, n).join(d) : parts.slice(Math.max(0, parts.length + n)).join(d);
  },
};

/** DataFusion's scalar functions by name. */
export const DATAFUSION_SCALARS: Record<string, ScalarDef> = {
  nanvl: {
    args: [2, 2],
    fn: (a, b) => (a === null || b === null ? null : Number.isNaN(num(a)) ? num(b) : num(a)),
  },
  iszero: { args: [1, 1], int: true, fn: (v) => (v === null ? null : num(v) === 0 ? 1 : 0) },
  levenshtein: {
    args: [2, 2],
    int: true,
    fn: (a, b) => (a === null || b === null ? null : editDistance(str(a)!, str(b)!)),
  },
  translate: {
    args: [3, 3],
    fn: (s, from, to) => {
      if (s === null || from === null || to === null) return null;
      const f = [...str(from)!], t = [...str(to)!];
      return [...str(s)!].map((ch) => {
        const k = f.indexOf(ch);
        return k < 0 ? ch : (t[k] ?? "");
      }).join("");
    },
  },
  acosh: math1(Math.acosh),
  asinh: math1(Math.asinh),
  atanh: math1(Math.atanh),
  contains: {
    args: [2, 2],
    int: true,
    fn: (s, search) => (s === null || search === null ? null : str(s)!.includes(str(search)!) ? 1 : 0),
  },
  overlay: {
    args: [3, 4],
    fn: (s, put, pos, count) => {
      if (s === null || put === null || pos === null || count === null) return null;
      const p = wholeNumber("overlay", pos);
      const n = count === undefined ? [...str(put)!].length : wholeNumber("overlay", count);
      return overlay(str(s)!, str(put)!, p, n);
    },
  },
  substr: SUBSTR,
  substring: SUBSTR,
  substr_index: SUBSTR_INDEX,
  // DataFusion's alias of substr_index
  substring_index: SUBSTR_INDEX,
  find_in_set: {
    args: [2, 2],
    int: true,
    fn: (s, list) => (s === null || list === null ? null : str(list)!.split(",").indexOf(str(s)!) + 1),
  },
  bit_length: { args: [1, 1], int: true, fn: (s) => (s === null ? null : bytesOf(s).length * 8) },
  cot: {
    args: [1, 1],
    fn: (v) => (v === null ? null : 1 / Math.tan(num(v)!)),
  },
  factorial: {
    args: [1, 1],
    bigint: true,
    fn: (v) => {
      if (v === null) return null;
      const [n] = integers("factorial", v);
      if (n > 20n) throw new Error(`Overflow happened on FACTORIAL(${n})`);
      let r = 1n;
      for (let k = 2n; k <= n; k++) r *= k;
      return r;
    },
  },
  gcd: {
    args: [2, 2],
    bigint: true,
    fn: (a, b) => (a === null || b === null ? null : gcd(...(integers("gcd", a, b) as [bigint, bigint]))),
  },
  lcm: {
    args: [2, 2],
    bigint: true,
    fn: (a, b) => {
      if (a === null || b === null) return null;
      const [x, y] = integers("lcm", a, b);
      if (x === 0n || y === 0n) return 0n;
      const r = (x < 0n ? -x : x) / gcd(x, y) * (y < 0n ? -y : y);
      if (r > 2n ** 63n - 1n) throw new Error(`Signed integer overflow in LCM(${x}, ${y})`);
      return r;
    },
  },
  encode: {
    args: [2, 2],
    fn: (v, e) => {
      if (v === null || e === null) return null;
      const b = Buffer.from(bytesOf(v));
      // DataFusion writes base64 without padding
      return encoding(e, "encode") === "hex" ? b.toString("hex") : b.toString("base64").replace(/=+$/, "");
    },
  },
  decode: {
    args: [2, 2],
    fn: (v, e) => {
      if (v === null || e === null) return null;
      const text = str(v)!;
      if (encoding(e, "decode") === "hex") {
        if (!/^([0-9a-f]{2})*$/i.test(text)) throw new Error(`Failed to decode value using hex: '${text}'`);
        return new Uint8Array(Buffer.from(text, "hex"));
      }
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
        throw new Error(`Failed to decode value using base64: '${text}'`);
      }
      return new Uint8Array(Buffer.from(text, "base64"));
    },
  },
};
