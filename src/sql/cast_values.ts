/**
 * Strings read as numbers and booleans the way DataFusion's casts and GreptimeDB's inserts read
 * them (Rust's `f64::from_str`, arrow's boolean parser): shared by INSERT and the cast functions.
 */

const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_FLOAT = /^([+-]?)(nan|inf|infinity)$/i;

/** A float's text (`1.5`, `-2e3`, `NaN`, `inf`, `-Infinity`, any case), or undefined. */
export function parseFloatText(text: string): number | undefined {
  const t = text.trim();
  if (FLOAT_RE.test(t)) return Number(t);
  const m = SPECIAL_FLOAT.exec(t);
  if (!m) return undefined;
  if (m[2].toLowerCase() === "nan") return NaN;
  return m[1] === "-" ? -Infinity : Infinity;
}

const TRUE_WORDS = new Set(["true", "t", "yes", "y", "on", "1"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "off", "0"]);

/** A boolean's text as arrow's Utf8 → Boolean cast reads it (case-insensitive), or undefined. */
export function parseBoolText(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  return TRUE_WORDS.has(t) ? true : FALSE_WORDS.has(t) ? false : undefined;
}
