/**
 * An in-place upgrade: a data home written by an older Petrel (build 05605e5 of 2026-11-28 02:08, before
 * the trace map, the metric views' CROSS JOIN and DESC's PRI on the time index) opens with this build,
 * answers what it answered then (modulo the README's documented changes), takes new writes into every
 * table, keeps its flows running and passes `petrel check`. The fixture (test/fixtures/upgrade_05605e5,
 * gzipped SQLite files) was written by that build's HTTP API with timestamps in 2100, so no TTL ever
 * expires them. The oldest layout (build a98ff70 of 2026-11-21: 4 KiB pages, the first metric engine;
 * SQL, line protocol, remote write and pipelines only) is checked the same way, more briefly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { post, sqlExec, sqlRows, tableNames } from "../protocols_http/util.ts";
import { checkDataHome } from "../../src/storage/check.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
/** 2100-01-01T00:00:00Z: every row of the fixture is at this time. */
const T = 4_102_444_800_000;
const NEW = T + 60_000;
/** 2026-01-01: flows compute closed windows only, so rows for them are written in the past (no TTL there). */
const PAST = 1_767_225_600_000;
const ns = (ms: number) => String(BigInt(ms) * 1_000_000n);

/** A temp data home holding the files of fixture `build`, unzipped. */
async function unpackFixture(build: string): Promise<string> {
  const fixture = new URL(`upgrade_${build}/data/`, FIXTURES);
  const home = await Deno.makeTempDir({ prefix: "petrel_upgrade_" });
  await Deno.mkdir(join(home, "data"));
  for await (const entry of Deno.readDir(fixture)) {
    const zipped = await Deno.open(new URL(entry.name, fixture));
    const out = await Deno.open(join(home, "data", entry.name.replace(/\.gz$/, "")), {
      write: true,
      create: true,
    });
    await zipped.readable.pipeThrough(new DecompressionStream("gzip")).pipeTo(out.writable);
  }
  return home;
}

function assertChecked(home: string): void {
  const results = checkDataHome(home);
  assert.equal(results.length, 6);
  assert.deepEqual(results.filter((r) => !r.ok), []);
}

/** The `rows` of a /v1/sql answer, as JSON text (compact to compare). */
async function rowsText(base: string, sql: string, db = "public"): Promise<string> {
  return JSON.stringify(await sqlRows(base, sql, db));
}

/** Writes line protocol (ms precision) into `public`; the write must be acknowledged. */
async function writeLineProtocol(base: string, lines: string): Promise<void> {
  const res = await post(`${base}/v1/influxdb/write?db=public&precision=ms`, lines);
  assert.equal(res.status, 204, res.text);
}

/** Remote-writes series into `public`; the write must be acknowledged. */
async function remoteWrite(base: string, series: Parameters<typeof encodeRemoteWriteV1>[0]): Promise<void> {
  const res = await post(`${base}/v1/prometheus/write?db=public`, encodeRemoteWriteV1(series), {
    "content-type": "application/x-protobuf",
    "content-encoding": "snappy",
  });
  assert.equal(res.status, 204, res.text);
}

