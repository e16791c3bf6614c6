/**
 * DataFusion's common type of values that meet in one column or expression (a compound's members,
 * a CASE's branches, COALESCE's arguments): numbers widen (an integer and a float are the float),
 * and timestamps of different units meet in the coarsest (`timeunit_coercion`: milliseconds ∪
 * nanoseconds is milliseconds).
 */
import type { DataType } from "../common/rows.ts";
import { coarsestUnit, timestampType, type TimeUnit, unitOfType } from "../common/time_unit.ts";
import { isKeyword } from "./lexer.ts";
import type { QueryTokens } from "./query_tokens.ts";

export const SIGNED = ["Int8", "Int16", "Int32", "Int64"];
export const UNSIGNED = ["UInt8", "UInt16", "UInt32", "UInt64"];
export const FLOATS = ["Float32", "Float64"];

/** The widest of `types` in one family (ordered narrow to wide), if all are of it. */
function widest(types: DataType[], family: string[]): DataType | undefined {
  if (!types.every((t) => family.includes(t))) return undefined;
  return family[Math.max(...types.map((t) => family.indexOf(t)))] as DataType;
}

/**
 * The common type of `types` (`"null"` for a NULL, which takes the others' type); undefined where
 * one is not known or they do not meet.
 */
export function commonType(types: Array<DataType | "null" | undefined>): DataType | undefined {
  if (types.some((t) => t === undefined)) return undefined;
  const known = types.filter((t): t is DataType => t !== "null");
  if (known.length === 0) return undefined;
  if (known.every((t) => t === known[0])) return known[0];
  const units = known.map(unitOfType).filter((u): u is TimeUnit => u !== undefined);
  if (units.length === known.length) {
    return timestampType(coarsestUnit(units));
  }
  const numeric = [...SIGNED, ...UNSIGNED, ...FLOATS];
  if (known.some((t) => FLOATS.includes(t)) && known.every((t) => numeric.includes(t))) {
    return widest(known, FLOATS) ?? "Float64";
  }
  return widest(known, SIGNED) ?? widest(known, UNSIGNED);
}

/** The type of a literal value (`"null"` for NULL, which takes the others' type). */
export function literalType(q: QueryTokens, [s, e]: [number, number]): DataType | "null" | undefined {
  const t = q.toks[s];
  if (e - s !== 1) return undefined;
  if (isKeyword(t, "NULL")) return "null";
  if (t.kind === "number") return /^\d+$/.test(t.text) ? "Int64" : "Float64";
  return t.kind === "string" ? "String" : undefined;
}
