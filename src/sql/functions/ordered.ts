/**
 * The aggregate behind DataFusion's `first_value`, `last_value` and `nth_value` with an optional
 * `ORDER BY` inside the call (rewrite/ordered_aggregates.ts): called as
 * `__petrel_ordered_value(kind, spec, value, n, key1, key2, …)` where `spec` holds two letters per
 * key: `A`/`D` for the direction, `F`/`L` for where NULLs sort.
 */
import type { AggDef, Arg, Ret } from "./values.ts";

interface OrderedState {
  kind: string;
  spec: string;
  n: bigint | null;
  /** first/last: the best row so far; nth: every row. */
  rows: Array<{ value: Arg; keys: Arg[] }>;
}

function compareValues(a: Arg, b: Arg): number {
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    const x = String(a), y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // SQLite's order across storage classes: numbers before text
  if (typeof a === "string") return 1;
  if (typeof b === "string") return -1;
  return a! < b! ? -1 : a! > b! ? 1 : 0;
}

/** Compares two rows' sort keys by the ORDER BY spec. */
function compareKeys(a: Arg[], b: Arg[], spec: string): number {
  for (let k = 0; k < a.length; k++) {
    const desc = spec[2 * k] === "D", nullsFirst = spec[2 * k + 1] === "F";
    const x = a[k], y = b[k];
    let r: number;
    if (x === null || y === null) {
      r = x === y ? 0 : (x === null) === nullsFirst ? -1 : 1;
    } else r = desc ? -compareValues(x, y) : compareValues(x, y);
    if (r !== 0) return r;
  }
  return 0;
}

/** The ordered aggregates' implementation, by its internal name. */
export const ORDERED_AGGREGATES: Record<string, AggDef> = {
  __petrel_ordered_value: {
    bigint: true,
    start: () => ({ kind: "", spec: "", n: null, rows: [] }) as OrderedState,
    step: (acc, kind, spec, value, n, ...keys) => {
      const st = acc as OrderedState;
      st.kind = String(kind);
      st.spec = String(spec);
      if (st.kind === "nth_value") {
        if (n === null) return st;
        st.n = typeof n === "bigint" ? n : BigInt(Math.trunc(Number(n)));
        st.rows.push({ value, keys });
        return st;
      }
      const best = st.rows[0];
      if (!best) st.rows.push({ value, keys });
      else {
        const r = compareKeys(keys, best.keys, st.spec);
        // first_value keeps the earliest of equal rows, last_value takes the latest
        if (st.kind === "first_value" ? r < 0 : r >= 0) st.rows[0] = { value, keys };
      }
      return st;
    },
    result: (acc): Ret => {
      const st = acc as OrderedState;
      if (st.kind !== "nth_value") return (st.rows[0]?.value ?? null) as Ret;
      if (st.n === null) return null;
      if (st.n === 0n) throw new Error("nth_value expects n to be non-zero");
      const sorted = st.spec === ""
        ? st.rows
        : [...st.rows].sort((a, b) => compareKeys(a.keys, b.keys, st.spec));
      const at = st.n > 0n ? Number(st.n) - 1 : sorted.length + Number(st.n);
      return (sorted[at]?.value ?? null) as Ret;
    },
  },
};
