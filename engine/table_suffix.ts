/** `table_suffix` templates like `_${type}_${region}` (reference §6). */
import { compileError, type YamlLocation } from "./errors.ts";
import { isInteger } from "./value.ts";

/** A compiled template: literal text and entry keys, alternating. */
export interface TableSuffixTemplate {
  parts: (string | { key: string })[];
}

/** Compiles a template string; `${name}` names are trimmed and may not contain `}`. */
export function compileTableSuffix(text: string | undefined, loc: YamlLocation): TableSuffixTemplate {
  const fail = () => compileError("A valid table suffix template is required for tablesuffix section", loc);
  if (text === undefined || text === "") return fail();
  const parts: TableSuffixTemplate["parts"] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("${", i);
    if (start < 0) {
      parts.push(text.slice(i));
      break;
    }
    if (start > i) parts.push(text.slice(i, start));
    const end = text.indexOf("}", start + 2);
    if (end < 0) return fail();
    const key = text.slice(start + 2, end).trim();
    if (key === "") return fail();
    parts.push({ key });
    i = end + 1;
  }
  return { parts };
}

/** Renders the suffix for an entry; undefined when a key is missing or not a string/integer. */
export function renderTableSuffix(
  t: TableSuffixTemplate,
  entry: Record<string, unknown>,
  skip?: ReadonlySet<string>,
): string | undefined {
  let out = "";
  for (const p of t.parts) {
    if (typeof p === "string") {
      out += p;
      continue;
    }
    if (skip?.has(p.key)) return undefined;
    const v = entry[p.key];
    if (typeof v === "string") out += v;
    else if (isInteger(v)) out += String(v);
    else return undefined;
  }
  return out;
}
