/**
 * The tables OTLP traces and logs and Loki create, pinned as SHOW CREATE TABLE text against the
 * reference's data model (§7.4 greptime_trace_v1/v0 and the aux tables, §7.5 OTLP logs, §7.6
 * Loki): column order, types, time index, primary key, indexes and options.
 */
import assert from "node:assert/strict";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { post, showCreate, withServer } from "../protocols_http/util.ts";

const PB = { "content-type": "application/x-protobuf" };
const bytes = (n: number, last: number) => Uint8Array.from({ length: n }, (_, i) => i === n - 1 ? last : 1);

const TRACE = encode(types.traces, {
  resourceSpans: [{
    resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
    schemaUrl: "https://opentelemetry.io/schemas/1.21.0",
    scopeSpans: [{
      spans: [{
        traceId: bytes(16, 1),
        spanId: bytes(8, 1),
        name: "op",
        kind: 2,
        startTimeUnixNano: "1700000000000000000",
        endTimeUnixNano: "1700000000000001000",
        attributes: [
          { key: "n", value: { intValue: 1 } },
          { key: "bin", value: { bytesValue: bytes(2, 2) } },
          { key: "list", value: { arrayValue: { values: [] } } },
        ],
      }],
    }],
  }],
});

const col = (name: string, type: string, extra = "") => `  "${name}" ${type}${extra},\n`;
const SKIP = " SKIPPING INDEX WITH(false_positive_rate = '0.01', granularity = '10240', type = 'BLOOM')";
const create = (table: string, cols: string, key: string, options: string[]) =>
  `CREATE TABLE IF NOT EXISTS "${table}" (\n${cols}  TIME INDEX ("${key}"),\n` +
  `  PRIMARY KEY (${PK[table]})\n)\n\nENGINE=mito\nWITH(\n${options.map((o) => `  ${o}`).join(",\n")}\n)`;
const PK: Record<string, string> = {
  opentelemetry_traces: '"service_name"',
  opentelemetry_traces_services: '"service_name"',
  opentelemetry_traces_operations: '"service_name", "span_name", "span_kind"',
  v0_traces: '"service_name"',
  opentelemetry_logs: '"scope_name"',
  loki_logs: '"app"',
};
const AUX = ["append_mode = 'false'", "'comment' = 'Created on insertion'"];

Deno.test("greptime_trace_v1: span table, services and operations tables as GreptimeDB creates them", async () => {
  await withServer(async (s) => {
    const r = await post(s.url + "/v1/otlp/v1/traces", TRACE, {
      ...PB,
      "x-greptime-pipeline-name": "greptime_trace_v1",
      "x-greptime-hints": "ttl=7d",
    });
    assert.equal(r.status, 200, r.text);
    const str = [
      "span_id",
      "span_kind",
      "span_name",
      "span_status_code",
      "span_status_message",
      "trace_state",
    ];
    const cols = col("timestamp", "TIMESTAMP(9) NOT NULL") + col("timestamp_end", "TIMESTAMP(9) NULL") +
      col("duration_nano", "BIGINT UNSIGNED NULL") + col("parent_span_id", "STRING NULL", SKIP) +
      col("trace_id", "STRING NULL", SKIP) + str.map((c) => col(c, "STRING NULL")).join("") +
      col("scope_name", "STRING NULL") + col("scope_version", "STRING NULL") +
      col("service_name", "STRING NULL", SKIP) + col("span_attributes.n", "BIGINT NULL") +
      col("span_attributes.bin", "VARBINARY NULL") + col("span_attributes.list", "JSON NULL") +
      col("span_events", "JSON NULL") + col("span_links", "JSON NULL");
    assert.equal(
      await showCreate(s.url, "opentelemetry_traces"),
      create("opentelemetry_traces", cols, "timestamp", [
        "append_mode = 'true'",
        "'comment' = 'Created on insertion'",
        "'greptime.semantic.entity.service.id' = 'service_name'",
        "'greptime.semantic.pipeline' = 'greptime_trace_v1'",
        "'greptime.semantic.signal_type' = 'trace'",
        "'greptime.semantic.source' = 'opentelemetry'",
        "'greptime.semantic.trace.conventions' = 'https://opentelemetry.io/schemas/1.21.0'",
        "table_data_model = 'greptime_trace_v1'",
        "ttl = '7days'",
      ]),
    );
    const ts = col("timestamp", "TIMESTAMP(9) NOT NULL");
    assert.equal(
      await showCreate(s.url, "opentelemetry_traces_services"),
      create("opentelemetry_traces_services", ts + col("service_name", "STRING NULL"), "timestamp", AUX),
    );
    const ops = ["service_name", "span_name", "span_kind"].map((c) => col(c, "STRING NULL")).join("");
    assert.equal(
      await showCreate(s.url, "opentelemetry_traces_operations"),
      create("opentelemetry_traces_operations", ts + ops, "timestamp", AUX),
    );
  });
});

