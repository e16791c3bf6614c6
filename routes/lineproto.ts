/**
 * Line-protocol (InfluxDB) endpoints: v1 and v2 writes, ping and health. One table per measurement,
 * created with GreptimeDB's LastNonNull options (reference §6.8, §7.1); a bad line rejects the whole
 * request before anything is written, because parsing finishes before the one storage transaction.
 */
import type { RequestContext } from "../src/http/context.ts";
import { parseLineProtocol } from "../src/protocols/lineproto.ts";
import type { TableOptions, WriteBatch } from "../src/storage/types.ts";

const SEMANTIC: TableOptions = {
  "greptime.semantic.signal_type": "metric",
  "greptime.semantic.source": "influxdb",
};

/**
 * Table options a batch carries for creation: the semantic stamps, and the merge mode when it is
 * `last_row` (from the hint, else `[influxdb] default_merge_mode`). Storage's `last_non_null` create
 * type always forces `merge_mode='last_non_null'`, so a `last_row` table is created as `physical`
 * with the option spelled out instead (same table, same options as GreptimeDB's).
 */
export function influxCreateOptions(
  batches: WriteBatch[],
  hints: Record<string, string>,
  defaultMergeMode: string,
): void {
  const appendMode = hints.append_mode?.trim().toLowerCase() === "true";
  const mergeMode = (hints.merge_mode ?? defaultMergeMode).trim().toLowerCase();
  const lastRow = !appendMode && mergeMode === "last_row";
  for (const b of batches) {
    b.options = lastRow ? { ...SEMANTIC, merge_mode: "last_row" } : { ...SEMANTIC };
    if (lastRow) b.createType = "physical";
  }
}

/** Current time in nanoseconds (for lines without a timestamp). */
function nowNanos(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** `POST /v1/lineproto/write` and `/v1/lineproto/api/v2/write`: line protocol body → 204. */
export async function write(ctx: RequestContext): Promise<Response> {
  const precision = ctx.query("precision") ?? undefined;
  const text = await ctx.text();
  const batches = parseLineProtocol(text, precision === "" ? undefined : precision, nowNanos());
  influxCreateOptions(batches, ctx.hints, ctx.app.config.influxdb.default_merge_mode);
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
