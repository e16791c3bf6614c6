/**
 * Names and data types of output columns where SQLite's own would differ from GreptimeDB's:
 * expressions have no declared type, and DataFusion names `avg(cpu)` as `avg(monitor.cpu)`.
 */
import type { DataType, ResultType } from "../common/rows.ts";
import { isIntegerType } from "../storage/datatypes.ts";
import { castAs, castTarget } from "./cast_type.ts";
import { decimalAggregateType } from "./rewrite/decimals.ts";
import { decimalExprHint } from "./rewrite/decimal_arith.ts";
import { isWindowCall, orderedCall } from "./rewrite/ordered_aggregates.ts";
import { isDateArg } from "./rewrite/session_calls.ts";
import { hasIntervalGroup, INTERVAL_TYPE, isIntervalExpr } from "./rewrite/interval_arith.ts";
import { atTimeZoneOperand, isAtTimeZone } from "./rewrite/at_time_zone.ts";
import { ORDERED_AGGREGATES, TO_TIMESTAMP_UNITS } from "./dialect_rules.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { CMP_OPS, isOperandEnd, KEEP_TYPE_AGGS, NOW_NAMES } from "./query_tokens.ts";
import { aliasOf, findTopSelect } from "./select_list.ts";
import { type QueryTokens, SYNTHETIC, TIME_RESULT_FUNCS } from "./query_tokens.ts";
import { timestampType, type TimeUnit, unitOfType } from "../common/time_unit.ts";
import { branchType } from "./branch_types.ts";
import { additiveOps } from "./operand_bounds.ts";
import { arrayExprType } from "./array_types.ts";
import { arrayOutputName, writtenName } from "./display_name.ts";
import {
  arrowType,
  AVERAGING,
  BOOLEAN_FUNCS,
  INPUT_TYPED_AGGREGATES,
  KEEP_TYPE_SCALARS,
  RESULT_TYPES,
} from "./call_types.ts";

/** What output typing needs to know about a query. */
export interface OutputContext {
  q: QueryTokens;
  /** The relations (alias or table name) of the outermost FROM clause. */
  relations: string[];
  /** Types of the columns of every table in scope, by lowercased name. */
  colTypes: Map<string, DataType>;
  /** The type of the column token `i` names, read through its scope (`TimeScope.columnTypeAt`). */
  columnTypeAt(i: number): DataType | undefined;
  /** The relation (alias or table) the column at SQL offset `pos` reads, as DataFusion qualifies it. */
  qualifierAt?(pos: number): string | undefined;
  /** The same when a storage table in its scope tells it (before `viewTypes`, which go by name). */
  scopedType?(i: number): DataType | undefined;
  isTsColumn(i: number): TimeUnit | undefined;
  unitAt(i: number): TimeUnit;
  /** Types of the columns of views in scope, by lowercased name (computed ones have no declared type). */
  viewTypes?: Map<string, DataType>;
  /** Whether `[s, e)` is an item of a subquery's SELECT (a cast there renders in its own unit). */
  isSubqueryItem?(s: number, e: number): boolean;
  /** The common types of the compound in the brackets at `open` (none when it is one SELECT). */
  compoundTypesAt?(open: number): Array<DataType | undefined>;
}

/**
 * The name of an unaliased output column when SQLite's own name would differ from GreptimeDB's:
 * DataFusion's name of an expression of literals, columns, calls and operators (`Int64(1)`,
 * `avg(monitor.cpu)`, display_name.ts); other rewritten expressions keep their original text.
 */
export function outputName(
  c: OutputContext,
  s: number,
  e: number,
  original: string,
  rewritten: boolean,
): string | undefined {
  const ordered = arrayOutputName(c, s, e) ?? orderedAggregateName(c, s, e);
  if (ordered) return ordered;
  // a column alone keeps its bare name (`cpu`, also for `monitor.cpu`), as SQLite gives it
  const real = c.q.toks.slice(s, e).filter((t) => t.pos !== SYNTHETIC);
  const named = original === "" ? undefined : writtenName(c, original, Math.min(...real.map((t) => t.pos)));
  if (named !== undefined) return named;
  return rewritten && original !== "" ? original : undefined;
}