Deno.test("greptime_trace_v0, OTLP logs and Loki tables as GreptimeDB creates them", async () => {
  await withServer(async (s) => {
    const v0 = await post(s.url + "/v1/otlp/v1/traces", TRACE, {
      ...PB,
      "x-greptime-pipeline-name": "greptime_trace_v0",
      "x-greptime-trace-table-name": "v0_traces",
    });
    assert.equal(v0.status, 200, v0.text);
    const v0Cols = [
      ["timestamp", "TIMESTAMP(9) NOT NULL"],
      ["timestamp_end", "TIMESTAMP(9) NULL"],
      ["duration_nano", "BIGINT UNSIGNED NULL"],
      ...["trace_id", "span_id", "parent_span_id", "span_kind", "span_name", "span_status_code"]
        .map((c) => [c, "STRING NULL"]),
      ...["span_status_message", "trace_state", "service_name"].map((c) => [c, "STRING NULL"]),
      ...["span_attributes", "span_events", "span_links"].map((c) => [c, "JSON NULL"]),
      ["scope_name", "STRING NULL"],
      ["scope_version", "STRING NULL"],
      ["scope_attributes", "JSON NULL"],
      ["resource_attributes", "JSON NULL"],
    ].map(([c, t]) => col(c, t)).join("");
    assert.equal(
      await showCreate(s.url, "v0_traces"),
      create("v0_traces", v0Cols, "timestamp", [
        "append_mode = 'true'",
        "'comment' = 'Created on insertion'",
        "'greptime.semantic.pipeline' = 'greptime_trace_v0'",
        "'greptime.semantic.signal_type' = 'trace'",
        "'greptime.semantic.source' = 'opentelemetry'",
        "table_data_model = 'greptime_trace_v0'",
      ]),
    );
    const log = encode(types.logs, {
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: "1", body: { stringValue: "x" } }] }] }],
    });
    assert.equal((await post(s.url + "/v1/otlp/v1/logs", log, PB)).status, 200);
    const fulltext =
      " FULLTEXT INDEX WITH(analyzer = 'English', backend = 'bloom', case_sensitive = 'false', " +
      "false_positive_rate = '0.01', granularity = '10240')";
    const logCols = col("timestamp", "TIMESTAMP(9) NOT NULL") + col("trace_id", "STRING NULL") +
      col("span_id", "STRING NULL") + col("severity_text", "STRING NULL") +
      col("severity_number", "INT NULL") +
      col("body", "STRING NULL", fulltext) + col("log_attributes", "JSON NULL") +
      col("trace_flags", "INT UNSIGNED NULL") + col("scope_name", "STRING NULL") +
      col("scope_version", "STRING NULL") + col("scope_attributes", "JSON NULL") +
      col("scope_schema_url", "STRING NULL") + col("resource_attributes", "JSON NULL") +
      col("resource_schema_url", "STRING NULL");
    const logOptions = (source: string) => [
      "append_mode = 'true'",
      "'comment' = 'Created on insertion'",
      "'greptime.semantic.signal_type' = 'log'",
      `'greptime.semantic.source' = '${source}'`,
    ];
    assert.equal(
      await showCreate(s.url, "opentelemetry_logs"),
      create("opentelemetry_logs", logCols, "timestamp", logOptions("opentelemetry")),
    );
    const loki = JSON.stringify({ streams: [{ stream: { app: "a" }, values: [["1", "line"]] }] });
    assert.equal(
      (await post(s.url + "/v1/loki/api/v1/push", loki, { "content-type": "application/json" })).status,
      200,
    );
    const lokiCols = col("greptime_timestamp", "TIMESTAMP(9) NOT NULL") + col("line", "STRING NULL") +
      col("structured_metadata", "JSON NULL") + col("app", "STRING NULL");
    assert.equal(
      await showCreate(s.url, "loki_logs"),
      create("loki_logs", lokiCols, "greptime_timestamp", logOptions("loki")),
    );
  });
});
