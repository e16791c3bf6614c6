/**
 * A string holding U+0000 reads back whole through `/v1/sql` (node:sqlite reads stored text only up
 * to its first NUL, so such strings are stored as bytes: storage/nul_text.ts): fields and tags from
 * line protocol, SQL INSERT expressions, Json, metric-engine labels, and the SQL over them that
 * keeps working (GROUP BY, DISTINCT, a blob comparison, Petrel's own functions).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlExec, sqlRows } from "../protocols_http/util.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

async function write(path: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const r = await post(`${base}${path}`, body, headers);
  assert.ok(r.status < 300, `${path}: ${r.status} ${r.text}`);
}

/** The typed schema and rows of one query. */
async function query(sql: string): Promise<{ types: string[]; rows: unknown[][] }> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  assert.equal(r.status, 200, `${sql}: ${JSON.stringify(body)}`);
  const records = body.output[0].records;
  return {
    types: records.schema.column_schemas.map((c: { data_type: string }) => c.data_type),
    rows: records.rows,
  };
}

Deno.test("nul text: line protocol fields and tags with NUL read back whole, keyed and append tables", async () => {
  await write(
    "/v1/influxdb/write?precision=s",
    'lp_nul,host=h\u0000x msg="a\u0000b",n=1i 1700000000\n' +
      'lp_nul,host=h\u0000x msg="a\u0000b",n=2i 1700000001\n' +
      'lp_nul,host=plain msg="plain \u00e9\u0000\u4e2d",n=3i 1700000002\n',
  );
  assert.deepEqual(await sqlRows(base, "SELECT host, msg, n FROM lp_nul ORDER BY n"), [
    ["h\u0000x", "a\u0000b", 1],
    ["h\u0000x", "a\u0000b", 2],
    ["plain", "plain \u00e9\u0000\u4e2d", 3],
  ]);
  // every byte is stored, as a blob
  assert.deepEqual(await sqlRows(base, "SELECT hex(msg), typeof(msg) FROM lp_nul WHERE n = 1"), [[
    "610062",
    "blob",
  ]]);
  // one series per distinct tag, grouped by the whole value
  assert.deepEqual(
    await sqlRows(base, "SELECT host, count(*), sum(n) FROM lp_nul GROUP BY host ORDER BY host"),
    [
      ["plain", 1, 3],
      ["h\u0000x", 2, 3],
    ],
  );
  // stored as blobs, they sort after every text value (and bytewise among themselves)
  assert.deepEqual(await sqlRows(base, "SELECT DISTINCT msg FROM lp_nul ORDER BY msg"), [
    ["a\u0000b"],
    ["plain \u00e9\u0000\u4e2d"],
  ]);
  // compared as bytes, the whole value matches (and a prefix does not)
  assert.deepEqual(
    await sqlRows(
      base,
      "SELECT n FROM lp_nul WHERE host = CAST('h' || CAST(X'00' AS STRING) || 'x' AS BLOB) ORDER BY n",
    ),
    [[1], [2]],
  );
  assert.deepEqual(await sqlRows(base, "SELECT n FROM lp_nul WHERE host = 'h'"), []);
  // the same line into an append table
  await write("/v1/influxdb/write?precision=s", 'lp_nul_app,host=h\u0000x msg="tail\u0000end" 1700000000\n', {
    "x-greptime-hints": "append_mode=true",
  });
  assert.deepEqual(await sqlRows(base, "SELECT host, msg FROM lp_nul_app"), [["h\u0000x", "tail\u0000end"]]);
});

Deno.test("nul text: result columns keep their String type and whole values through expressions", async () => {
  await write(
    "/v1/influxdb/write?precision=s",
    'lp_expr msg="a\u0000b" 1700000000\nlp_expr msg="plain" 1700000001\n',
  );
  const cases: [string, string, unknown[][]][] = [
    ["SELECT m FROM (SELECT msg AS m FROM lp_expr) AS q ORDER BY m", "String", [["plain"], ["a\u0000b"]]],
    ["SELECT CASE WHEN true THEN msg END FROM lp_expr ORDER BY 1", "String", [["plain"], ["a\u0000b"]]],
    ["SELECT regexp_replace(msg, 'b', 'c') FROM lp_expr ORDER BY 1", "String", [["plain"], ["a\u0000c"]]],
    ["SELECT max(msg) FROM lp_expr", "String", [["a\u0000b"]]],
    ["SELECT msg FROM lp_expr UNION SELECT 'z' ORDER BY 1", "String", [["plain"], ["z"], ["a\u0000b"]]],
  ];
  for (const [sql, type, rows] of cases) {
    const out = await query(sql);
    assert.deepEqual(out.rows, rows, sql);
    assert.equal(out.types[0], type, sql);
  }
});

Deno.test("nul text: SQL INSERT of a NUL-holding expression keeps every byte (tag, field)", async () => {
  await sqlExec(
    base,
    "CREATE TABLE ins_nul (host STRING, msg STRING, doc JSON, ts TIMESTAMP TIME INDEX, PRIMARY KEY (host))",
  );
  await sqlExec(
    base,
    "INSERT INTO ins_nul (host, msg, doc, ts) VALUES ('h' || CAST(X'00' AS STRING) || 'x', 'a' || CAST(X'00' AS STRING) || 'b', " +
      `'{"k":"v\\u0000w"}', 1), ('plain', 'x', NULL, 2)`,
  );
  // a copy through INSERT … SELECT of stored values keeps them too
  await sqlExec(base, "INSERT INTO ins_nul SELECT host, msg, doc, ts + 10 FROM ins_nul WHERE ts = 1");
  assert.deepEqual(await sqlRows(base, "SELECT host, msg, doc, ts FROM ins_nul ORDER BY ts"), [
    ["h\u0000x", "a\u0000b", { k: "v\u0000w" }, 1],
    ["plain", "x", null, 2],
    ["h\u0000x", "a\u0000b", { k: "v\u0000w" }, 11],
  ]);
});

Deno.test("nul text: a metric-engine label holding NUL reads back whole through the logical table", async () => {
  const body = encodeRemoteWriteV1([
    {
      labels: { __name__: "nul_metric", job: "j\u0000k" },
      samples: [{ value: 1, timestampMs: 1_700_000_000_000 }],
    },
    {
      labels: { __name__: "nul_metric", job: "plain" },
      samples: [{ value: 2, timestampMs: 1_700_000_000_000 }],
    },
  ]);
  await write("/v1/prometheus/write", body, {
    "content-type": "application/x-protobuf",
    "content-encoding": "snappy",
  });
  assert.deepEqual(
    await sqlRows(base, "SELECT job, greptime_value FROM nul_metric ORDER BY greptime_value"),
    [
      ["j\u0000k", 1],
      ["plain", 2],
    ],
  );
});