/**
 * DataFusion's name of an ordered aggregate over plain columns: `last_value(m.cpu) ORDER BY [m.ts ASC
 * NULLS LAST]`; undefined for other shapes (they keep their original text).
 */
function orderedAggregateName(c: OutputContext, s: number, e: number): string | undefined {
  const { toks, match } = c.q;
  const name = toks[s]?.kind === "ident" ? toks[s].text.toLowerCase() : "";
  if (!ORDERED_AGGREGATES.has(name) || !isOp(toks[s + 1], "(") || match[s + 1] !== e - 1) return undefined;
  if (c.relations.length !== 1 || isWindowCall(c.q, s + 1)) return undefined;
  const { values, order } = orderedCall(c.q, s + 1);
  if (order.length === 0) return undefined;
  const plain = ([a, b]: [number, number]): string | undefined => {
    if (b - a !== 1) return undefined;
    const t = toks[a];
    if (t.kind === "ident" || t.kind === "qident") return `${c.relations[0]}.${t.value}`;
    return t.kind === "number" ? `Int64(${t.text})` : undefined;
  };
  const args = values.map(plain);
  const keys = order.map((o) => {
    const k = plain(o.expr);
    return k && `${k} ${o.desc ? "DESC" : "ASC"} NULLS ${o.nullsFirst ? "FIRST" : "LAST"}`;
  });
  if ([...args, ...keys].some((x) => x === undefined)) return undefined;
  return `${name}(${args.join(",")}) ORDER BY [${keys.join(", ")}]`;
}

/**
 * DataFusion's type of `date ± INTERVAL …` (a Date) and of `date - date` (Int64 days, as PostgreSQL
 * answers); undefined for anything else.
 */
function dateArithmeticType(c: OutputContext, s: number, e: number): DataType | undefined {
  const { toks } = c.q;
  const ops = c.q.depthZero(s, e).filter((x) => isOp(x, "+", "-")).map((x) => toks.indexOf(x))
    .filter((k) => k > s && isOperandEnd(toks[k - 1]));
  if (ops.length === 0 || !isDateArg(c.q, c.columnTypeAt, [s, ops[0]])) return undefined;
  const bounds = [...ops, e];
  const operands = ops.map((k, j): [number, number] => [k + 1, bounds[j + 1]]);
  if (operands.every(([a]) => isKeyword(toks[a], "INTERVAL"))) return "Date";
  if (ops.length === 1 && isOp(toks[ops[0]], "-") && isDateArg(c.q, c.columnTypeAt, operands[0])) {
    return "Int64";
  }
  return undefined;
}

/**
 * The type of `(SELECT x FROM …)` as a value: its one output column's (SQLite reports none for a
 * subquery). Read from the tokens, as the item's own, so a correlated subquery is typed too.
 */
function scalarSubqueryType(c: OutputContext, s: number, e: number): ResultType | undefined {
  const { toks, match } = c.q;
  if (!isOp(toks[s], "(") || match[s] !== e - 1 || !isKeyword(toks[s + 1], "SELECT", "WITH")) {
    return undefined;
  }
  const items = findTopSelect(toks, match, s + 1, e - 1)?.items;
  if (items?.length !== 1) return undefined;
  // a compound's members meet in their common type
  const common = c.compoundTypesAt?.(s)[0];
  if (common) return common;
  const [a, b] = items[0];
  const exprEnd = aliasOf(toks, a, b).exprEnd;
  // selectItemType leaves lists out (no column type to cast to); as a value the list keeps its type
  const list = arrayExprType(c, a, exprEnd, (x, y) => itemHint(c, x, y));
  return list ? list as ResultType : selectItemType(c, a, exprEnd);
}

/**
 * The type of the select item expression `[s, e)` of any SELECT of the query: a column's type, or
 * what `itemHint` tells of an expression.
 */
