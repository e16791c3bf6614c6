/**
 * GreptimeDB's secondary indexes as column options: the defaults a fulltext or skipping index gets,
 * the checks on given options (pipeline `index:` and SQL `… INDEX WITH(…)` share them), and the
 * clause SHOW CREATE TABLE prints after the column.
 */
import type { ColumnIndex } from "../common/rows.ts";

const DEFAULTS: Record<"fulltext" | "skipping", Record<string, string>> = {
  fulltext: {
    analyzer: "English",
    backend: "bloom",
    case_sensitive: "false",
    false_positive_rate: "0.01",
    granularity: "10240",
  },
  skipping: { false_positive_rate: "0.01", granularity: "10240", type: "BLOOM" },
};

/** The options of a `kind` index, GreptimeDB's defaults filled in; throws an Error naming a bad option. */
export function indexOptions(
  kind: "fulltext" | "skipping",
  given: Record<string, string>,
): Record<string, string> {
  const out = { ...DEFAULTS[kind] };
  const bad = (): never => {
    throw new Error(`Invalid options for \`${kind}\` index`);
  };
  for (const [k, v] of Object.entries(given)) {
    if (k === "granularity") {
      if (!/^[0-9]+$/.test(v) || Number(v) <= 0 || Number(v) > 4294967295) bad();
      out.granularity = String(Number(v));
    } else if (k === "false_positive_rate") {
      const r = Number(v);
      if (!(r > 0 && r <= 1)) bad();
      out.false_positive_rate = String(r);
    } else if (kind === "fulltext" && k === "analyzer") {
      const a = v.toLowerCase();
      if (a !== "english" && a !== "chinese") bad();
      out.analyzer = a === "english" ? "English" : "Chinese";
    } else if (kind === "fulltext" && k === "case_sensitive") {
      if (v !== "true" && v !== "false") bad();
      out.case_sensitive = v;
    } else if (kind === "fulltext" && k === "backend") {
      const b = v.toLowerCase();
      if (b !== "bloom" && b !== "tantivy") bad();
      out.backend = b;
    } else if (kind === "skipping" && k === "type") {
      if (v.toUpperCase() !== "BLOOM") bad();
    } else throw new Error(`Unsupported option \`${k}\` for \`${kind}\` index`);
  }
  return out;
}

/** The clause after a column in SHOW CREATE TABLE (`INVERTED INDEX`, `FULLTEXT INDEX WITH(…)`), or "". */
export function indexClause(index: ColumnIndex | undefined): string {
  if (!index) return "";
  if (index.kind === "inverted") return " INVERTED INDEX";
  const opts = Object.keys(index.options).sort().map((k) => `${k} = '${index.options[k]}'`).join(", ");
  return index.kind === "fulltext" ? ` FULLTEXT INDEX WITH(${opts})` : ` SKIPPING INDEX WITH(${opts})`;
}
