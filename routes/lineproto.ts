/** Line-protocol (InfluxDB) endpoints: v1 and v2 writes, ping and health (reference §6.8). */
import type { Ctx } from "./context.ts";
import { PetrelError, StatusCode } from "../src/common/errors.ts";
import { ingestLineProtocol } from "../src/ingest/lineproto.ts";
import { accessOf, influxQlResults, parseInfluxQl } from "../src/protocols/lineproto/influxql.ts";
import { runInfluxQl } from "../src/query/influxql.ts";

/**
 * A write to a database that does not exist, worded as InfluxDB 1.x words it: Telegraf's
 * `outputs.influxdb` re-creates the database (and keeps the batch) only when the error contains
 * "database not found" in lower case; on any other 4xx it drops the metrics for good.
 */
function influxDatabaseNotFound(e: unknown, db: string): unknown {
  if (!(e instanceof PetrelError) || e.code !== StatusCode.DatabaseNotFound) return e;
  return new PetrelError(StatusCode.DatabaseNotFound, `database not found: ${JSON.stringify(db)}`);
}

/** `POST /v1/lineproto/write` and `/v1/lineproto/api/v2/write`: line protocol body → 204. */
export async function write(ctx: Ctx): Promise<Response> {
  const rows = await ingestLineProtocol(ctx.app.storage, {
    db: ctx.db,
    body: await ctx.body({ shared: true }),
    precision: ctx.query("precision") ?? undefined,
    hints: ctx.hints,
    defaultMergeMode: ctx.app.config.influxdb.default_merge_mode,
  }).catch((e) => {
    throw influxDatabaseNotFound(e, ctx.db);
  });
  ctx.app.metrics.addIngestedRows("influxdb", ctx.db, rows);
  return new Response(null, { status: 204 });
}

/**
 * `GET|POST /v1/lineproto/query`: the InfluxQL `CREATE DATABASE` / `SHOW DATABASES` that Telegraf and
 * InfluxDB 1.x tools send before writing; `q` from the URL or a form body.
 */
export async function query(ctx: Ctx): Promise<Response> {
  let q = ctx.query("q");
  const type = ctx.req.headers.get("content-type") ?? "";
  if (q === null && ctx.req.method === "POST" && /^application\/x-www-form-urlencoded/i.test(type)) {
    q = new URLSearchParams(await ctx.text()).get("q");
  }
  const statements = parseInfluxQl(q);
  for (const st of statements) ctx.authorize(accessOf(st));
  return Response.json(influxQlResults(runInfluxQl(ctx.app.storage, statements)));
}

/** `GET /v1/lineproto/ping` → 204, as InfluxDB clients expect. */
export function ping(): Response {
  return new Response(null, { status: 204 });
}

/** `GET /v1/lineproto/health` → 200 with an empty body. */
export function health(): Response {
  return new Response(null, { status: 200 });
}
