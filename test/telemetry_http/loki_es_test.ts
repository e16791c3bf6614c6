/**
 * Real log shippers against a real server: winston-loki (snappy protobuf and JSON) and pino-loki
 * into `loki_logs`, and the @elastic/elasticsearch client's bulk helper through the identity
 * pipeline, read back by SQL.
 */
import assert from "node:assert/strict";
import { Client } from "@elastic/elasticsearch";
import { sqlExec, sqlRows, withServer } from "../protocols_http/util.ts";
import { pinoLines, winstonLines } from "./loki_clients.ts";

Deno.test("winston-loki (protobuf and JSON) and pino-loki: lines, labels and structured metadata stored", async () => {
  await withServer(async (s) => {
    await sqlExec(s.url, "CREATE DATABASE loki");
    const h = { "X-Greptime-DB-Name": "loki" };
    const before = Date.now();
    await winstonLines(s.url, false, h);
    await winstonLines(s.url, true, h);
    const count = async () =>
      Number((await sqlRows(s.url, "SELECT count(*) FROM loki_logs WHERE app = 'pino-demo'", "loki"))[0][0]);
    await pinoLines(s.url, h, async () => await count() >= 2);
    const rows = await sqlRows(
      s.url,
      `SELECT line, structured_metadata, app, job, level, transport, component FROM loki_logs
       ORDER BY greptime_timestamp, line`,
      "loki",
    );
    const winston = (t: string, meta: boolean) => [
      [
        'winston hello {"user":"u1","level":"info"}',
        meta ? { level: "info", user: "u1" } : {},
        "winston-demo",
        "w",
        "info",
        t,
        null,
      ],
      [
        'winston second line ✓ {"level":"warn"}',
        meta ? { level: "warn" } : {},
        "winston-demo",
        null,
        "warn",
        t,
        null,
      ],
    ];
    assert.deepEqual(rows.slice(0, 4), [...winston("protobuf", false), ...winston("json", true)]);
    const pino = rows.slice(4).map((r) => [JSON.parse(r[0] as string).msg, ...r.slice(1)]);
    assert.deepEqual(pino, [
      ["pino hello", { trace_id: "abc123" }, "pino-demo", null, "info", null, "api"],
      ["pino error line", {}, "pino-demo", null, "error", null, "db"],
    ]);
    const times = await sqlRows(
      s.url,
      "SELECT CAST(CAST(greptime_timestamp AS BIGINT) / 1000000 AS BIGINT) FROM loki_logs",
      "loki",
    );
    for (const [t] of times) assert.ok(Number(t) >= before - 1000 && Number(t) <= Date.now(), `time ${t}`);
    const create = String((await sqlRows(s.url, "SHOW CREATE TABLE loki_logs", "loki"))[0][1]);
    assert.match(create, /"greptime_timestamp" TIMESTAMP\(9\) NOT NULL/);
    assert.match(create, /append_mode = 'true'/);
  });
});

Deno.test("@elastic/elasticsearch: info, start-up stubs and helpers.bulk into tables per index", async () => {
  await withServer(async (s) => {
    const client = new Client({ node: `${s.url}/v1/elasticsearch` });
    try {
      const info = await client.info();
      assert.equal(info.version.number, "8.16.0");
      await client.indices.putIndexTemplate({ name: "logs", index_patterns: ["logs-*"] });
      await client.ilm.putLifecycle({ name: "keep", policy: { phases: {} } });
      const docs = [
        { "@timestamp": "2024-05-01T00:00:00Z", message: "one", level: "info", n: 1 },
        { "@timestamp": "2024-05-01T00:00:01Z", message: "two ✓", level: "warn", n: 2 },
        { "@timestamp": "2024-05-01T00:00:02Z", message: "three", level: "info", n: 3, other: true },
      ];
      const stats = await client.helpers.bulk({
        datasource: docs,
        onDocument: (d) => ({ create: { _index: d.n === 3 ? "es_other" : "es_logs" } }),
        retries: 0,
      });
      assert.equal(stats.successful, 3);
      assert.equal(stats.failed, 0);
      assert.deepEqual(
        await sqlRows(s.url, 'SELECT "@timestamp", message, level, n FROM es_logs ORDER BY n'),
        [["2024-05-01T00:00:00Z", "one", "info", 1], ["2024-05-01T00:00:01Z", "two ✓", "warn", 2]],
      );
      assert.deepEqual(await sqlRows(s.url, "SELECT message, other FROM es_other"), [["three", true]]);

      const raw = await client.bulk({
        index: "es_path",
        operations: [{ index: {} }, { message: "from path" }, { create: { _index: "es_logs" } }, {
          message: "x",
        }],
      });
      assert.equal(raw.errors, false);
      assert.deepEqual(raw.items, [{ create: { status: 201 } }, { create: { status: 201 } }]);
      assert.deepEqual(await sqlRows(s.url, "SELECT message FROM es_path"), [["from path"]]);
    } finally {
      await client.close();
    }
  });
});
