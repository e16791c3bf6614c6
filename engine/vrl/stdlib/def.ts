/** The shape of a standard-library function: its signature (for the checker) and its implementation. */

import { VrlFailure } from "../diagnostic.ts";
import { K, type TypeDef } from "../types.ts";
import { kindOf, VrlRegex, VrlTimestamp, type VrlValue } from "../value.ts";

/** One parameter: name, accepted kind bits, whether it must be given. */
export interface ParamDef {
  name: string;
  kind: number;
  required?: boolean;
}

/** What the checker knows about an argument. */
export interface ArgInfo {
  type: TypeDef;
  /** Set when the argument is a literal, so functions can validate/precompile it. */
  constant?: { value: VrlValue };
}

/** The per-run state a function may keep things in (see `Ctx` in `../compile_state.ts`). */
export interface RunState {
  secrets?: Map<string, string>;
}

/** A closure passed to an iteration function. */
export type ClosureFn = (a: VrlValue, b?: VrlValue) => VrlValue;

/** A standard-library function. `call` receives arguments by parameter position (`undefined` = omitted). */
export interface FnDef {
  params: ParamDef[];
  /** Fails at run time even when the argument kinds are right. */
  fallible?: boolean;
  /** Static result type: kind bits, a type, or a function of the arguments. */
  returns: number | TypeDef | ((args: (ArgInfo | undefined)[]) => TypeDef);
  /** `run` is the per-run state, for the few functions that read or keep event state (secrets). */
  call(args: (VrlValue | undefined)[], closure?: ClosureFn, run?: RunState): VrlValue;
  /** For iteration functions: the closure parameter types given the arguments. */
  closure?: (args: (ArgInfo | undefined)[]) => TypeDef[];
  /** The kinds the closure must return (E122 otherwise). */
  closureReturns?: number;
  /** The result never aliases an argument (no copy needed when it is assigned). */
  fresh?: boolean;
  /** Compile-time validation of literal arguments; returns an error message. */
  check?(args: (ArgInfo | undefined)[]): string | undefined;
  /** Extra fallibility decided from the argument types. */
  fallibleFor?(args: (ArgInfo | undefined)[]): boolean;
}

/** Raises a catchable function error. */
export function fail(message: string): never {
  throw new VrlFailure(message);
}

/** The kind bit of a runtime value. */
export function kindBit(v: VrlValue): number {
  switch (typeof v) {
    case "string":
      return K.BYTES;
    case "bigint":
      return K.INTEGER;
    case "number":
      return K.FLOAT;
    case "boolean":
      return K.BOOLEAN;
  }
  if (v === null) return K.NULL;
  if (v instanceof Map) return K.OBJECT;
  if (Array.isArray(v)) return K.ARRAY;
  if (v instanceof VrlTimestamp) return K.TIMESTAMP;
  if (v instanceof VrlRegex) return K.REGEX;
  return K.ANY;
}

/** "expected string, got integer" for a value outside `kind`. */
export function typeError(kind: number, v: VrlValue): string {
  return `expected ${kindNameShort(kind)}, got ${kindOf(v)}`;
}

function kindNameShort(kind: number): string {
  const names: string[] = [];
  if (kind & K.BYTES) names.push("string");
  if (kind & K.INTEGER) names.push("integer");
  if (kind & K.FLOAT) names.push("float");
  if (kind & K.BOOLEAN) names.push("boolean");
  if (kind & K.NULL) names.push("null");
  if (kind & K.TIMESTAMP) names.push("timestamp");
  if (kind & K.REGEX) names.push("regex");
  if (kind & K.OBJECT) names.push("object");
  if (kind & K.ARRAY) names.push("array");
  return names.length === 9 ? "any" : names.join(" or ");
}

/** Integer argument as a JS number. */
export function num(v: VrlValue | undefined, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  return typeof v === "bigint" ? Number(v) : Number(v);
}

/** Boolean argument with default. */
export function flag(v: VrlValue | undefined, dflt: boolean): boolean {
  return v === undefined || v === null ? dflt : v === true;
}

/** String argument with default. */
export function str(v: VrlValue | undefined, dflt: string): string {
  return typeof v === "string" ? v : dflt;
}

/** A required parameter. */
export function req(name: string, kind: number): ParamDef {
  return { name, kind, required: true };
}

/** An optional parameter. */
export function opt(name: string, kind: number): ParamDef {
  return { name, kind };
}

/**
 * A `fallibleFor` that is fallible unless argument `i` is a compile-time constant that `ok` accepts
 * (VRL's `resolve_constant` checks); an omitted optional argument counts as accepted when `absentOk`.
 */
export function unlessConstant(
  i: number,
  ok: (v: VrlValue) => boolean,
  absentOk = false,
): (args: (ArgInfo | undefined)[]) => boolean {
  return (args) => {
    const a = args[i];
    if (!a) return !absentOk;
    return !(a.constant && ok(a.constant.value));
  };
}

/** True when `v` is an array whose items all satisfy `ok`. */
export function everyItem(v: VrlValue, ok: (x: VrlValue) => boolean): boolean {
  return Array.isArray(v) && v.every(ok);
}
