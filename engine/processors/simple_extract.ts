/** `simple_extract`: walks a dot-separated key path in nested objects (reference §4.16). */
import { isObject } from "../value.ts";
import { fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `simple_extract` processor. */
export const compileSimpleExtract: ProcessorCompiler = (o) => {
  const key = o.string("key");
  const path = key === undefined ? [] : key.split(".");
  return fieldProcessor("simple_extract", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    let cur: unknown = v;
    for (const k of path) {
      if (!isObject(cur) || !Object.hasOwn(cur, k)) {
        cur = null;
        break;
      }
      cur = cur[k];
    }
    entry[f.target] = cur ?? null;
  }, { nullIsPresent: true });
};
