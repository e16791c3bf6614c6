/** `csv`: the first record of a string zipped with `target_fields` (reference §4.2). */
import { execError } from "../errors.ts";
import { expectString, fieldProcessor, type ProcessorCompiler } from "./common.ts";

/** Compiles a `csv` processor. */
export const compileCsv: ProcessorCompiler = (o) => {
  const targets = (o.string("target_fields") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const sep = o.string("separator") ?? ",";
  if (new TextEncoder().encode(sep).length !== 1) {
    o.fail(`Separator 'separator' must be a single character, but got '${sep}'`, "separator");
  }
  const quote = o.string("quote") ?? '"';
  if (new TextEncoder().encode(quote).length !== 1) {
    o.fail(`Quote 'quote' must be a single character, but got '${quote}'`, "quote");
  }
  const trim = o.bool("trim") ?? false;
  const empty = o.string("empty_value");
  return fieldProcessor("csv", o.fields(), o.ignoreMissing(), (v, _f, entry) => {
    const s = expectString("csv", v);
    const rec = firstCsvRecord(s, sep, quote);
    if (!rec) throw execError("Expected at least one record from csv format, but got none");
    for (let i = 0; i < targets.length; i++) {
      if (i < rec.length) entry[targets[i]] = trim ? rec[i].trim() : rec[i];
      else entry[targets[i]] = empty ?? null;
    }
  });
};

/** Reads the first non-empty CSV record (RFC 4180, lenient like the `csv` crate). */
function firstCsvRecord(s: string, sep: string, quote: string): string[] | null {
  let i = 0;
  // The csv crate skips empty lines before a record.
  while (i < s.length && (s[i] === "\n" || s[i] === "\r")) i++;
  if (i >= s.length) return null;
  const out: string[] = [];
  let field = "";
  let inQuotes = false;
  let quotedField = false;
  for (; i < s.length; i++) {
    const c = s[i];
    if (inQuotes) {
      if (c === quote) {
        if (s[i + 1] === quote) {
          field += quote;
          i++;
        } else inQuotes = false;
      } else field += c;
      continue;
    }
    if (c === quote && field === "" && !quotedField) {
      inQuotes = true;
      quotedField = true;
    } else if (c === sep) {
      out.push(field);
      field = "";
      quotedField = false;
    } else if (c === "\n" || c === "\r") {
      break;
    } else field += c;
  }
  out.push(field);
  return out;
}
