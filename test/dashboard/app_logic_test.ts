// The dashboard's pure logic, run here without a browser: trace layout, metrics parsing, SQL text,
// chart alignment.
import assert from "node:assert/strict";
import { buildWaterfall, formatDuration } from "../../src/dashboard/app/trace_tree.ts";
import { parseMetrics, rates, sumBy } from "../../src/dashboard/app/metrics_text.ts";
import { formatCell, formatTimestamp, ident, literal } from "../../src/dashboard/app/sql_text.ts";
import { alignMatrix, autoStep, seriesLabel } from "../../src/dashboard/app/matrix.ts";
import { tailQuery } from "../../src/dashboard/app/log_query.ts";

Deno.test("trace waterfall: parents before children, offsets from the first start, orphans as roots", () => {
  const t0 = 1704067200000000000n;
  const span = (id: string, parent: string | null, startMs: number, durMs: number, name = id) => ({
    span_id: id,
    parent_span_id: parent,
    span_name: name,
    service_name: id.startsWith("db") ? "db" : "api",
    timestamp: String(t0 + BigInt(startMs * 1e6)),
    duration_nano: durMs * 1e6,
  });
  const w = buildWaterfall([
    span("db1", "child", 20, 10),
    span("root", null, 0, 100),
    span("child", "root", 10, 50),
    span("child2", "root", 5, 5),
    span("orphan", "missing", 90, 30),
  ]);
  assert.deepEqual(w.spans.map((s) => [s.spanId, s.depth, s.offsetNs / 1e6]), [
    ["root", 0, 0],
    ["child2", 1, 5],
    ["child", 1, 10],
    ["db1", 2, 20],
    ["orphan", 0, 90],
  ]);
  assert.equal(w.totalNs, 120e6);
  assert.equal(w.startNs, t0);
  assert.deepEqual(w.services, ["api", "db"]);
  const cyclic = buildWaterfall([span("a", "b", 0, 1), span("b", "a", 1, 1)]);
  assert.equal(cyclic.spans.length, 2, "a parent cycle still shows every span once");
  assert.deepEqual(buildWaterfall([]).spans, []);
  assert.equal(formatDuration(1_500_000), "1.5 ms");
  assert.equal(formatDuration(2_500_000_000), "2.50 s");
});

Deno.test("metrics text: samples with labels, sums by label, counter rates with resets", () => {
  const text = [
    "# HELP petrel_ingest_rows_total Rows ingested",
    "# TYPE petrel_ingest_rows_total counter",
    'petrel_ingest_rows_total{protocol="influxdb"} 100',
    'petrel_ingest_rows_total{protocol="prometheus",x="a \\"q\\""} 50',
    "process_resident_memory_bytes 1.5e+07",
    "bad line",
  ].join("\n");
  const samples = parseMetrics(text);
  assert.equal(samples.length, 3);
  assert.deepEqual(samples[1].labels, { protocol: "prometheus", x: 'a "q"' });
  const now = sumBy(samples, "petrel_ingest_rows_total", "protocol");
  assert.deepEqual([...now], [["influxdb", 100], ["prometheus", 50]]);
  const before = new Map([["influxdb", 40], ["prometheus", 80]]);
  assert.deepEqual([...rates(before, now, 2)], [["influxdb", 30], ["prometheus", 25]]);
});

Deno.test("SQL text: quoting and cell formatting at each timestamp precision", () => {
  assert.equal(ident('my "t"'), '"my ""t"""');
  assert.equal(literal("it's"), "'it''s'");
  assert.equal(formatTimestamp(1000, "TimestampMillisecond"), "1970-01-01 00:00:01.000");
  assert.equal(
    formatTimestamp("1704067200000000001", "TimestampNanosecond"),
    "2024-01-01 00:00:00.000000001",
  );
  assert.equal(formatTimestamp(-1, "TimestampSecond"), "1969-12-31 23:59:59");
  assert.equal(formatTimestamp(-1, "TimestampMillisecond"), "1969-12-31 23:59:59.999");
  assert.equal(formatCell({ a: [1] }, "Json"), '{"a":[1]}');
  assert.equal(formatCell(null), "");
});

Deno.test("PromQL results: label sets as text, series aligned on shared times, steps", () => {
  assert.equal(seriesLabel({ __name__: "up", job: "p", a: "1" }), 'up{a="1", job="p"}');
  assert.equal(seriesLabel({}), "{}");
  const aligned = alignMatrix([
    { metric: { __name__: "a" }, values: [[10, "1"], [20, "2"]] },
    { metric: { __name__: "b" }, values: [[20, "NaN"], [30, "3"]] },
  ]);
  assert.deepEqual(aligned.xs, [10, 20, 30]);
  assert.deepEqual(aligned.ys, [[1, 2, null], [null, null, 3]]);
  assert.equal(autoStep(3600), 15);
  assert.equal(autoStep(60), 1);
});

Deno.test("log tail query: filter over string columns, newest first", () => {
  const columns = [
    { name: "ts", type: "TimestampMillisecond", key: "TIME INDEX", nullable: false, semantic: "TIMESTAMP" },
    { name: "host", type: "String", key: "PRI", nullable: true, semantic: "TAG" },
    { name: "n", type: "Int64", key: "", nullable: true, semantic: "FIELD" },
    { name: "message", type: "String", key: "", nullable: true, semantic: "FIELD" },
  ];
  assert.equal(tailQuery("logs", columns, "", 100), 'SELECT * FROM "logs" ORDER BY "ts" DESC LIMIT 100');
  assert.equal(
    tailQuery("logs", columns, "it's", 5),
    `SELECT * FROM "logs" WHERE "host" ILIKE '%it''s%' OR "message" ILIKE '%it''s%' ORDER BY "ts" DESC LIMIT 5`,
  );
});