export function selectItemType(c: OutputContext, s: number, e: number): DataType | undefined {
  const column = columnRefName(c.q, [s, e]);
  if (column !== undefined) {
    return c.scopedType?.(e - 1) ?? c.viewTypes?.get(column) ?? c.colTypes.get(column);
  }
  // an interval or a list is no column type: a subquery or UNION arm of one stays untyped
  const hint = itemHint(c, s, e);
  return hint === "IntervalMonthDayNano" || hint?.startsWith("List<") ? undefined : hint as DataType;
}

/** The lowercased column name of tokens `[a, b)` when they are a column reference (`col`, `rel.col`). */
export function columnRefName(q: QueryTokens, [a, b]: [number, number]): string | undefined {
  const last = q.toks[b - 1];
  if (b - a !== 1 && !(b - a === 3 && isOp(q.toks[a + 1], "."))) return undefined;
  return last.kind === "ident" || last.kind === "qident" ? q.lower(last) : undefined;
}

/**
 * The type of `x ± <interval expression> …` where `x` is a timestamp (a column, `max(ts)`, a scalar
 * subquery…): DataFusion keeps the timestamp's type.
 */
function shiftedTimestamp(c: OutputContext, s: number, e: number): DataType | undefined {
  const ops = additiveOps(c.q, s, e);
  if (ops.length === 0) return undefined;
  const call = c.q.toks[s].kind === "ident" && isOp(c.q.toks[s + 1], "(") && c.q.match[s + 1] === ops[0] - 1;
  const typed = columnRefName(c.q, [s, ops[0]]) !== undefined
    ? c.isTsColumn(ops[0] - 1)
    : unitOfType(itemHint(c, s, ops[0]) ?? "");
  // a time call inside an expression (a cast, to_timestamp_seconds) answers in the segment's unit
  const head = typed && call ? c.unitAt(s) : typed;
  if (!head) return undefined;
  const bounds = [...ops, e];
  const intervals = ops.every((k, j) => isIntervalExpr(c.q, k + 1, bounds[j + 1]));
  return intervals ? timestampType(head) : undefined;
}

const INT64_MAX = 2n ** 63n - 1n;

/** DataFusion's type of a number (optionally signed) or string literal `[s, e)`: Int64, Float64, String. */
function literalType(q: QueryTokens, s: number, e: number): ResultType | undefined {
  const t = q.toks[e - 1];
  if (e - s === 1 && t.kind === "string") return "String";
  if (t.kind !== "number" || e - s > 2 || (e - s === 2 && !isOp(q.toks[s], "-", "+"))) return undefined;
  if (!/^\d+$/.test(t.text)) return /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t.text) ? "Float64" : undefined;
  // past Int64 DataFusion picks UInt64 or a decimal: SQLite's value is left to tell
  return BigInt(t.text) <= INT64_MAX ? "Int64" : undefined;
}

/** Keywords of predicates: an item holding one at its top level is a Boolean. */
const BOOLEAN_WORDS = [
  "IS",
  "LIKE",
  "ILIKE",
  "SIMILAR",
  "IN",
  "BETWEEN",
  "AND",
  "OR",
  "NOT",
  "REGEXP",
  "GLOB",
  "EXISTS",
];

