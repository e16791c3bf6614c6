/** `select`: keep (include) or remove (exclude) keys (reference §4.15). */
import { illegalState } from "../errors.ts";
import { isObject } from "../value.ts";
import type { ProcessorCompiler } from "./common.ts";

/** Compiles a `select` processor. */
export const compileSelect: ProcessorCompiler = (o) => {
  const fields = o.fields();
  const type = o.string("type") ?? "include";
  if (type !== "include" && type !== "exclude") {
    o.fail(`Processor select: unsupported value '${type}', expect 'include' or 'exclude'`, "type");
  }
  const keep = new Set(fields.map((f) => f.target));
  return {
    name: "select",
    exec(entry) {
      if (!isObject(entry)) throw illegalState("Top level value must be map");
      if (type === "exclude") {
        for (const f of fields) delete entry[f.input];
        return entry;
      }
      for (const f of fields) {
        if (f.rename !== undefined && f.rename !== f.input && Object.hasOwn(entry, f.input)) {
          entry[f.rename] = entry[f.input];
          delete entry[f.input];
        }
      }
      for (const k of Object.keys(entry)) if (!keep.has(k)) delete entry[k];
      return entry;
    },
  };
};
