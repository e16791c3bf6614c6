/**
 * Arithmetic and comparisons over decimals, exact as DataFusion computes them on Decimal128.
 *
 * An arithmetic expression (`+ - * / %` over operands) that involves a decimal is parsed here,
 * typed with arrow's decimal rules, and rendered as calls of `__petrel_decimal_arith` on unscaled
 * integers (functions/decimals.ts). Integer operands join as Decimal(20, 0) (DataFusion coerces
 * Int64 so); a float operand makes the whole expression Float64, computed from the decimals' REAL
 * values, as DataFusion falls back to floating point. Result types (arrow-arith `decimal_op`):
 *
 * - `+ -`: s = max(s1, s2), p = max(p1 - s1, p2 - s2) + s + 1
 * - `*`:   s = s1 + s2 (an error past 38), p = p1 + p2 + 1
 * - `/`:   s = s1 + 4, p = p1 - s1 + s2 + s (the quotient l × 10^(s - s1 + s2) / r, truncated)
 * - `%`:   s = max(s1, s2), p = min(p1 - s1, p2 - s2) + s
 *
 * each precision capped at 38; a value past the precision fails the query. Comparisons of decimals
 * (of any scales) with decimals or integers compare exactly.
 */
import type { DataType } from "../../common/rows.ts";
import { type DecimalSpec, decimalSpec, isDecimalType, MAX_DECIMAL_PRECISION } from "../../common/decimal.ts";
import { isDecimalWord } from "../../storage/datatypes.ts";
import { invalidArguments } from "../../common/errors.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { castAs, castTarget } from "../cast_type.ts";
import { CMP_OPS, type QueryTokens } from "../query_tokens.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";
import {
  decimalAggregateType,
  decimalCallScaled,
  decimalColumnAt,
  isByItem,
  realOfScaled,
} from "./decimals.ts";
import { decimalCastScaled } from "./casts.ts";
import { u64Digits } from "./uint64.ts";

/** What typing an expression needs: the tokens and the type of the column a token names. */
export interface TypingCtx {
  q: QueryTokens;
  columnTypeAt(i: number): DataType | undefined;
}

/** The numeric type of an operand or expression, as far as the rewrite can tell. */
export type NumType =
  | { kind: "decimal"; p: number; s: number }
  | { kind: "int"; p: number; u64?: true }
  | { kind: "float" }
  | { kind: "unknown" };

/** An operand (`[s, e)`, signs included) or a binary operation. */
type Node =
  | { kind: "leaf"; s: number; e: number; neg: boolean; type: NumType; group?: Node }
  | { kind: "bin"; op: string; l: Node; r: Node; type: NumType };

/** The precision of DataFusion's decimal for an integer type (Int64 and integer literals: 20). */
const INT_PRECISION: Record<string, number> = {
  Int8: 3,
  Int16: 5,
  Int32: 10,
  Int64: 20,
  UInt8: 3,
  UInt16: 5,
  UInt32: 10,
  UInt64: 20,
};
const INT64: NumType = { kind: "int", p: 20 };
const intType = (type: string): NumType | undefined => {
  const p = INT_PRECISION[type];
  return p === undefined ? undefined : { kind: "int", p };
};

const INT64_MAX = 2n ** 63n - 1n;
const cap = (p: number) => Math.min(p, MAX_DECIMAL_PRECISION);

/** The decimal type of `l op r` (arrow's rules, above); throws where arrow refuses the scale. */
function decimalResult(op: string, l: { p: number; s: number }, r: { p: number; s: number }): NumType {
  const { p: p1, s: s1 } = l, { p: p2, s: s2 } = r;
  switch (op) {
    case "+":
    case "-": {
      const s = Math.max(s1, s2);
      return { kind: "decimal", p: cap(Math.max(p1 - s1, p2 - s2) + s + 1), s };
    }
    case "*": {
      const s = s1 + s2;
      if (s > MAX_DECIMAL_PRECISION) {
        throw invalidArguments(
          `Output scale of Decimal128(${p1}, ${s1}) * Decimal128(${p2}, ${s2}) would exceed max scale of 38`,
        );
      }
      return { kind: "decimal", p: cap(p1 + p2 + 1), s };
    }
    case "/": {
      const s = Math.min(s1 + 4, MAX_DECIMAL_PRECISION);
      return { kind: "decimal", p: cap(p1 - s1 + s2 + s), s };
    }
    default: {
      const s = Math.max(s1, s2);
      return { kind: "decimal", p: cap(Math.min(p1 - s1, p2 - s2) + s), s };
    }
  }
}

