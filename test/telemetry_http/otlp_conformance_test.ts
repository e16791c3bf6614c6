/**
 * OTLP/HTTP against GreptimeDB's data model (reference §6.11, §7.3–§7.5), for the cases an audit
 * found differing: each case sends real protobuf bodies and reads the tables back through SQL.
 */
import assert from "node:assert/strict";
import { encode, types } from "../protocols/otlp/proto_oracle.ts";
import { post, sqlRows, withServer } from "../protocols_http/util.ts";

const PB = { "content-type": "application/x-protobuf" };
const T0 = "1700000000000000000";

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

function sum(name: string, unit: string, attributes: unknown[]): Uint8Array {
  return encode(types.metrics, {
    resourceMetrics: [{
      resource: { attributes: [str("service.name", "shop"), str("service.instance.id", "i-1")] },
      scopeMetrics: [{
        scope: { name: "lib" },
        metrics: [{
          name,
          unit,
          sum: {
            isMonotonic: true,
            aggregationTemporality: 2,
            dataPoints: [{ timeUnixNano: T0, asInt: "3", attributes }],
          },
        }],
      }],
    }],
  });
}

Deno.test("OTLP metrics: NoTranslation and NoUTF8EscapingWithSuffixes keep dotted names as columns", async () => {
  await withServer(async (s) => {
    const cases: [string, string, string][] = [
      ["NoTranslation", "otel.strategy.duration", "otel.strategy.duration"],
      ["NoUTF8EscapingWithSuffixes", "otel.utf8", "otel.utf8_seconds_total"],
    ];
    for (const [strategy, metric, table] of cases) {
      const r = await post(s.url + "/v1/otlp/v1/metrics", sum(metric, "s", [str("http.route", "/a")]), {
        ...PB,
        "x-greptime-otlp-metric-translation-strategy": strategy,
      });
      assert.equal(r.status, 200, `${strategy}: ${r.text}`);
      const cols = await sqlRows(s.url, `DESC TABLE "${table}"`);
      assert.deepEqual(cols.map((c) => c[0]), [
        "greptime_timestamp",
        "greptime_value",
        "http.route",
        "instance",
        "job",
        "service.instance.id",
        "service.name",
      ]);
      assert.deepEqual(await sqlRows(s.url, `SELECT "http.route", job, "service.name" FROM "${table}"`), [
        ["/a", "shop", "shop"],
      ]);
    }
  });
});

function logs(attributes: unknown[], time = "1700000000123456789"): Uint8Array {
  return encode(types.logs, {
    resourceLogs: [{
      scopeLogs: [{
        scope: { name: "sc" },
        logRecords: [{ timeUnixNano: time, body: { stringValue: "hi" }, attributes }],
      }],
    }],
  });
}

Deno.test("OTLP logs into an existing table: values cast to its types, new extracted keys as fields", async () => {
  await withServer(async (s) => {
    const send = (attrs: unknown[], keys: string, table = "app_logs") =>
      post(s.url + "/v1/otlp/v1/logs", logs(attrs), {
        ...PB,
        "x-greptime-log-table-name": table,
        "x-greptime-log-extract-keys": keys,
      });
    const int = (key: string, v: number) => ({ key, value: { intValue: v } });
    assert.equal((await send([str("user", "u1"), int("code", 7)], "user,code")).status, 200);
    // an int into the String tag, a numeric string into the Int64 tag, a key the table lacks
    const r = await send([int("user", 42), str("code", "8"), str("region", "eu")], "user,code,region");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(s.url, 'SELECT "user", code, region FROM app_logs ORDER BY code'), [
      ["u1", 7, null],
      ["42", 8, "eu"],
    ]);
    const desc = await sqlRows(s.url, "DESC TABLE app_logs");
    assert.deepEqual(
      desc.filter((c) => ["user", "code", "region"].includes(String(c[0]))).map((c) =>
        c.slice(0, 2).concat(c[5])
      ),
      [
        ["code", "Int64", "TAG"],
        ["user", "String", "TAG"],
        ["region", "String", "FIELD"],
      ],
    );
    const bad = await send([str("code", "x")], "code");
    assert.equal(bad.status, 400);
    assert.equal(
      JSON.parse(bad.text).error,
      "failed to align log column 'code' in table 'app_logs' from String to Int64",
    );
    // a table made by SQL with a millisecond time index takes the records' times floored
    const sql = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({
        sql: "CREATE TABLE ms_logs (timestamp TIMESTAMP(3) TIME INDEX, body STRING)",
      }),
    });
    assert.equal(sql.status, 200, await sql.text());
    assert.equal((await send([], "", "ms_logs")).status, 200);
    assert.deepEqual(await sqlRows(s.url, "SELECT timestamp, body FROM ms_logs"), [[1700000000123, "hi"]]);
  });
});

