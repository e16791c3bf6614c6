/** String functions. */

import { bytesString, utf8Bytes } from "../bytes.ts";
import { K, t } from "../types.ts";
import { globalRegex } from "../regex.ts";
import { formatFloat, kindOf, VrlRegex, type VrlValue } from "../value.ts";
import { fail, flag, type FnDef, num, opt, req, str } from "./def.ts";
import { everyItem, unlessConstant } from "./def.ts";
import { regexReplace, regexSplit } from "./rust_regex.ts";

const S = K.BYTES;

function caseFold(s: string, sensitive: boolean): string {
  return sensitive ? s : s.toLowerCase();
}

function replace(v: string, pattern: string | VrlRegex, w: string, count: number): string {
  if (typeof pattern === "string") {
    // Rust's `str::replace("", w)` puts `w` around every character.
    if (pattern === "") {
      const chars = [...v];
      const n = count < 0 ? chars.length + 1 : Math.min(count, chars.length + 1);
      return chars.map((c, i) => (i < n ? w : "") + c).join("") + (n > chars.length ? w : "");
    }
    if (count < 0) return v.split(pattern).join(w);
    let out = v;
    let from = 0;
    for (let i = 0; i < count; i++) {
      const at = out.indexOf(pattern, from);
      if (at < 0) break;
      out = out.slice(0, at) + w + out.slice(at + pattern.length);
      from = at + w.length;
    }
    return out;
  }
  return regexReplace(v, pattern.re, w, count);
}

function split(v: string, pattern: string | VrlRegex, limit?: number): string[] {
  if (typeof pattern !== "string") return regexSplit(v, pattern.re, limit);
  const parts = pattern === "" ? ["", ...[...v], ""] : v.split(pattern);
  if (limit === undefined || parts.length <= limit) return parts;
  if (limit <= 0) return [];
  return [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(pattern)];
}

/** VRL's `slice` range: negative positions count from the end; only `end` is clamped to the length. */
function sliceIdx(len: number, start: number, end?: number): [number, number] {
  const s = start < 0 ? len + start : start;
  const e = end === undefined ? len : end < 0 ? len + end : end;
  if (s < 0 || s > len) fail(`"start" must be between "${-len}" and "${len}"`);
  if (e < s) fail(`"end" must be greater or equal to "start"`);
  return [s, Math.min(e, len)];
}

const SEGMENTATIONS = ["byte", "codepoint", "grapheme"];
const segmentationError = (s: string) =>
  `unknown segmentation ${JSON.stringify(s)}: expected byte, codepoint or grapheme`;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Shannon entropy (bits) of `s` split into bytes, code points or grapheme clusters. */
function shannonEntropy(s: string, segmentation: string): number {
  let units: unknown[];
  if (segmentation === "byte") units = [...new TextEncoder().encode(s)];
  else if (segmentation === "codepoint") units = [...s];
  else if (segmentation === "grapheme") units = [...graphemes.segment(s)].map((g) => g.segment);
  else return fail(segmentationError(segmentation));
  if (units.length === 0) return 0;
  const counts = new Map<unknown, number>();
  for (const u of units) counts.set(u, (counts.get(u) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / units.length;
    h -= p * Math.log2(p);
  }
  return h;
}

// VRL writes the number as a rust_decimal (`Decimal::from_f64`: the float's shortest digits) and cuts
// or pads its fraction to `scale` digits: it truncates, it does not round (`1234.567`, 2 → `1234.56`).
function formatNumber(v: number | bigint, scale?: number, dec = ".", group = ""): string {
  let s = typeof v === "bigint" ? v.toString() : formatFloat(v);
  const neg = s.startsWith("-");
  if (neg) s = s.slice(1);
  const [int, digits] = s.split(".");
  let frac: string | undefined = digits;
  if (scale === 0) frac = undefined;
  else if (scale !== undefined) frac = (frac ?? "").slice(0, scale).padEnd(scale, "0");
  const grouped = group ? int.replace(/\B(?=(\d{3})+(?!\d))/g, group) : int;
  return (neg ? "-" : "") + grouped + (frac !== undefined ? dec + frac : "");
}

// Rust's `char::is_whitespace` (Unicode White_Space): unlike JS's `trim`, it includes U+0085 (NEL)
// and excludes U+FEFF (the byte order mark).
const RUST_SPACE = "\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
const RUST_TRIM = new RegExp(`^[${RUST_SPACE}]+|[${RUST_SPACE}]+$`, "g");

/** Rust's `str::trim`. */
function rustTrim(s: string): string {
  return s.replace(RUST_TRIM, "");
}

/** The index of the character starting at UTF-8 byte `offset` of `s` (or the next one after it). */
function charIndexAtByte(s: string, offset: number): number {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return offset;
  let bytes = 0, i = 0;
  while (i < s.length && bytes < offset) {
    const step = s.codePointAt(i)! > 0xffff ? 2 : 1;
    bytes += utf8Bytes(s.slice(i, i + step)).length;
    i += step;
  }
  return i;
}

// ANSI escapes are control characters by definition.
const ANSI =
  // deno-lint-ignore no-control-regex
  /[\u001b\u009b][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[a-zA-Z\d]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PRZcf-ntqry=><~]))/g;

