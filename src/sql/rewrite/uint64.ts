/**
 * UInt64 columns as DataFusion reads them. A value ≥ 2^63 is stored as its two's complement
 * (`encodeUInt64`), a negative SQLite integer, so SQLite's own comparisons, ORDER BY and min/max
 * would put it below every small value. Here each such place reads the column through an
 * order-preserving key instead: its sign bit flipped ({@link u64Key}, bitwise operators only, no
 * call per row), so 0 is the smallest key and 2^64 - 1 the largest; literals meet it as keys too,
 * computed here. Equality needs no key (the stored numbers are equal when the values are): an
 * integer literal compared by `=` or IN becomes its stored number. Anything else a UInt64 column
 * meets (another column's type, a float) sees the column's value ({@link u64Value}, a REAL past
 * 2^63). Queries naming no UInt64 column are left as they are.
 */
import { isKeyword, isOp } from "../lexer.ts";
import { leftOperand, rightOperand } from "../operand_bounds.ts";
import { CMP_OPS } from "../query_tokens.ts";
import { AVERAGING } from "../call_types.ts";
import { aliasOf, selectList } from "../select_list.ts";
import { encodeUInt64, INTEGER_RANGES } from "../../storage/datatypes.ts";
import type { OperatorRewrite } from "./at_time_zone.ts";
import type { RewriteCtx } from "./context.ts";
import type { DataType } from "../../common/rows.ts";

const SIGN = "-9223372036854775808";
const TWO_63 = 2n ** 63n;

/** The order-preserving key of a stored UInt64 `x`: its sign bit flipped (NULL stays NULL). */
export function u64Key(x: string): string {
  return `((${x} | ${SIGN}) - (${x} & ${SIGN}))`;
}

/** The digits of a stored UInt64 `x` past 2^63 (a negative stored number; `x` is read more than once). */
export function u64Digits(x: string): string {
  // the value halved (a logical shift) is a positive integer, so its tenth and last digit follow
  const half = `((${x} >> 1) & 9223372036854775807)`;
  return `((${half} / 5) || ((${half} % 5) * 2 + (${x} & 1)))`;
}

/** The decimal text of a stored UInt64 `x` (`x` is read more than once). */
export function u64Text(x: string): string {
  return `CASE WHEN ${x} < 0 THEN ${u64Digits(x)} ELSE CAST(${x} AS TEXT) END`;
}

/** A stored UInt64 `x` as a double, rounded once as arrow's cast rounds it (`x` is read more than once). */
export function u64Real(x: string): string {
  // its top 53 bits are exact as a double; adding the low 11 bits rounds the exact sum once
  return `CASE WHEN ${x} < 0 THEN ((${x} >> 11) & 9007199254740991) * 2048.0 + (${x} & 2047) ` +
    `ELSE CAST(${x} AS REAL) END`;
}

/** A stored UInt64 `x` as its value: itself below 2^63, a double past it. */
export function u64Value(x: string): string {
  return `CASE WHEN ${x} < 0 THEN ((${x} >> 11) & 9007199254740991) * 2048.0 + (${x} & 2047) ELSE ${x} END`;
}

/** Whether the query names a UInt64 column at all (most do not, and are left as they are). */
function namesUInt64(c: RewriteCtx): boolean {
  for (const t of c.time.colTypes.values()) if (t === "UInt64") return true;
  return false;
}

/** Whether `[s, e)` is a UInt64 column (`u`, `t.u`). */
export function isUInt64Column(c: RewriteCtx, [s, e]: [number, number]): boolean {
  return columnRefType(c, [s, e]) === "UInt64";
}

/** The type of the column `[s, e)` names (`c` or `t.c`), or undefined when it is not a bare column. */
export function columnRefType(c: RewriteCtx, [s, e]: [number, number]): DataType | undefined {
  // read as output_columns.ts's columnRefName (which imports the casts that import this)
  const { toks } = c, last = toks[e - 1];
  if (e - s !== 1 && !(e - s === 3 && isOp(toks[s + 1], "."))) return undefined;
  if (last.kind !== "ident" && last.kind !== "qident") return undefined;
  if (isOp(toks[e], "(") || isOp(toks[e], ".")) return undefined;
  return c.time.columnTypeAt(e - 1);
}

