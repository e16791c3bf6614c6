/** VRL's operators: runtime semantics and the static rules that decide result kind and fallibility. */

import { VrlFailure } from "./diagnostic.ts";
import { K, t, type TypeDef, union } from "./types.ts";
import { compareBytes, i64, kindOf, vrlEquals, VrlTimestamp, type VrlValue } from "./value.ts";

type Binary = (a: VrlValue, b: VrlValue) => VrlValue;

const err = (m: string): never => {
  throw new VrlFailure(m);
};

// VRL floats are never NaN: an operation that would produce one fails instead.
function notNan(x: number, op: string): number {
  return Number.isNaN(x) ? err(`can't ${op}: the result is NaN`) : x;
}

function add(a: VrlValue, b: VrlValue): VrlValue {
  const ta = typeof a, tb = typeof b;
  if (ta === "bigint" && tb === "bigint") return i64((a as bigint) + (b as bigint));
  if (ta === "string" && tb === "string") return (a as string) + (b as string);
  if ((ta === "number" || ta === "bigint") && (tb === "number" || tb === "bigint")) {
    return notNan(Number(a) + Number(b), "add");
  }
  if (ta === "string" && b === null) return a;
  if (a === null && tb === "string") return b;
  return err(`can't add type ${kindOf(b)} to ${kindOf(a)}`);
}

function sub(a: VrlValue, b: VrlValue): VrlValue {
  if (typeof a === "bigint" && typeof b === "bigint") return i64(a - b);
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    return notNan(Number(a) - Number(b), "subtract");
  }
  return err(`can't subtract type ${kindOf(b)} from ${kindOf(a)}`);
}

function mul(a: VrlValue, b: VrlValue): VrlValue {
  if (typeof a === "bigint" && typeof b === "bigint") return i64(a * b);
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    return notNan(Number(a) * Number(b), "multiply");
  }
  // A string times an integer repeats it; a negative count gives the empty string.
  if (typeof a === "string" && typeof b === "bigint") return b > 0n ? a.repeat(Number(b)) : "";
  if (typeof b === "string" && typeof a === "bigint") return a > 0n ? b.repeat(Number(a)) : "";
  return err(`can't multiply type ${kindOf(a)} by ${kindOf(b)}`);
}

function div(a: VrlValue, b: VrlValue): VrlValue {
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    const d = Number(b);
    if (d === 0) return err("can't divide by zero");
    return notNan(Number(a) / d, "divide");
  }
  return err(`can't divide type ${kindOf(a)} by ${kindOf(b)}`);
}

function rem(a: VrlValue, b: VrlValue): VrlValue {
  if (typeof a === "bigint" && typeof b === "bigint") {
    if (b === 0n) return err("can't calculate remainder by zero");
    return a % b;
  }
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    if (Number(b) === 0) return err("can't calculate remainder by zero");
    return Number(a) % Number(b);
  }
  return err(`can't calculate remainder of type ${kindOf(a)} and ${kindOf(b)}`);
}

function compare(a: VrlValue, b: VrlValue, op: string): number {
  const na = typeof a === "number" || typeof a === "bigint";
  const nb = typeof b === "number" || typeof b === "bigint";
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (na && nb) {
    const x = Number(a), y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === "string" && typeof b === "string") return compareBytes(a, b);
  if (a instanceof VrlTimestamp && b instanceof VrlTimestamp) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  return err(`can't compare ${kindOf(a)} ${op} ${kindOf(b)}`);
}

function merge(a: VrlValue, b: VrlValue): VrlValue {
  if (a instanceof Map && b instanceof Map) {
    const out = new Map(a);
    for (const [k, v] of b) out.set(k, v);
    return out;
  }
  return err(`can't merge type ${kindOf(b)} into ${kindOf(a)}`);
}

