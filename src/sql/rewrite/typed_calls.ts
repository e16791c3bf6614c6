/**
 * Calls whose answer depends on the types of their arguments, settled while rewriting: DataFusion's
 * `arrow_typeof(x)` (the Arrow type name of `x`, from the same typing the output columns get) and
 * `nvl`/`nvl2` (SQLite spellings that keep the argument's declared type).
 */
import type { ResultType } from "../../common/rows.ts";
import { invalidArguments } from "../../common/errors.ts";
import { decimalSpec } from "../../common/decimal.ts";
import { listElement } from "../../common/list_type.ts";
import { quoteString } from "../../storage/table.ts";
import { isKeyword } from "../lexer.ts";
import { itemHint } from "../output_columns.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import type { SessionCall } from "./session_calls.ts";

const TIMESTAMP_UNITS: Record<string, string> = {
  TimestampSecond: "Second",
  TimestampMillisecond: "Millisecond",
  TimestampMicrosecond: "Microsecond",
  TimestampNanosecond: "Nanosecond",
};

/** The Arrow name DataFusion prints for a GreptimeDB data type. */
function arrowName(t: ResultType): string {
  if (t in TIMESTAMP_UNITS) return `Timestamp(${TIMESTAMP_UNITS[t]}, None)`;
  const dec = decimalSpec(t);
  if (dec) return `Decimal128(${dec.precision}, ${dec.scale})`;
  if (t === "String") return "Utf8";
  if (t === "Date") return "Date32";
  if (t === "IntervalMonthDayNano") return "Interval(MonthDayNano)";
  // GreptimeDB's JSON is jsonb bytes
  if (t === "Json") return "Binary";
  const element = listElement(t);
  if (element !== undefined) {
    // arrow's Debug text of a list (DataFusion's arrays hold nullable items named "item")
    const item = arrowName(element as ResultType);
    return `List(Field { name: "item", data_type: ${item}, nullable: true, dict_id: 0, dict_is_ordered: false, metadata: {} })`;
  }
  return t;
}

/** The type of the argument range: a column, a literal, or whatever output typing can tell. */
function argType(c: RewriteCtx, [s, e]: [number, number]): string | undefined {
  const { toks } = c;
  const t = toks[s];
  if (e - s === 1) {
    if (t.kind === "string") return "Utf8";
    if (t.kind === "number") return /^\d+$/.test(t.text) ? "Int64" : "Float64";
    if (isKeyword(t, "NULL")) return "Null";
    if (isKeyword(t, "TRUE", "FALSE")) return "Boolean";
    if (t.kind === "ident" || t.kind === "qident") {
      const col = c.time.columnTypeAt(s);
      if (col) return arrowName(col);
    }
  }
  const hint = itemHint({ q: c.q, relations: [], ...c.time }, s, e);
  return hint && arrowName(hint);
}

type TypedRewrite = (c: RewriteCtx, call: SessionCall) => TokenRewrite;

/** The type-dependent calls, by name. */
export const TYPED_CALLS = new Map<string, TypedRewrite>([
  ["arrow_typeof", (c, call) => {
    if (call.args.length !== 1) {
      throw invalidArguments(`arrow_typeof expects one argument, got ${call.args.length}`);
    }
    const type = argType(c, call.args[0]);
    if (type === undefined) {
      throw invalidArguments(
        "arrow_typeof: Petrel cannot tell the type of this expression; give it a column, a literal or a cast",
      );
    }
    return { text: quoteString(type), next: call.close + 1 };
  }],
  ["nvl", (_c, call) => {
    if (call.args.length !== 2) throw invalidArguments(`nvl expects two arguments, got ${call.args.length}`);
    return { text: `coalesce(${call.arg(0)}, ${call.arg(1)})`, next: call.close + 1 };
  }],
  ["nvl2", (_c, call) => {
    if (call.args.length !== 3) {
      throw invalidArguments(`nvl2 expects three arguments, got ${call.args.length}`);
    }
    return {
      text: `(CASE WHEN (${call.arg(0)}) IS NOT NULL THEN ${call.arg(1)} ELSE ${call.arg(2)} END)`,
      next: call.close + 1,
    };
  }],
]);
