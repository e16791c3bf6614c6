/**
 * Vector's `file` enrichment table: a CSV file read once at start, cells typed by the table's
 * `schema` (columns without one stay strings). Conversions follow Vector's: `integer`/`int`, `float`,
 * `boolean`/`bool` (`true`/`t`/`yes`/`y`, `false`/`f`/`no`/`n`, any integer ≠ 0), `date` (`%Y-%m-%d`, or
 * `date|FORMAT`) at midnight UTC, `timestamp` (Vector's automatic formats) or `timestamp|FORMAT`.
 */

import { parse as parseCsv } from "csv-parse/sync";
import type { FileTableConfig } from "../../../src/config/enrichment_tables.ts";
import {
  CHRONO_PARSE,
  compileParse,
  type ParseFormat,
  parseTimeOrNull,
} from "../../../src/common/strptime.ts";
import { VrlTimestamp, type VrlValue } from "../value.ts";
import { EnrichmentTable } from "./table.ts";

/** Turns one cell's text into a value; throws an Error saying why not. */
type Conversion = (text: string) => VrlValue;

/** Reads and types a configured CSV table; throws an Error naming the table, row and column. */
export async function loadFileTable(config: FileTableConfig): Promise<EnrichmentTable> {
  const { path, encoding } = config.file;
  const fail = (msg: string): never => {
    throw new Error(`enrichment table "${config.name}" (${path}): ${msg}`);
  };
  let records: string[][];
  try {
    records = parseCsv(await Deno.readTextFile(path), {
      delimiter: encoding.delimiter,
      relax_column_count: false,
      skip_empty_lines: true,
    });
  } catch (e) {
    return fail((e as Error).message);
  }
  let headers: string[];
  if (encoding.include_headers) {
    if (records.length === 0) return fail("the file has no header row");
    headers = records.shift()!;
  } else headers = (records[0] ?? []).map((_, i) => String(i));
  const conversions = headers.map((h) => {
    const spec = config.schema[h];
    try {
      return spec === undefined ? undefined : conversion(spec);
    } catch (e) {
      return fail(`schema of column "${h}": ${(e as Error).message}`);
    }
  });
  const rows = records.map((rec, r) =>
    rec.map((text, c) => {
      const conv = conversions[c];
      if (!conv) return text;
      try {
        return conv(text);
      } catch (e) {
        const line = r + (encoding.include_headers ? 2 : 1);
        return fail(`row ${line}, column "${headers[c]}": ${(e as Error).message}`);
      }
    })
  );
  return new EnrichmentTable(config.name, headers, rows);
}

/** The conversion a schema type names (Vector's `Conversion::parse` plus the file table's `date`). */
export function conversion(spec: string): Conversion {
  const bar = spec.indexOf("|");
  const type = (bar < 0 ? spec : spec.slice(0, bar)).trim();
  const format = bar < 0 ? undefined : spec.slice(bar + 1).trim();
  switch (type) {
    case "string":
    case "bytes":
    case "asis":
      return (s) => s;
    case "integer":
    case "int":
      return parseInteger;
    case "float":
      return parseFloatCell;
    case "boolean":
    case "bool":
      return parseBool;
    case "date": {
      // A date has no time of day: parse it at midnight with the time appended.
      const fmt = timeFormat(`${format ?? "%Y-%m-%d"} %H:%M:%S`);
      return (s) => toTimestamp(parseTimeOrNull(`${s} 00:00:00`, fmt), s, "date");
    }
    case "timestamp": {
      if (format !== undefined) {
        const fmt = timeFormat(format);
        return (s) => toTimestamp(parseTimeOrNull(s, fmt), s, "timestamp");
      }
      return (s) =>
        toTimestamp(AUTO_FORMATS.map((f) => parseTimeOrNull(s, f)).find((p) => p), s, "timestamp");
    }
  }
  throw new Error(`unknown type "${spec}"`);
}

function parseInteger(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`"${s}" is not an integer`);
  const n = BigInt(s);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) throw new Error(`"${s}" is out of the integer range`);
  return n;
}

function parseFloatCell(s: string): number {
  const t = s.trim() === s ? s : "";
  const n = /^[+-]?(inf|infinity)$/i.test(t) ? (t.startsWith("-") ? -Infinity : Infinity) : Number(t);
  if (t === "" || Number.isNaN(n) || /^[+-]?0x/i.test(t)) throw new Error(`"${s}" is not a float`);
  return n;
}

/** Vector's `parse_bool`. */
function parseBool(s: string): boolean {
  const l = s.toLowerCase();
  if (["true", "t", "yes", "y"].includes(l)) return true;
  if (["false", "f", "no", "n"].includes(l)) return false;
  if (/^[+-]?\d+$/.test(s)) return BigInt(s) !== 0n;
  throw new Error(`"${s}" is not a boolean`);
}

function timeFormat(format: string): ParseFormat {
  const f = compileParse(format, CHRONO_PARSE);
  if (!f) throw new Error(`invalid time format "${format}"`);
  return f;
}

function toTimestamp(
  p: { ms: number; subMs: number } | null | undefined,
  text: string,
  what: string,
): VrlTimestamp {
  if (!p) throw new Error(`"${text}" is not a ${what} in the configured format`);
  return VrlTimestamp.fromMs(p.ms, p.subMs);
}

/** Vector's automatic timestamp formats (`vector-core` conversion); times without a zone are UTC. */
const AUTO_FORMATS: ParseFormat[] = [
  "%F %T",
  "%v %T",
  "%FT%T",
  "%m/%d/%Y:%T",
  "%a, %d %b %Y %T",
  "%a %d %b %T %Y",
  "%A %d %B %T %Y",
  "%a %b %e %T %Y",
  "%s",
  "%FT%TZ",
  "%+",
  "%a %d %b %T %Z %Y",
  "%a %d %b %T %z %Y",
  "%a %d %b %T %#z %Y",
  "%d/%b/%Y:%T %z",
].map(timeFormat);
