/**
 * Fluent Bit's outputs, replayed as they go on the wire (`http_User`/`http_Passwd` → Basic auth,
 * `User-Agent: Fluent-Bit`, `compress gzip` → `Content-Encoding: gzip`):
 * - `http` with `URI /v1/ingest?db=…&table=…&pipeline_name=…`: `Format json` posts an array of records
 *   with `date` (json_date_format double) as `application/json`; `json_lines` posts NDJSON as
 *   `application/x-ndjson`; the default `msgpack` posts `application/msgpack` and `json_stream` posts
 *   `application/stream+json`, which GreptimeDB does not read: a 400 naming the content type. Any
 *   status outside 200–205 is retried or dropped.
 * - `loki` with `uri /v1/loki/api/v1/push`: JSON only (`line_format json` → the record as the line),
 *   `X-Scope-OrgID` from `tenant_id`, structured metadata as a third element.
 * - `opentelemetry` with `logs_uri /v1/otlp/v1/logs` (and metrics/traces URIs): protobuf; without
 *   `logs_body_key` the whole record is the body as a key/value list.
 * - `influxdb`: `/write?db=…&precision=n` (v1) or `/api/v2/write?org=…&bucket=…&precision=ns` with
 *   `HTTP_Token`; a `_seq` tag; 200 or 204 is success. (Its path has no prefix option in older
 *   releases; these are the requests once it reaches `/v1/influxdb`.)
 */
import assert from "node:assert/strict";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { BASIC, expectStatus, gzip, rows, send, withAuthServer } from "./shippers_util.ts";

const FB = { "user-agent": "Fluent-Bit", authorization: BASIC };
const INGEST = "/v1/ingest?db=public&table=fb_http&pipeline_name=greptime_identity";

Deno.test("fluent-bit http: json and json_lines stored; msgpack and json_stream refused by name", async () => {
  await withAuthServer(async (s) => {
    const json = JSON.stringify([
      { date: 1700000000.123456, log: "first line", stream: "stdout" },
      { date: 1700000001.5, log: "second line", stream: "stderr" },
    ]);
    expectStatus(
      await send(s, "POST", INGEST, { ...FB, "content-type": "application/json" }, json),
      200,
      "json",
    );
    const r = await send(
      s,
      "POST",
      INGEST,
      { ...FB, "content-type": "application/json", "content-encoding": "gzip" },
      gzip(json),
    );
    expectStatus(r, 200, "json gzip");
    assert.deepStrictEqual(JSON.parse(r.text).output, [{ affectedrows: 2 }]);
    const lines = '{"date":1700000002.25,"log":"third line","stream":"stdout"}\n' +
      '{"date":1700000003.0,"log":"fourth line","stream":"stdout"}\n';
    expectStatus(
      await send(s, "POST", INGEST, { ...FB, "content-type": "application/x-ndjson" }, lines),
      200,
      "json_lines",
    );
    assert.deepStrictEqual(await rows(s, "SELECT date, log, stream FROM fb_http ORDER BY date, log"), [
      [1700000000.123456, "first line", "stdout"],
      [1700000000.123456, "first line", "stdout"],
      [1700000001.5, "second line", "stderr"],
      [1700000001.5, "second line", "stderr"],
      [1700000002.25, "third line", "stdout"],
      [1700000003, "fourth line", "stdout"],
    ]);
    for (const type of ["application/msgpack", "application/stream+json"]) {
      const refused = await send(
        s,
        "POST",
        INGEST,
        { ...FB, "content-type": type },
        new Uint8Array([0x91, 0x01]),
      );
      expectStatus(refused, 400, type);
      assert(JSON.parse(refused.text).error.includes(`invalid content type: ${type}`), refused.text);
    }
  });
});

