/** The `dispatcher` section (reference §5): routes entries to another pipeline and table suffix. */
import { compileError } from "./errors.ts";
import { isInteger } from "./value.ts";
import { keyString, mapGet, type YNode } from "./yaml_doc.ts";

/** One rule: entries whose field equals `value` go to `pipeline` (identity when absent). */
export interface DispatchRule {
  value: YNode;
  tableSuffix: string;
  pipeline?: string;
}

/** A compiled dispatcher. */
export interface Dispatcher {
  field: string;
  rules: DispatchRule[];
}

/** Compiles the dispatcher section. */
export function compileDispatcher(n: YNode): Dispatcher {
  const loc = { processor: "dispatcher", line: n.line || undefined };
  const field = mapGet(n, "field");
  if (!field || field.t !== "str") {
    return compileError("Field is required for dispatcher", { ...loc, key: "field" });
  }
  const rulesNode = mapGet(n, "rules");
  const rules: DispatchRule[] = [];
  if (rulesNode?.t === "seq") {
    for (const r of rulesNode.items) {
      const rloc = { ...loc, line: r.line || loc.line };
      let value: YNode | undefined;
      let suffix: YNode | undefined;
      let pipeline: YNode | undefined;
      if (r.t === "map") {
        for (const p of r.pairs) {
          const k = keyString(p);
          if (k === "value") value = p.value;
          else if (k === "table_suffix") suffix = p.value;
          else if (k === "pipeline") pipeline = p.value;
        }
      }
      if (!value) return compileError("Value is required for dispatcher rule", { ...rloc, key: "value" });
      if (!suffix || suffix.t !== "str") {
        return compileError("Table_suffix is required for dispatcher rule", { ...rloc, key: "table_suffix" });
      }
      rules.push({ value, tableSuffix: suffix.v, pipeline: pipeline?.t === "str" ? pipeline.v : undefined });
    }
  }
  return { field: field.v, rules };
}

/** The first rule whose value equals the entry's field value by typed equality, if any. */
export function matchRule(d: Dispatcher, entry: Record<string, unknown>): DispatchRule | undefined {
  if (!Object.hasOwn(entry, d.field)) return undefined;
  const v = entry[d.field];
  for (const r of d.rules) {
    const rv = r.value;
    switch (rv.t) {
      case "str":
        if (v === rv.v) return r;
        break;
      case "int":
        if (isInteger(v) && Number(v) === rv.v) return r;
        break;
      case "float":
        if (typeof v === "number" && v === rv.v) return r;
        break;
      case "bool":
        if (v === rv.v) return r;
        break;
      case "null":
        if (v === null) return r;
        break;
    }
  }
  return undefined;
}
