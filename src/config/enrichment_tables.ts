/**
 * `[enrichment_tables.NAME]`: the tables VRL's `get_enrichment_table_record` and
 * `find_enrichment_table_records` read, configured as in Vector:
 *
 * ```toml
 * [enrichment_tables.codes]
 * type = "file"
 * file.path = "/etc/petrel/codes.csv"
 * file.encoding.type = "csv"
 * file.encoding.delimiter = ","        # default ","
 * file.encoding.include_headers = true # default true; false names the columns "0", "1", …
 * schema = { code = "integer", since = "date", seen = "timestamp|%d/%m/%Y %H:%M" }
 * ```
 *
 * This module checks the shape only; the engine reads the file (`engine/vrl/enrichment/`).
 */

/** One configured table (Vector's key names). */
export interface EnrichmentTableConfig {
  name: string;
  type: "file";
  file: { path: string; encoding: { type: "csv"; delimiter: string; include_headers: boolean } };
  /** Column → `string`, `integer`, `float`, `boolean`, `date[|FORMAT]` or `timestamp[|FORMAT]`. */
  schema: Record<string, string>;
}

const SCHEMA_TYPES = /^(string|bytes|asis|integer|int|float|boolean|bool|date|timestamp)(\s*\|.*)?$/;

/** Reads the `enrichment_tables` table of a config file; throws an Error naming the bad key. */
export function parseEnrichmentTables(value: unknown, source: string): EnrichmentTableConfig[] {
  const where = (key: string) => `'enrichment_tables${key ? "." + key : ""}' in ${source}`;
  if (!isTable(value)) throw new Error(`Invalid ${where("")}: expected a table of tables`);
  return Object.entries(value).map(([name, raw]) => {
    if (!isTable(raw)) throw new Error(`Invalid ${where(name)}: expected a table`);
    if (raw.type !== "file") {
      throw new Error(
        `Invalid ${where(`${name}.type`)}: ${
          JSON.stringify(raw.type ?? null)
        } is not supported by Petrel (only "file"; "geoip" and "mmdb" are not)`,
      );
    }
    onlyKeys(raw, ["type", "file", "schema"], (k) => where(`${name}.${k}`));
    const file = raw.file;
    if (!isTable(file)) throw new Error(`Missing ${where(`${name}.file`)}: a table with path and encoding`);
    onlyKeys(file, ["path", "encoding"], (k) => where(`${name}.file.${k}`));
    if (typeof file.path !== "string" || file.path === "") {
      throw new Error(`Invalid ${where(`${name}.file.path`)}: expected the path of a CSV file`);
    }
    const enc = file.encoding ?? { type: "csv" };
    if (!isTable(enc) || enc.type !== "csv") {
      throw new Error(`Invalid ${where(`${name}.file.encoding`)}: expected { type = "csv" }`);
    }
    onlyKeys(enc, ["type", "delimiter", "include_headers"], (k) => where(`${name}.file.encoding.${k}`));
    const delimiter = enc.delimiter ?? ",";
    if (typeof delimiter !== "string" || new TextEncoder().encode(delimiter).length !== 1) {
      throw new Error(`Invalid ${where(`${name}.file.encoding.delimiter`)}: expected one character`);
    }
    const headers = enc.include_headers ?? true;
    if (typeof headers !== "boolean") {
      throw new Error(`Invalid ${where(`${name}.file.encoding.include_headers`)}: expected a boolean`);
    }
    const schema = raw.schema ?? {};
    if (!isTable(schema)) throw new Error(`Invalid ${where(`${name}.schema`)}: expected a table`);
    for (const [col, type] of Object.entries(schema)) {
      if (typeof type !== "string" || !SCHEMA_TYPES.test(type.trim())) {
        throw new Error(
          `Invalid ${where(`${name}.schema.${col}`)}: expected "string", "integer", "float", "boolean", ` +
            `"date" or "timestamp" (with an optional "|FORMAT"), got ${JSON.stringify(type)}`,
        );
      }
    }
    return {
      name,
      type: "file",
      file: { path: file.path, encoding: { type: "csv", delimiter, include_headers: headers } },
      schema: { ...schema as Record<string, string> },
    };
  });
}

/** The tables as TOML, for `GET /config`. */
export function renderEnrichmentTablesToml(tables: EnrichmentTableConfig[]): string[] {
  const lines: string[] = [];
  const key = (k: string) => /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
  for (const t of tables) {
    const { path, encoding: e } = t.file;
    lines.push("", `[enrichment_tables.${key(t.name)}]`, `type = "file"`);
    lines.push(`file.path = ${JSON.stringify(path)}`, `file.encoding.type = "csv"`);
    lines.push(`file.encoding.delimiter = ${JSON.stringify(e.delimiter)}`);
    lines.push(`file.encoding.include_headers = ${e.include_headers}`);
    const schema = Object.entries(t.schema).map(([c, ty]) => `${key(c)} = ${JSON.stringify(ty)}`);
    if (schema.length) lines.push(`schema = { ${schema.join(", ")} }`);
  }
  return lines;
}

function onlyKeys(table: Record<string, unknown>, keys: string[], where: (k: string) => string): void {
  for (const k of Object.keys(table)) {
    if (!keys.includes(k)) throw new Error(`Unknown configuration key ${where(k)}`);
  }
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}