function combine(op: string, l: NumType, r: NumType): NumType {
  if (l.kind === "unknown" || r.kind === "unknown") return { kind: "unknown" };
  if (l.kind === "float" || r.kind === "float") return { kind: "float" };
  if (l.kind === "int" && r.kind === "int") return INT64;
  return decimalResult(
    op,
    l.kind === "decimal" ? l : { p: l.p, s: 0 },
    r.kind === "decimal" ? r : { p: r.p, s: 0 },
  );
}

/** The type of a column type name as an arithmetic operand. */
function columnType(type: DataType | undefined): NumType {
  if (!type) return { kind: "unknown" };
  const spec = decimalSpec(type);
  if (spec) return { kind: "decimal", p: spec.precision, s: spec.scale };
  // a UInt64 column is stored as its two's complement past 2^63: marked, to be read by value
  if (type === "UInt64") return { kind: "int", p: 20, u64: true };
  const int = intType(type);
  if (int) return int;
  if (type.startsWith("Float")) return { kind: "float" };
  return { kind: "unknown" };
}

/** The type of the operand `[k, e)` (signs already skipped). */
function operandType(t: TypingCtx, k: number, e: number): NumType {
  const { toks, match } = t.q;
  const tok = toks[k];
  if (tok.kind === "number") return e === k + 1 && /^\d+$/.test(tok.text) ? INT64 : { kind: "float" };
  if (tok.kind !== "ident" && tok.kind !== "qident") return { kind: "unknown" };
  if (!isOp(toks[k + 1], "(")) return columnType(t.columnTypeAt(e - 1));
  const close = match[k + 1];
  // a window function's value is not the call's alone
  if (isKeyword(toks[close + 1], "OVER", "FILTER")) return { kind: "unknown" };
  const name = tok.kind === "ident" ? tok.text.toLowerCase() : "";
  if (name === "cast" || name === "try_cast") {
    const target = castTarget(toks, castAs(toks, match, k + 1, close) + 1, close);
    if (target?.kind === "decimal") {
      return { kind: "decimal", p: target.spec.precision, s: target.spec.scale };
    }
    if (target?.kind === "integer") return intType(target.type) ?? INT64;
    return { kind: target?.kind === "real" ? "float" : "unknown" };
  }
  if (name === "count") return INT64;
  const arg = exprType(t, k + 2, close);
  if (arg?.kind === "decimal") {
    const dec = decimalAggregateType(name, `Decimal(${arg.p}, ${arg.s})`);
    const spec = dec && decimalSpec(dec);
    if (spec) return { kind: "decimal", p: spec.precision, s: spec.scale };
  }
  if (arg?.kind === "int" && name === "sum") return INT64;
  // (the stored number of a UInt64's min or max is read as it is)
  if (arg?.kind === "int" && (name === "min" || name === "max")) return { kind: "int", p: arg.p };
  return { kind: "unknown" };
}

/** Parses `+ -` and `* / %` chains of operands from `k`, stopping before `limit`. */
class ChainParser {
  constructor(private readonly t: TypingCtx, private readonly limit: number) {}

  /** The expression starting at `k` and where it ends, or undefined when `k` starts no operand. */
  sum(k: number): [Node, number] | undefined {
    return this.level(k, ["+", "-"], (at) => this.product(at));
  }

  private product(k: number): [Node, number] | undefined {
    return this.level(k, ["*", "/", "%"], (at) => this.operand(at));
  }

