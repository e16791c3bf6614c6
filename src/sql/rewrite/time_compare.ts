/**
 * A comparison of two timestamps of different units compares in the coarser unit, as DataFusion
 * coerces it (`timeunit_coercion`): the finer side's values are divided to it, truncated as arrow's
 * cast does. A side is any expression typed a timestamp (`output_columns.ts`): a column (`a.ts =
 * b.ts`, milliseconds and nanoseconds), a column ± an interval, `max(ts)`, a scalar subquery, CASE
 * or COALESCE; `ts [NOT] IN (SELECT …)` meets the subquery's one column (every member's, for a
 * compound; `ts > ANY (SELECT …)` too); BETWEEN, IS [NOT] DISTINCT FROM and `IN (a, b)` meet all their
 * operands. SQLite would compare the raw integers, which never meet.
 */
import { coarsestUnit, type TimeUnit, unitOfType } from "../../common/time_unit.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { leftOperand, rightOperand } from "../operand_bounds.ts";
import { columnRefName, itemHint, type OutputContext } from "../output_columns.ts";
import { CMP_OPS, isOperandEnd } from "../query_tokens.ts";
import { aliasOf, compoundItems, findTopSelect } from "../select_list.ts";
import { unitChange } from "./casts.ts";
import { atTimeZoneOperand, isAtTimeZone } from "./at_time_zone.ts";
import { compoundTypes } from "./union_types.ts";

/** A rewrite of `[start, end)` rendered when emitted (it emits its operand itself). */
export interface LazyRewrite {
  start: number;
  end: number;
  render(): string;
}

/**
 * The unit a timestamp-typed expression `[s, e)` is rendered in, if it is one: its type's, but a
 * time value naming no time column (a literal's cast, now()) and a cast (or AT TIME ZONE) inside an
 * expression are
 * rendered in their segment's unit (`casts.ts`; a subquery's item cast is in its own), which a
 * comparison's sides share unless each names its own time column.
 */
export function timestampUnit(c: OutputContext, [s, e]: [number, number]): TimeUnit | undefined {
  const { toks, match } = c.q;
  if (e <= s) return undefined;
  if (columnRefName(c.q, [s, e]) !== undefined) return c.isTsColumn(e - 1);
  const unit = unitOfType(itemHint(c, s, e) ?? "");
  if (!unit) return undefined;
  const own = ownsTime(c, [s, e]);
  const zoned = e - s > 4 && isAtTimeZone(c.q, e - 4) && atTimeZoneOperand(c.q, e - 4) === s;
  const cast = zoned || toks[s].kind === "ident" &&
      ["cast", "try_cast", "arrow_cast"].includes(toks[s].text.toLowerCase()) &&
      match[s + 1] === e - 1;
  if (cast && c.isSubqueryItem?.(s, e)) return unit;
  return own && !cast ? unit : c.unitAt(s);
}

/** The operators and words a timestamp meets another through. */
const OPERATORS = new Set(["-", ...CMP_OPS]);
const WORDS = new Set(["BETWEEN", "IS", "IN"]);

/** Whether `[s, e)` names a time column or holds a subquery (else it is in its segment's unit). */
function ownsTime(c: OutputContext, [s, e]: [number, number]): boolean {
  const { toks } = c.q;
  for (let k = s; k < e; k++) {
    if (c.isTsColumn(k) !== undefined || (isOp(toks[k], "(") && isKeyword(toks[k + 1], "SELECT", "WITH"))) {
      return true;
    }
  }
  return false;
}

/** `[s, e)` rendered in `to` from `from`. */
export function rescaled(
  emit: (a: number, b: number) => string,
  [s, e]: [number, number],
  from: TimeUnit,
  to: TimeUnit,
): LazyRewrite {
  return { start: s, end: e, render: () => unitChange(`(${emit(s, e).trim()})`, from, to) };
}

/** The time column of the one-column subquery in the brackets at `open`: its items, and their units. */
function subqueryColumn(c: OutputContext, open: number): { items: Array<[number, number]>; unit?: TimeUnit } {
  const { toks, match } = c.q;
  const arms = compoundItems(c.q, open);
  if (arms.length > 0) {
    if (arms.some((a) => a.length !== 1)) return { items: [] };
    return { items: arms.map((a) => a[0]), unit: unitOfType(compoundTypes(c, open).types[0] ?? "") };
  }
  const items = findTopSelect(toks, match, open + 1, match[open])?.items ?? [];
  if (items.length !== 1) return { items: [] };
  const item: [number, number] = [items[0][0], aliasOf(toks, items[0][0], items[0][1]).exprEnd];
  return { items: [item], unit: timestampUnit(c, item) };
}

/**
 * The rewrites dividing the finer side of each comparison of timestamps of different units, and the
 * brackets of the IN subqueries whose members they rescale (the nested compounds leave them).
 */
