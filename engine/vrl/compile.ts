/**
 * Checker and code generator in one pass: each syntax node becomes a closure plus its static type and
 * fallibility, so a program is type-checked once and then runs without walking the tree.
 */

import type { Expr, PathNode } from "./ast.ts";
import { compileCall } from "./calls.ts";
import { compileAssign, compileAssign2 } from "./compile_assign.ts";
import { compileAbort, compileBinary, compileUnary } from "./compile_ops.ts";
import {
  cloneIfShared,
  type CompilerApi,
  type Ctx,
  type Node,
  ReturnSignal,
  type Run,
  State,
  type VarInfo,
} from "./compile_state.ts";
import { nonBooleanPredicate, unhandledError, VrlCompileError, VrlCompileErrors } from "./diagnostic.ts";
import { getIn } from "./path.ts";
import type { FnDef } from "./stdlib/def.ts";
import { ANY, arrayOf, isSubset, K, kindName, t, typeAt, type TypeDef, typeOfValue, union } from "./types.ts";
import { deepClone, displayString, type VrlValue } from "./value.ts";

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
  const node = c.block(body, state, true);
  if (c.diagnostics.length) throw new VrlCompileErrors(c.diagnostics);
  if (!c.returnType) return { run: node.run, slots: c.slots, type: node.type };
  const inner = node.run;
  const run: Run = (ctx) => {
    try {
      return inner(ctx);
    } catch (x) {
      if (x instanceof ReturnSignal) return x.value;
      throw x;
    }
  };
  return { run, slots: c.slots, type: union(node.type, c.returnType) };
}

/** Ends checking of a statement that reads a variable whose assignment failed (already reported). */
class DroppedStatement {}

/**
 * VRL's lexical scoping (`LocalEnv::merge_mutations`): after a block, the variables that existed before it
 * keep what the block did to them; variables the block introduced are gone.
 */
function scoped(after: Map<string, VarInfo>, before: ReadonlySet<string>): Map<string, VarInfo> {
  const out = new Map<string, VarInfo>();
  for (const [k, v] of after) if (before.has(k)) out.set(k, v);
  return out;
}

class Compiler implements CompilerApi {
  slots = 0;
  closureDepth = 0;
  /** The union of the types `return` expressions give, when there are any. */
  returnType: TypeDef | undefined;
  /**
   * Errors of the program's own statements. As VRL does, checking goes on after a statement that fails
   * (an unhandled error still compiles; any other error drops the statement), so a program reports each.
   */
  readonly diagnostics: VrlCompileError[] = [];
  firstFallible: VrlCompileError | undefined;
  /**
   * Variables whose assignment was dropped for an error: a statement reading one is dropped without a
   * diagnostic of its own, as VRL's `skip_missing_assignment_target` does, rather than reporting E701.
   */
  private skipped = new Set<string>();
  private slotByName = new Map<string, number>();
  constructor(readonly fns: Record<string, FnDef>) {}

  newSlot(): number {
    return this.slots++;
  }

  slotFor(name: string): number {
    let s = this.slotByName.get(name);
    if (s === undefined) {
      s = this.slots++;
      this.slotByName.set(name, s);
    }
    return s;
  }

  /**
   * A block's statements in order. In a strict block (the program, a closure body) each fallible
   * statement is an unhandled error, as VRL's root; any other block is as fallible as its statements,
   * so `x, err = (a; f())` and `if c { f() }` are handled (or reported) where the block is used.
   */
  block(body: Expr[], st: State, strict = false): Node {
    if (body.length === 0) return { run: () => null, type: t(K.NULL), fallible: false, fresh: true };
    const nodes = strict && this.closureDepth === 0
      ? this.rootStatements(body, st)
      : body.map((e) => strict ? this.statement(e, st) : this.expr(e, st));
    // Every root statement failed: the program is reported, never run.
    if (nodes.length === 0) return { run: () => null, type: t(K.NULL), fallible: false, fresh: true };
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
    return { run, type: last.type, fallible: nodes.some((n) => n.fallible), fresh: last.fresh };
  }