  /** Left-associative operators of one precedence level over operands parsed by `next`. */
  private level(
    k: number,
    ops: string[],
    next: (k: number) => [Node, number] | undefined,
  ): [Node, number] | undefined {
    let left = next(k);
    while (left && this.opAt(left[1], ...ops)) {
      const right = next(left[1] + 1);
      if (!right) return undefined;
      const op = this.t.q.toks[left[1]].text;
      readsUInt64(left[0], right[0]);
      readsUInt64(right[0], left[0]);
      left = [
        { kind: "bin", op, l: left[0], r: right[0], type: combine(op, left[0].type, right[0].type) },
        right[1],
      ];
    }
    return left;
  }

  private opAt(k: number, ...ops: string[]): boolean {
    return k < this.limit && isOp(this.t.q.toks[k], ...ops);
  }

  private operand(s: number): [Node, number] | undefined {
    const { toks, match } = this.t.q;
    const e = this.t.q.primaryEnd(s);
    if (e === s || e > this.limit) return undefined;
    let k = s, neg = false;
    for (; isOp(toks[k], "-", "+"); k++) if (toks[k].text === "-") neg = !neg;
    if (isOp(toks[k], "(")) {
      const inner = new ChainParser(this.t, match[k]).sum(k + 1);
      const group = inner && inner[1] === match[k] ? inner[0] : undefined;
      return [{ kind: "leaf", s, e, neg, type: group?.type ?? { kind: "unknown" }, group }, e];
    }
    return [{ kind: "leaf", s, e, neg, type: operandType(this.t, k, e) }, e];
  }
}

/** DataFusion's common type of UInt64 and a signed integer (arrow-arith has no mixed kernel). */
const UINT64_WITH_SIGNED: NumType = { kind: "decimal", p: 20, s: 0 };

/**
 * Types a UInt64 column `n` meeting `other` (a signed integer or a decimal) as Decimal(20, 0), as
 * DataFusion coerces them, so that the column is read by its value (`u + 1` past 2^63).
 */
function readsUInt64(n: Node, other: Node): void {
  if (n.kind !== "leaf" || n.neg || n.group || n.type.kind !== "int" || !n.type.u64) return;
  const o = other.type;
  if ((o.kind === "int" && !o.u64) || o.kind === "decimal") n.type = UINT64_WITH_SIGNED;
}

/** Whether a node has a decimal operand (only then is it rewritten here). */
function hasDecimal(n: Node): boolean {
  if (n.kind === "bin") return hasDecimal(n.l) || hasDecimal(n.r);
  return n.type.kind === "decimal" || (n.group !== undefined && hasDecimal(n.group));
}

/** Whether the token before a chain leaves its first operand to it (no tighter operator binds it). */
function startsChain(t: TypingCtx, i: number): boolean {
  const prev = t.q.toks[i - 1];
  return !prev || prev.kind !== "op" || isOp(prev, "(", ",", ...CMP_OPS);
}

/** Whether the token after a chain ends it (no tighter operator takes its last operand). */
function endsChain(t: TypingCtx, e: number): boolean {
  const next = t.q.toks[e];
  if (!next) return true;
  if (next.kind === "ident") return !isKeyword(next, "COLLATE", "OVER", "FILTER", "AT", "IGNORE", "RESPECT");
  return isOp(next, ")", ",", ";", ...CMP_OPS);
}

/** The whole range `[s, e)` as one expression, or undefined when it is not one. */
function parseRange(t: TypingCtx, s: number, e: number): Node | undefined {
  const r = new ChainParser(t, e).sum(s);
  return r && r[1] === e ? r[0] : undefined;
}

/** The numeric type of the expression `[s, e)`, or undefined when it is no arithmetic expression. */
export function exprType(t: TypingCtx, s: number, e: number): NumType | undefined {
  return parseRange(t, s, e)?.type;
}

/** The output type of a select item that is arithmetic over decimals (Decimal or Float64). */
export function decimalExprHint(t: TypingCtx, s: number, e: number): DataType | undefined {
  const node = parseRange(t, s, e);
  if (!node || !hasDecimal(node)) return undefined;
  if (node.type.kind === "decimal") return `Decimal(${node.type.p}, ${node.type.s})`;
  return node.type.kind === "float" ? "Float64" : undefined;
}

