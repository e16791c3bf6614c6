/**
 * The window aggregates behind DataFusion's `IGNORE NULLS` (rewrite/null_treatment.ts): the first,
 * last or n-th non-null value of the frame. SQLite's own first_value/nth_value are not aggregates (no
 * FILTER), so these keep the frame's non-null values in arrival order; SQLite removes rows from the
 * frame's start in the order it added them, so `inverse` only drops the oldest.
 */
import type { AggDef, Arg, Ret } from "./values.ts";
import { big } from "./values.ts";

interface Frame {
  values: Arg[];
  /** Index of the frame's first value in `values` (the ones before it left the frame). */
  head: number;
  /** nth: which value (1-based from the start, negative from the end). */
  n: bigint | null;
}

const start = (): Frame => ({ values: [], head: 0, n: null });

function step(acc: unknown, value: Arg, n?: Arg): Frame {
  const f = acc as Frame;
  if (n !== undefined && f.n === null) f.n = big(n);
  if (value !== null) f.values.push(value);
  return f;
}

function inverse(acc: unknown, value: Arg): Frame {
  const f = acc as Frame;
  if (value !== null) f.head++;
  // drop what left the frame now and then, so a long partition does not keep every value
  if (f.head > 1024 && f.head * 2 > f.values.length) {
    f.values = f.values.slice(f.head);
    f.head = 0;
  }
  return f;
}

/** The `n`-th non-null value of the frame: 1 the first, -1 the last; NULL when there are fewer. */
function nth(f: Frame, n: bigint | null): Ret {
  const size = f.values.length - f.head;
  if (n === null || n === 0n || size === 0) return null;
  const at = n > 0n ? f.head + Number(n) - 1 : f.values.length + Number(n);
  return at >= f.head && at < f.values.length ? f.values[at] as Ret : null;
}

/** The IGNORE NULLS aggregates, by their internal name. */
export const NON_NULL_AGGREGATES: Record<string, AggDef> = {
  __petrel_first_non_null: { bigint: true, start, step, inverse, result: (acc) => nth(acc as Frame, 1n) },
  __petrel_last_non_null: { bigint: true, start, step, inverse, result: (acc) => nth(acc as Frame, -1n) },
  __petrel_nth_non_null: {
    bigint: true,
    start,
    step,
    inverse,
    result: (acc) => nth(acc as Frame, (acc as Frame).n),
  },
};