  /** The program's statements, each checked even when one before it failed. */
  private rootStatements(body: Expr[], st: State): Node[] {
    const nodes: Node[] = [];
    for (const e of body) {
      try {
        nodes.push(this.statement(e, st));
      } catch (x) {
        if (x instanceof VrlCompileError) this.diagnostics.push(x);
        else if (!(x instanceof DroppedStatement)) throw x;
        const targets = e.k === "assign" ? [e.target] : e.k === "assign2" ? [e.ok, e.err] : [];
        for (const tg of targets) {
          if (tg.k === "path" && tg.root.kind === "var" && tg.segs.length === 0) {
            this.skipped.add(tg.root.name);
          }
        }
      }
    }
    return nodes;
  }

  private statement(e: Expr, st: State): Node {
    if (this.closureDepth > 0) {
      const n = this.expr(e, st);
      if (n.fallible) throw unhandledError(e);
      return n;
    }
    this.firstFallible = undefined;
    const n = this.expr(e, st);
    // As VRL, the report points at the statement's first expression that can fail unhandled.
    if (n.fallible) this.diagnostics.push(this.firstFallible ?? unhandledError(e));
    this.firstFallible = undefined;
    return n;
  }

  expr(e: Expr, st: State): Node {
    const n = this.exprNode(e, st);
    if (n.fallible && !this.firstFallible) this.firstFallible = n.unhandled ?? unhandledError(e);
    return n;
  }

  private exprNode(e: Expr, st: State): Node {
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
        return compileAssign(this, e.target, e.op, e.value, e, st);
      case "assign2":
        return compileAssign2(this, e.ok, e.err, e.value, e, st);
      case "call":
        return compileCall(this, e, st);
      case "if":
        return this.ifExpr(e.cond, e.then, e.else, st);
      case "block": {
        const outer = new Set(st.vars.keys());
        const n = this.block(e.body, st);
        if (!e.group) st.vars = scoped(st.vars, outer);
        return n;
      }
      case "not":
      case "neg":
        return compileUnary(this, e, st);
      case "abort":
        return compileAbort(this, e, st);
      case "binary":
        return compileBinary(this, e.op, e.l, e.r, e, st, e.opStart);
      case "return":
        return this.returnExpr(e, st);
    }
  }

  private returnExpr(e: Extract<Expr, { k: "return" }>, st: State): Node {
    if (this.closureDepth > 0) {
      throw new VrlCompileError("E203", "`return` cannot be used inside closures", e.start, e.end);
    }
    const value = this.expr(e.value, st);
    this.returnType = this.returnType ? union(this.returnType, value.type) : value.type;
    const vr = cloneIfShared(value);
    return {
      run: (c) => {
        throw new ReturnSignal(vr(c));
      },
      type: t(0),
      fallible: value.fallible,
      fresh: true,
    };
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
      return {
        run: () => deepClone(value),
        type: typeOfValue(value),
        fallible,
        fresh: true,
        constant: { value },
      };
    }
    const runs = nodes.map(cloneIfShared);
    return {
      run: (c) => runs.map((r) => r(c)),
      type: arrayOf(nodes.map((n) => n.type)),
      fallible,
      fresh: true,
    };
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
      if (this.skipped.has(p.root.name)) throw new DroppedStatement();
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

  pathRead(p: PathNode, st: State): Node {
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
    const constant = p.root.kind === "var" && segs.length === 0
      ? st.vars.get(p.root.name)?.constant
      : undefined;
    return { run, type, fallible: false, fresh: false, constant };
  }

  private ifExpr(condE: Expr, thenE: Expr[], elseE: Expr[] | undefined, st: State): Node {
    const cond = this.expr(condE, st);
    if (!isSubset(cond.type, K.BOOLEAN)) {
      throw nonBooleanPredicate(condE, kindName(cond.type.kind));
    }
    const s1 = st.clone();
    const thenN = this.block(thenE, s1);
    const s2 = st.clone();
    const elseN = elseE ? this.block(elseE, s2) : undefined;
    const joined = State.join(s1, s2);
    st.event = joined.event;
    st.meta = joined.meta;
    st.vars = scoped(joined.vars, new Set(st.vars.keys()));
    const cr = cond.run, tr = thenN.run, er = elseN?.run;
    return {
      run: er ? (c) => (cr(c) === true ? tr(c) : er(c)) : (c) => (cr(c) === true ? tr(c) : null),
      type: elseN ? union(thenN.type, elseN.type) : union(thenN.type, t(K.NULL)),
      fallible: cond.fallible || thenN.fallible || (elseN?.fallible ?? false),
      fresh: thenN.fresh && (elseN?.fresh ?? true),
    };
  }
}
