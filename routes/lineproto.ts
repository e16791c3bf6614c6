/**
 * Line-protocol (InfluxDB) endpoints: v1 and v2 writes, ping and health. One table per measurement,
 * created with GreptimeDB's LastNonNull options (reference §6.8, §7.1); a bad line rejects the whole
 * request before anything is written, because parsing finishes before the one storage transaction.
 */
import type { Ctx } from "./context.ts";
import { invalidArguments } from "../src/common/errors.ts";
import { parseLineProtocolBody } from "../src/protocols/lineproto/stream/pool.ts";
import { enterWrite, paceWrite } from "../src/protocols/lineproto/stream/pacing.ts";
import type { Storage } from "../src/storage/mod.ts";
import type { DataType, TableOptions, WriteBatch } from "../src/common/rows.ts";
import { rescaleTime } from "../src/common/time_unit.ts";

const SEMANTIC: TableOptions = {
  "greptime.semantic.signal_type": "metric",
  "greptime.semantic.source": "influxdb",
};

/**
 * Table options a batch carries for creation: the semantic stamps and the merge mode (the hint, else
 * `[influxdb] default_merge_mode`), spelled out on a `physical` create so storage takes it as given
 * (its `last_non_null` create type would force `last_non_null`). Append mode keeps no merge mode.
 */
export function influxCreateOptions(
  batches: WriteBatch[],
  hints: Record<string, string>,
  defaultMergeMode: string,
): void {
  const appendMode = hints.append_mode?.trim().toLowerCase() === "true";
  const mergeMode = (hints.merge_mode ?? defaultMergeMode).trim().toLowerCase();
  if (mergeMode !== "last_row" && mergeMode !== "last_non_null") {
    throw invalidArguments(`Invalid value for table option merge_mode: '${hints.merge_mode}'`);
  }
  const options = appendMode ? SEMANTIC : { ...SEMANTIC, merge_mode: mergeMode };
  for (const b of batches) {
    b.options = options;
    b.createType = "physical";
  }
}

const PER_SECOND: Partial<Record<DataType, bigint>> = {
  TimestampSecond: 1n,
  TimestampMillisecond: 1_000n,
  TimestampMicrosecond: 1_000_000n,
  TimestampNanosecond: 1_000_000_000n,
};

/**
 * GreptimeDB's `accommodate_existing_schema` done on the batches before writing: when a batch's
 * table exists, its time index values are converted to the table's unit, and for single-value
 * protocols (`singleField`) the one value field takes the name of the table's only field.
 * Storage's writer does the same for mito tables (`accommodateExistingSchema`, `singleValue`);
 * this stays for batches that may land in metric-engine tables.
 */
export function accommodateExistingTables(
  storage: Storage,
  db: string,
  batches: WriteBatch[],
  singleField = false,
): void {
  if (!storage.hasDatabase(db)) return;
  for (const b of batches) {
    const table = storage.getTable(db, b.table);
    if (table === undefined) continue;
    const have = new Set(table.columns.map((c) => c.name));
    const tableTime = table.columns.find((c) => c.name === table.timeIndex);
    const at = b.columns.findIndex((c) => c.semantic === "TIMESTAMP");
    if (at >= 0 && tableTime !== undefined && tableTime.type !== b.columns[at].type) {
      const from = PER_SECOND[b.columns[at].type], to = PER_SECOND[tableTime.type];
      if (from !== undefined && to !== undefined) {
        for (const row of b.rows) {
          const v = row[at];
          if (typeof v === "number" || typeof v === "bigint") row[at] = rescaleTime(v, from, to);
        }
        b.columns = b.columns.map((c, i) => (i === at ? { ...c, type: tableTime.type } : c));
      }
    }
    if (singleField) {
      const fields = b.columns.filter((c) => c.semantic === "FIELD");
      const tableFields = table.columns.filter((c) => c.semantic === "FIELD");
      if (fields.length === 1 && !have.has(fields[0].name) && tableFields.length === 1) {
        b.columns = b.columns.map((c) => (c === fields[0] ? { ...c, name: tableFields[0].name } : c));
      }
    }
  }
}

/** Current time in nanoseconds (for lines without a timestamp). */
function nowNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** `POST /v1/lineproto/write` and `/v1/lineproto/api/v2/write`: line protocol body → 204. */
export async function write(ctx: Ctx): Promise<Response> {
  const body = await ctx.body({ shared: true });
  const leave = enterWrite(body.byteLength);
  try {
    return await writeBody(ctx, body);
  } finally {
    leave();
  }
}

async function writeBody(ctx: Ctx, body: Uint8Array): Promise<Response> {
  const precision = ctx.query("precision") ?? undefined;
  const storage = ctx.app.storage;
  const batches = await parseLineProtocolBody(
    body,
    precision === "" ? undefined : precision,
    nowNanos(),
    (stop) => storage.onClose(stop),
  );
  await paceWrite(body.byteLength);
  influxCreateOptions(batches, ctx.hints, ctx.app.config.influxdb.default_merge_mode);
  // Storage converts time units for mito tables itself, but the metric engine's path truncates a
  // negative ns time toward zero instead of flooring it, so the route still converts first.
  accommodateExistingTables(ctx.app.storage, ctx.db, batches);
  const rows = ctx.app.storage.write(ctx.db, batches, {
    hints: ctx.hints,
    accommodateExistingSchema: true,
  });
  ctx.app.metrics.addIngestedRows("influxdb", rows);
  return new Response(null, { status: 204 });
}

/** `GET /v1/lineproto/ping` → 204, as InfluxDB clients expect. */
export function ping(): Response {
  return new Response(null, { status: 204 });
}

/** `GET /v1/lineproto/health` → 200 with an empty body. */
export function health(): Response {
  return new Response(null, { status: 200 });
}
