/** `cmcd`: Common Media Client Data key/value pairs → `<target>_<key>` (reference §4.1). */
import { execError } from "../errors.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";
import { percentDecodeBytes } from "./urlencoding.ts";

const BOOL_KEYS = new Set(["bs", "su"]);
const INT_KEYS = new Set(["br", "bl", "d", "dl", "mtp", "rtp", "tb"]);
const STR_KEYS = new Set(["cid", "nrr", "ot", "sf", "sid", "st", "v"]);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The `urlencoding` crate's `decode`: malformed `%` sequences stay as they are; invalid UTF-8 keeps the raw text. */
function decodePercent(s: string): string {
  if (!s.includes("%")) return s;
  try {
    return strictUtf8.decode(percentDecodeBytes(s));
  } catch {
    return s;
  }
}

/** Compiles a `cmcd` processor. */
export const compileCmcd: ProcessorCompiler = (o) =>
  fieldProcessor("cmcd", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    const s = expectString("cmcd", v);
    for (const part of s.split(",")) {
      const kv = part.split("=");
      const k = kv[0];
      const val = kv.length > 1 ? kv[1] : undefined;
      const out = `${f.target}_${k}`;
      if (BOOL_KEYS.has(k)) {
        entry[out] = true;
        continue;
      }
      const known = INT_KEYS.has(k) || STR_KEYS.has(k) || k === "nor" || k === "pr";
      if (!known) continue;
      if (val === undefined) throw execError(`Cmcd ${k} missing value in ${s}`);
      if (INT_KEYS.has(k)) {
        if (!/^[+-]?[0-9]+$/.test(val)) throw execError(`Failed to parse ${k} as int: ${val}`);
        entry[out] = Number(val);
      } else if (STR_KEYS.has(k)) entry[out] = val;
      else if (k === "nor") entry[out] = decodePercent(val);
      else {
        const n = parseRustFloat(val);
        if (n === undefined) throw execError(`Failed to parse ${k} as float: ${val}`);
        entry[out] = n;
      }
    }
  });

/** Rust's `f64::from_str` grammar: decimal/exponent forms, `inf`, `infinity`, `nan` (any case). */
export function parseRustFloat(s: string): number | undefined {
  if (/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) return Number(s);
  const low = s.toLowerCase();
  const sign = low.startsWith("-") ? -1 : 1;
  const word = low.replace(/^[+-]/, "");
  if (word === "inf" || word === "infinity") return sign * Infinity;
  if (word === "nan") return NaN;
  return undefined;
}
