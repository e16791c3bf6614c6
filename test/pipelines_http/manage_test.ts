/**
 * Pipeline management over HTTP (reference §12.1–§12.5, §12.8): upload rules, versions (latest vs
 * pinned, delete falls back), the DDL preview, dry run in both request forms, and the
 * `/v1/events/...` aliases.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

/** A v1 pipeline writing `v` as the given type, with `ts` (epoch ms) as time index. */
function typed(type: string): string {
  return `processors: []\ntransform:\n  - field: v\n    type: ${type}\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n`;
}

const VERSION_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?$/;

async function withServer(fn: (client: PipelineClient) => Promise<void>): Promise<void> {
  const server = await startTestServer();
  try {
    await fn(new PipelineClient(server.url));
  } finally {
    await server.stop();
  }
}

interface UploadCase {
  name: string;
  pipeline: string;
  contentType: string;
  body: string | FormData;
  status: number;
  error?: string;
}

const YAML = typed("string");
const multipart = new FormData();
multipart.append("file", new Blob([YAML]), "p.yaml");

const UPLOADS: UploadCase[] = [
  { name: "application/x-yaml", pipeline: "u1", contentType: "application/x-yaml", body: YAML, status: 200 },
  { name: "text/yaml", pipeline: "u2", contentType: "text/yaml", body: YAML, status: 200 },
  {
    name: "multipart/form-data: the first part",
    pipeline: "u3",
    contentType: "",
    body: multipart,
    status: 200,
  },
  {
    name: "application/json → 415",
    pipeline: "u4",
    contentType: "application/json",
    body: YAML,
    status: 415,
  },
  {
    name: "a yaml type with parameters does not end with yaml → 415",
    pipeline: "u5",
    contentType: "application/x-yaml; charset=utf-8",
    body: YAML,
    status: 415,
  },
  {
    name: "reserved greptime_ prefix",
    pipeline: "greptime_identity",
    contentType: "application/x-yaml",
    body: YAML,
    status: 400,
    error: "Invalid request parameter: pipeline_name cannot start with greptime_",
  },
  {
    name: "reserved prefix on any name",
    pipeline: "greptime_mine",
    contentType: "application/x-yaml",
    body: YAML,
    status: 400,
    error: "pipeline_name cannot start with greptime_",
  },
  {
    name: "empty body",
    pipeline: "u6",
    contentType: "application/x-yaml",
    body: "  \n",
    status: 400,
    error: "Invalid request parameter: pipeline is required in body",
  },
  {
    name: "compile error: unknown processor",
    pipeline: "u7",
    contentType: "application/x-yaml",
    body: "processors:\n  - nope:\n      field: a\n",
    status: 400,
    error: "Unsupported nope processor",
  },
  {
    name: "compile error: bad transform type",
    pipeline: "u8",
    contentType: "application/x-yaml",
    body: typed("int"),
    status: 400,
    error: "Failed to parse type: 'int'",
  },
  {
    name: "compile error: bad YAML",
    pipeline: "u9",
    contentType: "application/x-yaml",
    body: "processors: [\n",
    status: 400,
    error: "Yaml",
  },
];

Deno.test("upload: content types, reserved names, compile errors store nothing", async (t) => {
  await withServer(async (client) => {
    for (const c of UPLOADS) {
      await t.step(c.name, async () => {
        const headers: Record<string, string> = c.contentType ? { "content-type": c.contentType } : {};
        const r = await client.request("POST", `/v1/pipelines/${c.pipeline}`, c.body, headers);
        assert.equal(r.status, c.status, r.text);
        if (c.error) assert.ok(errorOf(r).includes(c.error), r.text);
        const got = await client.request("GET", `/v1/pipelines/${c.pipeline}`);
        if (c.status === 200) {
          const body = r.body as {
            pipelines: { name: string; version: string }[];
            execution_time_ms: number;
          };
          assert.equal(body.pipelines[0].name, c.pipeline);
          assert.match(body.pipelines[0].version, VERSION_RE);
          assert.equal(typeof body.execution_time_ms, "number");
          assert.equal(r.headers.get("x-greptime-format"), "greptimedb_manage");
          assert.equal(got.status, 200);
          assert.equal((got.body as { pipelines: { pipeline: string }[] }).pipelines[0].pipeline, YAML);
        } else if (!c.pipeline.startsWith("greptime_")) {
          assert.equal(got.status, 400, "a refused upload must store nothing");
        }
      });
    }
  });
});

