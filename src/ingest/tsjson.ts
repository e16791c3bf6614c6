/**
 * OpenTSDB JSON put into tables (reference §6.13, §7.7): one table per metric with its tags, a
 * `greptime_value` field and a millisecond `greptime_timestamp`.
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import type { ColumnSchema, Value, WriteBatch } from "../common/rows.ts";
import { type TsJsonPoint, tsjsonTimestampMs } from "../protocols/tsjson/parser.ts";
import type { Storage } from "../storage/mod.ts";

/** Name of the value column of tables created by JSON put. */
const TSJSON_VALUE = "greptime_value";
/** Name of the time index column of tables created by JSON put. */
const TSJSON_TIME_INDEX = "greptime_timestamp";

const OPTIONS = {
  "greptime.semantic.signal_type": "metric",
  "greptime.semantic.source": "opentsdb",
};

/** Groups points into one batch per metric: tags (first-seen order), value, timestamp (ms). */
export function tsjsonToBatches(points: TsJsonPoint[]): WriteBatch[] {
  const tables = new Map<
    string,
    { tagIndex: Map<string, number>; tags: string[]; rows: [Record<string, string>, number, number][] }
  >();
  for (const p of points) {
    let t = tables.get(p.metric);
    if (t === undefined) {
      t = { tagIndex: new Map(), tags: [], rows: [] };
      tables.set(p.metric, t);
    }
    for (const k of Object.keys(p.tags)) {
      if (!t.tagIndex.has(k)) t.tagIndex.set(k, t.tags.push(k) - 1);
    }
    t.rows.push([p.tags, p.value, tsjsonTimestampMs(p.timestamp)]);
  }
  const out: WriteBatch[] = [];
  for (const [metric, t] of tables) {
    const columns: ColumnSchema[] = t.tags.map((name) => ({ name, type: "String", semantic: "TAG" }));
    columns.push({ name: TSJSON_VALUE, type: "Float64", semantic: "FIELD" });
    columns.push({ name: TSJSON_TIME_INDEX, type: "TimestampMillisecond", semantic: "TIMESTAMP" });
    const rows = t.rows.map(([tags, value, ts]) => {
      const row: Value[] = t.tags.map((k) => (Object.hasOwn(tags, k) ? tags[k] : null));
      row.push(value, ts);
      return row;
    });
    out.push({ table: metric, columns, rows, createType: "physical", options: OPTIONS });
  }
  return out;
}

/** The message a failed point reports: GreptimeDB's masked form for internal faults. */
function pointError(e: unknown): string {
  if (e instanceof PetrelError) {
    return e.code === StatusCode.Internal || e.code === StatusCode.Unknown
      ? `Internal error: ${e.code}`
      : e.message;
  }
  return (e as Error).message ?? String(e);
}

/** What a put wrote: rows, and with `perPoint` each point's failure (or null). */
export interface TsJsonResult {
  rows: number;
  errors: (string | null)[];
}

/**
 * Writes the points: all in one transaction (a bad point fails the put with 400), or
 * with `perPoint` each point on its own, failures reported per point.
 */
export function ingestTsJson(
  storage: Storage,
  db: string,
  points: TsJsonPoint[],
  opts: { hints: Record<string, string>; perPoint: boolean },
): TsJsonResult {
  const write = { hints: opts.hints, accommodateExistingSchema: true, singleValue: true };
  if (!opts.perPoint) {
    try {
      return { rows: storage.write(db, tsjsonToBatches(points), write), errors: [] };
    } catch (e) {
      // Bad points are the client's to fix: their own code (400) and message, where GreptimeDB masks
      // every failure as a 500 `Internal error: 1003` that shippers would retry forever.
      if (e instanceof PetrelError && e.code !== StatusCode.Internal && e.code !== StatusCode.Unknown) {
        throw new PetrelError(e.code, `Failed to write OpenTSDB points: ${e.message}`);
      }
      throw new PetrelError(StatusCode.Internal, `Failed to write OpenTSDB points: ${pointError(e)}`);
    }
  }
  const errors: (string | null)[] = [];
  let rows = 0;
  for (const p of points) {
    try {
      rows += storage.write(db, tsjsonToBatches([p]), write);
      errors.push(null);
    } catch (e) {
      errors.push(pointError(e));
    }
  }
  return { rows, errors };
}
