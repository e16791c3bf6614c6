/**
 * The check behind the `generate_series`/`range` table functions (rewrite/series.ts): the arguments
 * must be integers, the step non-zero, and the series at most `most` rows, so a typo in a bound
 * fails the query with a clear message instead of generating rows without end.
 */
import type { ScalarDef } from "./values.ts";

/** The series functions' scalars, by their internal name. */
export const SERIES_SCALARS: Record<string, ScalarDef> = {
  /**
   * `__petrel_series_guard(name, start, stop, step, inclusive, most)`: 1 when the series may run
   * (0 when an argument is NULL: no rows, as DataFusion answers); errors otherwise.
   */
  __petrel_series_guard: {
    bigint: true,
    deterministic: false,
    fn: (name, start, stop, step, inclusive, most) => {
      const args = [start, stop, step];
      if (args.some((a) => a === null)) return 0;
      if (!args.every((a) => typeof a === "bigint")) {
        throw new Error(
          `${name}: the start, stop and step must be integers (or timestamps with an interval step)`,
        );
      }
      const [a, b, d] = args as bigint[];
      if (d === 0n) throw new Error(`${name}: the step cannot be zero`);
      const span = d > 0n ? b - a : a - b;
      const abs = d > 0n ? d : -d;
      const rows = span < 0n ? 0n : span / abs + (inclusive || span % abs !== 0n ? 1n : 0n);
      if (rows > BigInt(most as bigint)) {
        throw new Error(
          `${name} would generate ${rows} rows (more than ${most}); use a larger step or closer bounds`,
        );
      }
      return 1;
    },
  },
};
