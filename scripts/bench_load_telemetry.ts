/**
 * The log and trace side of the load run (`scripts/bench_load.ts`): OTLP metrics, logs and traces
 * (protobuf and JSON), Loki push (snappy protobuf and JSON) and Elasticsearch `_bulk` writes, and
 * the reads over them: PromQL `query_range`, Jaeger trace search, `/v1/logs` and SQL over the log
 * tables. Protobuf bodies are built with protobufjs from the repo's `.proto` files, as
 * `bench_telemetry.ts` does; each path writes its own table so a lost row names its path.
 */
import protobuf from "protobufjs";
import { encodeSnappy } from "../src/codec/snappy.ts";
import { BATCH, type LoadEndpoint, type LoadRequest } from "./bench_load_mix.ts";

const otlp = protobuf.loadSync(
  new URL("../src/protocols/otlp/proto/collector.proto", import.meta.url).pathname,
);
const loki = protobuf.loadSync(new URL("../src/protocols/loki/proto/push.proto", import.meta.url).pathname);
const MetricsRequest = otlp.lookupType("opentelemetry.proto.collector.v1.ExportMetricsServiceRequest");
const LogsRequest = otlp.lookupType("opentelemetry.proto.collector.v1.ExportLogsServiceRequest");
const TraceRequest = otlp.lookupType("opentelemetry.proto.collector.v1.ExportTraceServiceRequest");
const PushRequest = loki.lookupType("logproto.PushRequest");

type Encoding = "pb" | "json";
const PB = { "content-type": "application/x-protobuf" };
const JSON_TYPE = { "content-type": "application/json" };
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const ns = (ms: number) => `${ms}000000`;
const hex = (n: number, digits: number) => n.toString(16).padStart(digits, "0");
const resource = (c: number) => ({ attributes: [str("service.name", `load-c${c}`)] });
const TRACE_TABLES: Record<Encoding, string> = { pb: "load_traces_pb", json: "load_traces_json" };

/** Protobuf or OTLP JSON of one OTLP message: the JSON form is the same object (ids as hex). */
function otlpBody(type: protobuf.Type, obj: Record<string, unknown>, enc: Encoding): BodyInit {
  if (enc === "json") return JSON.stringify(obj);
  return type.encode(type.fromObject(obj)).finish() as Uint8Array<ArrayBuffer>;
}

/** An OTLP answer with a partial success (some items rejected) is an error here. */
function otlpCheck(enc: Encoding) {
  return (text: string) =>
    enc === "pb" ? (text.length ? `partial success: ${text}` : undefined) : (
      text.includes("partialSuccess") ? text.slice(0, 200) : undefined
    );
}

function otlpMetrics(enc: Encoding): LoadEndpoint {
  return {
    name: `otlp metrics ${enc}`,
    weight: enc === "pb" ? 5 : 3,
    table: `load_otlp_${enc}`,
    request: (c, k, ts) => {
      const dataPoints = Array.from({ length: BATCH }, (_, i) => ({
        timeUnixNano: ns(ts + i),
        asDouble: i * 0.5,
        // a label now and then that the metric has not had: the physical table gets a column
        attributes: [str("client", `c${c}`), ...(i === 0 ? [str(`extra_${k % 40}`, "x")] : [])],
      }));
      const obj = {
        resourceMetrics: [{
          resource: resource(c),
          scopeMetrics: [{
            scope: { name: "load" },
            metrics: [{ name: `load.otlp.${enc}`, gauge: { dataPoints } }],
          }],
        }],
      };
      const headers = enc === "pb" ? PB : JSON_TYPE;
      return { path: "/v1/otlp/v1/metrics", body: otlpBody(MetricsRequest, obj, enc), headers, rows: BATCH };
    },
    check: otlpCheck(enc),
  };
}

