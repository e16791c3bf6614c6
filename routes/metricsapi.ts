/**
 * Metrics remote write and remote read (Prometheus protocol, reference §6.9, §7.2). With
 * `prom_store.with_metric_engine` (the default) each metric is a metric-engine logical table on a
 * physical table; a metric whose table already exists as a plain table keeps being written there.
 */
import type { Ctx } from "./context.ts";
import { databaseNotFound, PetrelError } from "../src/common/errors.ts";
import { HttpError } from "../src/http/render_error.ts";
import {
  decodeRemoteWrite,
  type RemoteWriteRequest,
  remoteWriteVersion,
} from "../src/protocols/remote_write/parser.ts";
import { remoteWriteToBatches } from "../src/ingest/metric_tables.ts";
import {
  CHUNKED_READ_RESPONSE_CONTENT_TYPE,
  decodeReadRequest,
  encodeChunkedReadResponse,
  encodeReadResponse,
  type LabelMatcher,
  matchLabels,
  pickReadResponseType,
  READ_RESPONSE_CONTENT_TYPE,
  type ReadQuery,
  readQueryTarget,
} from "../src/protocols/remote_read/request.ts";
import { executeSql } from "../src/sql/mod.ts";
import type { MetricWrite, Storage, TableMeta } from "../src/storage/mod.ts";
import { isMetricTable } from "../src/storage/mod.ts";
import type { Value, WriteBatch } from "../src/common/rows.ts";
import { accommodateExistingTables } from "./lineproto.ts";
import { type Sample, type Series, sortSeries, STALE_NAN } from "../src/common/series.ts";
import { splitSpecialLabels } from "../src/common/labels.ts";

/** The 2.0 response headers: samples written so far, no histograms or exemplars stored. */
function writtenHeaders(samples: number): Record<string, string> {
  return {
    "X-Prometheus-Remote-Write-Samples-Written": String(samples),
    "X-Prometheus-Remote-Write-Histograms-Written": "0",
    "X-Prometheus-Remote-Write-Exemplars-Written": "0",
  };
}

/** The options a table created by remote write gets. */
function createOptions(decoded: RemoteWriteRequest): Record<string, string> {
  return {
    "greptime.semantic.signal_type": "metric",
    "greptime.semantic.source": "prometheus",
    "greptime.semantic.source_version": decoded.version === 2 ? "2.0" : "1.0",
  };
}

/** What one database receives: metric-engine writes, and batches for metrics that are plain tables. */
interface DatabaseWrites {
  metrics: Map<string, MetricWrite>;
  plain: Series[];
}

/**
 * Groups series by database and metric for the metric engine; series of a metric whose table
 * exists as a plain (mito) table are set aside for the plain writer.
 */
function metricWritesByDatabase(
  storage: Storage,
  decoded: RemoteWriteRequest,
  defaultDb: string,
): Map<string, DatabaseWrites> {
  const options = createOptions(decoded);
  const byDb = new Map<string, DatabaseWrites>();
  for (const s of decoded.series) {
    if (s.samples.length === 0) continue;
    const target = splitSpecialLabels(s.labels);
    const db = target.database ?? defaultDb;
    if (!storage.hasDatabase(db)) throw databaseNotFound(db);
    let w = byDb.get(db);
    if (w === undefined) byDb.set(db, w = { metrics: new Map(), plain: [] });
    const existing = storage.getTable(db, target.metric);
    if (existing !== undefined && !isMetricTable(existing)) {
      w.plain.push(s);
      continue;
    }
    const key = `${target.physicalTable ?? ""}\u0000${target.metric}`;
    let m = w.metrics.get(key);
    if (m === undefined) {
      m = { metric: target.metric, series: [], options };
      if (target.physicalTable !== undefined) m.physicalTable = target.physicalTable;
      w.metrics.set(key, m);
    }
    m.series.push({ labels: target.tags, samples: s.samples });
  }
  return byDb;
}

/** Writes through the metric engine; returns the samples written. */
function writeWithMetricEngine(
  ctx: Ctx,
  decoded: RemoteWriteRequest,
  onWritten: (n: number) => void,
): void {
  const storage = ctx.app.storage;
  const byDb = metricWritesByDatabase(storage, decoded, ctx.db);
  // `?physical_table=` picks the physical table; GreptimeDB overwrites the hint header here.
  const hints = { ...ctx.hints };
  delete hints.physical_table;
  const physical = ctx.url.searchParams.get("physical_table");
  if (physical) hints.physical_table = physical;
  for (const [db, w] of byDb) {
    if (w.metrics.size > 0) onWritten(storage.writeMetrics(db, [...w.metrics.values()], { hints }));
    if (w.plain.length > 0) {
      const batches = remoteWriteToBatches(w.plain).map((t) => ({
        ...t.batch,
        options: createOptions(decoded),
      }));
      accommodateExistingTables(storage, db, batches, true);
      const plainHints = { ...hints };
      delete plainHints.physical_table;
      onWritten(storage.write(db, batches, { hints: plainHints, accommodateExistingSchema: true }));
    }
  }
}

