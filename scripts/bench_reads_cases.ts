/**
 * The queries the `reads` bench times (bench_reads.ts): each run returns how many items the answer
 * held; a reference runs straight on the SQLite file, the same query or a read of as many rows.
 */
import type { DatabaseSync } from "node:sqlite";
import { DAY, HOUR, NEEDLE } from "./bench_reads_data.ts";

/** One query to time. */
export interface ReadCase {
  name: string;
  petrel: () => Promise<number>;
  /** Given what Petrel's answer held. */
  reference?: (items: number) => number;
  /** Whether an empty answer is right. */
  empty?: boolean;
}

async function json(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const r = await fetch(url, init);
  const body = await r.json();
  if (r.status !== 200) throw new Error(`${url} → ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** What every group of cases shares: the server, the SQLite file and the helpers over them. */
function environment(url: string, raw: DatabaseSync, endMs: number) {
  const all = (sql: string, ...params: (string | number | bigint)[]) => {
    const stmt = raw.prepare(sql);
    stmt.setReadBigInts(true);
    return stmt.all(...params).length;
  };
  const sql = async (q: string) => {
    const body = await json(`${url}/v1/sql?sql=${encodeURIComponent(q)}`);
    return (body.output as { records: { rows: unknown[] } }[])[0].records.rows.length;
  };
  const data = async (path: string) => {
    const d = (await json(url + path)).data;
    return Array.isArray(d) ? d.length : ((d as { result: unknown[] }).result.length);
  };
  const logs = (body: unknown) => async () => {
    const r = await json(`${url}/v1/logs`, { method: "POST", body: JSON.stringify(body) });
    return (r.output as { records: { rows: unknown[] } }[])[0].records.rows.length;
  };
  const rows = (table: string, order = "1") => (n: number) =>
    all(`SELECT * FROM "${table}" ORDER BY ${order} DESC LIMIT ?`, n);
  const iso = (ms: number) => new Date(ms).toISOString();
  const hourAgoNs = BigInt(endMs - HOUR) * 1_000_000n, endNs = BigInt(endMs) * 1_000_000n;
  const seriesTable = (raw.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_\\_petrel\\_series\\_%' ESCAPE '\\'",
  ).get() as { name: string }).name;
  const traceId = (raw.prepare(
    "SELECT trace_id FROM opentelemetry_traces WHERE timestamp >= ? ORDER BY timestamp LIMIT 1",
  ).get(hourAgoNs) as { trace_id: string }).trace_id;
  const us = (ms: number) => String(ms * 1000);
  const hour = `start=${us(endMs - HOUR)}&end=${us(endMs)}`,
    day = `start=${us(endMs - DAY)}&end=${us(endMs)}`;
  const jaeger = "/v1/jaeger/api", prom = "/v1/prometheus/api/v1";
  const promHour = `start=${(endMs - HOUR) / 1000}&end=${endMs / 1000}`;
  const promDay = `start=${(endMs - DAY) / 1000}&end=${endMs / 1000}`;
  const range = `start=${(endMs - DAY) / 1000}&end=${endMs / 1000}&step=60`;
  const q = encodeURIComponent;
  const contains = { column_name: "line", filters: [{ Contains: NEEDLE }] };
  const logsQuery = (startMs: number) => ({
    table: { table_name: "loki_logs" },
    time_filter: { start: iso(startMs), end: iso(endMs) },
    filters: contains,
    limit: { fetch: 100 },
  });
  return {
    all,
    contains,
    data,
    endNs,
    hour,
    day,
    hourAgoNs,
    iso,
    jaeger,
    logs,
    logsQuery,
    prom,
    promHour,
    promDay,
    q,
    range,
    rows,
    seriesTable,
    sql,
    traceId,
    us,
    endMs,
  };
}

type Env = ReturnType<typeof environment>;

/** Log reads: /v1/logs and SQL over the Loki and OTLP log tables. */
function logsCases(e: Env): ReadCase[] {
  const { all, endNs, hourAgoNs, iso, logs, logsQuery, sql, endMs } = e;
  return [
    {
      name: "/v1/logs loki_logs, last 1 h, Contains, limit 100",
      petrel: logs(logsQuery(endMs - HOUR)),
      reference: () =>
        all(
          `SELECT * FROM loki_logs WHERE greptime_timestamp >= ? AND greptime_timestamp < ?
           AND instr(line, ?) > 0 ORDER BY greptime_timestamp LIMIT 100`,
          hourAgoNs,
          endNs,
          NEEDLE,
        ),
    },
    {
      name: "/v1/logs loki_logs, 24 h, Contains, limit 100",
      petrel: logs(logsQuery(endMs - DAY)),
      reference: () =>
        all(
          `SELECT * FROM loki_logs WHERE greptime_timestamp >= ? AND instr(line, ?) > 0
           ORDER BY greptime_timestamp LIMIT 100`,
          BigInt(endMs - DAY) * 1_000_000n,
          NEEDLE,
        ),
    },
    {
      name: "SQL loki_logs ts > now() - 1h AND line LIKE, DESC LIMIT 100",
      petrel: () =>
        sql(
          `SELECT greptime_timestamp, line, pod FROM loki_logs WHERE greptime_timestamp > now() - INTERVAL '1 hour'
             AND line LIKE '%${NEEDLE}%' ORDER BY greptime_timestamp DESC LIMIT 100`,
        ),
      reference: () =>
        all(
          `SELECT greptime_timestamp, line, pod FROM loki_logs WHERE greptime_timestamp > ?
           AND line LIKE '%${NEEDLE}%' ORDER BY greptime_timestamp DESC LIMIT 100`,
          BigInt(Date.now() - HOUR) * 1_000_000n,
        ),
      empty: true,
    },
    {
      name: "SQL loki_logs latest 100 lines, DESC LIMIT 100",
      petrel: () => sql(`SELECT * FROM loki_logs ORDER BY greptime_timestamp DESC LIMIT 100`),
      reference: () => all(`SELECT * FROM loki_logs ORDER BY greptime_timestamp DESC LIMIT 100`),
    },
    {
      name: "SQL loki_logs count(*) GROUP BY pod, 24 h",
      petrel: () => sql(`SELECT pod, count(*) FROM loki_logs GROUP BY pod ORDER BY pod`),
      reference: () => all(`SELECT pod, count(*) FROM loki_logs GROUP BY pod ORDER BY pod`),
    },
    {
      name: "SQL opentelemetry_logs last 1 h, body LIKE, DESC LIMIT 100",
      petrel: () =>
        sql(`SELECT "timestamp", body FROM opentelemetry_logs WHERE "timestamp" >= '${iso(endMs - HOUR)}'
             AND body LIKE '%${NEEDLE}%' ORDER BY "timestamp" DESC LIMIT 100`),
      reference: () =>
        all(
          `SELECT timestamp, body FROM opentelemetry_logs WHERE timestamp >= ?
           AND body LIKE '%${NEEDLE}%' ORDER BY timestamp DESC LIMIT 100`,
          hourAgoNs,
        ),
    },
    {
      name: "SQL opentelemetry_logs count(*) GROUP BY severity_text, 24 h",
      petrel: () => sql(`SELECT severity_text, count(*) FROM opentelemetry_logs GROUP BY severity_text`),
      reference: () => all(`SELECT severity_text, count(*) FROM opentelemetry_logs GROUP BY severity_text`),
    },
  ];
}

/** The Jaeger query API. */
function tracesCases(e: Env): ReadCase[] {
  const { all, data, hour, day, jaeger, q, rows, traceId } = e;
  return [
    {
      name: "Jaeger /services",
      petrel: () => data(`${jaeger}/services`),
      reference: () => all(`SELECT DISTINCT service_name FROM opentelemetry_traces_services`),
    },
    {
      name: "Jaeger /operations?service=frontend",
      petrel: () => data(`${jaeger}/operations?service=frontend`),
      reference: () => all(`SELECT * FROM opentelemetry_traces_operations WHERE service_name = 'frontend'`),
    },
    {
      name: "Jaeger /traces?service=checkout, last 1 h, limit=20",
      petrel: () => data(`${jaeger}/traces?service=checkout&${hour}&limit=20`),
      reference: (n) => rows("opentelemetry_traces", "timestamp")(n * 10),
    },
    {
      name: "Jaeger /traces?service=checkout, 24 h, limit=20",
      petrel: () => data(`${jaeger}/traces?service=checkout&${day}&limit=20`),
      reference: (n) => rows("opentelemetry_traces", "timestamp")(n * 10),
    },
    {
      name: "Jaeger /traces … 1 h, tags={http.status_code:500}",
      petrel: () =>
        data(`${jaeger}/traces?service=frontend&${hour}&limit=20&tags=${q('{"http.status_code":"500"}')}`),
      reference: (n) => rows("opentelemetry_traces", "timestamp")(n * 10),
    },
    {
      name: "Jaeger /traces … 24 h, minDuration=110ms",
      petrel: () => data(`${jaeger}/traces?service=frontend&${day}&limit=20&minDuration=110ms`),
      reference: (n) => rows("opentelemetry_traces", "timestamp")(n * 10),
    },
    {
      name: "Jaeger /traces/{id}",
      petrel: () => data(`${jaeger}/traces/${traceId}`),
      reference: () => rows("opentelemetry_traces", "timestamp")(10),
    },
  ];
}

/** Prometheus' metadata endpoints and range queries. */
function promCases(e: Env): ReadCase[] {
  const { all, data, prom, promDay, promHour, q, range, seriesTable } = e;
  return [
    {
      name: 'Prometheus /series?match[]=http_requests_total{job="job-3"}, 1 h',
      petrel: () => data(`${prom}/series?match[]=${q('http_requests_total{job="job-3"}')}&${promHour}`),
      reference: (n) => all(`SELECT * FROM "${seriesTable}" LIMIT ?`, n),
    },
    {
      name: 'Prometheus /series?match[]={job="job-3"}, 1 h',
      petrel: () => data(`${prom}/series?match[]=${q('{job="job-3"}')}&${promHour}`),
      reference: (n) => all(`SELECT * FROM "${seriesTable}" LIMIT ?`, n),
    },
    {
      name: 'Prometheus /series?match[]={job="job-3"}, no start/end (all time)',
      petrel: () => data(`${prom}/series?match[]=${q('{job="job-3"}')}`),
    },
    {
      name: "Prometheus /labels, 1 h",
      petrel: () => data(`${prom}/labels?${promHour}`),
    },
    {
      name: "Prometheus /labels?match[]=http_requests_total, 1 h",
      petrel: () => data(`${prom}/labels?match[]=http_requests_total&${promHour}`),
    },
    {
      name: "Prometheus /label/__name__/values, 1 h",
      petrel: () => data(`${prom}/label/__name__/values?${promHour}`),
    },
    {
      name: "Prometheus /label/instance/values, 1 h",
      petrel: () => data(`${prom}/label/instance/values?${promHour}`),
    },
    {
      name: "Prometheus /label/pod/values (a Loki label), 1 h",
      petrel: () => data(`${prom}/label/pod/values?${promHour}`),
    },
    {
      name: "Prometheus /label/pod/values (a Loki label), no start/end (all time)",
      petrel: () => data(`${prom}/label/pod/values`),
    },
    {
      name: "Prometheus /label/instance/values, 24 h",
      petrel: () => data(`${prom}/label/instance/values?${promDay}`),
    },
    {
      name: "Prometheus /labels?match[]=http_requests_total, 24 h",
      petrel: () => data(`${prom}/labels?match[]=http_requests_total&${promDay}`),
    },
    {
      name: 'query_range rate(http_requests_total{instance="i-7"}[5m]), 24 h, 1 m',
      petrel: () =>
        data(`${prom}/query_range?query=${q('rate(http_requests_total{instance="i-7"}[5m])')}&${range}`),
    },
    {
      name: "query_range sum by (job) (rate(http_requests_total[5m])), 24 h, 1 m",
      petrel: () =>
        data(`${prom}/query_range?query=${q("sum by (job) (rate(http_requests_total[5m]))")}&${range}`),
    },
  ];
}

/**
 * SQL on the metric table picking a few series by tag over a time range: 10 of its 5k series
 * (`instance = 'i-7'`) over the day (their chunks, or a scan of the day's 7.2M samples) and over the
 * data's last hour (a closed hour and the open one).
 */
function metricSqlCases(e: Env): ReadCase[] {
  const { all, iso, sql, endMs } = e;
  const day = `greptime_timestamp >= '${iso(endMs - DAY)}'`;
  const read = (n: number) => all(`SELECT * FROM greptime_physical_table LIMIT ?`, n);
  return [
    {
      name: "SQL http_requests_total instance = 'i-7' (10 series), ts >= 24 h ago, SELECT *",
      petrel: () => sql(`SELECT * FROM http_requests_total WHERE instance = 'i-7' AND ${day}`),
      reference: read,
    },
    {
      name: "SQL http_requests_total instance = 'i-7', ts >= 24 h ago, count, sum GROUP BY code",
      petrel: () =>
        sql(`SELECT code, count(*), sum(greptime_value) FROM http_requests_total
             WHERE instance = 'i-7' AND ${day} GROUP BY code`),
    },
    {
      name: "SQL http_requests_total instance = 'i-7', ts > 1 h before the end, SELECT *",
      petrel: () =>
        sql(`SELECT * FROM http_requests_total WHERE instance = 'i-7'
             AND greptime_timestamp > '${iso(endMs - HOUR)}'`),
      reference: read,
    },
  ];
}

/** The catalog: SHOW, DESC and information_schema over 300 tables. */
function catalogCases(e: Env): ReadCase[] {
  const { all, sql } = e;
  return [
    {
      name: "SQL SHOW TABLES (306 tables)",
      petrel: () => sql("SHOW TABLES"),
      reference: () => all("SELECT name FROM sqlite_master WHERE type = 'table'"),
    },
    {
      name: "SQL DESC TABLE bench_table_7",
      petrel: () => sql("DESC TABLE bench_table_7"),
    },
    {
      name: "SQL SELECT * FROM information_schema.tables",
      petrel: () => sql("SELECT * FROM information_schema.tables"),
      reference: () => all("SELECT * FROM sqlite_master"),
    },
    {
      name: "SQL SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      petrel: () => sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"),
      reference: () => all("SELECT name FROM sqlite_master WHERE type = 'table'"),
    },
    {
      name: "SQL SELECT * FROM information_schema.columns WHERE table_name = 'loki_logs'",
      petrel: () => sql("SELECT * FROM information_schema.columns WHERE table_name = 'loki_logs'"),
    },
  ];
}

/** Every case, over one loaded server and its SQLite file. */
export function readCases(url: string, raw: DatabaseSync, endMs: number): ReadCase[] {
  const e = environment(url, raw, endMs);
  return [...logsCases(e), ...tracesCases(e), ...promCases(e), ...metricSqlCases(e), ...catalogCases(e)];
}