/** Rendering of one expression: decimal nodes as unscaled integers, others as plain SQL values. */
class Renderer {
  constructor(private readonly c: RewriteCtx) {}

  /** SQL of a decimal- or integer-typed node as an unscaled integer at the node's scale. */
  scaled(n: Node): string {
    const type = n.type;
    if (n.kind === "leaf" && type.kind === "int" && this.c.toks[n.e - 1].kind === "number") {
      // an integer literal past 64 bits goes as its digits (SQLite would round it to a REAL)
      const digits = `${n.neg ? "-" : ""}${this.c.toks[n.e - 1].text}`;
      if (BigInt(digits) > INT64_MAX || BigInt(digits) < -INT64_MAX - 1n) return `'${digits}'`;
    }
    if (type.kind !== "decimal") return this.plain(n);
    if (n.kind === "bin") {
      const sl = scaleOf(n.l), sr = scaleOf(n.r);
      return `__petrel_decimal_arith('${n.op}', ${this.scaled(n.l)}, ${sl}, ${
        this.scaled(n.r)
      }, ${sr}, ${type.p}, ${type.s})`;
    }
    const x = n.group ? this.scaled(n.group) : this.leafScaled(n);
    return n.neg ? `__petrel_decimal_arith('-', 0, 0, ${x}, ${type.s}, ${type.p}, ${type.s})` : x;
  }

  /** SQL of a node as a plain SQL number (a decimal's REAL value). */
  plain(n: Node): string {
    if (n.type.kind === "decimal") return realOfScaled(this.scaled(n), n.type.s);
    if (n.kind === "bin") {
      const r = this.plain(n.r);
      // SQLite answers NULL for a division by zero; DataFusion fails the query
      return `(${this.plain(n.l)} ${n.op} ${n.op === "/" || n.op === "%" ? `__petrel_nonzero(${r})` : r})`;
    }
    if (n.group) return `${n.neg ? "-" : ""}(${this.plain(n.group)})`;
    return this.emitLeaf(n.s, n.e);
  }

  /** A decimal operand (column, cast or decimal aggregate) as its unscaled integer. */
  private leafScaled(n: Node & { kind: "leaf" }): string {
    const { c } = this;
    let k = n.s;
    while (isOp(c.toks[k], "-", "+")) k++;
    const col = decimalColumnAt(c, k, n.e);
    if (col) return col.raw;
    if (c.time.columnTypeAt(n.e - 1) === "UInt64" && !isOp(c.toks[k + 1], "(")) {
      // the value (its digits past 2^63, where the stored number is negative)
      const x = this.emitLeaf(k, n.e);
      return `CASE WHEN ${x} < 0 THEN ${u64Digits(x)} ELSE ${x} END`;
    }
    if (isOp(c.toks[k + 1], "(")) {
      const open = k + 1;
      const name = c.toks[k].text.toLowerCase();
      if (name === "cast" || name === "try_cast") {
        const spec = n.type.kind === "decimal" ? { precision: n.type.p, scale: n.type.s } : undefined;
        if (spec) return decimalCastScaled(c, open, c.q.match[open], spec, name === "try_cast");
      }
      const call = decimalCallScaled(c, k);
      if (call) return call.sql;
    }
    const { p, s } = n.type as { p: number; s: number };
    return `__petrel_to_decimal(${this.emitLeaf(k, n.e)}, NULL, ${p}, ${s})`;
  }

  /** A leaf through the ordinary rewrite (which must not start this rewrite at the same token). */
  private emitLeaf(s: number, e: number): string {
    const busy = busyStarts(this.c);
    busy.add(s);
    try {
      return this.c.emit(s, e).trim();
    } finally {
      busy.delete(s);
    }
  }
}

function scaleOf(n: Node): number {
  return n.type.kind === "decimal" ? n.type.s : 0;
}

const busyByCtx = new WeakMap<RewriteCtx, Set<number>>();
function busyStarts(c: RewriteCtx): Set<number> {
  let s = busyByCtx.get(c);
  if (!s) busyByCtx.set(c, s = new Set());
  return s;
}