async function readsAsBefore(base: string): Promise<void> {
  assert.deepEqual(await tableNames(base), [
    "cpu",
    "cpu_agg",
    "es_logs",
    "greptime_physical_table",
    "lg",
    "loki_logs",
    "mem",
    "opentelemetry_logs",
    "opentelemetry_traces",
    "opentelemetry_traces_operations",
    "opentelemetry_traces_services",
    "otel_gauge",
    "phy",
    "pipe_logs",
    "rw_metric",
    "rw_other",
    "t_append",
    "t_plain",
    "t_skipwal",
    "tidx",
    "ty",
    "ty_agg",
    "v_rw",
    "v_ty",
  ]);
  // documented change: the database ttl shows in humantime
  assert.match(String((await sqlRows(base, "SHOW CREATE DATABASE upg"))[0][1]), /ttl = '30days'/);
  assert.equal(
    await rowsText(base, "SELECT * FROM t_opts ORDER BY host", "upg"),
    `[["a",1,null,${T}],["b",11,5,${T}]]`,
  );
  const opts = String((await sqlRows(base, "SHOW CREATE TABLE t_opts", "upg"))[0][1]);
  assert.match(opts, /merge_mode = 'last_non_null'/);
  assert.match(opts, /ttl = '30days'/);
  assert.equal(await rowsText(base, "SELECT * FROM t_append"), `[["a","mold",${T}],["a","mold",${T}]]`);
  assert.equal(await rowsText(base, "SELECT * FROM t_skipwal"), `[["a",1,${T}]]`);
  assert.equal(await rowsText(base, "SELECT * FROM t_plain ORDER BY host"), `[["a",1,${T}],["b",3,${T}]]`);
  // documented change: DESC marks the time index PRI
  assert.deepEqual((await sqlRows(base, "DESC t_plain")).map((r) => r[2]), ["PRI", "", "PRI"]);
  assert.equal(await rowsText(base, "SELECT * FROM cpu"), `[["a",1.5,3,${ns(T)}]]`);
  assert.equal(
    await rowsText(base, "SELECT * FROM rw_metric ORDER BY instance"),
    `[[${T},1,"i1","j1"],[${T},1,null,"j1"]]`,
  );
  assert.equal(await rowsText(base, "SELECT * FROM otel_gauge"), `[[${T},1,"shop","x","shop"]]`);
  assert.equal(await rowsText(base, "SELECT * FROM lg"), `[[${T},1,"h1"]]`);
  assert.equal(await rowsText(base, "SELECT line, app FROM loki_logs"), `[["loki old","web"]]`);
  assert.equal(await rowsText(base, "SELECT host, message FROM es_logs"), `[["h","es old"]]`);
  assert.equal(await rowsText(base, "SELECT * FROM pipe_logs"), `[["h1","p old",${ns(T)}]]`);
  // the body's text: 64-bit integers past 2^53 do not survive JSON.parse
  const ty = await fetch(
    `${base}/v1/sql?sql=${encodeURIComponent("SELECT i8, i64, u64, f32, b, bin, dec, j, s, nn FROM ty")}`,
  );
  assert.match(
    await ty.text(),
    /"rows":\[\[-8,-9007199254740993,18446744073709551615,1\.5,true,\[0,255\],"12345\.678",\{"a":\[1,2\],"b":"x"\},"dflt",0\.0\]\]/,
  );
  assert.equal(await rowsText(base, "SELECT * FROM v_ty"), `[["h1",4.5,${T}]]`);
  assert.equal(
    await rowsText(base, "SELECT msg FROM tidx WHERE matches(msg, 'hello')"),
    `[["hello world old"]]`,
  );
  const prom = await fetch(`${base}/v1/prometheus/api/v1/query?query=sum(rw_metric)&time=${T / 1000 + 120}`);
  assert.deepEqual((await prom.json()).data.result, [{ metric: {}, value: [T / 1000 + 120, "2"] }]);
  const trace = await fetch(`${base}/v1/jaeger/api/traces/7ace${"1".padStart(28, "0")}`);
  assert.equal(trace.status, 200);
  assert.equal((await trace.json()).data[0].spans[0].operationName, "GET /cart");
  const logs = await post(
    `${base}/v1/logs`,
    JSON.stringify({
      table: { table_name: "opentelemetry_logs" },
      time_filter: { start: "2099-12-31", end: "2100-01-02" },
    }),
    { "content-type": "application/json" },
  );
  assert.equal(logs.status, 200, logs.text);
  assert.match(logs.text, /"log old"/);
}

