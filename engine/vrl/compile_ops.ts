/** Operators: `!`, unary `-`, binary operators including `??`, `&&`, `||`, and `abort`. */

import type { Expr, Span } from "./ast.ts";
import type { CompilerApi, Node, State } from "./compile_state.ts";
import { VrlCompileError, VrlFailure, VrlRuntimeError } from "./diagnostic.ts";
import {
  fallibleAbortMessage,
  mergeNonObjects,
  nonBooleanNegation,
  nonStringAbortMessage,
} from "./diagnostic_errors.ts";
import { BINARY, binaryType } from "./ops.ts";
import { isSubset, K, kindName, t, union } from "./types.ts";
import { deepClone, kindOf } from "./value.ts";

type Unary = Extract<Expr, { k: "not" | "neg" }>;
type Abort = Extract<Expr, { k: "abort" }>;

/** `!x` and `-x`. */
export function compileUnary(cx: CompilerApi, e: Unary, st: State): Node {
  if (e.k === "not") {
    const x = cx.expr(e.expr, st);
    if ((x.type.kind & K.BOOLEAN) === 0) {
      throw nonBooleanNegation({ start: e.start, end: e.start + 1 }, e.expr, kindName(x.type.kind));
    }
    const r = x.run;
    return {
      run: (c) => {
        const v = r(c);
        if (typeof v !== "boolean") throw new VrlFailure(`expected boolean, got ${kindOf(v)}`);
        return !v;
      },
      type: t(K.BOOLEAN),
      fallible: x.fallible || !isSubset(x.type, K.BOOLEAN),
      fresh: true,
    };
  }
  {
    const x = cx.expr(e.expr, st);
    const r = x.run;
    return {
      run: (c) => {
        const v = r(c);
        if (typeof v === "bigint") return BigInt.asIntN(64, -v);
        if (typeof v === "number") return -v;
        throw new VrlFailure(`can't negate type ${kindOf(v)}`);
      },
      type: t(x.type.kind & K.NUMBER || K.NUMBER),
      fallible: x.fallible || !isSubset(x.type, K.NUMBER),
      fresh: true,
    };
  }
}

/** VRL's E651 (`op::Error::UnnecessaryCoalesce`): `a ?? b` where `a` cannot fail. */
function unnecessaryCoalesce(lE: Span, rE: Span, opStart: number): VrlCompileError {
  return new VrlCompileError("E651", "unnecessary error coalescing operation", lE.start, lE.end, "", {
    labels: [
      { start: lE.start, end: lE.end, message: "this expression can't fail", primary: true },
      { start: rE.start, end: rE.end, message: "this expression never resolves", primary: false },
      { start: opStart, end: opStart + 2, message: "remove this error coalescing operation", primary: false },
    ],
  });
}

/** `abort` with an optional message. */
export function compileAbort(cx: CompilerApi, e: Abort, st: State): Node {
  const m = e.message ? cx.expr(e.message, st) : undefined;
  // VRL checks that the message can't fail before its type.
  if (m?.fallible) throw fallibleAbortMessage(e.message!);
  if (m && !isSubset(m.type, K.BYTES)) throw nonStringAbortMessage(e.message!, kindName(m.type.kind));
  const mr = m?.run;
  return {
    run: (c) => {
      throw new VrlRuntimeError(mr ? String(mr(c)) : "aborted");
    },
    type: t(0),
    fallible: m?.fallible ?? false,
    fresh: true,
  };
}

/** A binary operation. */
export function compileBinary(
  cx: CompilerApi,
  op: string,
  lE: Expr,
  rE: Expr,
  e: Span,
  st: State,
  opStart = lE.end + 1,
): Node {
  const l = cx.expr(lE, st);
  if (op === "??") {
    if (!l.fallible) throw unnecessaryCoalesce(lE, rE, opStart);
    cx.firstFallible = undefined;
    const r = cx.expr(rE, st);
    const lr = l.run, rr = r.run;
    return {
      run: (c) => {
        try {
          return lr(c);
        } catch (x) {
          if (x instanceof VrlFailure) return rr(c);
          throw x;
        }
      },
      type: union(l.type, r.type),
      fallible: r.fallible,
      fresh: l.fresh && r.fresh,
    };
  }
  const r = cx.expr(rE, st);
  if (op === "|" && ((l.type.kind & K.OBJECT) === 0 || (r.type.kind & K.OBJECT) === 0)) {
    throw mergeNonObjects([lE, rE].filter((_, i) => ([l, r][i].type.kind & K.OBJECT) === 0));
  }
  const bt = binaryType(op, l.type, r.type, r.constant?.value);
  const fallible = l.fallible || r.fallible || bt.fallible;
  const lr = l.run, rr = r.run;
  if (op === "&&") {
    return {
      run: (c) => {
        const a = lr(c);
        if (a === null || a === false) return false;
        if (a !== true) {
          throw new VrlFailure(`can't apply an AND with types ${kindOf(a)} and ${kindOf(rr(c))}`);
        }
        const b = rr(c);
        if (b === null) return false;
        if (typeof b !== "boolean") {
          throw new VrlFailure(`can't apply an AND with types boolean and ${kindOf(b)}`);
        }
        return b;
      },
      type: bt.type,
      fallible,
      fresh: true,
    };
  }
  if (op === "||") {
    return {
      run: (c) => {
        const a = lr(c);
        return a === null || a === false ? rr(c) : a;
      },
      type: bt.type,
      fallible,
      fresh: l.fresh && r.fresh,
    };
  }
  const f = BINARY[op];
  if (!f) throw new VrlCompileError("E203", `unknown operator ${op}`, e.start, e.end);
  if (l.constant && r.constant && !fallible) {
    const value = f(l.constant.value, r.constant.value);
    // A folded container is copied per run: the result may be stored and changed in place.
    const run = value instanceof Map || Array.isArray(value) ? () => deepClone(value) : () => value;
    return { run, type: bt.type, fallible: false, fresh: true, constant: { value } };
  }
  return { run: (c) => f(lr(c), rr(c)), type: bt.type, fallible, fresh: true };
}
