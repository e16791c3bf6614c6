/**
 * Exact decimal arithmetic behind the rewrite of decimal expressions (rewrite/decimal_arith.ts):
 * operands arrive as unscaled integers (SQLite integers, or digit text past 64 bits) with their
 * scales, and results go back the same way, at the scale the rewriter computed with arrow's rules.
 */
import { formatScaled, MAX_DECIMAL_PRECISION, scaledFromSql, scaledToSql } from "../../common/decimal.ts";
import type { AggDef, Arg, ScalarDef } from "./values.ts";

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** An unscaled operand, or null for NULL; a REAL here is a rewrite bug, not a user's value. */
function operand(v: Arg): bigint | null {
  if (v === null) return null;
  const n = scaledFromSql(v);
  if (n === null) throw new Error(`Expected a decimal operand, got ${String(v)}`);
  return n;
}

/** `a op b` of unscaled integers at scales `sa`, `sb`, as arrow's decimal kernels compute it at scale `s`. */
export function decimalArith(op: string, a: bigint, sa: number, b: bigint, sb: number, s: number): bigint {
  switch (op) {
    case "+":
      return a * pow10(s - sa) + b * pow10(s - sb);
    case "-":
      return a * pow10(s - sa) - b * pow10(s - sb);
    case "*":
      return a * b * pow10(s - sa - sb);
    case "/": {
      if (b === 0n) throw new Error("Divide by zero error");
      // arrow: l * 10^(s - s1 + s2) / r, truncated toward zero
      const mulPow = s - sa + sb;
      return mulPow >= 0 ? (a * pow10(mulPow)) / b : a / (b * pow10(-mulPow));
    }
    case "%": {
      if (b === 0n) throw new Error("Divide by zero error");
      return (a * pow10(s - sa)) % (b * pow10(s - sb));
    }
    default:
      throw new Error(`Unknown decimal operator ${op}`);
  }
}

const HALF = 2n ** 32n;

/** The sum SQLite computed in two halves, `sum(x >> 32)` and `sum(x & 0xFFFFFFFF)`, or null. */
function joinHalves(hi: Arg, lo: Arg): bigint | null {
  const h = operand(hi), l = operand(lo);
  return h === null || l === null ? null : h * HALF + l;
}

/** Scalar decimal functions by name. */
export const DECIMAL_SCALARS: Record<string, ScalarDef> = {
  // a decimal column's sum, exact past 64 bits: each half's sum fits 64 bits for 2^31 rows
  __petrel_decimal_join: {
    bigint: true,
    fn: (hi, lo) => {
      const sum = joinHalves(hi, lo);
      return sum === null ? null : scaledToSql(sum);
    },
  },
  // a decimal column's avg from its halved sum and count, at scale + 4 (as __petrel_decimal_avg)
  __petrel_decimal_mean: {
    bigint: true,
    fn: (hi, lo, n, scale) => {
      const sum = joinHalves(hi, lo), count = operand(n);
      if (sum === null || !count) return null;
      const sc = Number(scale);
      return scaledToSql((sum * pow10(Math.min(sc + 4, MAX_DECIMAL_PRECISION) - sc)) / count);
    },
  },
  // (op, a, scale a, b, scale b, result precision, result scale)
  __petrel_decimal_arith: {
    bigint: true,
    fn: (op, av, sav, bv, sbv, pv, sv) => {
      const a = operand(av), b = operand(bv);
      if (a === null || b === null) return null;
      const sa = Number(sav), sb = Number(sbv), p = Number(pv), s = Number(sv);
      const r = decimalArith(String(op), a, sa, b, sb, s);
      if (r >= pow10(p) || r <= -pow10(p)) {
        throw new Error(
          `Arithmetic overflow: ${formatScaled(a, sa)} ${op} ${formatScaled(b, sb)} does not fit ` +
            `Decimal128(${p}, ${s}) (at most ${MAX_DECIMAL_PRECISION} digits)`,
        );
      }
      return scaledToSql(r);
    },
  },
  // (a, scale a, b, scale b) → -1, 0 or 1: the comparison of two decimals of any scales
  __petrel_decimal_cmp: {
    bigint: true,
    fn: (av, sav, bv, sbv) => {
      const a = operand(av), b = operand(bv);
      if (a === null || b === null) return null;
      const sa = Number(sav), sb = Number(sbv), s = Math.max(sa, sb);
      const d = a * pow10(s - sa) - b * pow10(s - sb);
      return d < 0n ? -1n : d > 0n ? 1n : 0n;
    },
  },
};

interface DecimalAcc {
  sum: bigint;
  n: bigint;
}

const accStep = (acc: unknown, v: Arg): DecimalAcc => {
  const a = acc as DecimalAcc, x = operand(v);
  if (x !== null) {
    a.sum += x;
    a.n++;
  }
  return a;
};

/** Aggregate decimal functions by name. */
export const DECIMAL_AGGREGATES: Record<string, AggDef> = {
  // DataFusion's decimal sum: exact, failing past the result's precision (arg: the result precision)
  __petrel_decimal_sum: {
    bigint: true,
    start: () => ({ sum: 0n, n: 0n, p: MAX_DECIMAL_PRECISION }),
    step: (acc, v, p) => {
      (acc as { p: number }).p = Number(p);
      return accStep(acc, v);
    },
    result: (acc) => {
      const a = acc as DecimalAcc & { p: number };
      if (a.n === 0n) return null;
      if (a.sum >= pow10(a.p) || a.sum <= -pow10(a.p)) {
        throw new Error(`Arithmetic overflow: a decimal sum needs more than ${a.p} digits`);
      }
      return scaledToSql(a.sum);
    },
  },
  // DataFusion's decimal avg: the sum at scale + 4 divided by the count, truncated toward zero
  __petrel_decimal_avg: {
    bigint: true,
    start: () => ({ sum: 0n, n: 0n, scale: 0 }),
    step: (acc, v, scale) => {
      (acc as { scale: number }).scale = Number(scale);
      return accStep(acc, v);
    },
    result: (acc) => {
      const a = acc as DecimalAcc & { scale: number };
      const up = pow10(Math.min(a.scale + 4, MAX_DECIMAL_PRECISION) - a.scale);
      return a.n === 0n ? null : scaledToSql((a.sum * up) / a.n);
    },
  },
  // DataFusion's decimal median answers the input's type: the middle value, or the two middle ones
  // added and halved as unscaled integers (truncated toward zero)
  __petrel_decimal_median: {
    bigint: true,
    start: () => [] as bigint[],
    step: (acc, v) => {
      const x = operand(v);
      if (x !== null) (acc as bigint[]).push(x);
      return acc;
    },
    // a window frame drops its rows in the order it added them (NULLs were never added)
    inverse: (acc, v) => {
      if (v !== null) (acc as bigint[]).shift();
      return acc;
    },
    result: (acc) => {
      const sorted = [...(acc as bigint[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const n = sorted.length, hi = sorted[n >> 1];
      if (n === 0) return null;
      return scaledToSql(n % 2 === 1 ? hi : (sorted[(n >> 1) - 1] + hi) / 2n);
    },
  },
};
