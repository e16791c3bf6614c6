/**
 * The target of `CAST(x AS type)` / `x::type` as GreptimeDB reads it: its type-alias rule turns
 * `TIMESTAMP(p)` and the `Timestamp*` aliases into `arrow_cast` to that unit (bare `TIMESTAMP` is
 * milliseconds), `DECIMAL(p, s)` is Decimal128, and the rest follow the DDL type names.
 */
import type { DataType } from "../common/rows.ts";
import type { TimeUnit } from "../common/time_unit.ts";
import { unitOfType } from "../common/time_unit.ts";
import { type DecimalSpec, decimalSpec } from "../common/decimal.ts";
import { vectorDim } from "../common/vector.ts";
import { isDecimalWord, parseSqlType } from "../storage/datatypes.ts";
import type { Token } from "./lexer.ts";
import { isKeyword, isOp } from "./lexer.ts";

/** What a cast converts to. */
export type CastTarget =
  | { kind: "timestamp"; type: DataType; unit: TimeUnit }
  | { kind: "date"; type: DataType }
  | { kind: "interval" }
  | { kind: "decimal"; type: DataType; spec: DecimalSpec }
  | { kind: "boolean"; type: DataType }
  | { kind: "integer"; type: DataType }
  | { kind: "real"; type: DataType }
  | { kind: "text"; type: DataType }
  | { kind: "vector"; type: DataType; dim: number }
  | { kind: "other"; type: DataType };

/** The target of the type tokens `toks[from, to)` (after AS), or undefined when unknown. */
export function castTarget(toks: Token[], from: number, to: number): CastTarget | undefined {
  const word = toks[from];
  if (!word || (word.kind !== "ident" && word.kind !== "qident")) return undefined;
  const upper = word.value.toUpperCase();
  const params: number[] = [];
  let k = from + 1;
  if (isOp(toks[k], "(")) {
    for (k++; k < to && !isOp(toks[k], ")"); k++) {
      if (toks[k].kind === "number") params.push(Number(toks[k].text));
    }
    k++;
  }
  const unsigned = isKeyword(toks[k], "UNSIGNED");
  if (upper === "INTERVAL") return { kind: "interval" };
  let type: DataType;
  try {
    type = isDecimalWord(upper) && !unsigned
      ? parseSqlType(upper, params[0], false, params[1])
      : parseSqlType(upper, params[0], unsigned);
  } catch {
    return undefined;
  }
  const unit = unitOfType(type);
  if (unit) return { kind: "timestamp", type, unit };
  const spec = decimalSpec(type);
  if (spec) return { kind: "decimal", type, spec };
  if (type === "Date") return { kind: "date", type };
  if (type === "Boolean") return { kind: "boolean", type };
  if (/^U?Int/.test(type)) return { kind: "integer", type };
  if (type.startsWith("Float")) return { kind: "real", type };
  if (type === "String") return { kind: "text", type };
  const dim = vectorDim(type);
  if (dim !== undefined) return { kind: "vector", type, dim };
  return { kind: "other", type };
}

/** The index of the depth-0 `AS` of the CAST whose brackets are `open`/`close`, or -1. */
export function castAs(toks: Token[], match: number[], open: number, close: number): number {
  let as = -1;
  for (let k = open + 1; k < close; k++) {
    if (isOp(toks[k], "(")) k = match[k];
    else if (isKeyword(toks[k], "AS")) as = k;
  }
  return as;
}
