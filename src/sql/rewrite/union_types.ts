/**
 * The output types of a compound query (`UNION [ALL]`, `INTERSECT`, `EXCEPT`) as DataFusion
 * coerces them across its SELECTs: `SELECT w … UNION ALL SELECT v …` of a BIGINT and a DOUBLE is
 * Float64, and `SELECT NULL … UNION ALL SELECT ts …` is the timestamp. SQLite reports the first
 * SELECT's declared type (and nothing for a NULL), so a first-SELECT column whose type changes is
 * cast to the common type, which then comes as a hint. Timestamps of different units meet in the
 * coarsest (DataFusion's `timeunit_coercion`: milliseconds ∪ nanoseconds is milliseconds), and the
 * values of the others are converted to it (divided, as arrow's cast truncates).
 */
import type { DataType } from "../../common/rows.ts";
import { unitOfType } from "../../common/time_unit.ts";
import { commonType, FLOATS, literalType, SIGNED, UNSIGNED } from "../common_type.ts";
import { unitChange } from "./casts.ts";
import { isOp } from "../lexer.ts";
import type { OutputContext } from "../output_columns.ts";
import { columnRefName, selectItemType } from "../output_columns.ts";
import { compoundItems } from "../select_list.ts";

/** The common type of each output column, and the column references to cast to it. */
export interface CompoundTypes {
  /** By position (undefined where it is not known). */
  types: Array<DataType | undefined>;
  /**
   * Column references of another type than their output column's, by first token: SQLite reports a
   * column's declared type (the first SELECT's at the top, the last one's through a subquery), so
   * they are cast as DataFusion casts them, and the common type comes as a hint.
   */
  casts: Map<number, { end: number; sql(expr: string): string }>;
}

/**
 * The common types of a compound query's output columns (none when the query is not compound, or
 * any SELECT has a `*`): the outermost one's, or the one's in the brackets at `open`.
 */
export function compoundTypes(c: OutputContext, open = -1): CompoundTypes {
  const { toks } = c.q;
  const none: CompoundTypes = { types: [], casts: new Map() };
  const arms = compoundItems(c.q, open);
  if (arms.length === 0 || arms.some((items) => items.some(([, e]) => isOp(toks[e - 1], "*")))) return none;
  const typed = arms.map((items) =>
    items.map(([s, e]) => literalType(c.q, [s, e]) ?? selectItemType(c, s, e))
  );
  const types = arms[0].map((_, col) => commonType(typed.map((items) => items[col])));
  const casts: CompoundTypes["casts"] = new Map();
  arms.forEach((items, arm) =>
    items.forEach(([s, e], col) => {
      const type = types[col], from = typed[arm][col];
      if (!type || from === type) return;
      // a time value (column or expression) is an integer in its own unit: rescaled to the common one
      const [unit, fromUnit] = [unitOfType(type), unitOfType(from ?? "")];
      if (unit && fromUnit) return casts.set(s, { end: e, sql: (x) => unitChange(`(${x})`, fromUnit, unit) });
      if (columnRefName(c.q, [s, e]) === undefined) return;
      if (FLOATS.includes(type)) casts.set(s, { end: e, sql: (x) => `CAST(${x} AS REAL)` });
      else if ([...SIGNED, ...UNSIGNED].includes(type)) {
        casts.set(s, {
          end: e,
          sql: (x) => `CAST(${x} AS INTEGER)`,
        });
      }
    })
  );
  return { types, casts };
}
