/** `join`: array elements stringified and joined (reference §4.10). */
import { execError } from "../errors.ts";
import { debugRepr, toStringLossy } from "../value.ts";
import { fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `join` processor. */
export const compileJoin: ProcessorCompiler = (o) => {
  const sep = o.string("separator");
  if (sep === undefined) return o.fail("Separator is required", "separator");
  return fieldProcessor("join", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    if (!Array.isArray(v)) throw execError(`Processor join: expect string value, but got ${debugRepr(v)}`);
    entry[f.target] = v.map(toStringLossy).join(sep);
  });
};
