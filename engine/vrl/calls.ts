/** Function calls: argument binding and checking, closures, and the path-taking forms `del`, `exists`, `unnest`. */

import type { Closure, Expr } from "./ast.ts";
import { compileDel, compileExists, compileUnnest } from "./calls_path.ts";
import { type CompilerApi, type Ctx, type Node, type Run, State } from "./compile_state.ts";
import {
  abortInfallible,
  fallibleArgument,
  SEE_ERROR_DOCS,
  VrlCompileError,
  VrlFailure,
  VrlRuntimeError,
} from "./diagnostic.ts";
import { missingArgument, unknownKeyword, wrongNumberOfArgs } from "./diagnostic_errors.ts";
import { compileTypeDef } from "./type_def.ts";
import { type ArgInfo, type ClosureFn, type FnDef, kindBit, type ParamDef, typeError } from "./stdlib/def.ts";
import { ANY, isSubset, K, kindName, t, type TypeDef, union } from "./types.ts";
import { type VrlValue } from "./value.ts";
import { editDistance } from "../../src/common/edit_distance.ts";

type CallExpr = Extract<Expr, { k: "call" }>;

/** Compiles a function call (including the path-taking special forms). */
export function compileCall(cx: CompilerApi, e: CallExpr, st: State): Node {
  if (e.name === "del") return compileDel(cx, e, st);
  if (e.name === "exists") return compileExists(cx, e, st);
  if (e.name === "unnest") return compileUnnest(cx, e, st);
  if (e.name === "type_def") {
    const [value] = bindArgs(TYPE_DEF_PARAMS, e);
    if (!value) throw missingArgument(e, "value", 0);
    return compileTypeDef(cx, e, st, value);
  }
  const def = cx.fns[e.name];
  if (!def) throw undefinedFunction(e, Object.keys(cx.fns));
  const args = compileArgs(cx, def, bindArgs(def.params, e), e, st);
  let fallible = args.fallible;
  let closureRun: ((c: Ctx) => ClosureFn) | undefined;
  if (e.closure) {
    if (!def.closure) {
      throw new VrlCompileError("E109", "unexpected closure", e.closure.start, e.closure.end);
    }
    const paramTypes = def.closure(args.infos);
    const { make, fallible: cf, type: rt } = compileClosure(cx, e.closure, paramTypes, st);
    if (def.closureReturns !== undefined && !isSubset(rt, def.closureReturns)) {
      throw new VrlCompileError(
        "E122",
        "type mismatch in closure return type",
        e.closure.start,
        e.closure.end,
        `the closure must return ${kindName(def.closureReturns)}, not ${kindName(rt.kind)}`,
      );
    }
    fallible ||= cf;
    closureRun = make;
  } else if (def.closure) {
    throw new VrlCompileError("E111", "missing closure", e.start, e.end, `"${e.name}" requires a closure`);
  }
  if (e.bang && !fallible) {
    throw abortInfallible({ start: e.nameSpan.start, end: e.nameSpan.end - 1 }, e.nameSpan.end - 1);
  }
  const type = typeof def.returns === "number"
    ? t(def.returns)
    : typeof def.returns === "function"
    ? def.returns(args.infos)
    : def.returns;
  const run = callRun(def, args, closureRun, e);
  // VRL reports a call left fallible by an argument whose type it must check at run time as E110.
  const u = args.unchecked;
  const unhandled = u && !e.bang ? invalidArgumentType(e, u.arg, u.param, u.kind) : undefined;
  return { run, type, fallible: fallible && !e.bang, fresh: !!def.fresh, unhandled };
}

/**
 * VRL's E105 (`function_call::Error::Undefined`): the name, and the known function nearest to it by edit
 * distance (the first in alphabetical order on a tie, as VRL walks its sorted function list).
 */
function undefinedFunction(e: CallExpr, known: string[]): VrlCompileError {
  const span = { start: e.nameSpan.start, end: e.nameSpan.end - (e.bang ? 1 : 0) };
  let guess: string | undefined, best = Infinity;
  for (const name of [...known].sort()) {
    const d = editDistance(e.name, name);
    if (d < best) [guess, best] = [name, d];
  }
  const labels = [{ ...span, message: "undefined function", primary: true }];
  if (guess !== undefined) labels.push({ ...span, message: `did you mean "${guess}"?`, primary: false });
  return new VrlCompileError("E105", "call to undefined function", span.start, span.end, "", { labels });
}