/** The aggregates whose answer over a UInt64 column is a stored UInt64 (min/max by key, sum in halves). */
const U64_AGGREGATES = new Set(["min", "max", "sum"]);

/**
 * The end of `min(x)`, `max(x)` or `sum(x)` of a UInt64 column at `s` (with its FILTER and OVER
 * clauses), or -1.
 */
function aggregateEnd(c: RewriteCtx, s: number): number {
  const { toks, q } = c;
  const t = toks[s];
  if (t.kind !== "ident" || !isOp(toks[s + 1], "(") || isOp(toks[s - 1], ".")) return -1;
  if (!U64_AGGREGATES.has(t.text.toLowerCase())) return -1;
  const args = q.args(s + 1);
  if (args.length !== 1 || !isUInt64Column(c, args[0])) return -1;
  let end = q.match[s + 1] + 1;
  if (isKeyword(toks[end], "FILTER") && isOp(toks[end + 1], "(")) end = q.match[end + 1] + 1;
  if (isKeyword(toks[end], "OVER")) {
    if (isOp(toks[end + 1], "(")) end = q.match[end + 1] + 1;
    else end += 2;
  }
  // a range query's aggregate is rendered by its own rewriter
  return isKeyword(toks[end], "RANGE") ? -1 : end;
}

/** The stored UInt64 the aggregate `[s, end)` (see {@link aggregateEnd}) answers. */
function aggregateRewrite(c: RewriteCtx, s: number, end: number): OperatorRewrite {
  const name = c.toks[s].text, close = c.q.match[s + 1];
  const x = () => c.emit(s + 2, close).trim();
  // FILTER and OVER follow each aggregate of the rewrite
  const rest = () => c.emit(close + 1, end);
  if (name.toLowerCase() !== "sum") {
    // the largest key's value: flipped back, the stored number of the largest value
    return { start: s, end, render: () => u64Key(`${name}(${u64Key(x())})${rest()}`) };
  }
  return {
    start: s,
    end,
    render: () => {
      // the sums of the high and low 32 bits cannot overflow; joined, they wrap past 2^64 to the stored number
      const v = x(), tail = rest();
      const hi = `sum((${v} >> 32) & 4294967295)${tail}`, lo = `sum(${v} & 4294967295)${tail}`;
      return `(((${hi} + (${lo} >> 32)) << 32) | (${lo} & 4294967295))`;
    },
  };
}

/** How an operand of a comparison with a UInt64 column reads: a UInt64 expression, an integer, other. */
type Operand = { kind: "u64" } | { kind: "int"; value: bigint } | { kind: "other" };

function operandKind(c: RewriteCtx, [s, e]: [number, number]): Operand {
  const { toks } = c;
  if (isUInt64Column(c, [s, e]) || aggregateEnd(c, s) === e) return { kind: "u64" };
  const last = toks[e - 1];
  const sign = e - s === 2 && isOp(toks[s], "-", "+") ? toks[s].text : e - s === 1 ? "" : undefined;
  if (sign === undefined || !last) return { kind: "other" };
  const digits = last.kind === "number" ? last.text : last.kind === "string" ? last.value.trim() : "";
  if (!/^\d+$/.test(digits) || (sign && last.kind === "string")) return { kind: "other" };
  return { kind: "int", value: sign === "-" ? -BigInt(digits) : BigInt(digits) };
}

const [U64_MIN, U64_MAX] = INTEGER_RANGES.UInt64;

/** How the operands of one comparison render, given how they read and whether it orders or equates. */
function renderOperands(
  c: RewriteCtx,
  operands: Array<[number, number]>,
  ordering: boolean,
): Array<() => string> | undefined {
  const kinds = operands.map((o) => operandKind(c, o));
  if (!kinds.some((k) => k.kind === "u64")) return undefined;
  const inRange = kinds.every((k) =>
    k.kind === "u64" || (k.kind === "int" && k.value >= U64_MIN && k.value <= U64_MAX)
  );
  const emit = (o: [number, number]) => c.emit(o[0], o[1]).trim();
  return operands.map((o, i) => {
    const k = kinds[i];
    if (inRange) {
      if (k.kind === "int") {
        const stored = encodeUInt64(k.value);
        return () => (ordering ? stored ^ -TWO_63 : stored).toString();
      }
      return ordering ? () => u64Key(emit(o)) : () => emit(o);
    }
    // meeting another type: the column's value (a literal past the 64 bits, a float, another column)
    return k.kind === "u64" ? () => `(${u64Value(emit(o))})` : () => emit(o);
  });
}

