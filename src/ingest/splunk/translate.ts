/**
 * HEC events (src/protocols/splunk) → pipeline entries per table, and the identity pipeline's
 * batches → GreptimeDB's Splunk model (reference §6.15): `greptime_timestamp` (ns), then `host`,
 * `source`, `sourcetype` and every `fields.<name>` as String tags in that order (the primary key),
 * then the event's own columns (`event`, or `event.<key>` flattened from an object; `message` for
 * raw lines).
 */
import type { ColumnSchema, Value, WriteBatch } from "../../common/rows.ts";
import { HecCode, HecError, type HecEvent } from "../../protocols/splunk/mod.ts";

/** The table HEC writes without an index, `?table=` or `x-greptime-log-table-name`. */
export const DEFAULT_SPLUNK_TABLE = "splunk_logs";

/** The identity pipeline's time index option for the entries below. */
export const SPLUNK_TIME_INDEX = "greptime_timestamp;epoch;ns";

/** The tags every Splunk table starts with. */
const METADATA_TAGS = ["host", "source", "sourcetype"];

/** The entries bound for one table. */
export interface SplunkTable {
  table: string;
  entries: Record<string, unknown>[];
}

// Splunk's index names (letters, digits, `_`, `-`), which are also plain SQL identifiers here.
const INDEX_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,254}$/;
const RESERVED = /^(__petrel|sqlite_)/i;

/** Checks a table an index or `?table=` names; 400 code 7 when it cannot be one. */
export function checkIndex(name: string, eventNumber?: number): string {
  if (!INDEX_NAME.test(name) || RESERVED.test(name)) {
    throw new HecError(
      HecCode.IncorrectIndex,
      `Incorrect index: ${JSON.stringify(name.slice(0, 100))} is not a valid table name ` +
        "(letters, digits, '_' and '-', not starting with '-')",
      eventNumber,
    );
  }
  return name;
}

/** The entry a pipeline receives for one event (`greptime_timestamp` as ns). */
export function eventEntry(e: HecEvent, arrivalNs: bigint): Record<string, unknown> {
  const entry: Record<string, unknown> = { greptime_timestamp: e.timeNs ?? arrivalNs };
  if (e.host !== null) entry.host = e.host;
  if (e.source !== null) entry.source = e.source;
  if (e.sourcetype !== null) entry.sourcetype = e.sourcetype;
  if (Object.keys(e.fields).length > 0) entry.fields = e.fields;
  if (e.event !== undefined) entry.event = e.event;
  if (e.message !== undefined) entry.message = e.message;
  return entry;
}

/** Groups events by destination table (their index, else `table`), in order of first appearance. */
export function groupByTable(events: HecEvent[], table: string, arrivalNs: bigint): SplunkTable[] {
  const byTable = new Map<string, SplunkTable>();
  events.forEach((e, n) => {
    const name = e.index === null ? table : checkIndex(e.index, n);
    let t = byTable.get(name);
    if (t === undefined) byTable.set(name, t = { table: name, entries: [] });
    t.entries.push(eventEntry(e, arrivalNs));
  });
  return [...byTable.values()];
}

function isTag(name: string): boolean {
  return METADATA_TAGS.includes(name) || name.startsWith("fields.");
}

/**
 * Turns an identity-pipeline batch into the Splunk model: the metadata and indexed-field columns
 * become String tags (unless the table already has them otherwise) and move to the front,
 * `host`/`source`/`sourcetype` first; those three are added when no event had them.
 */
export function toSplunkModel(batch: WriteBatch, existing: ColumnSchema[] | undefined): WriteBatch {
  const known = new Set(existing?.map((c) => c.name));
  const at = new Map(batch.columns.map((c, i) => [c.name, i]));
  const time = batch.columns.findIndex((c) => c.semantic === "TIMESTAMP");
  const order: (number | ColumnSchema)[] = [time];
  for (const name of METADATA_TAGS) order.push(at.get(name) ?? { name, type: "String", semantic: "TAG" });
  batch.columns.forEach((c, i) => {
    if (c.name.startsWith("fields.")) order.push(i);
  });
  batch.columns.forEach((c, i) => {
    if (i !== time && !isTag(c.name)) order.push(i);
  });
  const columns = order.map((o) => {
    if (typeof o !== "number") return o;
    const c = batch.columns[o];
    return isTag(c.name) && !known.has(c.name)
      ? { ...c, type: "String" as const, semantic: "TAG" as const }
      : c;
  });
  const rows = batch.rows.map((r) => order.map((o): Value => typeof o === "number" ? r[o] ?? null : null));
  return { ...batch, columns, rows };
}
