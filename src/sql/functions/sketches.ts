/**
 * GreptimeDB's approximate aggregates over sketch states kept as Binary values, so states can be
 * stored per time window (by INSERT … SELECT or a flow) and merged later: `hll`/`hll_merge`/
 * `hll_count` (HyperLogLog++, common/hll.ts) and `uddsketch_state`/`uddsketch_merge`/
 * `uddsketch_calc` (UDDSketch, common/uddsketch.ts).
 */
import { Hll } from "../../common/hll.ts";
import { checkUddParams, UddSketch } from "../../common/uddsketch.ts";
import type { AggDef, Arg, ScalarDef } from "./values.ts";

function arity(fn: string, args: Arg[], n: number): void {
  if (args.length !== n) {
    throw new Error(`${fn} expects ${n} argument${n > 1 ? "s" : ""}, got ${args.length}`);
  }
}

/** A state argument's bytes, or null; anything but binary is refused. */
function stateBytes(fn: string, v: Arg): Uint8Array | null {
  if (v === null || v instanceof Uint8Array) return v;
  throw new Error(`${fn} expects a binary sketch state, got ${typeof v === "string" ? `'${v}'` : v}`);
}

/** Parses state bytes, naming the function in the error. */
function parsed<T>(fn: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw new Error(`${fn}: ${e instanceof Error ? e.message : e}`);
  }
}

const hllAgg = (fn: string, add: (h: Hll, v: Arg) => void): AggDef => ({
  bigint: true,
  start: () => new Hll(),
  step: (acc, ...args) => {
    arity(fn, args, 1);
    if (args[0] !== null) add(acc as Hll, args[0]);
    return acc;
  },
  result: (acc) => (acc as Hll).toBytes(),
});

/** The sketch an aggregate builds, with the parameters its first row gave. */
interface UddAcc {
  sketch: UddSketch | null;
}

/** The constant (bucket_num, error_rate) arguments: checked, and the same on every row. */
function uddParams(fn: string, acc: UddAcc, n: Arg, e: Arg): UddSketch {
  if (typeof n !== "number" && typeof n !== "bigint") {
    throw new Error(`${fn}: bucket_num must be a constant integer`);
  }
  if (typeof e !== "number" && typeof e !== "bigint") {
    throw new Error(`${fn}: error_rate must be a constant number`);
  }
  const buckets = Number(n), rate = Number(e);
  if (acc.sketch === null) {
    const problem = checkUddParams(buckets, rate);
    if (problem) throw new Error(`${fn}: ${problem}`);
    acc.sketch = new UddSketch(buckets, rate);
  } else if (acc.sketch.maxBuckets !== buckets || acc.sketch.initialError !== rate) {
    throw new Error(`${fn}: bucket_num and error_rate must be constants`);
  }
  return acc.sketch;
}

const uddAgg = (fn: string, add: (s: UddSketch, v: Arg) => void): AggDef => ({
  start: (): UddAcc => ({ sketch: null }),
  step: (acc, ...args) => {
    arity(fn, args, 3);
    const sketch = uddParams(fn, acc as UddAcc, args[0], args[1]);
    if (args[2] !== null) add(sketch, args[2]);
    return acc;
  },
  // over no rows there are no parameters to make a state of
  result: (acc) => (acc as UddAcc).sketch?.toBytes() ?? null,
});

/** Sketch aggregates by name. */
export const SKETCH_AGGREGATES: Record<string, AggDef> = {
  // GreptimeDB hashes every value as its string form
  hll: hllAgg("hll", (h, v) => h.add(v instanceof Uint8Array ? v : String(v))),
  hll_merge: hllAgg("hll_merge", (h, v) => {
    const b = stateBytes("hll_merge", v);
    if (b) h.merge(parsed("hll_merge", () => Hll.fromBytes(b)));
  }),
  uddsketch_state: uddAgg("uddsketch_state", (s, v) => {
    if (typeof v !== "number" && typeof v !== "bigint") {
      throw new Error(
        `uddsketch_state expects a numeric value, got ${typeof v === "string" ? `'${v}'` : "binary"}`,
      );
    }
    parsed("uddsketch_state", () => s.add(Number(v)));
  }),
  uddsketch_merge: uddAgg("uddsketch_merge", (s, v) => {
    const b = stateBytes("uddsketch_merge", v);
    if (b) parsed("uddsketch_merge", () => s.merge(UddSketch.fromBytes(b)));
  }),
};

/** Sketch scalars by name. */
export const SKETCH_SCALARS: Record<string, ScalarDef> = {
  hll_count: {
    int: true,
    fn: (...args) => {
      arity("hll_count", args, 1);
      const b = stateBytes("hll_count", args[0]);
      return b === null ? null : parsed("hll_count", () => Hll.fromBytes(b)).count();
    },
  },
  uddsketch_calc: {
    fn: (...args) => {
      arity("uddsketch_calc", args, 2);
      const [p, state] = args;
      if (
        p !== null &&
        (typeof p === "string" || p instanceof Uint8Array || !(Number(p) >= 0 && Number(p) <= 1))
      ) {
        throw new Error(`uddsketch_calc expects a percentile between 0 and 1, got ${p}`);
      }
      const b = stateBytes("uddsketch_calc", state);
      if (b === null || p === null) return null;
      return parsed("uddsketch_calc", () => UddSketch.fromBytes(b)).quantile(Number(p));
    },
  },
};