/** The rewrites of one `x op y` comparison at `k`, when a side is UInt64. */
function comparison(c: RewriteCtx, k: number): OperatorRewrite | undefined {
  const { toks } = c;
  if (isKeyword(toks[k + 1], "ANY", "ALL", "SOME")) return undefined;
  const left = leftOperand(c.q, k), right = rightOperand(c.q, k + 1);
  if (left[1] <= left[0] || right[1] <= right[0]) return undefined;
  const op = toks[k].text;
  const parts = renderOperands(c, [left, right], !["=", "==", "<>", "!="].includes(op));
  if (!parts) return undefined;
  return { start: left[0], end: right[1], render: () => `${parts[0]()} ${op} ${parts[1]()}` };
}

/** `x [NOT] BETWEEN lo AND hi` at `k` (BETWEEN), when a side is UInt64. */
function between(c: RewriteCtx, k: number): OperatorRewrite | undefined {
  const { toks } = c;
  const not = isKeyword(toks[k - 1], "NOT");
  const x = leftOperand(c.q, not ? k - 1 : k);
  const lo = rightOperand(c.q, k + 1);
  if (!isKeyword(toks[lo[1]], "AND") || x[1] <= x[0]) return undefined;
  const hi = rightOperand(c.q, lo[1] + 1);
  const parts = renderOperands(c, [x, lo, hi], true);
  if (!parts) return undefined;
  return {
    start: x[0],
    end: hi[1],
    render: () => `${parts[0]()} ${not ? "NOT " : ""}BETWEEN ${parts[1]()} AND ${parts[2]()}`,
  };
}

/** `x [NOT] IN (a, b, …)` at `k` (IN), when x is UInt64. */
function inList(c: RewriteCtx, k: number): OperatorRewrite | undefined {
  const { toks, q } = c;
  if (!isOp(toks[k + 1], "(") || isKeyword(toks[k + 2], "SELECT", "WITH")) return undefined;
  const not = isKeyword(toks[k - 1], "NOT");
  const x = leftOperand(q, not ? k - 1 : k);
  if (!isUInt64Column(c, x)) return undefined;
  const items = q.args(k + 1);
  const parts = renderOperands(c, [x, ...items], false);
  if (!parts) return undefined;
  const [first, ...rest] = parts;
  return {
    start: x[0],
    end: q.match[k + 1] + 1,
    render: () => `${first()} ${not ? "NOT " : ""}IN (${rest.map((p) => p()).join(", ")})`,
  };
}

/** Whether the ORDER BY at `k` orders a compound (whose terms SQLite takes only as its columns). */
function ordersCompound(c: RewriteCtx, k: number): boolean {
  const { toks, q } = c;
  for (let j = k - 1; j >= 0 && q.parent[j] === q.parent[k]; j--) {
    if (isOp(toks[j], ")")) j = q.match[j];
    else if (isKeyword(toks[j], "UNION", "INTERSECT", "EXCEPT")) return true;
  }
  return false;
}

/**
 * The key of an ORDER BY item's rendered column: the emit of the whole item wrote its NULLS suffix
 * (emit.ts), which follows the key.
 */
function orderKey(item: string): string {
  const nulls = / NULLS (FIRST|LAST)$/.exec(item);
  return nulls ? `${u64Key(item.slice(0, nulls.index))}${nulls[0]}` : u64Key(item);
}