/** The data type of a select item SQLite cannot report (no declared type behind it). */
export function itemHint(c: OutputContext, s: number, e: number): ResultType | undefined {
  const { toks, match, args, depthZero, lower } = c.q;
  const { columnTypeAt, isTsColumn, unitAt } = c;
  const t = toks[s];
  if (!t) return undefined;
  // SQLite answers TRUE/FALSE as 1/0; DataFusion's literal is a Boolean
  if (e - s === 1 && isKeyword(t, "TRUE", "FALSE")) return "Boolean";
  // a literal's type, which SQLite's values tell only when there are rows
  const literal = literalType(c.q, s, e);
  if (literal) return literal;
  // DataFusion's AT TIME ZONE is a cast to Timestamp(Nanosecond, tz); GreptimeDB's types carry no zone
  if (e - s > 4 && isAtTimeZone(c.q, e - 4) && atTimeZoneOperand(c.q, e - 4) === s) {
    return "TimestampNanosecond";
  }
  const flat = depthZero(s, e);
  if (
    !isKeyword(t, "CASE") &&
    flat.some((x) =>
      isOp(x, ...CMP_OPS, "~", "!~", "~*", "!~*") ||
      isKeyword(x, ...BOOLEAN_WORDS)
    )
  ) return "Boolean";
  if (isIntervalExpr(c.q, s, e)) return INTERVAL_TYPE;
  const shifted = shiftedTimestamp(c, s, e);
  if (shifted) return shifted;
  if (
    (flat.some((x) => isKeyword(x, "INTERVAL")) || hasIntervalGroup(c.q, s, e)) &&
    flat.every((x) => x.kind !== "op" || isOp(x, "+", "-", "(", ")"))
  ) {
    const k = flat.findIndex((x) => isTsColumn(toks.indexOf(x)) !== undefined);
    if (k >= 0) return timestampType(isTsColumn(toks.indexOf(flat[k]))!);
  }
  const branched = branchType(c.q, s, e, (a, b) => selectItemType(c, a, b));
  if (branched) return branched;
  const dated = dateArithmeticType(c, s, e);
  if (dated) return dated;
  const scalar = scalarSubqueryType(c, s, e);
  if (scalar) return scalar;
  const last = toks[e - 1];
  const columnRef = e - s === 1 || (e - s === 3 && isOp(toks[s + 1], "."));
  if (columnRef && (last.kind === "ident" || last.kind === "qident") && c.viewTypes?.has(lower(last))) {
    return c.viewTypes.get(lower(last));
  }
  const arith = decimalExprHint(c, s, e);
  if (arith) return arith;
  const array = arrayExprType(c, s, e, (a, b) => itemHint(c, a, b));
  if (array) return array as ResultType;
  if (t.kind !== "ident") return undefined;
  const name = t.text.toLowerCase();
  const isWholeCall = isOp(toks[s + 1], "(") && match[s + 1] === e - 1;
  // a whole to_timestamp call answers its own unit (rewrite/functions.ts), inside an expression the segment's
  if (isWholeCall && Object.hasOwn(TO_TIMESTAMP_UNITS, name)) {
    return timestampType(TO_TIMESTAMP_UNITS[name].own);
  }
  if (NOW_NAMES.has(name) || TIME_RESULT_FUNCS.has(name) || name.startsWith("to_timestamp")) {
    return timestampType(unitAt(s));
  }
  if ((name === "cast" || name === "try_cast") && isOp(toks[s + 1], "(")) {
    const close = match[s + 1];
    const target = castTarget(toks, castAs(toks, match, s + 1, close) + 1, close);
    // a cast is its own output column's type; inside an expression a time value keeps the segment unit
    if (target?.kind === "timestamp") return isWholeCall ? target.type : timestampType(unitAt(s));
    if (target && target.kind !== "interval") {
      return isWholeCall || target.kind !== "decimal" ? target.type : "Float64";
    }
  }
  if (BOOLEAN_FUNCS.has(name) && isOp(toks[s + 1], "(") && match[s + 1] === e - 1) return "Boolean";
  if (Object.hasOwn(RESULT_TYPES, name) && (isOp(toks[s + 1], "(") ? match[s + 1] === e - 1 : e - s === 1)) {
    return RESULT_TYPES[name];
  }
  if (["row_number", "rank", "dense_rank", "ntile"].includes(name) && isOp(toks[s + 1], "(")) {
    return "UInt64";
  }
  if (!isWholeCall) return windowCallType(c, s, e);
  if (name === "date_add" || name === "date_sub") {
    const first = args(s + 1)[0];
    return first && isDateArg(c.q, columnTypeAt, first) ? "Date" : timestampType(unitAt(s));
  }
  if (name === "date_part" || name === "datepart" || name === "extract") return datePartType(c.q, s + 1);
  if (KEEP_TYPE_SCALARS.has(name)) {
    const all = args(s + 1);
    const t = all[0] && selectItemType(c, all[0][0], all[0][1]);
    // clamp of an integer by a float bound answers the float it computes (functions/greptime.ts)
    const floatBound = name.startsWith("clamp") && t && isIntegerType(t as DataType) &&
      all.slice(1).some(([a, b]) => /^Float/.test(selectItemType(c, a, b) ?? ""));
    if (floatBound) return "Float64";
    if (t) return t;
  }
  if (ORDERED_AGGREGATES.has(name)) {
    const first = orderedCall(c.q, s + 1).values[0];
    const ident = first && first[1] - first[0] === 1 ? toks[first[0]] : undefined;
    return ident && (ident.kind === "ident" || ident.kind === "qident") ? columnTypeAt(first[0]) : undefined;
  }
  // `fn(col)` or `fn(rel.col)`
  const callArgs = args(s + 1);
  const argName = callArgs.length === 1 ? columnRefName(c.q, callArgs[0]) : undefined;
  const argCol = argName !== undefined ? columnTypeAt(callArgs[0][1] - 1) : undefined;
  if (name === "arrow_cast") {
    const a = args(s + 1);
    const typeTok = a[1] && a[1][1] - a[1][0] === 1 ? toks[a[1][0]] : undefined;
    return typeTok?.kind === "string" ? arrowType(typeTok.value) : undefined;
  }
  const dec = argCol && decimalAggregateType(name, argCol);
  if (dec) return dec;
  if (name === "count") return "Int64";
  if (name === "approx_distinct") return "UInt64";
  if (AVERAGING.has(name)) return "Float64";
  if (INPUT_TYPED_AGGREGATES.has(name) && callArgs[0]) {
    const input = selectItemType(c, callArgs[0][0], callArgs[0][1]);
    // an integer or float answers its own type; a decimal is read as a Float64 here
    if (input && /^(U?Int|Float)/.test(input)) return input;
    return input === undefined ? undefined : "Float64";
  }
  if (KEEP_TYPE_AGGS.has(name) && argCol) return argCol;
  // `sum(<expression>)`: the expression's type when it has one (`sum(CASE … THEN 1 ELSE 0 END)` is Int64)
  const summed = name === "sum" && callArgs.length === 1
    ? argCol ?? selectItemType(c, callArgs[0][0], callArgs[0][1])
    : undefined;
  if (summed !== undefined && /^(U?Int|Float)/.test(summed)) {
    // DataFusion sums unsigned integers as a UInt64 (a UInt64 column's sum: rewrite/uint64.ts)
    if (summed.startsWith("UInt")) return "UInt64";
    return isIntegerType(summed as DataType) ? "Int64" : "Float64";
  }
  if (name === "sum" && argCol) return "Float64";
  return undefined;
}