Deno.test("OTLP logs into an existing Decimal column: an int or numeric string scaled as SQL INSERT scales it", async () => {
  await withServer(async (s) => {
    const create = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({
        sql: "CREATE TABLE dec_logs (timestamp TIMESTAMP(9) TIME INDEX, n INT, price DECIMAL(10,2), " +
          "body STRING) WITH (append_mode = 'true')",
      }),
    });
    assert.equal(create.status, 200, await create.text());
    const send = (n: number, price: Record<string, unknown>) =>
      post(
        s.url + "/v1/otlp/v1/logs",
        logs([{ key: "n", value: { intValue: n } }, { key: "price", value: price }]),
        {
          ...PB,
          "x-greptime-log-table-name": "dec_logs",
          "x-greptime-log-extract-keys": "n,price",
        },
      );
    const prices = [{ intValue: 15 }, { stringValue: "1.255" }, { stringValue: "-2.345" }];
    for (const [i, price] of prices.entries()) {
      const r = await send(i + 1, price);
      assert.equal(r.status, 200, r.text);
    }
    assert.deepEqual(await sqlRows(s.url, "SELECT n, price FROM dec_logs ORDER BY n"), [
      [1, "15.00"],
      [2, "1.26"],
      [3, "-2.35"],
    ]);
    // the stored scaled integer compares as the value
    assert.deepEqual(await sqlRows(s.url, "SELECT sum(price) FROM dec_logs WHERE price > 1.2"), [["16.26"]]);
    const tooBig = await send(4, { intValue: 1234567890 });
    assert.equal(tooBig.status, 400, tooBig.text);
    assert.match(
      JSON.parse(tooBig.text).error,
      /^Decimal value 1234567890 is too large .*, for column price$/,
    );
    const text = await send(5, { stringValue: "abc" });
    assert.equal(text.status, 400, text.text);
    assert.equal(
      JSON.parse(text.text).error,
      "failed to align log column 'price' in table 'dec_logs' from String to Decimal(10, 2)",
    );
    assert.deepEqual(await sqlRows(s.url, "SELECT count(*) FROM dec_logs"), [[3]]);
  });
});

function span(id: number, n: Record<string, unknown>): Uint8Array {
  const hex = (v: number, bytes: number) =>
    Uint8Array.from({ length: bytes }, (_, i) => i === bytes - 1 ? v : 1);
  return encode(types.traces, {
    resourceSpans: [{
      resource: { attributes: [str("service.name", "svc")] },
      scopeSpans: [{
        spans: [{
          traceId: hex(id, 16),
          spanId: hex(id, 8),
          name: "op",
          startTimeUnixNano: String(1700000000000000000n + BigInt(id)),
          endTimeUnixNano: String(1700000000000000100n + BigInt(id)),
          attributes: [{ key: "n", value: n }],
        }],
      }],
    }],
  });
}

Deno.test("OTLP traces: a double for an Int64 attribute column widens it to DOUBLE (rows kept)", async () => {
  await withServer(async (s) => {
    const send = (id: number, n: Record<string, unknown>) =>
      post(s.url + "/v1/otlp/v1/traces", span(id, n), {
        ...PB,
        "x-greptime-pipeline-name": "greptime_trace_v1",
      });
    assert.equal((await send(1, { intValue: 5 })).status, 200);
    const type = async () =>
      (await sqlRows(s.url, "DESC TABLE opentelemetry_traces")).find((c) => c[0] === "span_attributes.n")
        ?.[1];
    assert.equal(await type(), "Int64");
    const r = await send(2, { doubleValue: 2.5 });
    assert.equal(r.status, 200, r.text);
    assert.equal(await type(), "Float64");
    assert.equal((await send(3, { intValue: 7 })).status, 200);
    assert.equal((await send(4, { stringValue: "x" })).status, 400);
    assert.deepEqual(
      await sqlRows(
        s.url,
        'SELECT span_id, "span_attributes.n" FROM opentelemetry_traces ORDER BY timestamp',
      ),
      [["0101010101010101", 5], ["0101010101010102", 2.5], ["0101010101010103", 7]],
    );
    const ddl = await sqlRows(s.url, "SHOW CREATE TABLE opentelemetry_traces");
    assert.match(String(ddl[0][1]), /"span_attributes\.n" DOUBLE NULL/);
  });
});

