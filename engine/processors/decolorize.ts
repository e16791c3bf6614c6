/** `decolorize`: strips ANSI SGR sequences (reference §4.4). */
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

// deno-lint-ignore no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;

/** Compiles a `decolorize` processor. */
export const compileDecolorize: ProcessorCompiler = (o) =>
  fieldProcessor("decolorize", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    entry[f.target] = expectString("decolorize", v).replace(SGR, "");
  });