/**
 * The type of a whole window call `fn(…) OVER (…)`: the call's as an aggregate (`max(ts) OVER (…)`
 * is the timestamp, `count(*) OVER ()` Int64), and lag, lead and nth_value answer their value's type.
 */
function windowCallType(c: OutputContext, s: number, e: number): ResultType | undefined {
  const { toks, match } = c.q;
  if (toks[s]?.kind !== "ident" || !isOp(toks[s + 1], "(") || !isWindowCall(c.q, s + 1)) return undefined;
  const close = match[s + 1];
  let over = close + 1;
  while (over < e && !isKeyword(toks[over], "OVER")) {
    over = isOp(toks[over], "(") ? match[over] + 1 : over + 1;
  }
  const end = isOp(toks[over + 1], "(") ? match[over + 1] + 1 : over + 2;
  if (end !== e) return undefined;
  if (["lag", "lead", "nth_value"].includes(toks[s].text.toLowerCase())) {
    const first = c.q.args(s + 1)[0];
    return first && selectItemType(c, first[0], first[1]);
  }
  return itemHint(c, s, close + 1);
}

/** DataFusion's `date_part`/`extract` type: Float64 for the epoch, Int32 for every other field. */
function datePartType(q: QueryTokens, open: number): DataType {
  const field = q.toks[open + 1];
  return field?.value.toLowerCase() === "epoch" ? "Float64" : "Int32";
}
