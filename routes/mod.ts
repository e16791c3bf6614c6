/**
 * THE route table: every endpoint of the spec, its handler, who may call it and the shape of its
 * errors. Paths use the spec's names; the router also serves each `/v1/<protocol>/…` path under
 * GreptimeDB's real protocol name (`lineproto` ↔ `influxdb`, `metricsapi` ↔ `prometheus`,
 * `telemetry` ↔ `otlp`, `logpush` ↔ `loki`, `tsjson` ↔ `opentsdb`).
 */
import type { AppRoute } from "./context.ts";
import * as admin from "./admin.ts";
import * as lineproto from "./lineproto.ts";
import { lazyRoutes } from "./lazy.ts";
import { loadPipelineEngine } from "../engine/store.ts";

/** A lazily loaded route module that runs pipelines: the pipeline engine loads with it. */
function withPipelines<M extends object>(load: () => Promise<M>) {
  return lazyRoutes(async () => (await Promise.all([load(), loadPipelineEngine()]))[0]);
}

// Loaded on first use (see lazy.ts): what an idle or line-protocol-only server never needs.
const { dashboard } = lazyRoutes(() => import("./dashboard.ts"));
const sql = lazyRoutes(() => import("./sql.ts"));
const metricsapi = lazyRoutes(() => import("./metricsapi.ts"));
const promApi = lazyRoutes(() => import("./prometheus_api.ts"));
const { promql } = lazyRoutes(() => import("./promql.ts"));
const tsjson = lazyRoutes(() => import("./tsjson.ts"));
const pipelines = withPipelines(() => import("./pipelines.ts"));
const prof = lazyRoutes(() => import("./profiling.ts"));
const { ingest } = withPipelines(() => import("./ingest.ts"));
const otlp = withPipelines(() => import("./otlp.ts"));
const loki = withPipelines(() => import("./loki.ts"));
const es = withPipelines(() => import("./elasticsearch.ts"));
const splunk = withPipelines(() => import("./splunk.ts"));
const { health: splunkHealth } = lazyRoutes(() => import("./splunk.ts")); // no pipeline engine for a probe
const jaeger = lazyRoutes(() => import("./jaeger.ts"));
const { logs } = lazyRoutes(() => import("./logs.ts"));
const forward = lazyRoutes(() => import("./forward.ts"));
const dashboards = lazyRoutes(() => import("./dashboards.ts"));

const GP = ["GET", "POST"] as const;

