/**
 * Checker and code generator in one pass: each syntax node becomes a closure plus its static type and
 * fallibility, so a program is type-checked once and then runs without walking the tree.
 */

import type { Expr, PathNode, Span, Target } from "./ast.ts";
import { compileCall } from "./calls.ts";
import { cloneIfShared, type CompilerApi, type Ctx, type Node, type Run, State } from "./compile_state.ts";
import { VrlCompileError, VrlFailure, VrlRuntimeError } from "./diagnostic.ts";
import { BINARY, binaryType } from "./ops.ts";
import { getIn, setIn } from "./path.ts";
import type { FnDef } from "./stdlib/def.ts";
import {
  ANY,
  isSubset,
  K,
  kindName,
  t,
  typeAt,
  type TypeDef,
  typeOfValue,
  typeWith,
  union,
} from "./types.ts";
import { deepClone, displayString, kindOf, type VrlValue } from "./value.ts";

/** Result of compiling a program. */
export interface CompiledProgram {
  run: Run;
  slots: number;
  type: TypeDef;
}

/** Compiles a parsed program against a function table. */
export function compileProgram(body: Expr[], fns: Record<string, FnDef>): CompiledProgram {
  const c = new Compiler(fns);
  const state = new State({ kind: K.OBJECT }, { kind: K.OBJECT }, new Map());
  const node = c.block(body, state);
  return { run: node.run, slots: c.slots, type: node.type };
}

class Compiler implements CompilerApi {
  slots = 0;
  private slotByName = new Map<string, number>();
  constructor(readonly fns: Record<string, FnDef>) {}

  newSlot(): number {
    return this.slots++;
  }

  private slotFor(name: string): number {
    let s = this.slotByName.get(name);
    if (s === undefined) {
      s = this.slots++;
      this.slotByName.set(name, s);
    }
    return s;
  }

  block(body: Expr[], st: State): Node {
    if (body.length === 0) return { run: () => null, type: t(K.NULL), fallible: false, fresh: true };
    const nodes = body.map((e) => this.statement(e, st));
    const last = nodes[nodes.length - 1];
    const runs = nodes.map((n) => n.run);
    let run: Run;
    if (runs.length === 1) run = runs[0];
    else if (runs.length === 2) {
      const [a, b] = runs;
      run = (c) => (a(c), b(c));
    } else {
      run = (c) => {
        const n = runs.length - 1;
        for (let i = 0; i < n; i++) runs[i](c);
        return runs[n](c);
      };
    }
    return { run, type: last.type, fallible: false, fresh: last.fresh };
  }

  private statement(e: Expr, st: State): Node {
    const n = this.expr(e, st);
    if (n.fallible) {
      throw new VrlCompileError(
        "E100",
        "unhandled error",
        e.start,
        e.end,
        "expression can result in runtime error",
      );
    }
    return n;
  }

