/**
 * Output types and names of DataFusion's array expressions: `make_array(1, 2)` is a `List<Int64>`,
 * `array_agg(v)` a `List<` v's type `>`, `array_element(a, 1)` an element of a's type (their
 * unaliased columns are named in display_name.ts).
 */
import type { DataType, ResultType } from "../common/rows.ts";
import { listElement, listOf } from "../common/list_type.ts";
import { isKeyword, isOp } from "./lexer.ts";
import type { QueryTokens } from "./query_tokens.ts";
import { orderedCall } from "./rewrite/ordered_aggregates.ts";

/** What array typing reads of a query. */
export interface ArrayTyping {
  q: QueryTokens;
  colTypes: Map<string, DataType>;
  viewTypes?: Map<string, DataType>;
  relations: string[];
  /** The relation the column at SQL offset `pos` reads (DataFusion's qualifier), when resolved. */
  qualifierAt?(pos: number): string | undefined;
}

/** The type of any expression range (output typing's own, for what is not an array expression). */
export type HintOf = (s: number, e: number) => ResultType | undefined;

/** Functions whose result is a list like their first argument. */
const SAME_LIST = new Set([
  "array_append",
  "array_push_back",
  "list_append",
  "array_concat",
  "array_cat",
  "list_concat",
  "array_slice",
  "list_slice",
  "array_distinct",
  "array_sort",
  "list_sort",
  "array_reverse",
  "array_remove",
  "array_remove_n",
  "array_remove_all",
  "array_pop_back",
  "array_pop_front",
  "array_replace",
  "array_replace_n",
  "array_replace_all",
  "array_union",
  "array_intersect",
  "array_except",
  "array_resize",
]);
const PREPEND = new Set(["array_prepend", "array_push_front", "list_prepend"]);
const ELEMENT = new Set([
  "array_element",
  "array_extract",
  "list_element",
  "list_extract",
  "array_max",
  "array_min",
  "array_any_value",
  "unnest",
]);
const FIXED: Record<string, string> = {
  array_length: "UInt64",
  list_length: "UInt64",
  cardinality: "UInt64",
  array_position: "UInt64",
  array_indexof: "UInt64",
  list_position: "UInt64",
  array_has: "Boolean",
  array_contains: "Boolean",
  list_has: "Boolean",
  array_has_all: "Boolean",
  array_has_any: "Boolean",
  arrays_overlap: "Boolean",
  array_ndims: "UInt64",
  array_dims: "List<UInt64>",
  array_positions: "List<UInt64>",
  array_distance: "Float64",
  array_empty: "Boolean",
  empty: "Boolean",
  array_to_string: "String",
  array_join: "String",
  list_to_string: "String",
  string_to_array: "List<String>",
  string_to_list: "List<String>",
  regexp_match: "List<String>",
};

/** Every name this module types (so naming applies only where an array is involved). */
const ARRAY_NAMES = new Set([
  ...SAME_LIST,
  ...PREPEND,
  ...ELEMENT,
  ...Object.keys(FIXED),
  "make_array",
  "array_agg",
  "flatten",
]);

const INTEGERS = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);

/** The common type of array elements, as DataFusion coerces them (nulls take any type). */
function commonType(types: Array<string | undefined>): string {
  const known = types.filter((t): t is string => t !== undefined && t !== "Null");
  if (known.length === 0) return "Null";
  if (known.every((t) => t === known[0])) return known[0];
  if (known.some((t) => t === "String")) return "String";
  if (known.every((t) => INTEGERS.has(t))) return "Int64";
  if (known.every((t) => INTEGERS.has(t) || t.startsWith("Float") || t.startsWith("Decimal"))) {
    return "Float64";
  }
  return known[0];
}

/** The whole call at `s` (`name(…)` spanning `[s, e)`), if it is one. */
function wholeCall(q: QueryTokens, s: number, e: number): string | undefined {
  const t = q.toks[s];
  if (t?.kind !== "ident" || !isOp(q.toks[s + 1], "(") || q.match[s + 1] !== e - 1) return undefined;
  return t.text.toLowerCase();
}