export const ROUTES: AppRoute[] = [
  // Administration (never authenticated).
  { method: "GET", path: "/", handler: admin.index, auth: "public", errors: "plain" },
  { method: [...GP], path: "/health", handler: admin.health, auth: "public", errors: "plain" },
  { method: [...GP], path: "/ready", handler: admin.health, auth: "public", errors: "plain" },
  { method: [...GP], path: "/v1/health", handler: admin.health, auth: "public", errors: "plain" },
  { method: "GET", path: "/status", handler: admin.status, auth: "public", errors: "plain" },
  { method: "GET", path: "/metrics", handler: admin.metrics, auth: "public", errors: "plain" },
  { method: "GET", path: "/config", handler: admin.config, auth: "public", errors: "plain" },
  { method: [...GP], path: "/dashboard", handler: dashboard, auth: "public", errors: "plain" },
  { method: [...GP], path: "/dashboard/*", handler: dashboard, auth: "public", errors: "plain" },
  { method: "POST", path: "/debug/log_level", handler: admin.logLevel, auth: "public", errors: "plain" },
  {
    method: "POST",
    path: "/debug/enable_trace",
    handler: admin.enableTrace,
    auth: "public",
    errors: "plain",
  },
  { method: "POST", path: "/debug/prof/cpu", handler: prof.cpu, auth: "public", errors: "plain" },
  { method: "POST", path: "/debug/prof/mem", handler: prof.mem, auth: "public", errors: "plain" },
  { method: "GET", path: "/debug/prof/mem/status", handler: prof.memStatus, auth: "public", errors: "plain" },
  {
    method: "POST",
    path: "/debug/prof/mem/activate",
    handler: prof.memActivate,
    auth: "public",
    errors: "plain",
  },
  {
    method: "POST",
    path: "/debug/prof/mem/deactivate",
    handler: prof.memDeactivate,
    auth: "public",
    errors: "plain",
  },
  { method: [...GP], path: "/debug/prof/mem/gdump", handler: prof.gdump, auth: "public", errors: "plain" },
  { method: "POST", path: "/debug/prof/mem/symbol", handler: prof.symbol, auth: "public", errors: "plain" },

  // Queries.
  { method: [...GP], path: "/v1/sql", handler: sql.sql, auth: "custom", errors: "greptime" },
  { method: [...GP], path: "/v1/sql/parse", handler: sql.parse, auth: "user", errors: "plain" },
  { method: [...GP], path: "/v1/sql/format", handler: sql.format, auth: "user", errors: "greptime" },
  {
    method: "POST",
    path: "/v1/sql/analyze/stream",
    handler: sql.analyzeStream,
    auth: "read",
    errors: "greptime",
    feature: "explain_analyze_stream",
  },
  { method: [...GP], path: "/v1/promql", handler: promql, auth: "read", errors: "greptime" },
  {
    method: "GET",
    path: "/v1/forward/dead_letters",
    handler: forward.deadLetters,
    auth: "read",
    errors: "greptime",
  },
  { method: [...GP], path: "/v1/logs", handler: logs, auth: "read", errors: "greptime" },

  // Log ingestion and pipelines.
  {
    method: "POST",
    path: "/v1/ingest",
    handler: ingest,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
  },
  {
    method: "POST",
    path: "/v1/events/logs",
    handler: ingest,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
  },
  { method: "POST", path: "/v1/pipelines/_dryrun", handler: pipelines.dryrun, auth: "read", errors: "plain" },
  {
    method: "POST",
    path: "/v1/events/pipelines/dryrun",
    handler: pipelines.dryrun,
    auth: "read",
    errors: "plain",
  },
  { method: "GET", path: "/v1/pipelines/:name", handler: pipelines.get, auth: "read", errors: "plain" },
  { method: "POST", path: "/v1/pipelines/:name", handler: pipelines.upload, auth: "write", errors: "plain" },
  {
    method: "DELETE",
    path: "/v1/pipelines/:name",
    handler: pipelines.remove,
    auth: "write",
    errors: "plain",
  },
  { method: "GET", path: "/v1/pipelines/:name/ddl", handler: pipelines.ddl, auth: "read", errors: "plain" },
  {
    method: "GET",
    path: "/v1/events/pipelines/:name",
    handler: pipelines.get,
    auth: "read",
    errors: "plain",
  },
  {
    method: "POST",
    path: "/v1/events/pipelines/:name",
    handler: pipelines.upload,
    auth: "write",
    errors: "plain",
  },
  {
    method: "DELETE",
    path: "/v1/events/pipelines/:name",
    handler: pipelines.remove,
    auth: "write",
    errors: "plain",
  },

  // Line protocol (InfluxDB).
  {
    method: "POST",
    path: "/v1/lineproto/write",
    handler: lineproto.write,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "influxdb",
  },
  {
    method: "POST",
    path: "/v1/lineproto/api/v2/write",
    handler: lineproto.write,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "influxdb",
  },
  {
    method: [...GP],
    path: "/v1/lineproto/query",
    handler: lineproto.query,
    auth: "custom",
    errors: "plain",
    feature: "influxdb",
  },
  {
    method: "GET",
    path: "/v1/lineproto/ping",
    handler: lineproto.ping,
    auth: "public",
    errors: "plain",
    feature: "influxdb",
  },
  {
    method: "GET",
    path: "/v1/lineproto/health",
    handler: lineproto.health,
    auth: "public",
    errors: "plain",
    feature: "influxdb",
  },

  // Metrics remote write/read and query API (Prometheus).
  {
    method: "POST",
    path: "/v1/metricsapi/write",
    handler: metricsapi.write,
    // the handler checks write permission after the VictoriaMetrics handshake, as GreptimeDB's does
    auth: "custom",
    errors: "plain",
    feature: "prom_store",
    timeoutIsGatewayTimeout: true,
  },
  {
    method: "POST",
    path: "/v1/metricsapi/read",
    handler: metricsapi.read,
    auth: "read",
    errors: "plain",
    feature: "prom_store",
  },
  ...Object.entries({
    query: promApi.query,
    query_range: promApi.queryRange,
    labels: promApi.labels,
    series: promApi.series,
    format_query: promApi.formatQuery,
    parse_query: promApi.parseQuery,
    // GET only in Prometheus and GreptimeDB; the spec lists GET and POST for every endpoint here.
    "label/:name/values": promApi.labelValuesRoute,
    "status/buildinfo": promApi.buildinfo,
  }).map(([p, handler]): AppRoute => ({
    method: [...GP],
    path: `/v1/metricsapi/api/v1/${p}`,
    handler,
    // Parsing, formatting and the build info read no data: any user (GreptimeDB checks no permission).
    auth: ["format_query", "parse_query", "status/buildinfo"].includes(p) ? "user" : "read",
    errors: "prometheus",
    compressResponse: true,
  })),
  // Not in the spec's list: GET only, as in Prometheus and GreptimeDB.
  {
    method: "GET",
    path: "/v1/metricsapi/api/v1/metadata",
    handler: promApi.metadata,
    auth: "read",
    errors: "prometheus",
    compressResponse: true,
  },

  // Telemetry (OpenTelemetry OTLP/HTTP), log push (Loki), JSON put (OpenTSDB).
  {
    method: "POST",
    path: "/v1/telemetry/v1/metrics",
    handler: otlp.metrics,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "otlp",
  },
  {
    method: "POST",
    path: "/v1/telemetry/v1/traces",
    handler: otlp.traces,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "otlp",
  },
  {
    method: "POST",
    path: "/v1/telemetry/v1/logs",
    handler: otlp.logs,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "otlp",
  },
  {
    method: "POST",
    path: "/v1/logpush/api/v1/push",
    handler: loki.push,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
    feature: "loki",
  },
  {
    method: "GET",
    path: "/v1/logpush/ready",
    handler: admin.lokiReady,
    auth: "public",
    errors: "plain",
    feature: "loki",
  },
  {
    method: "POST",
    path: "/v1/tsjson/api/put",
    handler: tsjson.put,
    auth: "write",
    errors: "plain",
    feature: "opentsdb",
  },

  // Elasticsearch bulk ingestion and the calls shippers make at start-up (any user: a shipper's
  // write-only user must get past them, as in GreptimeDB).
  { method: "GET", path: "/v1/elasticsearch", handler: es.version, auth: "user", errors: "plain" },
  { method: "GET", path: "/v1/elasticsearch/", handler: es.version, auth: "user", errors: "plain" },
  { method: "GET", path: "/v1/elasticsearch/_license", handler: es.license, auth: "user", errors: "plain" },
  {
    method: "GET",
    path: "/v1/elasticsearch/_cluster/health",
    handler: es.clusterHealth,
    auth: "user",
    errors: "plain",
  },
  {
    method: "POST",
    path: "/v1/elasticsearch/_bulk",
    handler: es.bulk,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
  },
  {
    method: "POST",
    path: "/v1/elasticsearch/:index/_bulk",
    handler: es.bulk,
    auth: "write",
    errors: "plain",
    timeoutIsGatewayTimeout: true,
  },
  ...["_ilm/policy", "_index_template", "_ingest", "_nodes", "logstash", "_logstash"].flatMap((p) =>
    [`/v1/elasticsearch/${p}`, `/v1/elasticsearch/${p}/*`].map((path): AppRoute => ({
      method: ["GET", "POST", "PUT", "DELETE"],
      path,
      handler: es.accepted,
      auth: "user",
      errors: "plain",
    }))
  ),

  // Splunk HTTP Event Collector.
  ...["", "/1.0"].map((v): AppRoute => ({
    method: "GET",
    path: `/v1/splunk/services/collector/health${v}`,
    handler: splunkHealth,
    auth: "public",
    errors: "splunk",
  })),
  ...["", "/event", "/event/1.0", "/raw", "/raw/1.0"].map((p): AppRoute => ({
    method: "POST",
    path: `/v1/splunk/services/collector${p}`,
    handler: p.startsWith("/raw") ? splunk.raw : splunk.event,
    auth: "write",
    errors: "splunk",
  })),

  // Trace queries (Jaeger) and dashboards.
  ...([
    ["services", jaeger.services],
    ["services/:service/operations", jaeger.serviceOperations],
    ["operations", jaeger.operations],
    ["traces", jaeger.traces],
    ["traces/:id", jaeger.trace],
  ] as const).map(([p, handler]): AppRoute => ({
    method: "GET",
    path: `/v1/jaeger/api/${p}`,
    handler,
    auth: "read",
    errors: "jaeger",
    feature: "jaeger",
  })),
  { method: "GET", path: "/v1/dashboards/", handler: dashboards.list, auth: "read", errors: "plain" },
  { method: "GET", path: "/v1/dashboards", handler: dashboards.list, auth: "read", errors: "plain" },
  { method: "POST", path: "/v1/dashboards/:name", handler: dashboards.save, auth: "write", errors: "plain" },
  {
    method: "DELETE",
    path: "/v1/dashboards/:name",
    handler: dashboards.remove,
    auth: "write",
    errors: "plain",
  },
];
