/**
 * `/v1/sql` request shapes (GET, form POST, text/plain POST, JSON → 415) and every output format, with
 * exact bodies where GreptimeDB's bytes are specified (CSV, table drawing, json, influxdb_v1 epochs).
 */
import assert from "node:assert/strict";
import { type Table, tableFromIPC } from "apache-arrow";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runCases, type SqlCase, sqlOk, sqlRequest, sqlRows } from "./fixtures/sql_client.ts";

const T0 = 1704067200000;
const SELECT = "SELECT host, v, n, ts FROM f ORDER BY ts";

async function withFixture(fn: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE f (host STRING, v DOUBLE, n BIGINT, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host));" +
        `INSERT INTO f VALUES ('a', 1.5, 1, ${T0}), ('b, "q"', 2, NULL, ${T0 + 60_000})`,
    );
    await fn(server);
  } finally {
    await server.stop();
  }
}

/** Bodies of the text formats, byte for byte. */
const TEXT_FORMATS: SqlCase[] = [
  {
    sql: SELECT,
    format: "csv",
    body: `a,1.5,1,${T0}\r\n"b, ""q""",2.0,,${T0 + 60_000}\r\n`,
  },
  {
    sql: SELECT,
    format: "csvwithnames",
    body: `host,v,n,ts\r\na,1.5,1,${T0}\r\n"b, ""q""",2.0,,${T0 + 60_000}\r\n`,
  },
  {
    name: "format names are case-insensitive",
    sql: SELECT,
    format: "CSVWithNamesAndTypes",
    body: `host,v,n,ts\r\nString,Float64,Int64,TimestampMillisecond\r\n` +
      `a,1.5,1,${T0}\r\n"b, ""q""",2.0,,${T0 + 60_000}\r\n`,
  },
  { name: "csv limit", sql: SELECT, format: "csv", limit: "1", body: `a,1.5,1,${T0}\r\n` },
  { name: "csv of an empty result", sql: "SELECT * FROM f WHERE host = 'x'", format: "csv", body: "" },
  {
    sql: SELECT,
    format: "table",
    body: [
      "┌─host───────┬─v───┬─n────┬─ts────────────┐",
      '│ "a"        │ 1.5 │ 1    │ 1704067200000 │',
      '│ "b, \\"q\\"" │ 2.0 │ null │ 1704067260000 │',
      "└────────────┴─────┴──────┴───────────────┘",
      "",
    ].join("\n"),
  },
  {
    sql: "SELECT sum(n) FROM f WHERE ts > 0",
    format: "table",
    body: "┌─sum(f.n)─┐\n│ 1        │\n└──────────┘\n",
  },
  { name: "csv of affected rows", sql: `INSERT INTO f VALUES ('c', 0, 0, 0)`, format: "csv", body: "1\n" },
  { name: "table of affected rows", sql: `DELETE FROM f WHERE host = 'c'`, format: "table", body: "1\n" },
];

Deno.test("/v1/sql text formats", async (t) => {
  await withFixture((server) => runCases(t, server.url, TEXT_FORMATS));
});