export function timeComparisons(
  c: OutputContext,
  emit: (a: number, b: number) => string,
): { rewrites: LazyRewrite[]; inSubqueries: Set<number> } {
  const { toks } = c.q;
  const rewrites: LazyRewrite[] = [];
  const inSubqueries = new Set<number>();
  for (let k = 1; k < toks.length - 1; k++) {
    const t = toks[k];
    // most tokens are none of the operators read here
    if (t.kind === "op" ? !OPERATORS.has(t.text) : t.kind !== "ident" || !WORDS.has(t.text.toUpperCase())) {
      continue;
    }
    if (isOp(toks[k], "-") && isOperandEnd(toks[k - 1])) {
      // `a.ts - b.ts`: the difference of two instants, in the coarser unit
      const sides = meet(c, emit, [leftOperand(c.q, k), rightOperand(c.q, k + 1, true)]);
      rewrites.push(...sides);
      continue;
    }
    if (isKeyword(toks[k], "BETWEEN")) {
      rewrites.push(...betweenBounds(c, emit, k));
      continue;
    }
    // `x IS [NOT] DISTINCT FROM y`
    const distinct = isKeyword(toks[k], "IS") ? (isKeyword(toks[k + 1], "NOT") ? k + 2 : k + 1) : -1;
    if (distinct > 0 && isKeyword(toks[distinct], "DISTINCT") && isKeyword(toks[distinct + 1], "FROM")) {
      rewrites.push(...meet(c, emit, [leftOperand(c.q, k), rightOperand(c.q, distinct + 2)]));
      continue;
    }
    // `x [NOT] IN (a, b, …)`: the list's values and x meet in their common type
    if (isKeyword(toks[k], "IN") && isOp(toks[k + 1], "(") && !isKeyword(toks[k + 2], "SELECT", "WITH")) {
      const x = leftOperand(c.q, isKeyword(toks[k - 1], "NOT") ? k - 1 : k);
      // a list of another type than x's is not read (`host IN ('a', 'b', …)` may be long)
      if (ownsTime(c, x)) rewrites.push(...meet(c, emit, [x, ...c.q.args(k + 1)]));
      continue;
    }
    const compares = isOp(toks[k], ...CMP_OPS);
    const inSubquery = isKeyword(toks[k], "IN") && isOp(toks[k + 1], "(") &&
      isKeyword(toks[k + 2], "SELECT", "WITH");
    if (!compares && !inSubquery) continue;
    const left = leftOperand(c.q, inSubquery && isKeyword(toks[k - 1], "NOT") ? k - 1 : k);
    // `ts > ANY (SELECT …)` meets the subquery's column as IN does
    const quantified = compares && isKeyword(toks[k + 1], "ANY", "ALL", "SOME") && isOp(toks[k + 2], "(") &&
      isKeyword(toks[k + 3], "SELECT", "WITH");
    if (compares && !quantified) {
      rewrites.push(...meet(c, emit, [left, rightOperand(c.q, k + 1)]));
      continue;
    }
    const leftUnit = timestampUnit(c, left);
    if (!leftUnit) continue;
    const open = quantified ? k + 2 : k + 1;
    const sub = subqueryColumn(c, open);
    if (!sub.unit || sub.unit === leftUnit) continue;
    const unit = coarsestUnit([leftUnit, sub.unit]);
    if (unit !== leftUnit) {
      rewrites.push(rescaled(emit, left, leftUnit, unit));
      continue;
    }
    // each member's column straight to the outer unit (the compound's own would divide twice)
    inSubqueries.add(open);
    for (const item of sub.items) {
      const from = timestampUnit(c, item);
      if (from && from !== unit) rewrites.push(rescaled(emit, item, from, unit));
    }
  }
  return { rewrites, inSubqueries };
}

/**
 * `x [NOT] BETWEEN lo AND hi` of timestamps of different units: DataFusion compares `x` with each
 * bound; here all three meet in the coarsest (the same unless the two bounds differ in unit too).
 */
function betweenBounds(c: OutputContext, emit: (a: number, b: number) => string, k: number): LazyRewrite[] {
  const { toks } = c.q;
  const x = leftOperand(c.q, isKeyword(toks[k - 1], "NOT") ? k - 1 : k);
  const lo = rightOperand(c.q, k + 1);
  if (!isKeyword(toks[lo[1]], "AND")) return [];
  return meet(c, emit, [x, lo, rightOperand(c.q, lo[1] + 1)]);
}

/** The rescales bringing the timestamp `operands` of different units to the coarsest. */
function meet(
  c: OutputContext,
  emit: (a: number, b: number) => string,
  operands: Array<[number, number]>,
): LazyRewrite[] {
  // typing is dear: only operands naming a time column are typed first; one naming none renders in
  // its segment's unit, and matters only where that differs from theirs
  const owns = operands.map((o) => ownsTime(c, o));
  if (!owns.some((x) => x)) return [];
  const units = operands.map((o, i) => owns[i] ? timestampUnit(c, o) : undefined);
  const typed = units.filter((u): u is TimeUnit => u !== undefined);
  operands.forEach((o, i) => {
    if (!owns[i] && o[1] > o[0] && typed.some((u) => u !== c.unitAt(o[0]))) units[i] = timestampUnit(c, o);
  });
  const known = units.filter((u): u is TimeUnit => u !== undefined);
  if (known.length < 2 || known.every((u) => u === known[0])) return [];
  const unit = coarsestUnit(known);
  return operands.flatMap((o, i) => {
    const from = units[i];
    return from && from !== unit ? [rescaled(emit, o, from, unit)] : [];
  });
}
