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
 * [enrichment_tables.geo]
 * type = "geoip"                        # a MaxMind GeoIP2/GeoLite2 City, ISP, ASN or Connection-Type database
 * path = "/etc/petrel/GeoLite2-City.mmdb"
 * locale = "en"                         # default "en"
 *
 * [enrichment_tables.nets]
 * type = "mmdb"                         # any MaxMind DB; records come back as stored
 * path = "/etc/petrel/networks.mmdb"
 * ```
 *
 * This module checks the shape only; the engine reads the files (`engine/vrl/enrichment/`).
 */

/** A CSV table (Vector's key names). */
export interface FileTableConfig {
  name: string;
  type: "file";
  file: { path: string; encoding: { type: "csv"; delimiter: string; include_headers: boolean } };
  /** Column → `string`, `integer`, `float`, `boolean`, `date[|FORMAT]` or `timestamp[|FORMAT]`. */
  schema: Record<string, string>;
}

/** A MaxMind GeoIP2/GeoLite2 database read as Vector's `geoip` table. */
export interface GeoipTableConfig {
  name: string;
  type: "geoip";
  path: string;
  locale: string;
}

/** Any MaxMind DB read as Vector's `mmdb` table. */
export interface MmdbTableConfig {
  name: string;
  type: "mmdb";
  path: string;
}

/** One configured table. */
export type EnrichmentTableConfig = FileTableConfig | GeoipTableConfig | MmdbTableConfig;

const SCHEMA_TYPES = /^(string|bytes|asis|integer|int|float|boolean|bool|date|timestamp)(\s*\|.*)?$/;

/** Reads the `enrichment_tables` table of a config file; throws an Error naming the bad key. */
export function parseEnrichmentTables(value: unknown, source: string): EnrichmentTableConfig[] {
  const where = (key: string) => `'enrichment_tables${key ? "." + key : ""}' in ${source}`;
  if (!isTable(value)) throw new Error(`Invalid ${where("")}: expected a table of tables`);
  return Object.entries(value).map(([name, raw]) => {
    if (!isTable(raw)) throw new Error(`Invalid ${where(name)}: expected a table`);
    if (raw.type === "geoip" || raw.type === "mmdb") return parseMmdbTable(name, raw, where);
    if (raw.type !== "file") {
      throw new Error(
        `Invalid ${where(`${name}.type`)}: expected "file", "geoip" or "mmdb", got ${
          JSON.stringify(raw.type ?? null)
        }`,
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

/** `type = "geoip"` (`path`, `locale`) or `type = "mmdb"` (`path`). */
function parseMmdbTable(
  name: string,
  raw: Record<string, unknown>,
  where: (key: string) => string,
): GeoipTableConfig | MmdbTableConfig {
  const geoip = raw.type === "geoip";
  onlyKeys(raw, geoip ? ["type", "path", "locale"] : ["type", "path"], (k) => where(`${name}.${k}`));
  if (typeof raw.path !== "string" || raw.path === "") {
    throw new Error(`Invalid ${where(`${name}.path`)}: expected the path of an MMDB file`);
  }
  if (!geoip) return { name, type: "mmdb", path: raw.path };
  const locale = raw.locale ?? "en";
  if (typeof locale !== "string" || locale === "") {
    throw new Error(`Invalid ${where(`${name}.locale`)}: expected a locale such as "en"`);
  }
  return { name, type: "geoip", path: raw.path, locale };
}

/** The tables as TOML, for `GET /config`. */
export function renderEnrichmentTablesToml(tables: EnrichmentTableConfig[]): string[] {
  const lines: string[] = [];
  const key = (k: string) => /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
  for (const t of tables) {
    lines.push("", `[enrichment_tables.${key(t.name)}]`, `type = "${t.type}"`);
    if (t.type !== "file") {
      lines.push(`path = ${JSON.stringify(t.path)}`);
      if (t.type === "geoip") lines.push(`locale = ${JSON.stringify(t.locale)}`);
      continue;
    }
    const { path, encoding: e } = t.file;
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
