/** `flatten`: nested objects become one object with joined keys; nested arrays become one array. */

import { sortedEntries, type VrlObject, type VrlValue } from "../value.ts";

/**
 * Flattens an object or array. A field named in `except` (by its own key at any depth, or by its full
 * joined key) keeps its value unflattened under its joined key.
 */
export function flattenValue(v: VrlValue, sep: string, except: ReadonlySet<string>): VrlValue {
  if (Array.isArray(v)) return flattenArray(v);
  const out: VrlObject = new Map();
  flattenInto(out, "", v as VrlObject, sep, except);
  return out;
}

function flattenInto(
  out: VrlObject,
  prefix: string,
  o: VrlObject,
  sep: string,
  except: ReadonlySet<string>,
): void {
  for (const [k, x] of sortedEntries(o)) {
    const key = prefix ? prefix + sep + k : k;
    if (x instanceof Map && x.size > 0 && !except.has(k) && !except.has(key)) {
      flattenInto(out, key, x, sep, except);
    } else out.set(key, x);
  }
}

function flattenArray(v: VrlValue[]): VrlValue[] {
  const out: VrlValue[] = [];
  for (const x of v) Array.isArray(x) ? out.push(...flattenArray(x)) : out.push(x);
  return out;
}

/** The `except` argument as a set of keys (non-string items are ignored). */
export function exceptKeys(v: VrlValue | undefined): ReadonlySet<string> {
  return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
}
