/**
 * Rows of an ordinary table as InfluxDB line protocol for GreptimeDB's `/v1/influxdb/write`: the
 * table name is the measurement, TAG columns are tags, FIELD columns are fields (integers with `i`,
 * unsigned with `u`, strings quoted, booleans `t`/`f`), the time index is the timestamp in the
 * table's unit (sent as `precision`). GreptimeDB keeps the upstream table's own time index name
 * when it exists (`accommodate_existing_schema`), else it names it `greptime_timestamp`. Binary
 * cells and rows without any non-null field have no line-protocol form and are left out.
 */
import type { Value } from "../common/rows.ts";
import type { TableMeta } from "../storage/mod.ts";

const escapeMeasurement = (s: string) => s.replace(/[\\, ]/g, (c) => `\\${c}`);
const escapeKey = (s: string) => s.replace(/[\\,= ]/g, (c) => `\\${c}`);
const escapeString = (s: string) => s.replace(/[\\"]/g, (c) => `\\${c}`);

function fieldValue(type: string, v: Value): string | null {
  if (v === null || v instanceof Uint8Array) return null;
  switch (type) {
    case "Boolean":
      return v === true || v === 1 || v === 1n ? "t" : "f";
    case "Int8":
    case "Int16":
    case "Int32":
    case "Int64":
      return `${BigInt(v as number | bigint)}i`;
    case "UInt8":
    case "UInt16":
    case "UInt32":
    case "UInt64":
      return `${BigInt(v as number | bigint)}u`;
    case "Float32":
    case "Float64": {
      const n = Number(v);
      if (!Number.isFinite(n)) return null;
      return Number.isInteger(n) ? n.toFixed(1) : String(n);
    }
    default:
      return `"${escapeString(String(v))}"`;
  }
}

/** The rows (values in the table's column order) as line protocol; "" when no row can be sent. */
export function encodeTableRows(table: TableMeta, rows: Value[][]): string {
  const measurement = escapeMeasurement(table.name);
  const tags: number[] = [], fields: number[] = [];
  let time = -1;
  table.columns.forEach((c, i) => {
    if (c.name === table.timeIndex) time = i;
    else if (table.primaryKey.includes(c.name)) tags.push(i);
    else fields.push(i);
  });
  const lines: string[] = [];
  for (const row of rows) {
    let line = measurement;
    for (const i of tags) {
      const v = row[i];
      if (v === null || v === "" || v instanceof Uint8Array) continue;
      line += `,${escapeKey(table.columns[i].name)}=${escapeKey(String(v))}`;
    }
    const parts: string[] = [];
    for (const i of fields) {
      const v = fieldValue(table.columns[i].type, row[i]);
      if (v !== null) parts.push(`${escapeKey(table.columns[i].name)}=${v}`);
    }
    if (parts.length === 0) continue;
    lines.push(`${line} ${parts.join(",")} ${BigInt(row[time] as number | bigint)}`);
  }
  return lines.join("\n");
}