async function writeEverything(base: string): Promise<void> {
  await sqlExec(base, `INSERT INTO t_opts(host, v, ts) VALUES ('b', NULL, ${T}), ('c', 3, ${NEW})`, "upg");
  for (
    const sql of [
      `INSERT INTO t_append VALUES ('a', 'mnew', ${NEW})`,
      `INSERT INTO t_skipwal VALUES ('a', 2, ${NEW})`,
      `INSERT INTO t_plain VALUES ('a', 2, ${PAST}), ('b', 6, ${PAST})`,
      `INSERT INTO ty(host, i8, f64, dec, j, ts) VALUES ('h2', 1, 0.75, 0.5, '{"c":1}', ${PAST})`,
      `INSERT INTO tidx VALUES ('h', 'hello world new', 'def', ${NEW})`,
      `INSERT INTO lg(ts, val, host) VALUES (${NEW}, 2, 'h2')`,
    ]
  ) await sqlExec(base, sql);
  await writeLineProtocol(
    base,
    `cpu,host=a usage=2.5,idle=4i ${NEW}\ncpu,host=b,dc=x usage=1,extra="s" ${NEW}`,
  );
  await remoteWrite(base, [
    {
      labels: { __name__: "rw_metric", job: "j1", instance: "i1" },
      samples: [{ value: 2, timestampMs: NEW }],
    },
    { labels: { __name__: "rw_metric", job: "j1", zone: "z9" }, samples: [{ value: 7, timestampMs: NEW }] },
    { labels: { __name__: "rw_brandnew", job: "j3" }, samples: [{ value: 8, timestampMs: NEW }] },
  ]);
  const json = { "content-type": "application/json" };
  const resource = { attributes: [{ key: "service.name", value: { stringValue: "shop" } }] };
  for (
    const [path, body, headers] of [
      ["/v1/otlp/v1/metrics", {
        resourceMetrics: [{
          resource,
          scopeMetrics: [{
            metrics: [{
              name: "otel_gauge",
              gauge: {
                dataPoints: [{
                  asDouble: 2,
                  timeUnixNano: ns(NEW),
                  attributes: [{ key: "k", value: { stringValue: "x" } }],
                }],
              },
            }],
          }],
        }],
      }, json],
      ["/v1/otlp/v1/logs", {
        resourceLogs: [{
          resource,
          scopeLogs: [{ logRecords: [{ timeUnixNano: ns(NEW), body: { stringValue: "log new" } }] }],
        }],
      }, json],
      ["/v1/otlp/v1/traces", {
        resourceSpans: [{
          resource,
          scopeSpans: [{
            spans: [{
              traceId: `7ace${"2".padStart(28, "0")}`,
              spanId: "0000000000000002",
              name: "GET /cart",
              kind: 2,
              startTimeUnixNano: ns(NEW),
              endTimeUnixNano: ns(NEW + 5),
            }],
          }],
        }],
      }, { ...json, "x-greptime-pipeline-name": "greptime_trace_v1" }],
      [
        "/v1/loki/api/v1/push",
        { streams: [{ stream: { app: "web" }, values: [[ns(NEW), "loki new"]] }] },
        json,
      ],
      ["/v1/ingest?db=public&table=pipe_logs&pipeline_name=upg_pipe", [{
        host: "h1",
        message: "p new",
        time: new Date(NEW).toISOString(),
      }], json],
    ] as const
  ) {
    const r = await post(`${base}${path}`, JSON.stringify(body), headers);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
  }
  const es = await post(
    `${base}/v1/elasticsearch/_bulk?table=es_logs`,
    `{"create":{"_index":"es_logs"}}\n{"message":"es new","host":"h"}\n`,
    json,
  );
  assert.equal(es.status, 200, es.text);
}

