/**
 * Names and data types of output columns where SQLite's own would differ from GreptimeDB's:
 * expressions have no declared type, and DataFusion names `avg(cpu)` as `avg(monitor.cpu)`.
 */
import type { DataType, ResultType } from "../common/rows.ts";
import { isIntegerType, isTimestampType } from "../storage/datatypes.ts";
import { castAs, castTarget } from "./cast_type.ts";
import { decimalAggregateType } from "./rewrite/decimals.ts";
import { decimalExprHint } from "./rewrite/decimal_arith.ts";
import { isWindowCall, orderedCall } from "./rewrite/ordered_aggregates.ts";
import { isDateArg } from "./rewrite/session_calls.ts";
import { hasIntervalGroup, INTERVAL_TYPE, isIntervalExpr } from "./rewrite/interval_arith.ts";
import { atTimeZoneOperand, isAtTimeZone } from "./rewrite/at_time_zone.ts";
import { ORDERED_AGGREGATES } from "./dialect_rules.ts";
import { isKeyword, isOp } from "./lexer.ts";
import { aliasOf, CMP_OPS, findTopSelect, isOperandEnd, KEEP_TYPE_AGGS, NOW_NAMES } from "./query_tokens.ts";
import { type QueryTokens, TIME_RESULT_FUNCS } from "./query_tokens.ts";
import { timestampType, type TimeUnit } from "../common/time_unit.ts";
import { arrayExprType, arrayOutputName } from "./array_types.ts";

/** What output typing needs to know about a query. */
export interface OutputContext {
  q: QueryTokens;
  /** The relations (alias or table name) of the outermost FROM clause. */
  relations: string[];
  /** Types of the columns of every table in scope, by lowercased name. */
  colTypes: Map<string, DataType>;
  /** The type of the column token `i` names, read through its scope (`TimeScope.columnTypeAt`). */
  columnTypeAt(i: number): DataType | undefined;
  /** The same when a storage table in its scope tells it (before `viewTypes`, which go by name). */
  scopedType?(i: number): DataType | undefined;
  isTsColumn(i: number): TimeUnit | undefined;
  unitAt(i: number): TimeUnit;
  /** Types of the columns of views in scope, by lowercased name (computed ones have no declared type). */
  viewTypes?: Map<string, DataType>;
}

/** Result types of whole calls that SQLite's values cannot tell (integers that are unsigned, dates…). */
const RESULT_TYPES: Record<string, DataType> = {
  json_get_string: "String",
  json_get_int: "Int64",
  json_get_float: "Float64",
  json_get_bool: "Boolean",
  json_to_string: "String",
  ipv4_string_to_num: "UInt32",
  ipv4_num_to_string: "String",
  ipv4_to_cidr: "String",
  ipv6_num_to_string: "String",
  ipv6_to_cidr: "String",
  ipv6_string_to_num: "Binary",
  pg_backend_pid: "UInt64",
  from_unixtime: "TimestampSecond",
  to_date: "Date",
  make_date: "Date",
  current_date: "Date",
  to_char: "String",
  timezone: "String",
  build: "String",
  current_schemas: "String",
  levenshtein: "Int32",
  grouping: "Int32",
  find_in_set: "Int32",
  bit_length: "Int32",
  regexp_count: "Int64",
  factorial: "Int64",
  gcd: "Int64",
  lcm: "Int64",
  sha224: "Binary",
  sha256: "Binary",
  sha384: "Binary",
  sha512: "Binary",
  digest: "Binary",
  decode: "Binary",
  encode: "String",
  translate: "String",
  substr_index: "String",
  arrow_typeof: "String",
  cot: "Float64",
  nanvl: "Float64",
  // vectors (functions/vector.ts): vector results are their bytes, as GreptimeDB's are Binary
  parse_vec: "Binary",
  vec_to_string: "String",
  vec_cos_distance: "Float32",
  vec_l2sq_distance: "Float32",
  vec_dot_product: "Float32",
  vec_dim: "UInt64",
  vec_norm: "Binary",
  vec_add: "Binary",
  vec_sub: "Binary",
  vec_mul: "Binary",
  vec_div: "Binary",
  vec_elem_sum: "Float32",
  vec_elem_product: "Float32",
  vec_scalar_add: "Binary",
  vec_scalar_mul: "Binary",
  vec_kth_elem: "Float32",
  vec_subvector: "Binary",
  vec_sum: "Binary",
  vec_product: "Binary",
};

/** Scalars whose result has their first argument's type. */
const KEEP_TYPE_SCALARS = new Set(["clamp", "clamp_min", "clamp_max", "nvl", "bit_and", "bit_or", "bit_xor"]);

const BOOLEAN_FUNCS = new Set([
  "json_is_null",
  "json_path_exists",
  "starts_with",
  "ends_with",
  "regexp_like",
  "isnan",
  "bool_and",
  "bool_or",
  "matches",
  "matches_term",
  "isnull",
  "json_is_int",
  "json_is_float",
  "json_is_bool",
  "json_is_string",
  "json_is_array",
  "json_is_object",
  "json_path_match",
  "ipv4_in_range",
  "ipv6_in_range",
  "iszero",
]);

const AVERAGING = new Set([
  "avg",
  "mean",
  "stddev",
  "stddev_samp",
  "stddev_pop",
  "variance",
  "var_samp",
  "var_pop",
  "median",
  "approx_median",
  "approx_percentile_cont",
  "percentile_cont",
  "corr",
  "covar",
  "covar_samp",
  "covar_pop",
  "var",
  "approx_percentile_cont_with_weight",
]);