Deno.test("versions: latest vs pinned, GET, DELETE falls back to the previous version", async () => {
  await withServer(async (client) => {
    const v1 = await client.uploadOk("ver", typed("string"));
    const v2 = await client.uploadOk("ver", typed("int32"));
    assert.notEqual(v1, v2);
    const ingest = (version: string | null, body: string) =>
      client.ingest({ table: "versions", pipeline_name: "ver", ...(version ? { version } : {}) }, body);

    // Latest (int32) refuses a non-numeric string; pinned v1 (string) accepts it.
    let r = await ingest(null, JSON.stringify({ ts: 1, v: "abc" }));
    assert.equal(r.status, 400, r.text);
    assert.ok(errorOf(r).includes("to type 'INT32'"), r.text);
    r = await ingest(v1, JSON.stringify({ ts: 1, v: "abc" }));
    assert.equal(r.status, 200, r.text);
    assert.ok((await client.showCreate("versions")).includes('"v" STRING NULL'));

    // The other spellings of a version: RFC 3339 with T and Z, and an offset.
    const [date, time] = v1.split(" ");
    for (const spelled of [`${date}T${time}Z`, `${date} ${time}+00:00`, ` ${v1} `]) {
      r = await ingest(spelled, JSON.stringify({ ts: 2, v: "x" }));
      assert.equal(r.status, 200, `${spelled}: ${r.text}`);
    }
    r = await ingest("2001-01-01 00:00:00", JSON.stringify({ ts: 3, v: "x" }));
    assert.equal(r.status, 400);
    assert.equal(errorOf(r), "Pipeline not found, name: ver, version: 2001-01-01 00:00:00");

    // GET: latest resolves to v2; a pinned version is echoed as given.
    let got = await client.request("GET", "/v1/pipelines/ver");
    assert.deepEqual((got.body as { pipelines: unknown[] }).pipelines, [
      { name: "ver", version: v2, pipeline: typed("int32") },
    ]);
    got = await client.request("GET", `/v1/pipelines/ver?version=${encodeURIComponent(v1)}`);
    assert.deepEqual((got.body as { pipelines: unknown[] }).pipelines, [
      { name: "ver", version: v1, pipeline: typed("string") },
    ]);
    got = await client.request("GET", "/v1/pipelines/nope");
    assert.equal(got.status, 400);
    assert.equal(errorOf(got), "Pipeline not found, name: nope, version: latest");

    // DELETE: version required and parsed; deleting v2 makes v1 the latest.
    let del = await client.request("DELETE", "/v1/pipelines/ver");
    assert.equal(del.status, 400);
    assert.equal(errorOf(del), "Invalid request parameter: version is required");
    del = await client.request("DELETE", "/v1/pipelines/ver?version=soon");
    assert.equal(del.status, 400);
    assert.equal(errorOf(del), "Invalid pipeline version format: soon");
    del = await client.request("DELETE", `/v1/pipelines/ver?version=${encodeURIComponent(v2)}`);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual((del.body as { pipelines: unknown[] }).pipelines, [{ name: "ver", version: v2 }]);
    del = await client.request("DELETE", `/v1/pipelines/ver?version=${encodeURIComponent(v2)}`);
    assert.deepEqual((del.body as { pipelines: unknown[] }).pipelines, []);
    got = await client.request("GET", "/v1/pipelines/ver");
    assert.equal((got.body as { pipelines: { version: string }[] }).pipelines[0].version, v1);
    r = await ingest(null, JSON.stringify({ ts: 4, v: "now a string is fine" }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await client.sql("SELECT count(*) FROM versions"), [[5]]);

    // Deleting the last version leaves no pipeline.
    await client.request("DELETE", `/v1/pipelines/ver?version=${encodeURIComponent(v1)}`);
    r = await ingest(null, JSON.stringify({ ts: 5, v: "x" }));
    assert.equal(r.status, 400);
    assert.equal(errorOf(r), "Pipeline not found, name: ver, version: latest");
  });
});

Deno.test("pipelines are global across databases; /v1/events aliases", async () => {
  await withServer(async (client) => {
    await client.sql("CREATE DATABASE other");
    const up = await client.request("POST", "/v1/events/pipelines/alias?db=other", typed("string"), {
      "content-type": "application/yaml",
    });
    assert.equal(up.status, 200, up.text);
    const got = await client.request("GET", "/v1/events/pipelines/alias");
    assert.equal(got.status, 200, got.text);
    const r = await client.request(
      "POST",
      "/v1/events/logs?db=other&table=aliased&pipeline_name=alias",
      JSON.stringify({ ts: 1, v: "x" }),
      { "content-type": "application/json" },
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await client.sql("SELECT v FROM aliased", "other"), [["x"]]);
    assert.deepEqual(await client.tables(), []);
    const version = (got.body as { pipelines: { version: string }[] }).pipelines[0].version;
    const del = await client.request(
      "DELETE",
      `/v1/events/pipelines/alias?version=${encodeURIComponent(version)}`,
    );
    assert.deepEqual((del.body as { pipelines: unknown[] }).pipelines, [{ name: "alias", version }]);
  });
});

Deno.test("ddl preview: transform columns, messages, refusals", async () => {
  await withServer(async (client) => {
    await client.uploadOk("d1", typed("int32"));
    let r = await client.request("GET", "/v1/pipelines/d1/ddl?table=dt");
    assert.equal(r.status, 200, r.text);
    const sql = (r.body as { sql: { sql: string; message?: string } }).sql;
    assert.ok(sql.sql.startsWith("CREATE TABLE IF NOT EXISTS `dt` ("), sql.sql);
    assert.ok(sql.sql.includes("`v` INT NULL"), sql.sql);
    assert.ok(sql.sql.includes("append_mode = 'true'"), sql.sql);
    assert.equal(sql.message, undefined);
    // Once the table exists the preview warns.
    await client.ingest({ table: "dt", pipeline_name: "d1" }, JSON.stringify({ ts: 1, v: 1 }));
    r = await client.request("GET", "/v1/pipelines/d1/ddl?table=dt");
    assert.equal(
      (r.body as { sql: { message?: string } }).sql.message,
      "table already exists, the CREATE TABLE SQL may be different",
    );
    r = await client.request("GET", "/v1/pipelines/d1/ddl");
    assert.equal(r.status, 400);
    assert.equal(errorOf(r), "table name is required");
    r = await client.request("GET", "/v1/pipelines/greptime_identity/ddl?table=x");
    assert.equal(r.status, 400);
    assert.equal(errorOf(r), "built-in pipelines don't have fixed table schema");
    await client.uploadOk("auto", "processors:\n  - epoch:\n      field: ts\n");
    r = await client.request("GET", "/v1/pipelines/auto/ddl?table=x");
    assert.equal(r.status, 400);
    assert.equal(errorOf(r), "auto transform doesn't have fixed table schema");
  });
});

const DRY_YAML = "processors:\n  - letter:\n      field: s\n      method: upper\n" +
  "transform:\n  - field: s\n    type: string\n  - field: n\n    type: int32\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";

interface DryCase {
  name: string;
  query?: string;
  contentType: string;
  body: string;
  status?: number;
  /** The start of the expected `error`. */
  error?: string;
  /** Expected `[table_name, rows as plain values]` per would-be insert. */
  tables?: [string, unknown[][]][];
}

const DRY_CASES: DryCase[] = [
  {
    name: "new form with pipeline_name",
    contentType: "application/json",
    body: JSON.stringify({ pipeline_name: "dry", data: JSON.stringify([{ s: "a", n: 1, ts: 5 }]) }),
    tables: [["dry_run", [["A", 1, 5]]]],
  },
  {
    name: "new form with an inline pipeline and NDJSON data_type",
    contentType: "application/json",
    body: JSON.stringify({
      pipeline: DRY_YAML,
      data: '{"s":"x","n":2,"ts":6}\n{"s":"y","n":3,"ts":7}',
      data_type: "application/x-ndjson",
    }),
    tables: [["dry_run", [["X", 2, 6], ["Y", 3, 7]]]],
  },
  {
    name: "new form with text/plain data",
    contentType: "application/json",
    body: JSON.stringify({
      pipeline:
        "processors:\n  - dissect:\n      field: message\n      pattern: '%{n} %{s}'\n  - epoch:\n      field: n\n",
      data: "1 one\n2 two",
      data_type: "text/plain",
    }),
    tables: [["dry_run", [[1, "1 one", "one"], [2, "2 two", "two"]]]],
  },
  {
    name: "legacy form: body is the payload, pipeline from the query",
    query: "pipeline_name=dry",
    contentType: "application/json",
    body: JSON.stringify([{ s: "b", n: 4, ts: 8 }]),
    tables: [["dry_run", [["B", 4, 8]]]],
  },
  {
    name: "legacy form without pipeline_name",
    contentType: "application/json",
    body: JSON.stringify([{ s: "b" }]),
    status: 400,
    error: "Invalid request parameter: pipeline_name is required",
  },
  {
    name: "suffixes show as separate tables",
    contentType: "application/json",
    body: JSON.stringify({
      pipeline:
        "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
      data: JSON.stringify([{ ts: 1, greptime_table_suffix: "_x" }, { ts: 2 }]),
    }),
    tables: [["dry_run_x", [[1]]], ["dry_run", [[2]]]],
  },
  {
    name: "inline pipeline that does not compile",
    contentType: "application/json",
    body: JSON.stringify({ pipeline: "processors:\n  - nope: {}\n", data: "[]" }),
    status: 400,
    error: "Failed to build pipeline: Unsupported nope processor",
  },
  {
    name: "inline pipeline failing on the data",
    contentType: "application/json",
    body: JSON.stringify({ pipeline: DRY_YAML, data: JSON.stringify([{ s: 1, ts: 1 }]) }),
    status: 400,
    error: "Failed to exec pipeline: Processor letter: expect string value",
  },
  {
    name: "more than 10 entries",
    contentType: "application/json",
    body: JSON.stringify({
      pipeline_name: "dry",
      data: JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ s: "a", n: i, ts: i }))),
    }),
    status: 400,
    error: "Invalid request parameter: data is required",
  },
  {
    name: "bad data_type",
    contentType: "application/json",
    body: JSON.stringify({ pipeline_name: "dry", data: "a: 1", data_type: "application/yaml" }),
    status: 400,
    error:
      "Invalid request parameter: invalid content type: application/yaml, expected: one of application/json, application/x-ndjson, text/plain",
  },
  {
    name: "data that is not JSON objects",
    contentType: "application/json",
    body: JSON.stringify({ pipeline_name: "dry", data: "1" }),
    status: 400,
    error: "Invalid request parameter: json format error, please check the date is valid JSON.",
  },
  // GreptimeDB reads the new form into typed fields: a field of another type (not a string or null)
  // makes the body the legacy form's payload, never a 500.
  ...[{ pipeline_version: 5 }, { data_type: 5 }, { pipeline: 5 }, { pipeline_name: 5, pipeline: DRY_YAML }]
    .map(
      (bad) => ({
        name: `new form with ${Object.keys(bad)[0]} not a string → legacy form`,
        contentType: "application/json",
        body: JSON.stringify({ pipeline_name: "dry", data: '{"s":"a","n":1,"ts":1}', ...bad }),
        status: 400,
        error: "Invalid request parameter: pipeline_name is required",
      }),
    ),
  {
    name: "new form with null optional fields",
    contentType: "application/json",
    body: JSON.stringify({
      pipeline_name: "dry",
      pipeline_version: null,
      pipeline: null,
      data_type: null,
      data: '{"s":"a","n":1,"ts":1}',
    }),
    tables: [["dry_run", [["A", 1, 1]]]],
  },
  {
    name: "unknown stored pipeline",
    contentType: "application/json",
    body: JSON.stringify({ pipeline_name: "missing", data: "[]" }),
    status: 400,
    error: "Pipeline not found, name: missing, version: latest",
  },
];

