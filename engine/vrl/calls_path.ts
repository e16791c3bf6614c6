/** The path-taking call forms `del`, `exists` and `unnest`: their first argument is a path, not a value. */

import type { Expr, PathNode, Segment } from "./ast.ts";
import type { CompilerApi, Node, Run, State } from "./compile_state.ts";
import { abortInfallible, VrlCompileError, VrlFailure, VrlRuntimeError } from "./diagnostic.ts";
import { getIn, hasIn, removeIn, setIn } from "./path.ts";
import { isSubset, K, t, typeAt, typeWithout } from "./types.ts";
import { deepClone, kindOf } from "./value.ts";

type CallExpr = Extract<Expr, { k: "call" }>;

function pathArg(e: CallExpr, name: string): PathNode {
  const a = e.args[0];
  if (!a || a.expr.k !== "path") {
    throw new VrlCompileError(
      "E110",
      "invalid argument type",
      e.start,
      e.end,
      `"${name}" needs a path argument`,
    );
  }
  return a.expr;
}

/** `del(path)`. */
export function compileDel(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.bang) {
    throw abortInfallible({ start: e.nameSpan.start, end: e.nameSpan.end - 1 }, e.nameSpan.end - 1);
  }
  const p = pathArg(e, "del");
  const type = typeAt(cx.rootType(p, st), p.segs);
  const compactArg = e.args.find((a, i) => a.name === "compact" || (i === 1 && !a.name));
  const compactN = compactArg ? cx.expr(compactArg.expr, st) : undefined;
  const cr = compactN?.run;
  const segs: Segment[] = p.segs;
  let run: Run;
  if (p.root.kind === "var") {
    const slot = st.vars.get(p.root.name)!.slot;
    run = segs.length === 0
      ? (c) => {
        const v = c.vars[slot];
        c.vars[slot] = null;
        return v;
      }
      : (c) => removeIn(c.vars[slot], segs, cr?.(c) === true);
    const before = st.vars.get(p.root.name)!.type;
    st.vars.set(p.root.name, { slot, type: segs.length ? typeWithout(before, segs) : t(K.NULL) });
  } else {
    const isMeta = p.root.kind === "meta";
    run = segs.length === 0
      ? (c) => {
        const v = isMeta ? c.meta : c.event;
        if (isMeta) c.meta = new Map();
        else c.event = new Map();
        return v;
      }
      : isMeta
      ? (c) => removeIn(c.meta, segs, cr?.(c) === true)
      : (c) => removeIn(c.event, segs, cr?.(c) === true);
    if (segs.length === 0) {
      if (isMeta) st.meta = { kind: K.OBJECT, fields: new Map(), exact: true };
      else st.event = { kind: K.OBJECT, fields: new Map(), exact: true };
    } else if (isMeta) st.meta = typeWithout(st.meta, segs);
    else st.event = typeWithout(st.event, segs);
  }
  return { run, type, fallible: compactN?.fallible ?? false, fresh: true };
}

/** `unnest(path)`: one copy of the path's root per element of the array at the path. */
export function compileUnnest(cx: CompilerApi, e: CallExpr, st: State): Node {
  const p = pathArg(e, "unnest");
  if (p.segs.length === 0) {
    throw new VrlCompileError(
      "E110",
      "invalid argument type",
      e.start,
      e.end,
      "unnest needs a path into an array",
    );
  }
  const at = typeAt(cx.rootType(p, st), p.segs);
  const fallible = !isSubset(at, K.ARRAY);
  if (e.bang && !fallible) {
    throw abortInfallible({ start: e.nameSpan.start, end: e.nameSpan.end - 1 }, e.nameSpan.end - 1);
  }
  const root = cx.rootGetter(p, st);
  const segs = p.segs;
  const where = `function call error for "unnest" at (${e.start}:${e.end}): `;
  const bang = e.bang;
  return {
    run: (c) => {
      const r = root(c);
      const arr = getIn(r, segs);
      if (!Array.isArray(arr)) {
        const msg = where + `expected array, got ${kindOf(arr)}`;
        throw bang ? new VrlRuntimeError(msg) : new VrlFailure(msg);
      }
      return arr.map((x) => setIn(deepClone(r), segs, deepClone(x)));
    },
    type: t(K.ARRAY),
    fallible: fallible && !bang,
    fresh: true,
  };
}

/** `exists(path)`. */
export function compileExists(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.bang) {
    throw abortInfallible({ start: e.nameSpan.start, end: e.nameSpan.end - 1 }, e.nameSpan.end - 1);
  }
  const p = pathArg(e, "exists");
  const segs = p.segs;
  if (p.root.kind === "var" && !st.vars.has(p.root.name)) {
    return { run: () => false, type: t(K.BOOLEAN), fallible: false, fresh: true };
  }
  const root = cx.rootGetter(p, st);
  return { run: (c) => hasIn(root(c), segs), type: t(K.BOOLEAN), fallible: false, fresh: true };
}
