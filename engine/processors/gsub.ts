/** `gsub`: replace-all with a Rust regex and Rust replacement syntax (reference §4.9). */
import { compileRustRegex, parseReplacement, replaceAllRust } from "../rust_regex.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `gsub` processor. */
export const compileGsub: ProcessorCompiler = (o) => {
  const pattern = o.string("pattern");
  if (pattern === undefined) return o.fail("Pattern is required", "pattern");
  const replacement = o.string("replacement");
  if (replacement === undefined) return o.fail("Replacement is required", "replacement");
  let re: RegExp;
  try {
    re = compileRustRegex(pattern, "g");
  } catch (e) {
    return o.fail(`Invalid regex pattern: ${pattern}: ${(e as Error).message}`, "pattern");
  }
  const parts = parseReplacement(replacement);
  return fieldProcessor("gsub", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    entry[f.target] = replaceAllRust(expectString("gsub", v), re, parts);
  });
};