/** Runtime implementations of the strict binary operators (`&&`, `||`, `??` are compiled specially). */
export const BINARY: Record<string, Binary> = {
  "+": add,
  "-": sub,
  "*": mul,
  "/": div,
  "%": rem,
  "<": (a, b) => compare(a, b, "<") < 0,
  "<=": (a, b) => compare(a, b, "<=") <= 0,
  ">": (a, b) => compare(a, b, ">") > 0,
  ">=": (a, b) => compare(a, b, ">=") >= 0,
  "==": (a, b) => vrlEquals(a, b),
  "!=": (a, b) => !vrlEquals(a, b),
  "|": merge,
};

const only = (td: TypeDef, kinds: number) => td.kind !== 0 && (td.kind & ~kinds) === 0;

/** Static result type and fallibility of a binary operator given operand types (`rConst` = literal right side). */
export function binaryType(
  op: string,
  l: TypeDef,
  r: TypeDef,
  rConst?: VrlValue,
): { type: TypeDef; fallible: boolean } {
  switch (op) {
    case "+": {
      if (only(l, K.INTEGER) && only(r, K.INTEGER)) return { type: t(K.INTEGER), fallible: false };
      if (only(l, K.NUMBER) && only(r, K.NUMBER)) return { type: t(K.FLOAT), fallible: false };
      if (only(l, K.BYTES | K.NULL) && only(r, K.BYTES | K.NULL) && (only(l, K.BYTES) || only(r, K.BYTES))) {
        return { type: t(K.BYTES), fallible: false };
      }
      return { type: t(K.INTEGER | K.FLOAT | K.BYTES), fallible: true };
    }
    case "-":
      if (only(l, K.INTEGER) && only(r, K.INTEGER)) return { type: t(K.INTEGER), fallible: false };
      if (only(l, K.NUMBER) && only(r, K.NUMBER)) return { type: t(K.FLOAT), fallible: false };
      return { type: t(K.NUMBER), fallible: true };
    case "*":
      if (only(l, K.INTEGER) && only(r, K.INTEGER)) return { type: t(K.INTEGER), fallible: false };
      if (only(l, K.NUMBER) && only(r, K.NUMBER)) return { type: t(K.FLOAT), fallible: false };
      if ((only(l, K.BYTES) && only(r, K.INTEGER)) || (only(l, K.INTEGER) && only(r, K.BYTES))) {
        return { type: t(K.BYTES), fallible: false };
      }
      return { type: t(K.NUMBER | K.BYTES), fallible: true };
    case "/": {
      const nonZeroConst = (typeof rConst === "bigint" && rConst !== 0n) ||
        (typeof rConst === "number" && rConst !== 0);
      return { type: t(K.FLOAT), fallible: !(only(l, K.NUMBER) && only(r, K.NUMBER) && nonZeroConst) };
    }
    case "%": {
      const nonZeroConst = (typeof rConst === "bigint" && rConst !== 0n) ||
        (typeof rConst === "number" && rConst !== 0);
      const kind = only(l, K.INTEGER) && only(r, K.INTEGER)
        ? K.INTEGER
        : only(l, K.NUMBER)
        ? K.FLOAT
        : K.NUMBER;
      return { type: t(kind), fallible: !(only(l, K.NUMBER) && only(r, K.NUMBER) && nonZeroConst) };
    }
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const ok = (only(l, K.NUMBER) && only(r, K.NUMBER)) || (only(l, K.BYTES) && only(r, K.BYTES)) ||
        (only(l, K.TIMESTAMP) && only(r, K.TIMESTAMP));
      return { type: t(K.BOOLEAN), fallible: !ok };
    }
    case "==":
    case "!=":
      return { type: t(K.BOOLEAN), fallible: false };
    case "&&":
      return { type: t(K.BOOLEAN), fallible: !(only(l, K.BOOLEAN | K.NULL) && only(r, K.BOOLEAN | K.NULL)) };
    case "||":
      return { type: union(l, r), fallible: false };
    case "|":
      return { type: t(K.OBJECT), fallible: !(only(l, K.OBJECT) && only(r, K.OBJECT)) };
  }
  return { type: t(K.ANY), fallible: true };
}
