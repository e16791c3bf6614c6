/**
 * The Splunk log model (reference §6.15): `splunk_logs`' schema (DESC TABLE), indexed fields as
 * tags, events routed by index, gzip bodies, all tables of a request in one transaction, and a
 * named pipeline instead of the identity one.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { post, sqlRows, withServer } from "../protocols_http/util.ts";

const HEC = "/v1/splunk/services/collector";

Deno.test("splunk_logs: schema, fields as tags after host/source/sourcetype, append mode", async () => {
  await withServer(async (s) => {
    const body =
      `{"time":1700000000,"host":"web1","source":"nginx","sourcetype":"access","event":{"status":200,` +
      `"req":{"path":"/a"}},"fields":{"region":"eu","zone":3,"tags":["a","b"]}}` +
      `{"time":1700000001,"event":"plain text","fields":{"region":"us"}}`;
    const r = await post(`${s.url}${HEC}`, body);
    assert.equal(r.status, 200, r.text);
    const desc = await sqlRows(s.url, "DESC TABLE splunk_logs");
    assert.deepEqual(desc.map((row) => [row[0], row[1], row[2], row[5]]), [
      ["greptime_timestamp", "TimestampNanosecond", "PRI", "TIMESTAMP"],
      ["host", "String", "PRI", "TAG"],
      ["source", "String", "PRI", "TAG"],
      ["sourcetype", "String", "PRI", "TAG"],
      ["fields.region", "String", "PRI", "TAG"],
      ["fields.tags", "String", "PRI", "TAG"],
      ["fields.zone", "String", "PRI", "TAG"],
      ["event.req.path", "String", "", "FIELD"],
      ["event.status", "Int64", "", "FIELD"],
      ["event", "String", "", "FIELD"],
    ]);
    const create = String((await sqlRows(s.url, "SHOW CREATE TABLE splunk_logs"))[0][1]);
    assert.match(create, /append_mode = 'true'/);
    assert.match(
      create,
      /PRIMARY KEY \("host", "source", "sourcetype", "fields.region", "fields.tags", "fields.zone"\)/,
    );
    const rows = await sqlRows(
      s.url,
      `SELECT host, "fields.region", "fields.zone", "fields.tags", event, "event.status", "event.req.path"
       FROM splunk_logs WHERE "fields.region" = 'eu'`,
    );
    assert.deepEqual(rows, [["web1", "eu", "3", '["a","b"]', null, 200, "/a"]]);
  });
});

Deno.test("events go to the table their index names, else ?table= or the header's; gzip bodies", async () => {
  await withServer(async (s) => {
    const body =
      `{"time":1700000000,"event":"to main"}{"time":1700000001,"index":"audit","event":"to audit"}`;
    const r = await post(`${s.url}${HEC}/event?table=main_logs`, gzipSync(body), {
      "content-encoding": "gzip",
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT event FROM main_logs"), [["to main"]]);
    assert.deepEqual(await sqlRows(s.url, "SELECT event FROM audit"), [["to audit"]]);
    const raw = await post(`${s.url}${HEC}/raw`, gzipSync("one\ntwo\n"), {
      "content-encoding": "gzip",
      "x-greptime-log-table-name": "raw_logs",
    });
    assert.equal(raw.status, 200, raw.text);
    assert.deepEqual(await sqlRows(s.url, "SELECT message FROM raw_logs ORDER BY message"), [["one"], [
      "two",
    ]]);
    const corrupt = await post(`${s.url}${HEC}/raw`, new Uint8Array([0x1f, 0x8b, 1, 2, 3]), {
      "content-encoding": "gzip",
    });
    assert.equal(corrupt.status, 400, corrupt.text);
    assert.equal(JSON.parse(corrupt.text).code, 6);
  });
});

Deno.test("a request is all or nothing: a write refused for one table stores none", async () => {
  await withServer(async (s) => {
    const first = await post(`${s.url}${HEC}`, `{"time":1700000000,"index":"typed","event":{"n":1}}`);
    assert.equal(first.status, 200, first.text);
    const bad = await post(
      `${s.url}${HEC}`,
      `{"time":1700000001,"index":"fresh","event":"ok"}{"time":1700000002,"index":"typed","event":{"n":"x"}}`,
    );
    assert.equal(bad.status, 400, bad.text);
    assert.ok([6, 8].includes(JSON.parse(bad.text).code), bad.text);
    assert.deepEqual(await sqlRows(s.url, `SELECT "event.n" FROM typed`), [[1]]);
    const tables = (await sqlRows(s.url, "SHOW TABLES")).map((r) => r[0]);
    if (tables.includes("fresh")) assert.deepEqual(await sqlRows(s.url, "SELECT * FROM fresh"), []);
  });
});

Deno.test("a float for an existing integer column is refused, not stored as a REAL", async () => {
  await withServer(async (s) => {
    const first = await post(`${s.url}${HEC}`, `{"time":1700000000,"index":"ints","event":{"n":1}}`);
    assert.equal(first.status, 200, first.text);
    for (const n of ["2.5", "1e400", "-9223372036854775809"]) {
      const bad = await post(`${s.url}${HEC}`, `{"time":1700000001,"index":"ints","event":{"n":${n}}}`);
      assert.equal(bad.status, 400, bad.text);
      assert.match(
        bad.text,
        /Column datatype mismatch\. For column: event\.n, expected datatype: Int64, actual datatype: Float64/,
      );
    }
    assert.deepEqual(await sqlRows(s.url, `SELECT "event.n" FROM ints`), [[1]]);
  });
});

Deno.test("a named pipeline (header or ?pipeline_name=) receives the event with greptime_timestamp in ns", async () => {
  await withServer(async (s) => {
    const yaml = `processors:
  - dissect:
      fields:
        - event
      patterns:
        - '%{verb} %{path}'
transform:
  - fields:
      - verb
      - host
    type: string
    index: tag
  - field: path
    type: string
  - field: greptime_timestamp
    type: epoch, ns
    index: timestamp
`;
    const up = await post(`${s.url}/v1/pipelines/access`, yaml, { "content-type": "application/x-yaml" });
    assert.equal(up.status, 200, up.text);
    const body = `{"time":1700000000.5,"host":"h","event":"GET /a"}`;
    const viaHeader = await post(`${s.url}${HEC}?table=acc`, body, { "x-greptime-pipeline-name": "access" });
    assert.equal(viaHeader.status, 200, viaHeader.text);
    const viaQuery = await post(`${s.url}${HEC}?table=acc&pipeline_name=access`, body.replace("/a", "/b"));
    assert.equal(viaQuery.status, 200, viaQuery.text);
    assert.deepEqual(
      await sqlRows(
        s.url,
        "SELECT CAST(CAST(greptime_timestamp AS BIGINT) AS STRING), verb, host, path FROM acc ORDER BY path",
      ),
      [["1700000000500000000", "GET", "h", "/a"], ["1700000000500000000", "GET", "h", "/b"]],
    );
    const bad = await post(`${s.url}${HEC}?table=acc&pipeline_name=access`, `{"event":"nospace"}`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(JSON.parse(bad.text).code, 8);
  });
});
