/**
 * A string holding U+0000 reads back whole on every read path besides `/v1/sql`'s tables: the log
 * query (`/v1/logs`, with a filter on the part after the NUL), Loki, OTLP logs, Elasticsearch bulk
 * and pipeline ingest read through SQL, Prometheus' label values, series and queries over a line
 * protocol table (label matchers on the whole value), and Jaeger's traces.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlRows } from "../protocols_http/util.ts";
import { jaegerGet } from "../telemetry_http/jaeger_checks.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());
const JSON_TYPE = { "content-type": "application/json" };

async function write(path: string, body: string, headers: Record<string, string> = {}): Promise<void> {
  const r = await post(`${base}${path}`, body, headers);
  assert.ok(r.status < 300, `${path}: ${r.status} ${r.text}`);
}

async function getJson(path: string): Promise<unknown> {
  const r = await fetch(`${base}${path}`);
  const body = await r.json();
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(body)}`);
  return body;
}

Deno.test("nul text: /v1/logs returns whole lines and filters on the part after the NUL", async () => {
  await write(
    "/v1/ingest?table=nul_logs&pipeline_name=greptime_identity",
    JSON.stringify([
      { message: "head\u0000tail one", level: "in\u0000fo" },
      { message: "plain line", level: "info" },
    ]),
    JSON_TYPE,
  );
  const query = (filters: unknown[]) =>
    JSON.stringify({
      table: { catalog_name: "greptime", schema_name: "public", table_name: "nul_logs" },
      time_filter: {},
      limit: { skip: null, fetch: null },
      columns: ["message", "level"],
      filters,
      context: "None",
      exprs: [],
    });
  const cases: [string, unknown[], unknown[][]][] = [
    ["all", [], [["head\u0000tail one", "in\u0000fo"], ["plain line", "info"]]],
    ["Contains after the NUL", [{ column_name: "message", filters: [{ Contains: "tail" }] }], [[
      "head\u0000tail one",
      "in\u0000fo",
    ]]],
    ["Regex across the NUL", [{ column_name: "message", filters: [{ Regex: "^head\\x00tail" }] }], [[
      "head\u0000tail one",
      "in\u0000fo",
    ]]],
  ];
  for (const [name, filters, rows] of cases) {
    const r = await post(`${base}/v1/logs`, query(filters), JSON_TYPE);
    assert.equal(r.status, 200, `${name}: ${r.text}`);
    assert.deepEqual(JSON.parse(r.text).output[0].records.rows.sort(), rows, name);
  }
});

Deno.test("nul text: Loki push, OTLP logs and Elasticsearch bulk lines read back whole", async () => {
  await write(
    "/v1/loki/api/v1/push",
    JSON.stringify({
      streams: [{ stream: { app: "x\u0000y" }, values: [["1700000000000000000", "l\u0000ine"]] }],
    }),
    { ...JSON_TYPE, "x-greptime-log-table-name": "nul_loki" },
  );
  assert.deepEqual(await sqlRows(base, "SELECT app, line FROM nul_loki"), [["x\u0000y", "l\u0000ine"]]);

  await write(
    "/v1/otlp/v1/logs",
    JSON.stringify({
      resourceLogs: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "s\u0000vc" } }] },
        scopeLogs: [{
          scope: {},
          logRecords: [{
            timeUnixNano: "1700000000000000000",
            body: { stringValue: "o\u0000tlp body" },
            attributes: [{ key: "k", value: { stringValue: "v\u0000w" } }],
          }],
        }],
      }],
    }),
    { ...JSON_TYPE, "x-greptime-log-table-name": "nul_otlp" },
  );
  assert.deepEqual(await sqlRows(base, "SELECT body, log_attributes, resource_attributes FROM nul_otlp"), [[
    "o\u0000tlp body",
    { k: "v\u0000w" },
    { "service.name": "s\u0000vc" },
  ]]);

  await write(
    "/v1/elasticsearch/_bulk?table=nul_es",
    `{"create":{"_index":"nul_es"}}\n${JSON.stringify({ message: "e\u0000s doc" })}\n`,
    JSON_TYPE,
  );
  assert.deepEqual(await sqlRows(base, "SELECT message FROM nul_es"), [["e\u0000s doc"]]);
});

Deno.test("nul text: Prometheus label values, series and matchers over a line-protocol table", async () => {
  await write(
    "/v1/influxdb/write?precision=s",
    "nul_cpu,host=h\u0000x usage=1 1700000000\nnul_cpu,host=plain usage=2 1700000000\n",
  );
  assert.deepEqual(await getJson("/v1/prometheus/api/v1/label/host/values?match[]=nul_cpu"), {
    status: "success",
    data: ["h\u0000x", "plain"],
  });
  assert.deepEqual(
    ((await getJson("/v1/prometheus/api/v1/series?match[]=nul_cpu")) as { data: unknown }).data,
    [
      { __name__: "nul_cpu", host: "h\u0000x" },
      { __name__: "nul_cpu", host: "plain" },
    ],
  );
  const instant = async (q: string) =>
    ((await getJson(`/v1/prometheus/api/v1/query?time=1700000000&query=${encodeURIComponent(q)}`)) as {
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    }).data.result.map((r) => [r.metric.host, r.value[1]]);
  assert.deepEqual(await instant('nul_cpu{host="h\\x00x"}'), [["h\u0000x", "1"]]);
  assert.deepEqual(await instant('nul_cpu{host="h"}'), []);
  assert.deepEqual(await instant('nul_cpu{host=~"h.x"}'), [["h\u0000x", "1"]]);
  assert.deepEqual(await instant("sort(sum by (host) (nul_cpu))"), [["h\u0000x", "1"], ["plain", "2"]]);
});

Deno.test("nul text: Jaeger reads span names and attributes whole", async () => {
  const traceId = "0".repeat(31) + "7";
  const body = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "api" } }] },
      scopeSpans: [{
        spans: [{
          traceId,
          spanId: "0".repeat(15) + "1",
          name: "GET /a\u0000b",
          kind: 2,
          startTimeUnixNano: "1700000000000000000",
          endTimeUnixNano: "1700000000100000000",
          attributes: [{ key: "note", value: { stringValue: "n\u0000ote" } }],
        }],
      }],
    }],
  });
  await write("/v1/otlp/v1/traces", body, { ...JSON_TYPE, "x-greptime-pipeline-name": "greptime_trace_v1" });
  const r = await jaegerGet(base, `traces/${traceId}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const span = r.body.data[0].spans[0];
  assert.equal(span.operationName, "GET /a\u0000b");
  assert.deepEqual(
    span.tags.filter((t: { key: string }) => t.key === "note").map((t: { value: unknown }) => t.value),
    ["n\u0000ote"],
  );
  assert.deepEqual(
    (await jaegerGet(base, "operations?service=api")).body.data.map((o: { name: string }) => o.name),
    [
      "GET /a\u0000b",
    ],
  );
});
