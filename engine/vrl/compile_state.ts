/** Types shared by the compiler and the call compiler: run context, compiled nodes, the static state. */

import type { Expr, PathNode } from "./ast.ts";
import type { FnDef } from "./stdlib/def.ts";
import type { VrlCompileError } from "./diagnostic.ts";
import { isSubset, K, t, type TypeDef, union } from "./types.ts";
import { deepClone, type VrlValue } from "./value.ts";

/** Per-run state: the event, its metadata, and local variable slots. */
export interface Ctx {
  event: VrlValue;
  meta: VrlValue;
  vars: VrlValue[];
  /** Vector's event secrets (`set_secret`/`get_secret`), created on first use. */
  secrets?: Map<string, string>;
}

/** A compiled expression's evaluator. */
export type Run = (c: Ctx) => VrlValue;

/** A compiled expression. */
export interface Node {
  run: Run;
  type: TypeDef;
  fallible: boolean;
  /** The value is newly built on every run (no aliasing with event or variables). */
  fresh: boolean;
  constant?: { value: VrlValue };
  /** The error to report if this node's fallibility is left unhandled (VRL's E110 for unchecked argument types). */
  unhandled?: VrlCompileError;
}

/** A variable's slot and static type. */
export interface VarInfo {
  slot: number;
  type: TypeDef;
  /** The value, when the variable was last assigned a constant on every path to here. */
  constant?: { value: VrlValue };
}

/** What the checker knows at a point of the program: types of event, metadata and variables. */
export class State {
  constructor(public event: TypeDef, public meta: TypeDef, public vars: Map<string, VarInfo>) {}
  clone(): State {
    return new State(this.event, this.meta, new Map(this.vars));
  }
  /** A copy that forgets variables' constants (for closure bodies, which may run many times). */
  cloneForLoop(): State {
    const vars = new Map<string, VarInfo>();
    for (const [k, v] of this.vars) vars.set(k, { slot: v.slot, type: v.type });
    return new State(this.event, this.meta, vars);
  }
  /** Joins the states of two branches. */
  static join(a: State, b: State): State {
    const vars = new Map<string, VarInfo>();
    for (const [k, v] of a.vars) {
      const o = b.vars.get(k);
      const same = o?.constant && v.constant && o.constant.value === v.constant.value;
      vars.set(k, {
        slot: v.slot,
        type: o ? union(v.type, o.type) : union(v.type, t(K.NULL)),
        constant: same ? v.constant : undefined,
      });
    }
    for (const [k, v] of b.vars) {
      if (!vars.has(k)) vars.set(k, { slot: v.slot, type: union(v.type, t(K.NULL)) });
    }
    return new State(union(a.event, b.event), union(a.meta, b.meta), vars);
  }
}

/** Thrown by `return`: carries the program's result past everything up to the program's top. */
export class ReturnSignal {
  constructor(readonly value: VrlValue) {}
}

/** What the call compiler needs from the expression compiler. */
export interface CompilerApi {
  /** Closure bodies being compiled around the current expression (`return` is not allowed there). */
  closureDepth: number;
  /**
   * VRL's `fallible_expression_error`: the first expression of the current statement that can fail with
   * nothing handling it yet (`??` and `ok, err =` clear it); an unhandled statement reports it.
   */
  firstFallible: VrlCompileError | undefined;
  readonly fns: Record<string, FnDef>;
  expr(e: Expr, st: State): Node;
  block(body: Expr[], st: State, strict?: boolean): Node;
  rootType(p: PathNode, st: State): TypeDef;
  rootGetter(p: PathNode, st: State): Run;
  newSlot(): number;
  /** The slot of a named variable, allocated on first use. */
  slotFor(name: string): number;
  pathRead(p: PathNode, st: State): Node;
}

/** Wraps a node's evaluator so containers it returns are copied (they may alias stored data). */
export const cloneIfShared = (n: Node): Run => {
  if (n.fresh || isSubset(n.type, K.SCALAR | K.REGEX)) return n.run;
  const r = n.run;
  return (c) => deepClone(r(c));
};