Deno.test("/v1/sql JSON formats", async (t) => {
  await withFixture(async ({ url }) => {
    const json = async (sql: string, params: Record<string, string>) => {
      const reply = await sqlRequest(url, sql, params);
      assert.equal(reply.status, 200, reply.text);
      assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
      const body = JSON.parse(reply.text) as Record<string, unknown>;
      assert.equal(typeof body.execution_time_ms, "number");
      delete body.execution_time_ms;
      return body;
    };
    await t.step("greptimedb_v1 is the default and unknown formats fall back to it", async () => {
      const expected = {
        output: [{
          records: {
            schema: {
              column_schemas: [
                { name: "host", data_type: "String" },
                { name: "v", data_type: "Float64" },
                { name: "n", data_type: "Int64" },
                { name: "ts", data_type: "TimestampMillisecond" },
              ],
            },
            rows: [["a", 1.5, 1, T0], ['b, "q"', 2.0, null, T0 + 60_000]],
            total_rows: 2,
          },
        }],
      };
      assert.deepEqual(await json(SELECT, {}), expected);
      assert.deepEqual(await json(SELECT, { format: "greptimedb_v1" }), expected);
      assert.deepEqual(await json(SELECT, { format: "no_such_format" }), expected);
      // serde prints integral floats with `.0`; JSON.parse hides that, so look at the text too.
      assert.match((await sqlRequest(url, SELECT)).text, /\["b, \\"q\\"",2\.0,null,1704067260000\]/);
    });
    await t.step("limit truncates rows and total_rows", async () => {
      const body = await json(SELECT, { limit: "1" }) as { output: { records: unknown }[] };
      const records = body.output[0].records as { rows: unknown[][]; total_rows: number };
      assert.deepEqual(records.rows, [["a", 1.5, 1, T0]]);
      assert.equal(records.total_rows, 1);
    });
    await t.step("json", async () => {
      assert.deepEqual(await json(SELECT, { format: "json" }), {
        data: [{ host: "a", v: 1.5, n: 1, ts: T0 }, { host: 'b, "q"', v: 2.0, n: null, ts: T0 + 60_000 }],
      });
      assert.deepEqual(await json("INSERT INTO f VALUES ('c', 0, 0, 0)", { format: "json" }), {
        data: [],
        affected_rows: 1,
      });
    });
    const epochs: [string | undefined, number][] = [
      [undefined, T0],
      ["ms", T0],
      ["s", T0 / 1000],
      ["u", T0 * 1000],
      ["µ", T0 * 1000],
      ["ns", T0 * 1_000_000],
      ["bogus", T0],
    ];
    for (const [epoch, ts] of epochs) {
      await t.step(`influxdb_v1 epoch=${epoch}`, async () => {
        const params: Record<string, string> = { format: "influxdb_v1" };
        if (epoch) params.epoch = epoch;
        const body = await json("SELECT host, ts FROM f WHERE host = 'a'", params);
        assert.deepEqual(body, {
          results: [{
            statement_id: 0,
            series: [{ name: "", columns: ["host", "ts"], values: [["a", ts]] }],
          }],
        });
      });
    }
    await t.step("influxdb_v1 epoch converts from the column's own unit", async () => {
      await sqlOk(
        url,
        "CREATE TABLE s0 (ts TIMESTAMP(0) TIME INDEX, v BIGINT); INSERT INTO s0 VALUES (1704067200, 1)",
      );
      const sql = "SELECT ts FROM s0";
      const values = async (epoch?: string) => {
        const body = await json(
          sql,
          epoch ? { format: "influxdb_v1", epoch } : { format: "influxdb_v1" },
        ) as {
          results: { series: { values: unknown[][] }[] }[];
        };
        return body.results[0].series[0].values;
      };
      assert.deepEqual(await values(), [[T0 / 1000]]);
      assert.deepEqual(await values("ms"), [[T0]]);
      assert.deepEqual(await values("ns"), [[T0 * 1_000_000]]);
    });
    await t.step("influxdb_v1 with several statements and affected rows", async () => {
      const body = await json("DELETE FROM f WHERE host = 'c'; SELECT n FROM f WHERE host = 'a'", {
        format: "influxdb_v1",
      });
      assert.deepEqual(body, {
        results: [
          { statement_id: 0, series: [] },
          { statement_id: 1, series: [{ name: "", columns: ["n"], values: [[1]] }] },
        ],
      });
    });
  });
});

Deno.test("/v1/sql null and arrow formats", async (t) => {
  await withFixture(async ({ url }) => {
    await t.step("null", async () => {
      const reply = await sqlRequest(url, SELECT, { format: "null" });
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get("content-type") ?? "", /^text\/plain/);
      assert.match(reply.text, /^2 rows in set\.\nElapsed: \d+\.\d{3} sec\.\n$/);
      const write = await sqlRequest(url, "INSERT INTO f VALUES ('c', 0, 0, 0)", { format: "null" });
      assert.match(write.text, /^1 rows affected\.\nElapsed: \d+\.\d{3} sec\.\n$/);
    });
    await t.step("arrow decodes with tableFromIPC", async () => {
      const reply = await sqlRequest(url, SELECT, { format: "arrow" });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get("content-type"), "application/arrow");
      const table: Table = tableFromIPC(reply.bytes);
      assert.deepEqual(table.schema.fields.map((f) => [f.name, String(f.type)]), [
        ["host", "Utf8"],
        ["v", "Float64"],
        ["n", "Int64"],
        ["ts", "Timestamp<MILLISECOND>"],
      ]);
      assert.equal(table.numRows, 3);
      assert.deepEqual([...table.getChild("host")!], ["c", "a", 'b, "q"']);
    });
    await t.step("arrow of affected rows is an empty body", async () => {
      const reply = await sqlRequest(url, "DELETE FROM f WHERE host = 'c'", { format: "arrow" });
      assert.equal(reply.status, 200);
      assert.equal(reply.bytes.length, 0);
    });
    await t.step("arrow values", async () => {
      const table = tableFromIPC((await sqlRequest(url, SELECT, { format: "arrow" })).bytes);
      assert.deepEqual(table.toArray().map((r) => r.toJSON()), [
        { host: "a", v: 1.5, n: 1n, ts: T0 },
        { host: 'b, "q"', v: 2, n: null, ts: T0 + 60_000 },
      ]);
    });
  });
});