Deno.test("OTLP traces greptime_trace_v0: aux tables written, so Jaeger lists the services and operations", async () => {
  await withServer(async (s) => {
    const r = await post(s.url + "/v1/otlp/v1/traces", span(1, { intValue: 1 }), {
      ...PB,
      "x-greptime-pipeline-name": "greptime_trace_v0",
      "x-greptime-trace-table-name": "old_traces",
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT service_name FROM old_traces_services"), [["svc"]]);
    const h = { "x-greptime-trace-table-name": "old_traces" };
    const services = await (await fetch(`${s.url}/v1/jaeger/api/services`, { headers: h })).json();
    assert.deepEqual([services.data, services.total], [["svc"], 1]);
    const ops = await (await fetch(`${s.url}/v1/jaeger/api/operations?service=svc`, { headers: h })).json();
    assert.deepEqual(ops.data, [{ name: "op", spanKind: "" }]);
    // v0 keeps every resource attribute in its JSON, service.name too (reference §7.4: only v1
    // leaves it out); Jaeger still shows it as the service, not as a process tag
    assert.deepEqual(await sqlRows(s.url, "SELECT resource_attributes FROM old_traces"), [[{
      "service.name": "svc",
    }]]);
    const id = "01010101010101010101010101010101";
    const t = await (await fetch(`${s.url}/v1/jaeger/api/traces/${id}`, { headers: h })).json();
    assert.deepEqual(t.data[0].processes, { p1: { serviceName: "svc", tags: [] } });
  });
});

Deno.test("OTLP traces: a span whose attribute cannot take its column's type is rejected alone; columns in order met", async () => {
  await withServer(async (s) => {
    const send = (body: unknown) =>
      post(s.url + "/v1/otlp/v1/traces", JSON.stringify(body), {
        "content-type": "application/json",
        "x-greptime-pipeline-name": "greptime_trace_v1",
      });
    const spanJson = (id: number, attributes: unknown[]) => ({
      traceId: "0102030405060708090a0b0c0d0e0f10",
      spanId: `000000000000000${id}`,
      name: "op",
      startTimeUnixNano: String(1700000000000000000n + BigInt(id)),
      endTimeUnixNano: String(1700000000000000100n + BigInt(id)),
      attributes,
    });
    const n = (v: unknown) => ({ key: "n", value: v });
    assert.equal(
      (await send({ resourceSpans: [{ scopeSpans: [{ spans: [spanJson(1, [n({ intValue: 5 })])] }] }] }))
        .status,
      200,
    );
    const r = await send({
      resourceSpans: [{
        resource: { attributes: [str("service.name", "svc"), str("host", "h1")] },
        scopeSpans: [
          { scope: { name: "empty", attributes: [str("unused", "u")] }, spans: [] },
          {
            scope: { name: "lib", attributes: [str("lib", "a"), str("lib", "b")] },
            spans: [
              spanJson(2, [n({ intValue: 7 })]),
              spanJson(3, [n({ stringValue: "x" }), str("m", "dropped with its span")]),
              spanJson(4, [n({ stringValue: "12" }), { key: "m", value: { boolValue: true } }]),
            ],
          },
        ],
      }],
    });
    assert.equal(r.status, 200, r.text);
    const partial = JSON.parse(r.text).partialSuccess;
    assert.equal(partial.rejectedSpans, "1");
    assert.equal(
      partial.errorMessage,
      "Accepted 2 spans, rejected 1 spans: column span_attributes.n is Int64, got a string value",
    );
    const desc = await sqlRows(s.url, "DESC TABLE opentelemetry_traces");
    assert.deepEqual(desc.slice(14).map((c) => [c[0], c[1]]), [
      ["span_attributes.n", "Int64"],
      ["span_events", "Json"],
      ["span_links", "Json"],
      ["scope_attributes.lib", "String"],
      ["resource_attributes.host", "String"],
      ["span_attributes.m", "Boolean"],
    ]);
    assert.deepEqual(
      await sqlRows(
        s.url,
        'SELECT span_id, service_name, scope_name, "span_attributes.n", "span_attributes.m", "scope_attributes.lib", ' +
          '"resource_attributes.host" FROM opentelemetry_traces ORDER BY timestamp',
      ),
      [
        ["0000000000000001", null, "", 5, null, null, null],
        ["0000000000000002", "svc", "lib", 7, null, "b", "h1"],
        ["0000000000000004", "svc", "lib", 12, true, "b", "h1"],
      ],
    );
    // a rejected span lists no service or operation for the Jaeger API
    const r2 = await send({
      resourceSpans: [{
        resource: { attributes: [str("service.name", "only_rejected")] },
        scopeSpans: [{ spans: [{ ...spanJson(5, [n({ stringValue: "y" })]), name: "rejected_op" }] }],
      }, {
        resource: { attributes: [str("service.name", "svc")] },
        scopeSpans: [{ spans: [{ ...spanJson(6, [n({ intValue: 8 })]), name: "kept_op" }] }],
      }],
    });
    assert.equal(JSON.parse(r2.text).partialSuccess.rejectedSpans, "1");
    assert.deepEqual(
      await sqlRows(
        s.url,
        "SELECT service_name, span_name FROM opentelemetry_traces_operations ORDER BY span_name",
      ),
      [["svc", "kept_op"], ["svc", "op"]],
    );
    assert.deepEqual(await sqlRows(s.url, "SELECT service_name FROM opentelemetry_traces_services"), [[
      "svc",
    ]]);
  });
});