  expr(e: Expr, st: State): Node {
    switch (e.k) {
      case "lit": {
        const value = e.value;
        return {
          run: () => value,
          type: typeOfValue(value),
          fallible: false,
          fresh: true,
          constant: { value },
        };
      }
      case "template":
        return this.template(e.parts, st);
      case "array":
        return this.arrayLit(e.items, st);
      case "object":
        return this.objectLit(e.entries, st);
      case "path":
        return this.pathRead(e, st);
      case "assign":
        return this.assign(e.target, e.op, e.value, e, st);
      case "assign2":
        return this.assign2(e.ok, e.err, e.value, e, st);
      case "call":
        return compileCall(this, e, st);
      case "if":
        return this.ifExpr(e.cond, e.then, e.else, st);
      case "block": {
        const n = this.block(e.body, st);
        return n;
      }
      case "not": {
        const x = this.expr(e.expr, st);
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
      case "neg": {
        const x = this.expr(e.expr, st);
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
      case "binary":
        return this.binary(e.op, e.l, e.r, e, st);
      case "abort": {
        const m = e.message ? this.expr(e.message, st) : undefined;
        if (m && !isSubset(m.type, K.BYTES)) {
          throw new VrlCompileError(
            "E110",
            "invalid argument type",
            e.message!.start,
            e.message!.end,
            "abort message must be a string",
          );
        }
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
      case "return":
        throw new VrlCompileError("E203", "return is not supported", e.start, e.end);
    }
  }

  private template(parts: (string | Expr)[], st: State): Node {
    let fallible = false;
    const runs: (string | Run)[] = parts.map((p) => {
      if (typeof p === "string") return p;
      const n = this.expr(p, st);
      fallible ||= n.fallible;
      const r = n.run;
      return (c: Ctx) => displayString(r(c));
    });
    return {
      run: (c) => {
        let s = "";
        for (const p of runs) s += typeof p === "string" ? p : p(c);
        return s;
      },
      type: t(K.BYTES),
      fallible,
      fresh: true,
    };
  }

  private arrayLit(items: Expr[], st: State): Node {
    const nodes = items.map((i) => this.expr(i, st));
    const fallible = nodes.some((n) => n.fallible);
    if (nodes.every((n) => n.constant)) {
      const value = nodes.map((n) => n.constant!.value);
      return { run: () => deepClone(value), type: t(K.ARRAY), fallible, fresh: true, constant: { value } };
    }
    const runs = nodes.map(cloneIfShared);
    return { run: (c) => runs.map((r) => r(c)), type: t(K.ARRAY), fallible, fresh: true };
  }

  private objectLit(entries: [string, Expr][], st: State): Node {
    const nodes = entries.map(([k, e]) => [k, this.expr(e, st)] as const);
    const fallible = nodes.some(([, n]) => n.fallible);
    const fields = new Map(nodes.map(([k, n]) => [k, n.type]));
    const type: TypeDef = { kind: K.OBJECT, fields, exact: true };
    if (nodes.every(([, n]) => n.constant)) {
      const value = new Map(nodes.map(([k, n]) => [k, n.constant!.value]));
      return { run: () => deepClone(value), type, fallible, fresh: true, constant: { value } };
    }
    const runs = nodes.map(([k, n]) => [k, cloneIfShared(n)] as const);
    return {
      run: (c) => {
        const m = new Map<string, VrlValue>();
        for (const [k, r] of runs) m.set(k, r(c));
        return m;
      },
      type,
      fallible,
      fresh: true,
    };
  }

  rootType(p: PathNode, st: State): TypeDef {
    if (p.root.kind === "event") return st.event;
    if (p.root.kind === "meta") return st.meta;
    if (p.root.kind === "expr") return ANY;
    const v = st.vars.get(p.root.name);
    if (!v) {
      throw new VrlCompileError("E701", "call to undefined variable", p.start, p.end, "undefined variable");
    }
    return v.type;
  }

  rootGetter(p: PathNode, st: State): Run {
    if (p.root.kind === "event") return (c) => c.event;
    if (p.root.kind === "meta") return (c) => c.meta;
    if (p.root.kind === "expr") {
      throw new VrlCompileError("E110", "invalid argument type", p.start, p.end, "expected a path");
    }
    const slot = st.vars.get(p.root.name)!.slot;
    return (c) => c.vars[slot];
  }

  private pathRead(p: PathNode, st: State): Node {
    if (p.root.kind === "expr") {
      const target = this.expr(p.root.expr, st);
      const tr = target.run, segs = p.segs;
      return {
        run: (c) => getIn(tr(c), segs),
        type: typeAt(target.type, segs),
        fallible: target.fallible,
        fresh: target.fresh,
      };
    }
    const type = typeAt(this.rootType(p, st), p.segs);
    const root = this.rootGetter(p, st);
    const segs = p.segs;
    let run: Run;
    if (segs.length === 0) run = root;
    else if (segs.length === 1 && typeof segs[0] === "string") {
      const k = segs[0];
      run = (c) => {
        const o = root(c);
        if (o instanceof Map) {
          const v = o.get(k);
          return v === undefined ? null : v;
        }
        return null;
      };
    } else run = (c) => getIn(root(c), segs);
    return { run, type, fallible: false, fresh: false };
  }

  /** Returns a setter for a target and updates the static state. */
  private targetSetter(tg: Target, type: TypeDef, st: State): (c: Ctx, v: VrlValue) => void {
    if (tg.k === "noop") return () => {};
    const segs = tg.segs;
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
    const slot = prev?.slot ?? this.slotFor(name);
    st.vars.set(name, { slot, type: typeWith(prev?.type ?? t(K.NULL), segs, type) });
    if (segs.length === 0) return (c, v) => void (c.vars[slot] = v);
    return (c, v) => void (c.vars[slot] = setIn(c.vars[slot] ?? null, segs, v));
  }

  private assign(tg: Target, op: "=" | "|=", valueExpr: Expr, e: Span, st: State): Node {
    const value = this.expr(valueExpr, st);
    if (value.fallible) {
      throw new VrlCompileError(
        "E103",
        "unhandled fallible assignment",
        valueExpr.start,
        valueExpr.end,
        "this expression is fallible; handle the error with `!`, `??` or `value, err = …`",
      );
    }
    const vr = cloneIfShared(value);
    if (op === "|=") {
      if (tg.k === "noop") throw new VrlCompileError("E203", "can't merge into `_`", e.start, e.end);
      const cur = this.pathRead(tg, st);
      const bt = binaryType("|", cur.type, value.type);
      if (bt.fallible) {
        throw new VrlCompileError(
          "E103",
          "unhandled fallible assignment",
          e.start,
          e.end,
          "merge needs two objects",
        );
      }
      const curRun = cur.run;
      const set = this.targetSetter(tg, t(K.OBJECT), st);
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
    const set = this.targetSetter(tg, value.type, st);
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

  private assign2(okT: Target, errT: Target, valueExpr: Expr, e: Span, st: State): Node {
    const value = this.expr(valueExpr, st);
    if (!value.fallible) {
      throw new VrlCompileError(
        "E104",
        "unnecessary error assignment",
        valueExpr.start,
        valueExpr.end,
        "this expression can't fail",
      );
    }
    const vr = cloneIfShared(value);
    const dflt = defaultFor(value.type);
    const okSet = this.targetSetter(okT, value.type, st);
    const errSet = this.targetSetter(errT, t(K.BYTES | K.NULL), st);
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

  private ifExpr(condE: Expr, thenE: Expr[], elseE: Expr[] | undefined, st: State): Node {
    const cond = this.expr(condE, st);
    if (!isSubset(cond.type, K.BOOLEAN)) {
      throw new VrlCompileError(
        "E102",
        "non-boolean predicate",
        condE.start,
        condE.end,
        `this predicate resolves to ${kindName(cond.type.kind)}, not boolean`,
      );
    }
    const s1 = st.clone();
    const thenN = this.block(thenE, s1);
    const s2 = st.clone();
    const elseN = elseE ? this.block(elseE, s2) : undefined;
    const joined = State.join(s1, s2);
    st.event = joined.event;
    st.meta = joined.meta;
    st.vars = joined.vars;
    const cr = cond.run, tr = thenN.run, er = elseN?.run;
    return {
      run: er ? (c) => (cr(c) === true ? tr(c) : er(c)) : (c) => (cr(c) === true ? tr(c) : null),
      type: elseN ? union(thenN.type, elseN.type) : union(thenN.type, t(K.NULL)),
      fallible: cond.fallible,
      fresh: thenN.fresh && (elseN?.fresh ?? true),
    };
  }

  private binary(op: string, lE: Expr, rE: Expr, e: Span, st: State): Node {
    const l = this.expr(lE, st);
    if (op === "??") {
      if (!l.fallible) {
        throw new VrlCompileError(
          "E651",
          "unnecessary error coalescing operation",
          lE.start,
          lE.end,
          "this expression can't fail",
        );
      }
      const r = this.expr(rE, st);
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
    const r = this.expr(rE, st);
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
      return { run: () => value, type: bt.type, fallible: false, fresh: true, constant: { value } };
    }
    return { run: (c) => f(lr(c), rr(c)), type: bt.type, fallible, fresh: true };
  }
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
