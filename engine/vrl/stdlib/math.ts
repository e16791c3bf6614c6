/** Numeric functions. */

import { K, t } from "../types.ts";
import type { VrlValue } from "../value.ts";
import { type ArgInfo, fail, type FnDef, num, opt, req } from "./def.ts";
import { unlessConstant } from "./def.ts";

const N = K.NUMBER;

/** Rust's `f64::round`: half away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function rounding(f: (x: number) => number): FnDef {
  return {
    params: [req("value", N), opt("precision", K.INTEGER)],
    returns: (a: (ArgInfo | undefined)[]) => t(a[0] ? a[0].type.kind & N : N),
    call: ([v, p]) => {
      if (typeof v === "bigint") return v;
      const x = v as number;
      const prec = num(p, 0);
      if (prec <= 0) return f(x);
      const m = 10 ** prec;
      return f(x * m) / m;
    },
  };
}

/** Math functions by name. */
export const MATH_FNS: Record<string, FnDef> = {
  abs: {
    params: [req("value", N)],
    returns: (a) => t(a[0] ? a[0].type.kind & N : N),
    call: ([v]) => (typeof v === "bigint" ? (v < 0n ? BigInt.asIntN(64, -v) : v) : Math.abs(v as number)),
  },
  ceil: rounding(Math.ceil),
  floor: rounding(Math.floor),
  round: rounding(roundHalfAway),
  mod: {
    params: [req("value", N), req("modulus", N)],
    returns: (a) => t(a[0]?.type.kind === K.INTEGER && a[1]?.type.kind === K.INTEGER ? K.INTEGER : N),
    fallibleFor: unlessConstant(1, (m) => m !== 0n && m !== 0),
    call: ([v, m]) => {
      if (typeof v === "bigint" && typeof m === "bigint") {
        if (m === 0n) return fail("can't calculate remainder by zero");
        return v % m;
      }
      if (Number(m) === 0) return fail("can't calculate remainder by zero");
      return Number(v) % Number(m);
    },
  },
  random_int: {
    params: [req("min", K.INTEGER), req("max", K.INTEGER)],
    returns: K.INTEGER,
    fallibleFor: (a) =>
      !(a[0]?.constant && a[1]?.constant &&
        (a[0].constant.value as bigint) < (a[1].constant.value as bigint)),
    call: ([lo, hi]) => {
      const a = lo as bigint, b = hi as bigint;
      if (a >= b) return fail("max must be greater than min");
      return a + BigInt(Math.floor(Math.random() * Number(b - a)));
    },
  },
  random_float: {
    params: [req("min", K.FLOAT), req("max", K.FLOAT)],
    returns: K.FLOAT,
    fallibleFor: (a) =>
      !(a[0]?.constant && a[1]?.constant &&
        (a[0].constant.value as number) < (a[1].constant.value as number)),
    call: ([lo, hi]) => {
      const a = lo as number, b = hi as number;
      if (a >= b) return fail("max must be greater than min");
      return a + Math.random() * (b - a);
    },
  },
  random_bool: { params: [], returns: K.BOOLEAN, call: (): VrlValue => Math.random() < 0.5 },
};