Deno.test("fluent-bit loki: JSON push with tenant, record lines and structured metadata", async () => {
  await withAuthServer(async (s) => {
    const body = JSON.stringify({
      streams: [{
        stream: { job: "fluent-bit", container: "api" },
        values: [
          ["1700000000000000000", '{"log":"GET / 200","stream":"stdout"}', { pod: "api-0" }],
          ["1700000001000000000", '{"log":"GET /x 404","stream":"stdout"}'],
        ],
      }],
    });
    const headers = { ...FB, "content-type": "application/json", "x-scope-orgid": "team-a" };
    const r = await send(
      s,
      "POST",
      "/v1/loki/api/v1/push",
      { ...headers, "content-encoding": "gzip" },
      gzip(body),
    );
    expectStatus(r, 200, "push");
    assert.deepStrictEqual(
      await rows(
        s,
        "SELECT line, job, container, structured_metadata FROM loki_logs ORDER BY greptime_timestamp",
      ),
      [
        ['{"log":"GET / 200","stream":"stdout"}', "fluent-bit", "api", { pod: "api-0" }],
        ['{"log":"GET /x 404","stream":"stdout"}', "fluent-bit", "api", {}],
      ],
    );
  });
});

Deno.test("fluent-bit opentelemetry: protobuf logs with a record body, metrics, into the header's table", async () => {
  await withAuthServer(async (s) => {
    const ns = "1700000000000000000";
    const logs = encode(types.logs, {
      resourceLogs: [{
        resource: {},
        scopeLogs: [{
          logRecords: [{
            timeUnixNano: ns,
            body: {
              kvlistValue: { values: [{ key: "log", value: { stringValue: "record as body" } }] },
            },
          }, { timeUnixNano: ns, body: { stringValue: "logs_body_key body" } }],
        }],
      }],
    });
    const headers = {
      ...FB,
      "content-type": "application/x-protobuf",
      "x-greptime-log-table-name": "fb_otel_logs",
    };
    const r = await send(
      s,
      "POST",
      "/v1/otlp/v1/logs",
      { ...headers, "content-encoding": "gzip" },
      gzip(logs),
    );
    expectStatus(r, 200, "logs");
    assert.equal(r.headers.get("content-type"), "application/x-protobuf");
    const bodies = (await rows(s, "SELECT body FROM fb_otel_logs ORDER BY body")).map((x) => String(x[0]));
    assert.equal(bodies.length, 2);
    assert.equal(bodies[0], "logs_body_key body");
    assert.deepStrictEqual(JSON.parse(bodies[1]), { log: "record as body" });

    const metrics = encode(types.metrics, {
      resourceMetrics: [{
        scopeMetrics: [{
          metrics: [{
            name: "fluentbit_input_records_total",
            gauge: { dataPoints: [{ timeUnixNano: ns, asDouble: 42 }] },
          }],
        }],
      }],
    });
    expectStatus(await send(s, "POST", "/v1/otlp/v1/metrics", headers, metrics), 200, "metrics");
    assert.deepStrictEqual(await rows(s, "SELECT greptime_value FROM fluentbit_input_records_total"), [[42]]);
  });
});

Deno.test("fluent-bit influxdb: v1 precision=n with Basic auth, v2 with HTTP_Token", async () => {
  await withAuthServer(async (s) => {
    const v1 = await send(
      s,
      "POST",
      "/v1/influxdb/write?db=public&precision=n",
      FB,
      'cpu.0,_seq=0,host=h1 cpu_p=1.5,msg="ok" 1700000000000000000\n',
    );
    expectStatus(v1, 204, "v1");
    const v2 = await send(
      s,
      "POST",
      "/v1/influxdb/api/v2/write?org=fluent&bucket=public&precision=ns",
      { "user-agent": "Fluent-Bit", authorization: "Token writer:wpass" },
      'cpu.0,_seq=1,host=h1 cpu_p=2.5,msg="ok" 1700000001000000000\n',
    );
    expectStatus(v2, 204, "v2");
    assert.deepStrictEqual(await rows(s, `SELECT _seq, host, cpu_p, msg FROM "cpu.0" ORDER BY _seq`), [
      ["0", "h1", 1.5, "ok"],
      ["1", "h1", 2.5, "ok"],
    ]);
  });
});