Deno.test("/v1/sql single-statement formats refuse several statements", async (t) => {
  await withFixture(async ({ url }) => {
    for (const format of ["csv", "csvwithnames", "table", "json", "null", "arrow"]) {
      const family = format.startsWith("csv") ? "csv" : format;
      await runCases(t, url, [{
        name: format,
        sql: "SELECT 1; SELECT 2",
        format,
        error: { code: 1004, message: `cannot output multi-statements result in ${family} format` },
      }]);
    }
  });
});

Deno.test("/v1/sql request shapes", async (t) => {
  await withFixture(async ({ url }) => {
    const count = [{
      records: {
        schema: { column_schemas: [{ name: "count(*)", data_type: "Int64" }] },
        rows: [[2]],
        total_rows: 1,
      },
    }];
    await t.step("GET query string", async () => {
      assert.deepEqual(await sqlOk(url, "SELECT count(*) FROM f"), count);
    });
    await t.step("POST form body", async () => {
      assert.deepEqual(await sqlOk(url, "SELECT count(*) FROM f", { via: "form" }), count);
    });
    await t.step("POST text/plain body is the SQL", async () => {
      assert.deepEqual(await sqlOk(url, "SELECT count(*) FROM f", { via: "text" }), count);
    });
    await t.step("POST form with format and db in the body", async () => {
      const res = await fetch(`${url}/v1/sql`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: new URLSearchParams({ sql: "SELECT count(*) FROM f", db: "public", format: "csv" }).toString(),
      });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "2\r\n");
    });
    await t.step("the query string wins over the form body", async () => {
      const res = await fetch(`${url}/v1/sql?format=csv&sql=${encodeURIComponent("SELECT 7")}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ sql: "SELECT 8", format: "json" }).toString(),
      });
      assert.equal(await res.text(), "7\r\n");
    });
    await t.step("POST application/json is 415", async () => {
      const res = await fetch(`${url}/v1/sql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sql: "SELECT 1" }),
      });
      assert.equal(res.status, 415);
      assert.match(await res.text(), /Content-Type: application\/x-www-form-urlencoded/);
    });
    await t.step("a `+` in a form body is a space, `%2B` is a plus", async () => {
      const res = await fetch(`${url}/v1/sql?format=csv`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "sql=SELECT+1%2B1",
      });
      assert.equal(await res.text(), "2\r\n");
    });
  });
});

Deno.test("/v1/sql arrow with compression=zstd", async () => {
  await withFixture(async ({ url }) => {
    // Repetitive rows so that compression visibly pays off.
    const rows = Array.from({ length: 2000 }, (_, i) => `('same host name', 1.0, 1, ${T0 + 120_000 + i})`);
    await sqlOk(url, `INSERT INTO f VALUES ${rows.join(",")}`, { via: "form" });
    const plain = await sqlRequest(url, SELECT, { format: "arrow" });
    const res = await fetch(`${url}/v1/sql?format=arrow&compression=ZSTD&sql=${encodeURIComponent(SELECT)}`);
    assert.equal(res.status, 200);
    const zstd = new Uint8Array(await res.arrayBuffer());
    assert.ok(
      zstd.length * 3 < plain.bytes.length,
      `zstd ${zstd.length} bytes vs plain ${plain.bytes.length}`,
    );
    // apache-arrow needs a registered ZSTD codec to read it (the in-process server registered one).
    const decoded = tableFromIPC(zstd).toArray().map((r) => r.toJSON());
    assert.deepEqual(decoded, tableFromIPC(plain.bytes).toArray().map((r) => r.toJSON()));
    assert.equal(decoded.length, 2002);
  });
});

