/** `regex`: every pattern's named groups → `<prefix>_<group>` (reference §4.14). */
import { compileRustRegex } from "../rust_regex.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

const NAMED_GROUP = /\(\?P?<([0-9A-Za-z_]+)>.+?\)/;

/** Compiles a `regex` processor. */
export const compileRegex: ProcessorCompiler = (o) => {
  const fields = o.fields();
  if (fields.length === 0) o.fail("No valid field found in regex processor", "field");
  const sources = [
    ...(o.string("pattern") !== undefined ? [o.string("pattern")!] : []),
    ...(o.stringList("patterns") ?? []),
  ];
  if (sources.length === 0) o.fail("No valid pattern found in regex processor", "pattern");
  const patterns = sources.map((src) => {
    const key = o.has("pattern") && o.string("pattern") === src ? "pattern" : "patterns";
    if (!NAMED_GROUP.test(src)) o.fail(`No named group found in regex ${src}`, key);
    try {
      const re = compileRustRegex(src);
      const names = [...src.matchAll(/\(\?P?<([0-9A-Za-z_]+)>/g)].map((m) => m[1]);
      return { re, names };
    } catch (e) {
      return o.fail(`Invalid regex pattern: ${src}: ${(e as Error).message}`, key);
    }
  });
  return fieldProcessor("regex", fields, o.ignoreMissing(), (v, f, entry) => {
    const s = expectString("regex", v);
    for (const p of patterns) {
      const m = p.re.exec(s);
      if (!m?.groups) continue;
      for (const name of p.names) {
        const g = m.groups[name];
        if (g !== undefined) entry[`${f.target}_${name}`] = g;
      }
    }
  });
};