/** Groups remote-write tables by target database, stamping the options a created table gets. */
function batchesByDatabase(decoded: RemoteWriteRequest, defaultDb: string): Map<string, WriteBatch[]> {
  const byDb = new Map<string, WriteBatch[]>();
  const options = {
    "greptime.semantic.signal_type": "metric",
    "greptime.semantic.source": "prometheus",
    "greptime.semantic.source_version": decoded.version === 2 ? "2.0" : "1.0",
  };
  for (const t of remoteWriteToBatches(decoded.series)) {
    const db = t.database ?? defaultDb;
    t.batch.options = options;
    t.batch.createType = "physical";
    let list = byDb.get(db);
    if (list === undefined) byDb.set(db, list = []);
    list.push(t.batch);
  }
  return byDb;
}

/** `POST /v1/metricsapi/write`: a remote-write 1.0 or 2.0 request → 204. */
export async function write(ctx: Ctx): Promise<Response> {
  if (ctx.url.searchParams.has("get_vm_proto_version")) {
    // VictoriaMetrics' handshake: "1" means "speak Prometheus remote write 1.0 to me".
    return new Response("1", { headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const contentType = ctx.req.headers.get("content-type");
  let version: 1 | 2 = 1;
  try {
    version = remoteWriteVersion(contentType);
  } catch { /* decodeRemoteWrite answers the 415 */ }
  let written = 0;
  try {
    const { body, encoding } = await ctx.bodyWithEncoding(["snappy", "zstd"]);
    const decoded = decodeRemoteWrite(
      body,
      { contentType, contentEncoding: encoding },
      { limit: ctx.app.config.http.body_limit, strict: ctx.app.config.http.is_strict_mode },
    );
    if (ctx.app.config.prom_store.with_metric_engine) {
      writeWithMetricEngine(ctx, decoded, (n) => written += n);
      return new Response(null, { status: 204, headers: version === 2 ? writtenHeaders(written) : {} });
    }
    const byDb = batchesByDatabase(decoded, ctx.db);
    const storage = ctx.app.storage;
    for (const db of byDb.keys()) if (!storage.hasDatabase(db)) throw databaseNotFound(db);
    // The endpoint picks the physical table itself (GreptimeDB overwrites this hint here).
    const hints = { ...ctx.hints };
    delete hints.physical_table;
    for (const [db, batches] of byDb) {
      accommodateExistingTables(storage, db, batches, true);
      written += storage.write(db, batches, { hints, accommodateExistingSchema: true });
    }
  } catch (e) {
    // 2.0 senders read the counts on errors too (partial writes across databases).
    if (version === 2 && e instanceof PetrelError) {
      throw new HttpError(e, undefined, writtenHeaders(written));
    }
    throw e;
  } finally {
    ctx.app.metrics.addIngestedRows("prometheus", written);
  }
  return new Response(null, { status: 204, headers: version === 2 ? writtenHeaders(written) : {} });
}

/** `POST /v1/metricsapi/read`: a snappy `ReadRequest` → SAMPLES or STREAMED_XOR_CHUNKS response. */
export async function read(ctx: Ctx): Promise<Response> {
  const { body } = await ctx.bodyWithEncoding(["snappy"]);
  const req = decodeReadRequest(body, ctx.app.config.http.body_limit);
  const type = pickReadResponseType(req);
  const results = req.queries.map((q) => ({ series: readSeries(ctx.app.storage, ctx.db, q) }));
  if (type === "STREAMED_XOR_CHUNKS") {
    return new Response(encodeChunkedReadResponse(results), {
      headers: { "content-type": CHUNKED_READ_RESPONSE_CONTENT_TYPE },
    });
  }
  return new Response(encodeReadResponse(results), {
    headers: { "content-type": READ_RESPONSE_CONTENT_TYPE, "content-encoding": "snappy" },
  });
}

/** Time-index units per millisecond, by column type. */
const PER_MS: Record<string, number> = {
  TimestampSecond: 1e-3,
  TimestampMillisecond: 1,
  TimestampMicrosecond: 1e3,
  TimestampNanosecond: 1e6,
};

/** A SQL string literal safe for Petrel's lexer (which also reads `\\'` and `\\\\` escapes). */
function sqlString(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

function sqlIdent(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n;

/**
 * A bound of the time range in the table's unit, as an integer literal within Int64. In finer units
 * the end covers its whole millisecond, matching how read times floor to milliseconds.
 */
function timeLiteral(ms: number, perMs: number, bound: "start" | "end"): string {
  let v: bigint;
  if (perMs >= 1) {
    const unit = BigInt(perMs);
    v = bound === "start" ? BigInt(Math.trunc(ms)) * unit : (BigInt(Math.trunc(ms)) + 1n) * unit - 1n;
  } else v = BigInt(bound === "start" ? Math.ceil(ms * perMs) : Math.floor(ms * perMs));
  return String(v < I64_MIN ? I64_MIN : v > I64_MAX ? I64_MAX : v);
}

/** The value column a series is read from: `greptime_value`, else the first numeric field. */
function valueColumn(table: TableMeta): string | undefined {
  const fields = table.columns.filter((c) => c.semantic === "FIELD");
  if (fields.some((c) => c.name === "greptime_value")) return "greptime_value";
  return fields.find((c) => /^(Float|Int|UInt)/.test(c.type))?.name;
}

/** A time-index value in ms, floored so a sub-millisecond time never lands past the query's end. */
function toMs(v: Value, perMs: number): number {
  if (typeof v === "bigint" && perMs >= 1) {
    const unit = BigInt(perMs);
    let q = v / unit;
    if (q * unit !== v && v < 0n) q -= 1n;
    return Number(q);
  }
  // Seconds: multiply by the exact integer factor (dividing by 1e-3 is inexact in floating point).
  if (perMs < 1) return toNumber(v) * Math.round(1 / perMs);
  return Math.floor(toNumber(v) / perMs);
}

function toNumber(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  return NaN;
}

/**
 * The series answering one remote-read query. A metric with no table yields no series, as Prometheus'
 * own remote-read server answers for an unknown metric: a 400 would turn into a warning on every
 * query a Prometheus with a local copy of other metrics sends (the database must exist, though).
 */
export function readSeries(storage: Storage, defaultDb: string, query: ReadQuery): Series[] {
  const target = readQueryTarget(query);
  const db = target.database ?? defaultDb;
  if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  const table = storage.getTable(db, target.metric);
  if (table === undefined) return [];
  if (isMetricTable(table)) {
    return storage.selectSeries(db, table.name, target.matchers, query.startMs, query.endMs) ?? [];
  }
  const value = valueColumn(table);
  const timeType = table.columns.find((c) => c.name === table.timeIndex)?.type ?? "TimestampMillisecond";
  const perMs = PER_MS[timeType] ?? 1;
  if (value === undefined) return [];
  const tags = table.columns.filter((c) => c.semantic === "TAG").map((c) => c.name);
  const tagSet = new Set(tags);
  const where = [
    `${sqlIdent(table.timeIndex)} >= ${timeLiteral(query.startMs, perMs, "start")}`,
    `${sqlIdent(table.timeIndex)} <= ${timeLiteral(query.endMs, perMs, "end")}`,
  ];
  for (const m of target.matchers) {
    if (m.type !== "EQ" || m.value === "") continue;
    // An equality on a label the table does not have can match nothing.
    if (!tagSet.has(m.name)) return [];
    where.push(`${sqlIdent(m.name)} = ${sqlString(m.value)}`);
  }
  // NULL in `greptime_value` is a stored staleness marker; in any other field it is just no value.
  const staleAsNull = value === "greptime_value";
  if (!staleAsNull) where.push(`${sqlIdent(value)} IS NOT NULL`);
  const cols = [...tags, table.timeIndex, value].map(sqlIdent).join(", ");
  const order = [...tags, table.timeIndex].map(sqlIdent).join(", ");
  const sql = `SELECT ${cols} FROM ${sqlIdent(table.name)} WHERE ${where.join(" AND ")} ORDER BY ${order}`;
  const out = executeSql(storage, sql, { db });
  const records = out[0];
  if (records === undefined || records.kind !== "records") return [];
  const series = groupSeries(target.metric, tags, records.rows, perMs, target.matchers);
  // Prometheus orders series by label set; SQL's tag order differs when tags are not sorted by name.
  return sortSeries(series);
}

/** Rows ordered by tags then time → one series per distinct tag tuple that passes the matchers. */
function groupSeries(
  metric: string,
  tags: string[],
  rows: Value[][],
  perMs: number,
  matchers: LabelMatcher[],
): Series[] {
  const series: Series[] = [];
  const tagCount = tags.length, timeAt = tags.length, valueAt = tags.length + 1;
  let current: Series | null = null;
  let currentKey: string | null = null;
  for (const row of rows) {
    let key = "";
    for (let i = 0; i < tagCount; i++) key += row[i] === null ? "\u0001" : `\u0000${row[i]}`;
    if (key !== currentKey) {
      currentKey = key;
      const labels: Record<string, string> = { __name__: metric };
      for (let i = 0; i < tagCount; i++) {
        if (row[i] !== null && row[i] !== "") labels[tags[i]] = String(row[i]);
      }
      // A rejected series stays null, so its remaining rows are skipped without re-matching.
      current = matchLabels(matchers, labels) ? { labels, samples: [] } : null;
      if (current !== null) series.push(current);
    }
    if (current === null) continue;
    const t = toMs(row[timeAt], perMs);
    const v = row[valueAt];
    // A NULL value is a stored staleness marker (SQLite keeps NaN as NULL).
    const sample: Sample = v === null ? { value: STALE_NAN, timestampMs: t, stale: true } : {
      value: toNumber(v),
      timestampMs: t,
    };
    current.samples.push(sample);
  }
  return series;
}