/** The items of the SELECT an ORDER BY at `k` orders (none for a window's): expression, alias. */
function selectItems(c: RewriteCtx, k: number): Array<{ expr: [number, number]; alias?: string }> {
  const { toks, q } = c;
  let j = k - 1;
  for (; j >= 0 && q.parent[j] === q.parent[k]; j--) {
    if (isOp(toks[j], ")")) j = q.match[j];
    else if (isKeyword(toks[j], "SELECT")) break;
  }
  if (!isKeyword(toks[j], "SELECT") || q.parent[j] !== q.parent[k]) return [];
  return (selectList(toks, q.match, j, k)?.items ?? []).map(([a, b]) => {
    const { exprEnd, hasAlias } = aliasOf(toks, a, b);
    return { expr: [a, exprEnd], alias: hasAlias ? q.lower(toks[b - 1]) : undefined };
  });
}

/**
 * What the ORDER BY item `[s, e)` orders by: an output column's expression for its position or its
 * alias (which hides a column of its name), else itself.
 */
function orderedExpr(
  c: RewriteCtx,
  items: Array<{ expr: [number, number]; alias?: string }>,
  [s, e]: [number, number],
): [number, number] {
  const t = c.toks[s];
  if (e - s === 1 && t.kind === "number" && /^\d+$/.test(t.text)) {
    return items[Number(t.text) - 1]?.expr ?? [s, e];
  }
  const named = e - s === 1 && (t.kind === "ident" || t.kind === "qident")
    ? items.find((i) => i.alias === c.q.lower(t))
    : undefined;
  return named?.expr ?? [s, e];
}

/** The keys of the UInt64 columns a non-compound ORDER BY at `k` orders by. */
function orderByKeys(c: RewriteCtx, k: number): OperatorRewrite[] {
  const { toks, q } = c;
  if (ordersCompound(c, k)) return [];
  const items = selectItems(c, k);
  const out: OperatorRewrite[] = [];
  let p = k + 2;
  while (p < toks.length) {
    const e = q.primaryEnd(p);
    const t = toks[e];
    const ends = !t || isOp(t, ",", ")", ";") ||
      isKeyword(t, "ASC", "DESC", "NULLS", "LIMIT", "OFFSET", "FETCH");
    const ordered = e > p && ends ? orderedExpr(c, items, [p, e]) : undefined;
    if (ordered && operandKind(c, ordered).kind === "u64") {
      const s = p;
      out.push({ start: s, end: e, render: () => orderKey(c.emit(...ordered).trim()) });
    }
    // on to the next item at this depth
    let j = p;
    while (j < toks.length && !isOp(toks[j], ",", ")") && q.parent[j] === q.parent[k]) {
      if (isOp(toks[j], "(")) j = q.match[j];
      if (isKeyword(toks[j], "LIMIT", "OFFSET", "FETCH", "UNION", "EXCEPT", "INTERSECT", "WINDOW")) {
        return out;
      }
      j++;
    }
    if (!isOp(toks[j], ",")) break;
    p = j + 1;
  }
  return out;
}

/** Every rewrite making the query read its UInt64 columns by value (none when it names none). */
export function uint64Rewrites(c: RewriteCtx): OperatorRewrite[] {
  if (!namesUInt64(c)) return [];
  const { toks } = c;
  const out: OperatorRewrite[] = [];
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    let r: OperatorRewrite | undefined;
    if (isOp(t, ...CMP_OPS) && k > 0) r = comparison(c, k);
    else if (isKeyword(t, "BETWEEN")) r = between(c, k);
    else if (isKeyword(t, "IN")) r = inList(c, k);
    else if (isKeyword(t, "ORDER") && isKeyword(toks[k + 1], "BY")) out.push(...orderByKeys(c, k));
    else if (t.kind === "ident" && AVERAGING.has(t.text.toLowerCase()) && isOp(toks[k + 1], "(")) {
      // DataFusion averages a UInt64 as a Float64: the value, not the stored number
      for (const arg of c.q.args(k + 1)) {
        if (!isUInt64Column(c, arg)) continue;
        out.push({ start: arg[0], end: arg[1], render: () => `(${u64Value(c.emit(...arg).trim())})` });
      }
    } else if (t.kind === "ident") {
      const end = aggregateEnd(c, k);
      if (end > 0) r = aggregateRewrite(c, k, end);
    }
    if (r) out.push(r);
  }
  return out;
}