/** The type of an argument range: a literal, a column, or what output typing tells. */
export function argType(c: ArrayTyping, [s, e]: [number, number], hint: HintOf): string | undefined {
  const { toks } = c.q;
  // `([1, 2])[1]`: a bracketed argument has the type of what it brackets
  if (isOp(toks[s], "(") && c.q.match[s] === e - 1 && e - s > 2) return argType(c, [s + 1, e - 1], hint);
  let k = s;
  if (e - s === 2 && isOp(toks[s], "-", "+")) k++;
  const t = toks[k];
  if (k === e - 1) {
    if (t.kind === "number") return /^\d+$/.test(t.text) ? "Int64" : "Float64";
    if (t.kind === "string") return "String";
    if (isKeyword(t, "NULL")) return "Null";
    if (isKeyword(t, "TRUE", "FALSE")) return "Boolean";
  }
  const last = toks[e - 1];
  if (
    (e - s === 1 || (e - s === 3 && isOp(toks[s + 1], "."))) &&
    (last.kind === "ident" || last.kind === "qident")
  ) {
    const name = c.q.lower(last);
    const col = c.viewTypes?.get(name) ?? c.colTypes.get(name);
    if (col) return col;
  }
  return arrayExprType(c, s, e, hint) ?? hint(s, e);
}

/** The value argument of `array_agg([DISTINCT] x [ORDER BY …])`. */
function aggregatedValue(q: QueryTokens, open: number): [number, number] | undefined {
  const first = orderedCall(q, open).values[0];
  if (!first) return undefined;
  return isKeyword(q.toks[first[0]], "DISTINCT", "ALL") ? [first[0] + 1, first[1]] : first;
}

/** Whether `[s, e)` is `array_agg(…)` with `FILTER (…)` or `OVER (…)` after it. */
function isArrayAggWindow(q: QueryTokens, s: number, e: number): boolean {
  if (!isKeyword(q.toks[s], "ARRAY_AGG") || !isOp(q.toks[s + 1], "(")) return false;
  let k = q.match[s + 1] + 1;
  for (const word of ["FILTER", "OVER"]) {
    if (isKeyword(q.toks[k], word) && isOp(q.toks[k + 1], "(")) k = q.match[k + 1] + 1;
  }
  return k === e && e > q.match[s + 1] + 1;
}

/** The type of `[s, e)` when it is an array expression or an array function's call. */
export function arrayExprType(c: ArrayTyping, s: number, e: number, hint: HintOf): string | undefined {
  const concat = c.q.depthZero(s, e).filter((t) => isOp(t, "||"));
  if (concat.length === 1) {
    // `a || b` with an array operand (rewrite/arrays.ts): the array's type
    const at = c.q.toks.indexOf(concat[0], s);
    const [l, r] = [argType(c, [s, at], hint), argType(c, [at + 1, e], hint)];
    const list = [l, r].find((t) => t !== undefined && listElement(t) !== undefined && t !== listOf("Null"));
    return list ?? [l, r].find((t) => t !== undefined && listElement(t) !== undefined);
  }
  const name = isArrayAggWindow(c.q, s, e) ? "array_agg" : wholeCall(c.q, s, e);
  if (name === undefined || !ARRAY_NAMES.has(name)) return undefined;
  const open = s + 1;
  const args = c.q.args(open);
  const typeOf = (k: number) => (args[k] ? argType(c, args[k], hint) : undefined);
  if (Object.hasOwn(FIXED, name)) return FIXED[name];
  if (name === "make_array") return listOf(commonType(args.map((_, k) => typeOf(k))));
  if (name === "array_agg") {
    const value = aggregatedValue(c.q, open);
    return listOf((value && argType(c, value, hint)) ?? "Null");
  }
  if (ELEMENT.has(name)) {
    const list = typeOf(0);
    return list === undefined ? undefined : listElement(list);
  }
  if (PREPEND.has(name)) return typeOf(1);
  if (name === "flatten") {
    let list = typeOf(0);
    while (list && listElement(listElement(list) ?? "") !== undefined) list = listElement(list);
    return list;
  }
  if (SAME_LIST.has(name)) {
    const list = typeOf(0);
    if (name.endsWith("append") && list === listOf("Null")) return listOf(typeOf(1) ?? "Null");
    return list;
  }
  return undefined;
}

/** Whether the range calls any array function (or builds an array). */
export function involvesArrays(q: QueryTokens, s: number, e: number): boolean {
  for (let k = s; k < e; k++) {
    const t = q.toks[k];
    if (t.kind === "ident" && isOp(q.toks[k + 1], "(") && ARRAY_NAMES.has(t.text.toLowerCase())) return true;
  }
  return false;
}