const mentionsByCtx = new WeakMap<RewriteCtx, boolean>();
/**
 * Whether a query can hold a decimal at all (a decimal or UInt64 column in scope, which meets a
 * signed integer as Decimal(20, 0), or a decimal type word).
 */
function mentionsDecimals(c: RewriteCtx): boolean {
  let m = mentionsByCtx.get(c);
  if (m === undefined) {
    m = [...c.time.colTypes.values()].some((t) => isDecimalType(t) || t === "UInt64") ||
      c.toks.some((t) => t.kind === "ident" && isDecimalWord(t.text.toUpperCase()));
    mentionsByCtx.set(c, m);
  }
  return m;
}

/** The unscaled-integer SQL and type of `[s, e)` when it is a decimal-typed expression. */
export function decimalExprAt(
  c: RewriteCtx,
  s: number,
  e: number,
): { sql: string; spec: DecimalSpec } | undefined {
  if (!mentionsDecimals(c) || busyStarts(c).has(s)) return undefined;
  const node = parseRange({ q: c.q, columnTypeAt: c.time.columnTypeAt }, s, e);
  if (!node || node.type.kind !== "decimal") return undefined;
  return { sql: new Renderer(c).scaled(node), spec: { precision: node.type.p, scale: node.type.s } };
}

/** Whether a comparison of these operands is exact over unscaled integers. */
function exactComparable(l: NumType, r: NumType): boolean {
  const ok = (t: NumType) => t.kind === "decimal" || t.kind === "int";
  return ok(l) && ok(r) && (l.kind === "decimal" || r.kind === "decimal");
}

/** A plain (unsigned, 64-bit) decimal column or integer operand: SQLite compares it natively. */
function isNativeLeaf(c: RewriteCtx, n: Node): boolean {
  if (n.kind !== "leaf" || n.neg || n.group) return false;
  if (n.type.kind === "int") return true;
  return decimalColumnAt(c, n.s, n.e) !== undefined;
}

/**
 * The rewrite of an arithmetic expression over decimals (or a comparison of decimals) that starts
 * at token `i`: as unscaled integers where its value is an output column or a BY key, as a REAL
 * elsewhere; undefined when none starts there.
 */
export function decimalArithmetic(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const t: TypingCtx = { q: c.q, columnTypeAt: c.time.columnTypeAt };
  if (!mentionsDecimals(c) || busyStarts(c).has(i) || !startsChain(t, i)) return undefined;
  const first = c.q.primaryEnd(i);
  if (first === i) return undefined;
  const parsed = new ChainParser(t, c.toks.length).sum(i);
  if (!parsed) return undefined;
  const [left, end] = parsed;
  const r = new Renderer(c);
  if (isOp(c.toks[end], ...CMP_OPS)) {
    const right = new ChainParser(t, c.toks.length).sum(end + 1);
    if (
      right && endsChain(t, right[1]) && exactComparable(left.type, right[0].type) &&
      (hasDecimal(left) || hasDecimal(right[0]))
    ) {
      const op = c.toks[end].text, rn = right[0];
      const sl = scaleOf(left), sr = scaleOf(rn);
      if (isNativeLeaf(c, left) && isNativeLeaf(c, rn)) {
        // SQLite turns an overflowing product into a REAL past the 64-bit range: still ordered right
        const up = (x: string, by: number) => by > 0 ? `(${x} * ${10n ** BigInt(by)})` : x;
        const text = `${up(r.scaled(left), sr - sl)} ${op} ${up(r.scaled(rn), sl - sr)}`;
        return { text, next: right[1] };
      }
      return {
        text: `__petrel_decimal_cmp(${r.scaled(left)}, ${sl}, ${r.scaled(rn)}, ${sr}) ${op} 0`,
        next: right[1],
      };
    }
  }
  // a lone column or call is the token rewrite's; a lone group or signed operand is ours
  const lone = left.kind === "leaf" && !left.group && !left.neg;
  if (lone || !endsChain(t, end) || !hasDecimal(left)) return undefined;
  const keep = c.isOutputItem(i, end) || isByItem(c, i, end);
  return { text: keep && left.type.kind === "decimal" ? r.scaled(left) : r.plain(left), next: end };
}