const ARROW_TYPES: Record<string, DataType> = {
  int8: "Int8",
  int16: "Int16",
  int32: "Int32",
  int64: "Int64",
  uint8: "UInt8",
  uint16: "UInt16",
  uint32: "UInt32",
  uint64: "UInt64",
  float32: "Float32",
  float64: "Float64",
  utf8: "String",
  largeutf8: "String",
  boolean: "Boolean",
};

/** GreptimeDB's type for an Arrow type name given to arrow_cast. */
function arrowType(name: string): DataType | undefined {
  const ts = /^Timestamp\((\w+)/i.exec(name.trim());
  if (ts) {
    const unit = ({ second: "s", millisecond: "ms", microsecond: "us", nanosecond: "ns" } as const)[
      ts[1].toLowerCase() as "second"
    ];
    return unit ? timestampType(unit) : undefined;
  }
  return ARROW_TYPES[name.trim().toLowerCase()];
}

/**
 * The name of an unaliased output column when SQLite's own name would differ from GreptimeDB's:
 * rewritten expressions keep their original text, and `fn(col)` is qualified as DataFusion does
 * (`avg(monitor.cpu)`).
 */
export function outputName(
  c: OutputContext,
  s: number,
  e: number,
  original: string,
  rewritten: boolean,
): string | undefined {
  const { toks, match } = c.q;
  const relations = c.relations;
  const t = toks[s];
  const ordered = arrayOutputName(c, s, e) ?? orderedAggregateName(c, s, e);
  if (ordered) return ordered;
  if (
    t?.kind === "ident" && isOp(toks[s + 1], "(") && match[s + 1] === e - 1 && relations.length === 1 &&
    (toks[s + 2]?.kind === "ident" || toks[s + 2]?.kind === "qident") && e - s === 4 &&
    !isKeyword(toks[s + 2], "DISTINCT", "ALL")
  ) {
    return `${t.text.toLowerCase()}(${relations[0]}.${toks[s + 2].value})`;
  }
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
  return `${name}(${args.join(", ")}) ORDER BY [${keys.join(", ")}]`;
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

/** The type of `ts ± <interval expression> …` or `rel.ts ± …` (DataFusion keeps the timestamp's type). */
function shiftedTimestamp(c: OutputContext, s: number, e: number): DataType | undefined {
  const { toks } = c.q;
  const col = isOp(toks[s + 1], ".") ? s + 2 : s;
  const unit = c.isTsColumn(col);
  if (!unit || !isOp(toks[col + 1], "+", "-")) return undefined;
  // the operands after the column, split at the + and - between them
  let start = col + 2;
  for (let k = col + 2; k <= e; k++) {
    if (k < e && isOp(toks[k], "(")) k = c.q.match[k];
    else if (k === e || (isOp(toks[k], "+", "-") && isOperandEnd(toks[k - 1]) && k > start)) {
      if (!isIntervalExpr(c.q, start, k)) return undefined;
      start = k + 1;
    }
  }
  return timestampType(unit);
}

/** The data type of a select item SQLite cannot report (no declared type behind it). */
export function itemHint(c: OutputContext, s: number, e: number): ResultType | undefined {
  const { toks, match, args, depthZero, lower } = c.q;
  const { columnTypeAt, isTsColumn, unitAt } = c;
  const t = toks[s];
  if (!t) return undefined;
  // DataFusion's AT TIME ZONE is a cast to Timestamp(Nanosecond, tz); GreptimeDB's types carry no zone
  if (e - s > 4 && isAtTimeZone(c.q, e - 4) && atTimeZoneOperand(c.q, e - 4) === s) {
    return "TimestampNanosecond";
  }
  const flat = depthZero(s, e);
  if (
    !isKeyword(t, "CASE") &&
    flat.some((x) =>
      isOp(x, ...CMP_OPS, "~", "!~", "~*", "!~*") ||
      isKeyword(x, "IS", "LIKE", "ILIKE", "IN", "BETWEEN", "AND", "OR", "NOT", "REGEXP", "GLOB", "EXISTS")
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
  if (NOW_NAMES.has(name) || TIME_RESULT_FUNCS.has(name) || name.startsWith("to_timestamp")) {
    return timestampType(unitAt(s));
  }
  const isWholeCall = isOp(toks[s + 1], "(") && match[s + 1] === e - 1;
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
  if (!isWholeCall) return undefined;
  if (name === "date_add" || name === "date_sub") {
    const first = args(s + 1)[0];
    return first && isDateArg(c.q, columnTypeAt, first) ? "Date" : timestampType(unitAt(s));
  }
  if (name === "date_part" || name === "datepart" || name === "extract") return datePartType(c.q, s + 1);
  if (KEEP_TYPE_SCALARS.has(name)) {
    const first = args(s + 1)[0];
    const ident = first && first[1] - first[0] === 1 ? toks[first[0]] : undefined;
    const t = ident && (ident.kind === "ident" || ident.kind === "qident")
      ? columnTypeAt(first[0])
      : undefined;
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
  if (["count", "approx_distinct"].includes(name)) return "Int64";
  if (AVERAGING.has(name)) return "Float64";
  if (KEEP_TYPE_AGGS.has(name) && argCol) return argCol;
  if (name === "sum" && argCol) {
    return isIntegerType(argCol) && !isTimestampType(argCol) ? "Int64" : "Float64";
  }
  return undefined;
}

/** DataFusion's `date_part`/`extract` type: Float64 for the epoch, Int32 for every other field. */
function datePartType(q: QueryTokens, open: number): DataType {
  const field = q.toks[open + 1];
  return field?.value.toLowerCase() === "epoch" ? "Float64" : "Int32";
}