Deno.test("dry run: both request forms, errors, writes nothing", async (t) => {
  await withServer(async (client) => {
    await client.uploadOk("dry", DRY_YAML);
    for (const c of DRY_CASES) {
      await t.step(c.name, async () => {
        for (const path of ["/v1/pipelines/_dryrun", "/v1/events/pipelines/dryrun"]) {
          const r = await client.request("POST", `${path}${c.query ? "?" + c.query : ""}`, c.body, {
            "content-type": c.contentType,
          });
          assert.equal(r.status, c.status ?? 200, r.text);
          if (c.error) assert.ok(errorOf(r).startsWith(c.error), r.text);
          if (!c.tables) continue;
          const tables = r.body as { table_name: string; schema: unknown[]; rows: { value: unknown }[][] }[];
          assert.deepEqual(
            tables.map((x) => [x.table_name, x.rows.map((row) => row.map((cell) => cell.value))]),
            c.tables,
          );
        }
      });
    }
    assert.deepEqual(await client.tables(), [], "dry run must not create tables");
  });
});

Deno.test("dry run: schema and cell shape (§12.8)", async () => {
  await withServer(async (client) => {
    const r = await client.request(
      "POST",
      "/v1/pipelines/_dryrun",
      JSON.stringify({ pipeline: DRY_YAML, data: JSON.stringify({ s: "q", n: 9, ts: 10 }) }),
      { "content-type": "application/json" },
    );
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, [{
      table_name: "dry_run",
      schema: [
        { name: "s", data_type: "STRING", column_type: "FIELD", fulltext: false },
        { name: "n", data_type: "INT32", column_type: "FIELD", fulltext: false },
        { name: "ts", data_type: "TIMESTAMP_MILLISECOND", column_type: "TIMESTAMP", fulltext: false },
      ],
      rows: [[
        { key: "s", value: "Q", data_type: "STRING", semantic_type: "FIELD" },
        { key: "n", value: 9, data_type: "INT32", semantic_type: "FIELD" },
        { key: "ts", value: 10, data_type: "TIMESTAMP_MILLISECOND", semantic_type: "TIMESTAMP" },
      ]],
    }]);
  });
});