/** `type_def`'s one parameter: it is compiled apart (its argument is typed, never run). */
const TYPE_DEF_PARAMS: ParamDef[] = [{ name: "value", kind: ANY.kind, required: true }];

/** Puts each argument expression into its parameter's slot (positional, then named). */
function bindArgs(params: ParamDef[], e: CallExpr): (Expr | undefined)[] {
  // VRL counts the arguments before it looks at their keywords.
  const tooMany = () => wrongNumberOfArgs({ start: e.args[0].start, end: e.args.at(-1)!.end }, params.length);
  if (e.args.length > params.length) throw tooMany();
  const slots: (Expr | undefined)[] = new Array(params.length).fill(undefined);
  let pos = 0;
  for (const a of e.args) {
    let idx: number;
    if (a.name !== undefined) {
      idx = params.findIndex((p) => p.name === a.name);
      if (idx < 0) {
        const keyword = { start: a.start, end: a.start + a.name.length };
        const name = { start: e.nameSpan.start, end: e.nameSpan.end - (e.bang ? 1 : 0) };
        throw unknownKeyword(keyword, name, params.map((p) => p.name));
      }
    } else {
      while (pos < slots.length && slots[pos]) pos++;
      idx = pos;
      if (idx >= params.length) throw tooMany();
    }
    if (slots[idx]) throw new VrlCompileError("E108", "duplicate function argument", a.start, a.end);
    slots[idx] = a.expr;
  }
  return slots;
}

/** Compiled arguments: nodes, what `check`/`fallibleFor` see, and the kinds to check at run time. */
interface CompiledArgs {
  nodes: (Node | undefined)[];
  infos: (ArgInfo | undefined)[];
  checks: number[];
  fallible: boolean;
  /** The first argument whose type only may match its parameter. */
  unchecked?: { arg: Expr; param: ParamDef; kind: number };
}

function compileArgs(
  cx: CompilerApi,
  def: FnDef,
  slots: (Expr | undefined)[],
  e: CallExpr,
  st: State,
): CompiledArgs {
  const out: CompiledArgs = { nodes: [], infos: [], checks: [], fallible: !!def.fallible };
  def.params.forEach((p, i) => {
    const a = slots[i];
    if (!a) {
      if (p.required) throw missingArgument(e, p.name, i);
      out.nodes.push(undefined);
      out.infos.push(undefined);
      out.checks.push(0);
      return;
    }
    const n = cx.expr(a, st);
    if (n.fallible) throw fallibleArgument(a);
    if ((n.type.kind & p.kind) === 0) {
      throw invalidArgumentType(e, a, p, n.type.kind);
    }
    const needsCheck = !isSubset(n.type, p.kind);
    if (needsCheck) out.unchecked ??= { arg: a, param: p, kind: n.type.kind };
    out.fallible ||= n.fallible || needsCheck;
    out.checks.push(needsCheck ? p.kind : 0);
    out.nodes.push(n);
    out.infos.push({ type: n.type, constant: n.constant });
  });
  const problem = def.check?.(out.infos);
  // VRL reports a function's own compile-time argument checks as E610.
  if (problem) throw new VrlCompileError("E610", "function compilation error", e.start, e.end, problem);
  if (def.fallibleFor?.(out.infos)) out.fallible = true;
  return out;
}

/** VRL's way of naming a kind in E110: `any`, `the exact type integer` or `one of string or null`. */
function kindPhrase(kind: number): string {
  const name = kindName(kind);
  if (name === "any") return name;
  return (kind & (kind - 1)) === 0 ? `the exact type ${name}` : `one of ${name}`;
}

/** For an exact parameter kind: VRL's type-ensuring function and its coercion with a fallback. */
const REMEDIES: Record<number, [ensure: string, coerce?: string]> = {
  [K.BYTES]: ["string", 'to_string(#) ?? "default"'],
  [K.INTEGER]: ["int", "to_int(#) ?? 0"],
  [K.FLOAT]: ["float", "to_float(#) ?? 0"],
  [K.BOOLEAN]: ["bool", "to_bool(#) ?? false"],
  [K.OBJECT]: ["object"],
  [K.ARRAY]: ["array"],
  [K.TIMESTAMP]: ["timestamp"],
};

/**
 * VRL's E110 (`function_call::Error::InvalidArgumentKind`): what the argument resolves to, what the
 * parameter expects, and VRL's two suggested fixes quoting the argument and the call as written.
 */
