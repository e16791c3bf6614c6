/** `filter`: drops the entry when a field's value is (not) one of `targets` (reference §4.8). */
import { illegalState } from "../errors.ts";
import { isObject } from "../value.ts";
import { expectString, type ProcessorCompiler } from "./common.ts";

/** Compiles a `filter` processor. */
export const compileFilter: ProcessorCompiler = (o) => {
  const fields = o.fields();
  const ci = o.bool("case_insensitive") ?? true;
  const rawTargets = (o.stringList("targets") ?? []).filter((t) => t !== "");
  if (rawTargets.length === 0) o.fail("Processor filter: missing field: targets", "targets");
  const targets = new Set(ci ? rawTargets.map((t) => t.toLowerCase()) : rawTargets);
  const notIn = o.string("match_op") === "not_in";
  return {
    name: "filter",
    exec(entry) {
      if (!isObject(entry)) throw illegalState("Top level value must be map");
      for (const f of fields) {
        if (!Object.hasOwn(entry, f.input)) continue;
        let s = expectString("filter", entry[f.input]);
        if (ci) s = s.toLowerCase();
        if (targets.has(s) !== notIn) return null;
      }
      return entry;
    },
  };
};