/** String functions by name. */
export const STRING_FNS: Record<string, FnDef> = {
  upcase: { params: [req("value", S)], returns: S, call: ([v]) => (v as string).toUpperCase() },
  downcase: { params: [req("value", S)], returns: S, call: ([v]) => (v as string).toLowerCase() },
  contains: {
    params: [req("value", S), req("substring", S), opt("case_sensitive", K.BOOLEAN)],
    returns: K.BOOLEAN,
    call: ([v, sub, cs]) =>
      caseFold(v as string, flag(cs, true)).includes(caseFold(sub as string, flag(cs, true))),
  },
  contains_all: {
    params: [req("value", S), req("substrings", K.ARRAY), opt("case_sensitive", K.BOOLEAN)],
    returns: K.BOOLEAN,
    fallibleFor: unlessConstant(1, (v) => everyItem(v, (x) => typeof x === "string")),
    call: ([v, subs, cs]) => {
      const hay = caseFold(v as string, flag(cs, true));
      return (subs as VrlValue[]).every((x) =>
        typeof x === "string"
          ? hay.includes(caseFold(x, flag(cs, true)))
          : fail(`expected string, got ${kindOf(x)}`)
      );
    },
  },
  starts_with: {
    params: [req("value", S), req("substring", S), opt("case_sensitive", K.BOOLEAN)],
    returns: K.BOOLEAN,
    call: ([v, sub, cs]) =>
      caseFold(v as string, flag(cs, true)).startsWith(caseFold(sub as string, flag(cs, true))),
  },
  ends_with: {
    params: [req("value", S), req("substring", S), opt("case_sensitive", K.BOOLEAN)],
    returns: K.BOOLEAN,
    call: ([v, sub, cs]) =>
      caseFold(v as string, flag(cs, true)).endsWith(caseFold(sub as string, flag(cs, true))),
  },
  replace: {
    params: [req("value", S), req("pattern", S | K.REGEX), req("with", S), opt("count", K.INTEGER)],
    returns: S,
    call: ([v, p, w, c]) => replace(v as string, p as string | VrlRegex, w as string, num(c, -1)),
  },
  split: {
    params: [req("value", S), req("pattern", S | K.REGEX), opt("limit", K.INTEGER)],
    returns: K.ARRAY,
    fresh: true,
    call: ([v, p, l]) => split(v as string, p as string | VrlRegex, l === undefined ? undefined : num(l, 0)),
  },
  join: {
    params: [req("value", K.ARRAY), opt("separator", S)],
    returns: S,
    fallible: true,
    call: ([v, sep]) =>
      (v as VrlValue[]).map((
        x,
      ) => (typeof x === "string" ? x : fail(`all array items must be strings, got ${kindOf(x)}`)))
        .join(str(sep, "")),
  },
  slice: {
    params: [req("value", S | K.ARRAY), req("start", K.INTEGER), opt("end", K.INTEGER)],
    returns: (a) => t(a[0] ? a[0].type.kind & (S | K.ARRAY) : S | K.ARRAY),
    fallible: true,
    fresh: true,
    call: ([v, s, e]) => {
      if (typeof v === "string") {
        // VRL slices the bytes: a cut inside a character leaves bytes that are not UTF-8 (`../bytes.ts`).
        if (isAscii(v)) {
          const [a, b] = sliceIdx(v.length, num(s, 0), e === undefined ? undefined : num(e, 0));
          return v.slice(a, b);
        }
        const bytes = utf8Bytes(v);
        const [a, b] = sliceIdx(bytes.length, num(s, 0), e === undefined ? undefined : num(e, 0));
        return bytesString(bytes.subarray(a, b));
      }
      const arr = v as VrlValue[];
      const [a, b] = sliceIdx(arr.length, num(s, 0), e === undefined ? undefined : num(e, 0));
      return arr.slice(a, b);
    },
  },
  strip_whitespace: { params: [req("value", S)], returns: S, call: ([v]) => rustTrim(v as string) },
  truncate: {
    params: [req("value", S), req("limit", K.INTEGER), opt("ellipsis", K.BOOLEAN), opt("suffix", S)],
    returns: S,
    call: ([v, l, ell, suf]) => {
      const chars = [...(v as string)];
      const limit = Math.max(0, num(l, 0));
      if (chars.length <= limit) return v as string;
      return chars.slice(0, limit).join("") +
        (suf !== undefined ? (suf as string) : flag(ell, false) ? "..." : "");
    },
  },
  strlen: { params: [req("value", S)], returns: K.INTEGER, call: ([v]) => BigInt([...(v as string)].length) },
  format_number: {
    params: [
      req("value", K.NUMBER),
      opt("scale", K.INTEGER),
      opt("decimal_separator", S),
      opt("grouping_separator", S),
    ],
    returns: S,
    call: ([v, sc, d, g]) =>
      formatNumber(v as number | bigint, sc === undefined ? undefined : num(sc, 0), str(d, "."), str(g, "")),
  },
  format_int: {
    params: [req("value", K.INTEGER), opt("base", K.INTEGER)],
    returns: S,
    fallible: true,
    call: ([v, b]) => {
      const base = num(b, 10);
      if (base < 2 || base > 36) return fail(`invalid base ${base}: must be between 2 and 36 (inclusive)`);
      return (v as bigint).toString(base);
    },
  },
  strip_ansi_escape_codes: {
    params: [req("value", S)],
    returns: S,
    call: ([v]) => (v as string).replace(ANSI, ""),
  },
  find: {
    params: [req("value", S), req("pattern", S | K.REGEX), opt("from", K.INTEGER)],
    // VRL gives null, not -1, when nothing matches; positions (`from` and the result) count bytes.
    returns: K.INTEGER | K.NULL,
    call: ([v, p, f]) => {
      const s = v as string;
      const offset = Math.max(0, num(f, 0));
      // VRL searches the byte range from..=len-pattern: past the end nothing matches, not even "" (JS
      // `indexOf` would clamp); VRL's regex `find_at` panics there.
      if (offset > (isAscii(s) ? s.length : utf8Bytes(s).length)) return null;
      const from = charIndexAtByte(s, offset);
      let i: number;
      if (typeof p === "string") i = s.indexOf(p, from);
      else {
        const re = globalRegex((p as VrlRegex).re);
        re.lastIndex = from;
        i = re.exec(s)?.index ?? -1;
      }
      return i < 0 ? null : BigInt(utf8Bytes(s.slice(0, i)).length);
    },
  },
  basename: {
    params: [req("value", S)],
    returns: S | K.NULL,
    fallible: true,
    call: ([v]) => {
      const s = (v as string).replace(/\/+$/, "");
      const b = s.slice(s.lastIndexOf("/") + 1);
      return b === "" || b === ".." ? null : b;
    },
  },
  dirname: {
    params: [req("value", S)],
    returns: S,
    fallible: true,
    call: ([v]) => {
      const s = (v as string).replace(/(.)\/+$/, "$1");
      const i = s.lastIndexOf("/");
      if (i < 0) return ".";
      if (i === 0) return "/";
      return s.slice(0, i).replace(/(.)\/+$/, "$1");
    },
  },
  split_path: {
    params: [req("value", S)],
    returns: K.ARRAY,
    fresh: true,
    call: ([v]) => {
      const s = v as string;
      const parts = s.split("/").filter((x) => x !== "");
      return s.startsWith("/") ? ["/", ...parts] : parts;
    },
  },
  sieve: {
    params: [
      req("value", S),
      req("permitted_characters", S | K.REGEX),
      opt("replace_single", S),
      opt("replace_repeated", S),
    ],
    returns: S,
    call: ([v, p, rs, rr]) => {
      const ok = (
        ch: string,
      ) => (typeof p === "string"
        ? p.includes(ch)
        : new RegExp(`^(?:${(p as VrlRegex).re.source})$`, (p as VrlRegex).re.flags).test(ch));
      let out = "";
      const chars = [...(v as string)];
      for (let i = 0; i < chars.length;) {
        if (ok(chars[i])) {
          out += chars[i++];
          continue;
        }
        let j = i;
        while (j < chars.length && !ok(chars[j])) j++;
        out += j - i > 1 ? str(rr, "") : str(rs, "");
        i = j;
      }
      return out;
    },
  },
  shannon_entropy: {
    params: [req("value", S), opt("segmentation", S)],
    returns: K.FLOAT,
    check: (a) => {
      const seg = a[1]?.constant?.value;
      if (typeof seg === "string" && !SEGMENTATIONS.includes(seg)) return segmentationError(seg);
    },
    fallibleFor: unlessConstant(1, (x) => SEGMENTATIONS.includes(x as string), true),
    call: ([v, seg]) => shannonEntropy(v as string, str(seg, "byte")),
  },
};

// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}