function otlpLogs(enc: Encoding): LoadEndpoint {
  const table = `load_logs_${enc}`;
  return {
    name: `otlp logs ${enc}`,
    weight: enc === "pb" ? 5 : 3,
    table,
    request: (c, k, ts) => {
      const logRecords = Array.from({ length: BATCH }, (_, i) => ({
        timeUnixNano: ns(ts + i),
        severityNumber: i % 5 ? 9 : 13,
        severityText: i % 5 ? "INFO" : "WARN",
        body: { stringValue: `GET /api/items/${i} 200 client=c${c} k=${k}` },
        attributes: [str("http.route", `/api/items/${i % 10}`)],
      }));
      const obj = {
        resourceLogs: [{ resource: resource(c), scopeLogs: [{ scope: { name: "load" }, logRecords }] }],
      };
      const headers = { ...(enc === "pb" ? PB : JSON_TYPE), "x-greptime-log-table-name": table };
      return { path: "/v1/otlp/v1/logs", body: otlpBody(LogsRequest, obj, enc), headers, rows: BATCH };
    },
    check: otlpCheck(enc),
  };
}

function otlpTraces(enc: Encoding): LoadEndpoint {
  return {
    name: `otlp traces ${enc}`,
    weight: enc === "pb" ? 5 : 3,
    table: TRACE_TABLES[enc],
    request: (c, k, ts) => {
      const id = (hexId: string) =>
        enc === "json" ? hexId : Uint8Array.from(hexId.match(/../g) ?? [], (b) => parseInt(b, 16));
      // five spans a trace, the first the root; ids unique per (client, k, i)
      const spans = Array.from({ length: BATCH }, (_, i) => ({
        traceId: id(`${hex(c, 8)}${hex(k, 8)}${hex(Math.floor(i / 5), 8)}00000001`),
        spanId: id(`${hex(c, 4)}${hex(k, 8)}${hex(i, 4)}`),
        parentSpanId: i % 5 ? id(`${hex(c, 4)}${hex(k, 8)}${hex(i - (i % 5), 4)}`) : id(""),
        name: `GET /api/items/${i % 10}`,
        kind: 2,
        startTimeUnixNano: ns(ts + i),
        endTimeUnixNano: ns(ts + i + 3),
        attributes: [str("http.method", "GET"), { key: "http.status_code", value: { intValue: "200" } }],
        status: { code: 1 },
      }));
      const obj = {
        resourceSpans: [{ resource: resource(c), scopeSpans: [{ scope: { name: "load" }, spans }] }],
      };
      const headers = {
        ...(enc === "pb" ? PB : JSON_TYPE),
        "x-greptime-pipeline-name": "greptime_trace_v1",
        "x-greptime-trace-table-name": TRACE_TABLES[enc],
      };
      return { path: "/v1/otlp/v1/traces", body: otlpBody(TraceRequest, obj, enc), headers, rows: BATCH };
    },
    check: otlpCheck(enc),
  };
}

function lokiPush(enc: Encoding): LoadEndpoint {
  const table = `load_loki_${enc}`;
  return {
    name: `loki ${enc}`,
    weight: enc === "pb" ? 5 : 3,
    table,
    request: (c, k, ts): LoadRequest => {
      const line = (i: number) => `level=info msg="done" path=/api/${i % 10} client=c${c} k=${k}`;
      const headers = { "x-greptime-log-table-name": table };
      const half = BATCH / 2;
      if (enc === "json") {
        const streams = [0, 1].map((s) => ({
          stream: { app: "load", client: `c${c}`, pod: `p${s}` },
          values: Array.from({ length: half }, (_, i) => [ns(ts + s * half + i), line(i)]),
        }));
        return {
          path: "/v1/loki/api/v1/push",
          body: JSON.stringify({ streams }),
          headers: { ...headers, ...JSON_TYPE },
          rows: BATCH,
        };
      }
      const streams = [0, 1].map((s) => ({
        labels: `{app="load",client="c${c}",pod="p${s}"}`,
        entries: Array.from({ length: half }, (_, i) => {
          const t = ts + s * half + i;
          return { timestamp: { seconds: Math.floor(t / 1000), nanos: (t % 1000) * 1e6 }, line: line(i) };
        }),
      }));
      const body = encodeSnappy(PushRequest.encode(PushRequest.fromObject({ streams })).finish());
      return {
        path: "/v1/loki/api/v1/push",
        body: body as Uint8Array<ArrayBuffer>,
        headers: { ...headers, ...PB },
        rows: BATCH,
      };
    },
  };
}

