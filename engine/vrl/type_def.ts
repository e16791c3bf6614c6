/**
 * `type_def(value)`: VRL's debugging function that returns the static type of its argument, rendered as
 * VRL's `Kind::debug_info` (`kind.canonicalize().debug_info()` in VRL's `stdlib/type_def.rs`).
 */

import type { Expr } from "./ast.ts";
import type { CompilerApi, Node, State } from "./compile_state.ts";
import { abortInfallible, fallibleArgument, VrlCompileError } from "./diagnostic.ts";
import { K, type TypeDef } from "./types.ts";
import { deepClone, type VrlObject } from "./value.ts";

type CallExpr = Extract<Expr, { k: "call" }>;

/** The key VRL's `debug_info` puts the type of a collection's unknown fields/indices under. */
export const UNKNOWN_KEY = "unknown";

const FLAGS: [number, string][] = [
  [K.BYTES, "bytes"],
  [K.INTEGER, "integer"],
  [K.FLOAT, "float"],
  [K.BOOLEAN, "boolean"],
  [K.TIMESTAMP, "timestamp"],
  [K.REGEX, "regex"],
  [K.NULL, "null"],
  [K.UNDEFINED, "undefined"],
];

const ANY_TREE = (): VrlObject => new Map([["any", true]]);

/**
 * A type as VRL's `debug_info` tree: `{"bytes": true, …}` per kind, `"never"` for the empty type, and
 * `"object"`/`"array"` maps of known fields/indices, with the rest (when not exactly known) under
 * `UNKNOWN_KEY`. Petrel's unknown collection parts are always "anything", which VRL prints as `{"any": true}`.
 */
export function debugInfo(td: TypeDef): VrlObject {
  let kind = td.kind;
  // Petrel types unknown event fields as anything but a regex (only literals make regexes); VRL says any.
  if ((kind & K.DATA) === K.DATA) kind |= K.REGEX;
  if (isAny(td, kind)) return ANY_TREE();
  const out: VrlObject = new Map();
  if ((kind & K.ANY) === 0) {
    if (kind & K.UNDEFINED) out.set("undefined", true);
    else out.set("never", true);
    return out;
  }
  for (const [bit, name] of FLAGS) if (kind & bit) out.set(name, true);
  if (kind & K.OBJECT) {
    const obj: VrlObject = new Map();
    for (const [k, f] of td.fields ?? []) obj.set(k, debugInfo(f));
    if (!td.exact) obj.set(UNKNOWN_KEY, td.rest ? debugInfo(orUndefined(td.rest)) : ANY_TREE());
    out.set("object", obj);
  }
  if (kind & K.ARRAY) {
    const arr: VrlObject = new Map();
    if (td.elems) td.elems.forEach((e, i) => arr.set(String(i), debugInfo(e)));
    else if (td.items) arr.set(UNKNOWN_KEY, debugInfo(orUndefined(td.items)));
    else arr.set(UNKNOWN_KEY, ANY_TREE());
    out.set("array", arr);
  }
  return out;
}

// VRL's `Kind::is_any`: every kind, undefined included, and collections that say nothing about their contents.
function isAny(td: TypeDef, kind: number): boolean {
  return (kind & (K.ANY | K.UNDEFINED)) === (K.ANY | K.UNDEFINED) && !td.exact && !td.fields?.size &&
    !td.rest && !td.elems && !td.items;
}

// The type of a collection's unknown part: its fields/indices may be absent.
const orUndefined = (td: TypeDef): TypeDef => ({ ...td, kind: td.kind | K.UNDEFINED });

/**
 * Compiles `type_def(value)`, its argument bound by `calls.ts` as any call's. The argument is checked (its
 * assignments change later types, as in VRL) but never run: the result renders its static type.
 */
export function compileTypeDef(cx: CompilerApi, e: CallExpr, st: State, value: Expr): Node {
  if (e.closure) throw new VrlCompileError("E109", "unexpected closure", e.closure.start, e.closure.end);
  if (e.bang) {
    throw abortInfallible({ start: e.nameSpan.start, end: e.nameSpan.end - 1 }, e.nameSpan.end - 1);
  }
  const n = cx.expr(value, st);
  // VRL renders `"fallible": true` for a fallible type, but rejects fallible arguments first (E630).
  if (n.fallible) throw fallibleArgument(value);
  const rendered = debugInfo(n.type);
  return { run: () => deepClone(rendered), type: { kind: K.OBJECT }, fallible: false, fresh: true };
}
