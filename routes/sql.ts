/** `GET|POST /v1/sql`: GreptimeDB-dialect SQL executed on SQLite, answered in the requested format. */
import type { Ctx } from "./context.ts";
import {
  databaseNotFound,
  invalidArguments,
  StatusCode,
  unsupportedMediaType,
} from "../src/common/errors.ts";
import { renderSqlOutputs } from "../src/http/formats/mod.ts";
import { isReadOnlySql } from "../src/sql/mod.ts";
import { formatSql } from "../src/sql/format.ts";
import { parseAst } from "../src/sql/parse_ast.ts";
import { executeSqlAsync } from "../src/sql/async.ts";
import { greptimeOutputJson } from "../src/http/formats/greptimedb_v1.ts";
import { sseResponse } from "../src/http/sse.ts";
import {
  type AnalyzeEvent,
  planAnalyzeStream,
  runAnalyzeStream,
  snapshotInterval,
} from "../src/sql/analyze_stream.ts";
import type { PromQLBackend } from "../src/sql/tql/mod.ts";
import { promqlBackend as storageBackend } from "../src/query/tql_backend.ts";
import { requestBudget } from "./prometheus_api.ts";

/**
 * The parameters of a SQL request: query string first, then a form body (reference §6.1).
 * `tolerant`: a body of another type is ignored instead of answered with 415 (the analyze stream).
 */
async function sqlParams(ctx: Ctx, tolerant = false): Promise<URLSearchParams> {
  const params = new URLSearchParams(ctx.url.search);
  if (ctx.req.method !== "POST") return params;
  const type = (ctx.req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const body = await ctx.text();
  if (type === "application/x-www-form-urlencoded") {
    for (const [k, v] of new URLSearchParams(body)) if (!params.has(k)) params.set(k, v);
  } else if (type === "" || type === "text/plain" || type === "application/sql") {
    // The spec sends SQL "in the request body"; GreptimeDB only reads forms. Both work here.
    if (!params.has("sql") && body.trim() !== "") params.set("sql", body);
  } else if (!tolerant) {
    throw unsupportedMediaType(
      "Form requests must have `Content-Type: application/x-www-form-urlencoded`",
      StatusCode.Unsupported,
    );
  }
  return params;
}

/** Runs the `sql` parameter's statements against the `db` parameter's database. */
export async function sql(ctx: Ctx): Promise<Response> {
  const params = await sqlParams(ctx);
  const text = params.get("sql");
  if (text === null || text.trim() === "") throw invalidArguments("sql parameter is required.");
  const db = dbParam(params.get("db")) ?? ctx.db;
  ctx.authorize(isReadOnlySql(text) ? "read" : "write");
  const storage = ctx.app.storage;
  if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  // Reads of file-backed databases run in a worker, so a runaway query ends with the request's
  // timeout instead of stalling the server.
  // An empty header means the server's default, as a missing one does (reference §2.2).
  const timezone = ctx.req.headers.get("x-greptime-timezone")?.trim() || undefined;
  const systemTimezone = ctx.app.config.default_timezone;
  const budget = requestBudget(ctx);
  const outputs = await executeSqlAsync(storage, text, { db, timezone, systemTimezone }, {
    signal: ctx.signal,
    promql: promqlBackend(ctx),
    flows: ctx.app.flows,
    copyDir: ctx.app.config.storage.copy_dir,
    onRowsWritten: (db, rows) => ctx.app.metrics.addIngestedRows("sql", db, rows),
    ...(budget !== null ? { timeoutMs: Math.max(0, budget.leftMs) } : {}),
  });
  const limit = params.get("limit");
  return renderSqlOutputs(outputs, {
    format: params.get("format") ?? "greptimedb_v1",
    epoch: params.get("epoch") ?? undefined,
    limit: limit !== null && /^\d+$/.test(limit) ? Number(limit) : undefined,
    compression: params.get("compression") ?? undefined,
    executionTimeMs: ctx.elapsedMs(),
  });
}

/** Storage as TQL's PromQL engine reads it (as `/v1/promql` does). */
function promqlBackend(ctx: Ctx): PromQLBackend {
  return storageBackend(ctx.app.storage, ctx.app.config.query.max_samples, true);
}

function dbParam(value: string | null): string | null {
  if (!value) return null;
  return value.startsWith("greptime-") ? value.slice("greptime-".length) : value;
}

/** `GET|POST /v1/sql/parse`: the `sql` parameter's statements as GreptimeDB's AST (JSON array). */
export async function parse(ctx: Ctx): Promise<Response> {
  const text = (await sqlParams(ctx)).get("sql");
  if (text === null || text.trim() === "") {
    throw invalidArguments("Invalid query: sql parameter is required.");
  }
  return Response.json(parseAst(text));
}

/** `GET|POST /v1/sql/format`: the `sql` parameter's statements re-printed (`{"formatted": …}`). */
export async function format(ctx: Ctx): Promise<Response> {
  const text = (await sqlParams(ctx)).get("sql");
  if (text === null || text.trim() === "") throw invalidArguments("sql parameter is required.");
  return Response.json({ formatted: formatSql(text) });
}

/**
 * `POST /v1/sql/analyze/stream`: `EXPLAIN ANALYZE VERBOSE [FORMAT JSON] <query>` (or `TQL ANALYZE
 * …`) as Server-Sent Events (`metrics` snapshots, then `final` | `error` | `canceled`); a bad request is refused before
 * the stream starts.
 */
export async function analyzeStream(ctx: Ctx): Promise<Response> {
  const params = await sqlParams(ctx, true);
  const text = params.get("sql");
  if (text === null || text.trim() === "") throw invalidArguments("sql parameter is required.");
  const db = dbParam(params.get("db")) ?? ctx.db;
  const intervalMs = snapshotInterval(params.get("snapshot_interval_ms"));
  const timezone = ctx.req.headers.get("x-greptime-timezone") ?? undefined;
  const storage = ctx.app.storage;
  const planned = planAnalyzeStream(storage, text, { db, timezone }, promqlBackend(ctx));
  return sseResponse((sink) =>
    runAnalyzeStream(planned, {
      intervalMs,
      signal: sink.signal,
      emit: (e) => sink.send(e.state, eventJson(e)),
    })
  );
}

function eventJson(e: AnalyzeEvent): string {
  const { output, ...rest } = e;
  const head = JSON.stringify(rest);
  return output ? `${head.slice(0, -1)},"output":[${greptimeOutputJson(output)}]}` : head;
}