async function readsAfterWrites(base: string): Promise<void> {
  assert.equal(
    await rowsText(base, "SELECT host, v, w FROM t_opts ORDER BY host", "upg"),
    `[["a",1,null],["b",11,5],["c",3,null]]`,
  );
  for (
    const [table, n] of [
      ["t_append", 3],
      ["t_skipwal", 2],
      ["t_plain", 4],
      ["ty", 2],
      ["tidx", 2],
      ["lg", 2],
      ["cpu", 3],
      ["otel_gauge", 2],
      ["opentelemetry_logs", 2],
      ["opentelemetry_traces", 2],
      ["loki_logs", 2],
      ["es_logs", 2],
      ["pipe_logs", 2],
      ["rw_brandnew", 1],
    ] as const
  ) assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${table}`), [[n]], table);
  assert.equal(await rowsText(base, "SELECT greptime_value FROM rw_metric WHERE zone = 'z9'"), "[[7]]");
  const prom = await fetch(`${base}/v1/prometheus/api/v1/query?query=sum(rw_metric)&time=${NEW / 1000 + 60}`);
  assert.deepEqual((await prom.json()).data.result, [{ metric: {}, value: [NEW / 1000 + 60, "10"] }]);
  const trace = await fetch(`${base}/v1/jaeger/api/traces/7ace${"2".padStart(28, "0")}`);
  assert.equal(trace.status, 200);
  // the flows the old build made still run: their sinks take the new rows' windows
  await sqlExec(base, "ADMIN FLUSH_FLOW('upg_flow')");
  await sqlExec(base, "ADMIN FLUSH_FLOW('f_auto')");
  assert.equal(
    await rowsText(base, "SELECT host, c, s, time_window FROM cpu_agg ORDER BY time_window, host"),
    `[["a",1,2,${PAST}],["b",1,6,${PAST}]]`,
  );
  assert.equal(
    await rowsText(base, "SELECT host, mx, time_window FROM ty_agg ORDER BY host"),
    `[["h2",0.75,${PAST}]]`,
  );
}

Deno.test("upgrade: a data home of build 05605e5 reads, writes, runs its flows and checks clean", async () => {
  const home = await unpackFixture("05605e5");
  let s: TestServer | undefined;
  try {
    assertChecked(home);
    s = await startTestServer({ storage: { data_home: home } });
    await readsAsBefore(s.url);
    // the old build's metric views (a plain JOIN) were made again with the layout's CROSS JOIN
    const views = s.server.app.storage.database("public").conn.prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'view' AND name IN ('rw_metric', 'otel_gauge', 'lg', 'phy')",
    ).all() as Array<{ name: string; sql: string }>;
    assert.equal(views.length, 4);
    for (const v of views) assert.match(v.sql, / CROSS JOIN /, v.name);
    await writeEverything(s.url);
    await readsAfterWrites(s.url);
    // a TQL flow over the old metric table
    await sqlExec(
      s.url,
      `CREATE FLOW upg_tql SINK TO tql_sink EVAL INTERVAL '1m' AS TQL EVAL (${T / 1000}, ${
        NEW / 1000
      }, '1m') sum(rw_metric)`,
    );
    await sqlExec(s.url, "ADMIN FLUSH_FLOW('upg_tql')");
    assert.equal(await rowsText(s.url, "SELECT * FROM tql_sink ORDER BY 1"), `[[${T},2],[${NEW},10]]`);
    await s.stop();
    s = undefined;
    assertChecked(home);
    s = await startTestServer({ storage: { data_home: home } });
    await readsAfterWrites(s.url);
  } finally {
    await s?.stop();
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("upgrade: a data home of build a98ff70 (4 KiB pages, the first metric engine) reads and writes", async () => {
  const home = await unpackFixture("a98ff70");
  let s: TestServer | undefined;
  try {
    assertChecked(home);
    s = await startTestServer({ storage: { data_home: home } });
    const base = s.url;
    assert.deepEqual(await tableNames(base), [
      "cpu",
      "cpu_agg",
      "greptime_physical_table",
      "mem",
      "pipe_logs",
      "rw_metric",
      "rw_other",
      "t_append",
      "t_plain",
      "t_skipwal",
    ]);
    assert.equal(
      await rowsText(base, "SELECT * FROM t_opts ORDER BY host", "upg"),
      `[["a",1,null,${T}],["b",11,5,${T}]]`,
    );
    assert.match(
      String((await sqlRows(base, "SHOW CREATE TABLE t_append"))[0][1]),
      /append_mode = 'true',\n {2}ttl = '7days'/,
    );
    assert.equal(await rowsText(base, "SELECT * FROM t_skipwal"), `[["a",1,${T}]]`);
    assert.equal(await rowsText(base, "SELECT * FROM rw_metric"), `[[${T},1,"i1","j1"]]`);
    await sqlExec(base, `INSERT INTO t_opts(host, v, ts) VALUES ('b', NULL, ${T})`, "upg");
    await sqlExec(base, `INSERT INTO t_append VALUES ('a', 'mnew', ${NEW})`);
    await sqlExec(base, `INSERT INTO t_skipwal VALUES ('a', 2, ${NEW})`);
    await writeLineProtocol(base, `cpu,host=a usage=2.5,idle=4i ${NEW}`);
    await remoteWrite(base, [
      {
        labels: { __name__: "rw_metric", job: "j1", zone: "z9" },
        samples: [{ value: 7, timestampMs: NEW }],
      },
    ]);
    const ingest = await post(
      `${base}/v1/ingest?db=public&table=pipe_logs&pipeline_name=upg_pipe`,
      JSON.stringify([{ host: "h1", message: "p new", time: new Date(NEW).toISOString() }]),
      { "content-type": "application/json" },
    );
    assert.equal(ingest.status, 200, ingest.text);
    assert.equal(
      await rowsText(base, "SELECT host, v, w FROM t_opts ORDER BY host", "upg"),
      `[["a",1,null],["b",11,5]]`,
    );
    for (
      const [table, n] of [["t_append", 3], ["t_skipwal", 2], ["cpu", 2], ["rw_metric", 2], [
        "pipe_logs",
        2,
      ]] as const
    ) {
      assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${table}`), [[n]], table);
    }
    const prom = await fetch(
      `${base}/v1/prometheus/api/v1/query?query=sum(rw_metric)&time=${NEW / 1000 + 60}`,
    );
    assert.deepEqual((await prom.json()).data.result, [{ metric: {}, value: [NEW / 1000 + 60, "8"] }]);
    await s.stop();
    s = undefined;
    assertChecked(home);
  } finally {
    await s?.stop();
    await Deno.remove(home, { recursive: true });
  }
});
