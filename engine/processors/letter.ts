/** `letter`: ASCII upper/lower case or capitalising the first character (reference §4.13). */
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

const METHODS: Record<string, (s: string) => string> = {
  upper: (s) => s.replace(/[a-z]+/g, (m) => m.toUpperCase()),
  lower: (s) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase()),
  capital: (s) => {
    const first = s.codePointAt(0);
    if (first === undefined) return s;
    const ch = String.fromCodePoint(first);
    return ch.toUpperCase() + s.slice(ch.length);
  },
};

/** Compiles a `letter` processor. */
export const compileLetter: ProcessorCompiler = (o) => {
  const method = o.string("method") ?? "lower";
  const fn = METHODS[method.toLowerCase()];
  if (!fn) return o.fail(`Invalid method: ${method}`, "method");
  return fieldProcessor("letter", o.fields(), o.ignoreMissing(), (v, f, entry) => {
    entry[f.target] = fn(expectString("letter", v));
  });
};