Deno.test("restart: pipelines, versions and data survive a stop and start on the same data_home", async () => {
  const first = await startTestServer();
  let client = new PipelineClient(first.url);
  const v1 = await client.uploadOk("keep", typed("string"));
  const v2 = await client.uploadOk("keep", typed("int64"));
  let r = await client.ingest(
    { table: "kept", pipeline_name: "keep", version: v1 },
    JSON.stringify({ ts: 1, v: "a" }),
  );
  assert.equal(r.status, 200, r.text);
  await client.request("DELETE", `/v1/pipelines/keep?version=${encodeURIComponent(v2)}`);
  const v3 = await client.uploadOk("keep", typed("string"));
  await first.stop();

  const second = await startTestServer({ storage: { data_home: first.dataHome } });
  client = new PipelineClient(second.url);
  try {
    const got = await client.request("GET", "/v1/pipelines/keep");
    assert.equal(got.status, 200, got.text);
    assert.equal((got.body as { pipelines: { version: string }[] }).pipelines[0].version, v3);
    const pinned = await client.request("GET", `/v1/pipelines/keep?version=${encodeURIComponent(v1)}`);
    assert.equal(pinned.status, 200);
    const deleted = await client.request("GET", `/v1/pipelines/keep?version=${encodeURIComponent(v2)}`);
    assert.equal(deleted.status, 400, "a deleted version stays deleted after a restart");
    r = await client.ingest({ table: "kept", pipeline_name: "keep" }, JSON.stringify({ ts: 2, v: "b" }));
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await client.sql("SELECT v FROM kept ORDER BY ts"), [["a"], ["b"]]);
    // A new upload after the restart gets a newer version than the ones loaded.
    const v4 = await client.uploadOk("keep", typed("string"));
    assert.ok(v4 > v3, `${v4} > ${v3}`);
  } finally {
    await second.stop();
    await Deno.remove(first.dataHome, { recursive: true });
  }
});
