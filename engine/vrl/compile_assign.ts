/** Assignments: `target = value`, `target |= value`, `ok, err = value`, and the setters behind them. */

import type { Expr, PathNode, Span, Target } from "./ast.ts";
import { cloneIfShared, type CompilerApi, type Ctx, type Node, type State } from "./compile_state.ts";
import { VrlCompileError, VrlFailure } from "./diagnostic.ts";
import { fallibleAssignment, infallibleAssignment, unnecessaryNoop } from "./diagnostic_errors.ts";
import { BINARY, binaryType } from "./ops.ts";
import { setIn } from "./path.ts";
import { K, kindName, t, typeAt, type TypeDef, typeWith } from "./types.ts";
import { deepClone, type VrlValue } from "./value.ts";

// VRL rejects writing inside a value statically known to be neither a container of the right kind
// nor null (E642): `.a = "x"; .a.b = 1`.
function checkParents(root: TypeDef, tg: PathNode): void {
  let cur = root;
  for (let i = 0; i < tg.segs.length; i++) {
    const want = typeof tg.segs[i] === "string" ? K.OBJECT : K.ARRAY;
    if ((cur.kind & (want | K.NULL)) === 0) {
      throw new VrlCompileError(
        "E642",
        "parent path segment rejects this mutation",
        tg.start,
        tg.end,
        `this path segment is ${kindName(cur.kind)}, which can't hold a ${
          want === K.OBJECT ? "field" : "index"
        }`,
      );
    }
    cur = typeAt(root, tg.segs.slice(0, i + 1));
  }
}

/** Returns a setter for a target and updates the static state. */
export function targetSetter(
  cx: CompilerApi,
  tg: Target,
  type: TypeDef,
  st: State,
  constant?: { value: VrlValue },
): (c: Ctx, v: VrlValue) => void {
  if (tg.k === "noop") return () => {};
  const segs = tg.segs;
  if (segs.length > 0 && tg.root.kind !== "expr") checkParents(cx.rootType(tg, st), tg);
  if (tg.root.kind === "event") {
    st.event = typeWith(st.event, segs, type);
    if (segs.length === 0) return (c, v) => void (c.event = v);
    if (segs.length === 1 && typeof segs[0] === "string") {
      const k = segs[0];
      return (c, v) => {
        const e = c.event;
        if (e instanceof Map) e.set(k, v);
        else c.event = new Map([[k, v]]);
      };
    }
    return (c, v) => void (c.event = setIn(c.event, segs, v));
  }
  if (tg.root.kind === "meta") {
    st.meta = typeWith(st.meta, segs, type);
    return (c, v) => void (c.meta = setIn(c.meta, segs, v));
  }
  if (tg.root.kind === "expr") {
    throw new VrlCompileError("E203", "invalid assignment target", tg.start, tg.end);
  }
  const name = tg.root.name;
  const prev = st.vars.get(name);
  const slot = prev?.slot ?? cx.slotFor(name);
  // A variable assigned a constant whole keeps it, so later checks see through the variable.
  st.vars.set(name, {
    slot,
    type: typeWith(prev?.type ?? t(K.NULL), segs, type),
    constant: segs.length === 0 ? constant : undefined,
  });
  if (segs.length === 0) return (c, v) => void (c.vars[slot] = v);
  return (c, v) => void (c.vars[slot] = setIn(c.vars[slot] ?? null, segs, v));
}

/** `target = value` and `target |= value`. */
export function compileAssign(
  cx: CompilerApi,
  tg: Target,
  op: "=" | "|=",
  valueExpr: Expr,
  e: Span,
  st: State,
): Node {
  const value = cx.expr(valueExpr, st);
  if (value.fallible) {
    throw fallibleAssignment(tg, valueExpr);
  }
  // VRL: a single-target assignment to `_` is useless.
  if (tg.k === "noop" && op === "=") throw unnecessaryNoop(tg, valueExpr, e);
  const vr = cloneIfShared(value);
  if (op === "|=") {
    if (tg.k === "noop") throw new VrlCompileError("E203", "can't merge into `_`", e.start, e.end);
    const cur = cx.pathRead(tg, st);
    const bt = binaryType("|", cur.type, value.type);
    if (bt.fallible) {
      // The merge itself can fail (a side may not be an object): VRL reports it as the value's.
      throw fallibleAssignment(tg, valueExpr);
    }
    const curRun = cur.run;
    const set = targetSetter(cx, tg, t(K.OBJECT), st);
    const mergeFn = BINARY["|"];
    return {
      run: (c) => {
        const v = mergeFn(curRun(c), vr(c));
        set(c, v);
        return v;
      },
      type: t(K.OBJECT),
      fallible: false,
      fresh: false,
    };
  }
  const set = targetSetter(cx, tg, value.type, st, value.constant);
  return {
    run: (c) => {
      const v = vr(c);
      set(c, v);
      return v;
    },
    type: value.type,
    fallible: false,
    fresh: false,
  };
}

/** `ok, err = value`. */
export function compileAssign2(
  cx: CompilerApi,
  okT: Target,
  errT: Target,
  valueExpr: Expr,
  e: Span,
  st: State,
): Node {
  const value = cx.expr(valueExpr, st);
  if (!value.fallible) {
    throw infallibleAssignment(okT, errT, valueExpr);
  }
  cx.firstFallible = undefined;
  const vr = cloneIfShared(value);
  const dflt = defaultFor(value.type);
  const okSet = targetSetter(cx, okT, value.type, st);
  const errSet = targetSetter(cx, errT, t(K.BYTES | K.NULL), st);
  void e;
  return {
    run: (c) => {
      let v: VrlValue;
      try {
        v = vr(c);
      } catch (x) {
        if (!(x instanceof VrlFailure)) throw x;
        okSet(c, deepClone(dflt));
        errSet(c, x.message);
        return deepClone(dflt);
      }
      okSet(c, v);
      errSet(c, null);
      return v;
    },
    type: value.type,
    fallible: false,
    fresh: false,
  };
}

function defaultFor(td: TypeDef): VrlValue {
  switch (td.kind) {
    case K.BYTES:
      return "";
    case K.INTEGER:
      return 0n;
    case K.FLOAT:
      return 0;
    case K.BOOLEAN:
      return false;
    case K.OBJECT:
      return new Map();
    case K.ARRAY:
      return [];
  }
  return null;
}