Deno.test("/v1/sql a few thousand rows in every format", async (t) => {
  const server = await startTestServer();
  const n = 5000;
  try {
    const values = Array.from({ length: n }, (_, i) => `('h${i % 50}', ${i}.5, ${T0 + i * 1000})`).join(",");
    const started = performance.now();
    await sqlOk(
      server.url,
      "CREATE TABLE big (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))",
    );
    const [insert] = await sqlOk(server.url, `INSERT INTO big VALUES ${values}`, { via: "form" });
    assert.deepEqual(insert, { affectedrows: n });
    await t.step("count and group by", async () => {
      const rows = await sqlRows(
        server.url,
        "SELECT host, count(*) AS c FROM big GROUP BY host ORDER BY host LIMIT 2",
      );
      assert.deepEqual(rows, [["h0", n / 50], ["h1", n / 50]]);
    });
    await t.step("csv", async () => {
      const reply = await sqlRequest(server.url, "SELECT * FROM big ORDER BY ts", { format: "csv" });
      const lines = reply.text.split("\r\n");
      assert.equal(lines.length, n + 1);
      assert.equal(lines[n - 1], `h${(n - 1) % 50},${n - 1}.5,${T0 + (n - 1) * 1000}`);
    });
    await t.step("arrow", async () => {
      const reply = await sqlRequest(server.url, "SELECT * FROM big", { format: "arrow" });
      assert.equal(tableFromIPC(reply.bytes).numRows, n);
    });
    await t.step("json and limit", async () => {
      const reply = await sqlRequest(server.url, "SELECT * FROM big", { format: "json", limit: "10" });
      assert.equal((JSON.parse(reply.text) as { data: unknown[] }).data.length, 10);
    });
    await t.step("table", async () => {
      const reply = await sqlRequest(server.url, "SELECT * FROM big", { format: "table" });
      assert.equal(reply.text.split("\n").length, n + 3);
    });
    // A generous bound: it catches per-row pathologies (quadratic work), not small regressions.
    assert.ok(performance.now() - started < 20_000, `took ${performance.now() - started} ms`);
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql limit applies to each output of a request", async () => {
  const server = await startTestServer();
  try {
    const outputs = await sqlOk(
      server.url,
      "SELECT number FROM numbers LIMIT 5; SELECT number FROM numbers LIMIT 3",
      {
        limit: "2",
      },
    );
    assert.deepEqual(outputs.map((o) => "records" in o ? o.records.rows : o), [[[0], [1]], [[0], [1]]]);
    assert.deepEqual(
      outputs.map((o) => "records" in o ? (o.records as { total_rows?: number }).total_rows : o),
      [
        2,
        2,
      ],
    );
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql POST form with the sql in the query string and an empty body", async () => {
  const server = await startTestServer();
  try {
    const res = await fetch(`${server.url}/v1/sql?sql=${encodeURIComponent("SELECT 1 AS one")}&format=csv`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "1\r\n");
  } finally {
    await server.stop();
  }
});

Deno.test("/v1/sql response headers", async (t) => {
  await withFixture(async ({ url }) => {
    const formats: [string, string, string][] = [
      ["greptimedb_v1", "greptimedb_v1", "application/json"],
      ["influxdb_v1", "influxdb_v1", "application/json"],
      ["csv", "csv", "text/csv; charset=utf-8"],
      ["csvWithNames", "csv", "text/csv; charset=utf-8"],
      ["csvwithnamesandtypes", "csv", "text/csv; charset=utf-8"],
      ["table", "table", "text/plain; charset=utf-8"],
      ["arrow", "arrow", "application/arrow"],
      ["json", "json", "application/json"],
      ["null", "null", "text/plain; charset=utf-8"],
    ];
    for (const [format, header, type] of formats) {
      await t.step(format, async () => {
        const reply = await sqlRequest(url, SELECT, { format });
        assert.equal(reply.status, 200);
        assert.equal(reply.headers.get("x-greptime-format"), header);
        assert.equal(reply.headers.get("content-type"), type);
        assert.match(reply.headers.get("x-greptime-execution-time") ?? "", /^\d+$/);
      });
    }
    await t.step("errors carry x-greptime-err-code and an ASCII x-greptime-err-msg", async () => {
      const reply = await sqlRequest(url, 'SELECT * FROM "数据"');
      assert.equal(reply.status, 400);
      assert.equal(reply.headers.get("x-greptime-err-code"), "4001");
      assert.match(
        reply.headers.get("x-greptime-err-msg") ?? "",
        /^error: Table not found: greptime\.public\.\\u\{6570\}\\u\{636e\}, execution_time_ms: \d+$/,
      );
      assert.equal(
        (JSON.parse(reply.text) as { error: string }).error,
        "Table not found: greptime.public.数据",
      );
    });
  });
});