function invalidArgumentType(e: CallExpr, a: Expr, p: ParamDef, got: number): VrlCompileError {
  const labels = [
    { start: a.start, end: a.end, message: `this expression resolves to ${kindPhrase(got)}`, primary: true },
    {
      start: a.start,
      end: a.end,
      message: `but the parameter "${p.name}" expects ${kindPhrase(p.kind)}`,
      primary: false,
    },
  ];
  const remedy = REMEDIES[p.kind];
  const sourceNotes = (src: string): string[] => {
    if (!remedy) return [SEE_ERROR_DOCS];
    const arg = src.slice(a.start, a.end);
    const call = `${e.name}${e.bang ? "!" : ""}(${e.args.map((x) => src.slice(x.start, x.end)).join(", ")})`;
    const solution = (
      title: string,
      first: string,
    ) => [`try: ${title}`, " ", `    ${first}`, `    ${call}`, " "];
    const notes = solution("ensuring an appropriate type at runtime", `${arg} = ${remedy[0]}!(${arg})`);
    if (remedy[1]) {
      notes.push(...solution(
        "coercing to an appropriate type and specifying a default value as a fallback in case coercion fails",
        `${arg} = ${remedy[1].replace("#", arg)}`,
      ));
    }
    return [...notes, SEE_ERROR_DOCS];
  };
  return new VrlCompileError("E110", "invalid argument type", a.start, a.end, "", { labels, sourceNotes });
}

/** The call's evaluator: arguments, run-time kind checks, the function, and error wording. */
function callRun(
  def: FnDef,
  args: CompiledArgs,
  closureRun: ((c: Ctx) => ClosureFn) | undefined,
  e: CallExpr,
): Run {
  const where = `function call error for "${e.name}" at (${e.start}:${e.end}): `;
  const bang = e.bang;
  const runs = args.nodes.map((n) => n?.run);
  const checks = args.checks;
  const n = runs.length;
  const anyCheck = checks.some((k) => k !== 0);
  const impl = def.call;
  return (c) => {
    const vals: (VrlValue | undefined)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const r = runs[i];
      vals[i] = r ? r(c) : undefined;
    }
    try {
      if (anyCheck) {
        for (let i = 0; i < n; i++) {
          const v = vals[i];
          if (checks[i] && v !== undefined && !(kindBit(v) & checks[i])) {
            throw new VrlFailure(typeError(checks[i], v));
          }
        }
      }
      return impl(vals, closureRun?.(c), c);
    } catch (x) {
      if (x instanceof VrlFailure) {
        if (bang) throw new VrlRuntimeError(where + x.message);
        throw new VrlFailure(where + x.message);
      }
      throw x;
    }
  };
}

function compileClosure(
  cx: CompilerApi,
  cl: Closure,
  types: TypeDef[],
  st: State,
): { make: (c: Ctx) => ClosureFn; fallible: boolean; type: TypeDef } {
  // VRL wants exactly the closure's parameters (`|index, value|` for `for_each` and `filter`).
  if (cl.params.length !== types.length) {
    const first = cl.params[Math.min(types.length, cl.params.length - 1)];
    const last = cl.params[cl.params.length - 1];
    throw new VrlCompileError(
      "E120",
      "invalid closure arity",
      first?.span.start ?? cl.start,
      last?.span.end ?? cl.end,
    );
  }
  const inner = st.cloneForLoop();
  const slots = cl.params.map((p, i) => {
    const slot = cx.newSlot();
    inner.vars.set(p.name, { slot, type: types[i] ?? ANY });
    return slot;
  });
  cx.closureDepth++;
  const body = cx.block(cl.body, inner, true);
  cx.closureDepth--;
  // Outer variables assigned in the body keep their slot; fold their types back conservatively.
  // Variables the body introduces are its own (VRL's lexical scoping).
  for (const [k, v] of inner.vars) {
    if (cl.params.some((p) => p.name === k)) continue;
    const o = st.vars.get(k);
    if (o) st.vars.set(k, { slot: v.slot, type: union(o.type, v.type) });
  }
  st.event = union(st.event, inner.event);
  st.meta = union(st.meta, inner.meta);
  const br = body.run;
  const [s0, s1] = slots;
  const make = (c: Ctx): ClosureFn => (a: VrlValue, b?: VrlValue) => {
    if (s0 !== undefined) c.vars[s0] = a;
    if (s1 !== undefined) c.vars[s1] = b ?? null;
    return br(c);
  };
  return { make, fallible: body.fallible, type: body.type };
}
