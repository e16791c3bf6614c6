/** `POST /v1/tsjson/api/put`: JSON data points (OpenTSDB's put, reference §6.13, §7.7). */
import type { Ctx } from "./context.ts";
import { PetrelError, StatusCode } from "../src/common/errors.ts";
import {
  parseTsJsonPut,
  type TsJsonPoint,
  tsjsonPutSummary,
  tsjsonToBatches,
} from "../src/protocols/tsjson/parser.ts";
import type { WriteBatch } from "../src/common/rows.ts";

const OPTIONS = {
  "greptime.semantic.signal_type": "metric",
  "greptime.semantic.source": "opentsdb",
};

function batchesOf(points: TsJsonPoint[]): WriteBatch[] {
  const batches = tsjsonToBatches(points);
  for (const b of batches) b.options = OPTIONS;
  return batches;
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

/**
 * Writes the points. Without `summary`/`details`: all in one transaction, 204, and any write failure
 * is GreptimeDB's `500 Internal error: 1003`. With either: each point on its own, 200 with counts.
 */
export async function put(ctx: Ctx): Promise<Response> {
  const points = parseTsJsonPut(await ctx.text());
  const storage = ctx.app.storage;
  const opts = { hints: ctx.hints, accommodateExistingSchema: true, singleValue: true };
  const summary = ctx.url.searchParams.has("summary");
  const details = ctx.url.searchParams.has("details");
  if (!summary && !details) {
    let rows: number;
    try {
      rows = storage.write(ctx.db, batchesOf(points), opts);
    } catch (e) {
      throw new PetrelError(StatusCode.Internal, `Failed to write OpenTSDB points: ${pointError(e)}`);
    }
    ctx.app.metrics.addIngestedRows("opentsdb", rows);
    return new Response(null, { status: 204 });
  }
  const errors: (string | null)[] = [];
  let rows = 0;
  for (const p of points) {
    try {
      rows += storage.write(ctx.db, batchesOf([p]), opts);
      errors.push(null);
    } catch (e) {
      errors.push(pointError(e));
    }
  }
  ctx.app.metrics.addIngestedRows("opentsdb", rows);
  return new Response(tsjsonPutSummary(points, errors, details), {
    headers: { "content-type": "application/json" },
  });
}
