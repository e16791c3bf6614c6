/**
 * Special variables (reference §9): `greptime_*` keys — and their `svc_*` spellings — are removed
 * from the entry after the transform and become per-row table options and a table suffix.
 */
import { execError } from "./errors.ts";
import { toStringLossy } from "./value.ts";
import { HINT_OPTIONS } from "../src/common/hints.ts";

const PREFIXES = ["greptime_", "svc_"];
const OPTION_KEYS: [string, string][] = HINT_OPTIONS.flatMap((o) =>
  PREFIXES.map((p) => [p + o, o] as [string, string])
);
const SUFFIX_KEYS = PREFIXES.map((p) => p + "table_suffix");

/** The hints of one row. */
export interface RowHints {
  options?: Record<string, string>;
  suffix?: string;
}

const HINT_KEYS = new Set([...OPTION_KEYS.map(([k]) => k), ...SUFFIX_KEYS]);
const NO_HINTS: RowHints = Object.freeze({});

/** True when `key` is a special variable that becomes a row option or table suffix. */
export function isHintKey(key: string): boolean {
  return HINT_KEYS.has(key);
}

/** Removes every hint key from `entry` and returns the hints (undefined fields when absent). */
export function takeHints(entry: Record<string, unknown>, skip?: ReadonlySet<string>): RowHints {
  // One pass over the keys is much cheaper than probing fourteen absent properties.
  let any = false;
  for (const k in entry) {
    const c = k.charCodeAt(0);
    if ((c === 103 || c === 115) && HINT_KEYS.has(k) && !skip?.has(k)) {
      any = true;
      break;
    }
  }
  if (!any) return NO_HINTS;
  let options: Record<string, string> | undefined;
  let suffix: string | undefined;
  for (let i = 0; i < OPTION_KEYS.length; i++) {
    const [key, option] = OPTION_KEYS[i];
    const v = entry[key];
    if (v === undefined || skip?.has(key)) continue;
    delete entry[key];
    const s = toStringLossy(v);
    if (option === "auto_create_table" && s !== "true" && s !== "false") {
      throw execError("`auto_create_table` hint must be a boolean");
    }
    (options ??= {})[option] = s;
  }
  for (const key of SUFFIX_KEYS) {
    const v = entry[key];
    if (v === undefined || skip?.has(key)) continue;
    delete entry[key];
    suffix = toStringLossy(v);
  }
  return { options, suffix };
}