const esBulk: LoadEndpoint = {
  name: "es bulk",
  weight: 5,
  table: "load_es",
  request: (c, k, ts) => {
    let body = "";
    for (let i = 0; i < BATCH; i++) {
      body += '{"create":{"_index":"load_es"}}\n' + JSON.stringify({
        "@timestamp": new Date(ts + i).toISOString(),
        message: `GET /api/items/${i} 200 client=c${c} k=${k}`,
        level: i % 5 ? "info" : "warn",
        client: `c${c}`,
        took_ms: i % 97,
        // a field now and then that the table has not seen: columns get added while others write and read
        ...(i === 0 ? { [`extra_${k % 40}`]: k } : {}),
      }) + "\n";
    }
    return { path: "/v1/elasticsearch/_bulk", body, headers: JSON_TYPE, rows: BATCH };
  },
  check: (text) => /"errors"\s*:\s*true/.test(text) ? text.slice(0, 200) : undefined,
};

const sqlPath = (q: string) => `/v1/sql?sql=${encodeURIComponent(q)}`;
/** A read whose answer must say `"status":"success"` (the Prometheus API's envelope). */
const promSuccess = (text: string) => text.includes('"status":"success"') ? undefined : text.slice(0, 200);

const reads: LoadEndpoint[] = [
  {
    name: "promql query_range",
    weight: 6,
    request: (c, k, ts) => {
      const query = k % 2
        ? `sum by (job) (rate(load_rw{client="c${c}"}[1m]))`
        : `avg_over_time(load_otlp_pb{client="c${c}"}[30s])`;
      const q = new URLSearchParams({
        query,
        start: String((ts - 600_000) / 1000),
        end: String(ts / 1000),
        step: "15s",
      });
      return { path: `/v1/prometheus/api/v1/query_range?${q}`, rows: 0 };
    },
    check: promSuccess,
  },
  {
    name: "jaeger traces",
    weight: 5,
    request: (c, k, ts) => {
      const enc: Encoding = k % 2 ? "pb" : "json";
      const q = new URLSearchParams({
        service: `load-c${c}`,
        start: String((ts - 600_000) * 1000),
        end: String(ts * 1000),
        limit: "20",
      });
      return {
        path: `/v1/jaeger/api/traces?${q}`,
        headers: { "x-greptime-trace-table-name": TRACE_TABLES[enc] },
        rows: 0,
      };
    },
  },
  {
    name: "log query",
    weight: 5,
    request: (c, k, ts) => {
      const body = {
        table: {
          catalog_name: "greptime",
          schema_name: "public",
          table_name: `load_logs_${k % 2 ? "pb" : "json"}`,
        },
        time_filter: { start: new Date(ts - 600_000).toISOString(), end: new Date(ts).toISOString() },
        limit: { skip: null, fetch: 50 },
        columns: ["timestamp", "body"],
        filters: [{ column_name: "body", filters: [{ Contains: `client=c${c} ` }] }],
        context: "None",
        exprs: [],
      };
      return { path: "/v1/logs", body: JSON.stringify(body), headers: JSON_TYPE, rows: 0 };
    },
  },
  {
    name: "sql logs",
    weight: 5,
    request: (c, k) => {
      const queries = [
        `SELECT severity_text, count(*) FROM load_logs_pb WHERE body LIKE '%client=c${c} %' GROUP BY severity_text`,
        `SELECT count(*) FROM load_loki_pb WHERE line LIKE '%client=c${c} k=%'`,
        `SELECT level, count(*), avg(took_ms) FROM load_es WHERE client = 'c${c}' GROUP BY level`,
        `SELECT span_name, count(*) FROM load_traces_pb WHERE service_name = 'load-c${c}' GROUP BY span_name`,
      ];
      return { path: sqlPath(queries[k % queries.length]), rows: 0 };
    },
  },
];

/** The log, trace and OTLP kinds of the mix. */
export const TELEMETRY_ENDPOINTS: LoadEndpoint[] = [
  ...(["pb", "json"] as const).flatMap((e) => [otlpMetrics(e), otlpLogs(e), otlpTraces(e), lokiPush(e)]),
  esBulk,
  ...reads,
];
