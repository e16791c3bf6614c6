/** Number-like text: integers in a base, durations, byte sizes. */

import { fail } from "./def.ts";

/**
 * `parse_int` as VRL: without a base, text starting `0b`, `0o`, `0x` is binary, octal, hex and any
 * other text starting `0` octal; the rest (a sign included) goes to Rust's `i64::from_str_radix`.
 */
export function parseIntBase(text: string, base?: number): bigint {
  let s = text;
  let b = base;
  if (b === undefined) {
    if (s === "") return fail("value is empty");
    const prefix = s[0] === "0" ? { b: 2, o: 8, x: 16 }[s[1]] : undefined;
    if (prefix) [b, s] = [prefix, s.slice(2)];
    else b = s[0] === "0" ? 8 : 10;
  }
  if (b < 2 || b > 36) return fail(`invalid base ${b}`);
  return fromStrRadix(s, b);
}

/** Rust's `i64::from_str_radix`, failing with its `ParseIntError` texts. */
function fromStrRadix(text: string, base: number): bigint {
  if (text === "") return fail("could not parse integer: cannot parse integer from empty string");
  const neg = text[0] === "-";
  const s = text[0] === "-" || text[0] === "+" ? text.slice(1) : text;
  const digits = "0123456789abcdefghijklmnopqrstuvwxyz".slice(0, base);
  if (s === "" || ![...s.toLowerCase()].every((c) => digits.includes(c))) {
    return fail(`could not parse integer: invalid digit found in string`);
  }
  let n = 0n;
  for (const c of s.toLowerCase()) n = n * BigInt(base) + BigInt(digits.indexOf(c));
  if (neg) n = -n;
  if (BigInt.asIntN(64, n) !== n) {
    return fail(`could not parse integer: number too ${neg ? "small" : "large"} to fit in target type`);
  }
  return n;
}

/** Unit sizes in nanoseconds, so that conversions divide exact integers. */
const DURATION_UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  "µs": 1e3,
  ms: 1e6,
  cs: 1e7,
  ds: 1e8,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
  w: 604800e9,
};

/** Parses a duration such as `1h30m` into `unit`s. */
export function parseDuration(text: string, unit: string): number {
  const to = DURATION_UNITS[unit];
  if (to === undefined) return fail(`unknown unit format: "${unit}"`);
  const s = text.trim();
  // Components may be separated by whitespace ("1s 1ms").
  const re = /\s*(-?\d+(?:\.\d+)?)\s*(ns|us|µs|ms|cs|ds|s|m|h|d|w)/gy;
  let total = 0;
  let pos = 0;
  let any = false;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * DURATION_UNITS[m[2]];
    pos = re.lastIndex;
    any = true;
  }
  if (!any || pos !== s.length) return fail(`unable to parse duration: "${text}"`);
  return total / to;
}

const BYTE_UNITS: Record<string, [number, number]> = {
  B: [1, 1],
  kB: [1e3, 1024],
  KB: [1e3, 1024],
  KiB: [1024, 1024],
  MB: [1e6, 1024 ** 2],
  MiB: [1024 ** 2, 1024 ** 2],
  GB: [1e9, 1024 ** 3],
  GiB: [1024 ** 3, 1024 ** 3],
  TB: [1e12, 1024 ** 4],
  TiB: [1024 ** 4, 1024 ** 4],
  PB: [1e15, 1024 ** 5],
  PiB: [1024 ** 5, 1024 ** 5],
};

/** Parses a byte size such as `1.5 MiB` into `unit`s. */
export function parseBytes(text: string, unit: string, base: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$/.exec(text);
  if (!m || !BYTE_UNITS[m[2]]) return fail(`unable to parse bytes: "${text}"`);
  if (!BYTE_UNITS[unit]) return fail(`unknown unit format: "${unit}"`);
  const idx = base === "10" ? 0 : 1;
  const factor = (u: string) => (u.includes("i") ? BYTE_UNITS[u][0] : BYTE_UNITS[u][idx]);
  return (Number(m[1]) * factor(m[2])) / factor(unit);
}

/** `parse_tokens`: whitespace-separated tokens, with `"…"` and `[…]` kept whole and `-` as null. */
