/**
 * The service spec's log ingestion story (SERVICE.md "Resources", "Log ingestion", "Pipeline
 * management", "Authentication", "Errors", "Limits", "Versioning") walked through over HTTP, in the
 * spec's own names (`svc_*` variables) and GreptimeDB's (`greptime_*`), with a file user provider
 * as the spec's sample configuration shows.
 */
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { basicAuth, startTestServer, type TestServer } from "../helpers/server.ts";

const AUTH = { authorization: basicAuth("spec", "s3cret") };
const YAML = { ...AUTH, "content-type": "application/x-yaml" };

/** dissect (fields, patterns, ignore_missing) then date (field, formats with fractions, ignore_missing). */
const ACCESS = `processors:
  - dissect:
      fields:
        - message
      patterns:
        - '%{time} %{level} %{text}'
      ignore_missing: true
  - date:
      field: time
      formats:
        - "%Y-%m-%dT%H:%M:%S%.3f"
        - "%Y-%m-%dT%H:%M:%S"
      ignore_missing: true
transform:
  - fields: [level, text]
    type: string
  - field: time
    type: time
    index: timestamp
`;

/** A vrl script that sets the suffix and ttl from an input field, with the given variable prefix. */
const suffixing = (prefix: string) =>
  `processors:
  - vrl:
      source: |
        .${prefix}table_suffix = "_" + to_string!(.id)
        .${prefix}ttl = "1d"
        .
transform:
  - field: id
    type: int64
  - field: ts
    type: epoch, ms
    index: timestamp
`;

async function request(s: TestServer, method: string, path: string, body?: string, headers = {}) {
  const res = await fetch(s.url + path, { method, body, headers: { ...AUTH, ...headers } });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function rows(s: TestServer, sql: string): Promise<unknown[][]> {
  const r = await request(s, "GET", `/v1/sql?${new URLSearchParams({ sql })}`);
  assert.equal(r.status, 200, r.text);
  return r.json().output[0].records.rows;
}

const ingest = (s: TestServer, query: Record<string, string>, body: string, type: string) =>
  request(s, "POST", `/v1/ingest?${new URLSearchParams(query)}`, body, { "content-type": type });

/** A server whose users come from a file, as in the spec's sample configuration. */
async function startWithUsersFile(): Promise<{ s: TestServer; provider: string }> {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/users`, "spec=s3cret\n");
  const provider = `static_user_provider:file:${dir}/users`;
  return { s: await startTestServer({ user_provider: provider }), provider };
}

Deno.test("spec: log ingestion through an uploaded pipeline, with Basic credentials", async (t) => {
  const { s, provider } = await startWithUsersFile();
  try {
    await t.step("/config: user_provider names the file provider; the sample limits", async () => {
      const doc = parseToml(await (await fetch(s.url + "/config")).text()) as Record<string, never>;
      assert.equal(doc.user_provider, provider);
      assert.deepEqual(
        [doc.http["timeout"], doc.http["body_limit"], doc.init_regions_parallelism],
        ["30s", "64MiB", 16],
      );
    });

    await t.step("POST /v1/pipelines/{pipeline_name} adds a pipeline", async () => {
      const r = await request(s, "POST", "/v1/pipelines/access", ACCESS, YAML);
      assert.equal(r.status, 200, r.text);
    });

    await t.step("/v1/ingest wants Basic credentials: none or wrong → 401", async () => {
      for (const authorization of ["", basicAuth("spec", "wrong"), "Basic !!"]) {
        const res = await fetch(`${s.url}/v1/ingest?db=public&table=access&pipeline_name=access`, {
          method: "POST",
          headers: { "content-type": "text/plain", ...(authorization ? { authorization } : {}) },
          body: "2024-05-25T20:16:37.217 INFO hi",
        });
        assert.equal(res.status, 401, authorization);
        await res.body?.cancel();
      }
    });

    const query = { db: "public", table: "access", pipeline_name: "access" };
    await t.step("text/plain: each line is the field message; the three body forms agree", async () => {
      const lines = ["2024-05-25T20:16:37.217 INFO started", "2024-05-25T20:16:38 WARN slow"];
      let r = await ingest(s, query, lines.join("\n"), "text/plain");
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json().output, [{ affectedrows: 2 }]);
      const objects = [{ message: "2024-05-25T20:16:39.500 INFO a" }, {
        message: "2024-05-25T20:16:40 INFO b",
      }];
      const ndjson = objects.map((o) => JSON.stringify(o)).join("\n");
      const forms = [
        ["json_array", JSON.stringify(objects), "application/json"],
        ["json_lines", ndjson, "application/json"],
        ["ndjson", ndjson, "application/x-ndjson"],
      ];
      for (const [table, body, type] of forms) {
        r = await ingest(s, { ...query, table }, body, type);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(await rows(s, `SELECT text FROM ${table} ORDER BY time`), [["a"], ["b"]]);
      }
      assert.deepEqual(await rows(s, "SELECT level, text, time FROM access ORDER BY time"), [
        ["INFO", "started", Date.UTC(2024, 4, 25, 20, 16, 37, 217) * 1e6],
        ["WARN", "slow", Date.UTC(2024, 4, 25, 20, 16, 38) * 1e6],
      ]);
    });

    await t.step(
      "skip_error: false (default) fails the whole request; true skips the bad entry",
      async () => {
        const body = "2024-05-25T20:17:00 INFO kept\nnot-a-time INFO bad";
        let r = await ingest(s, { ...query, table: "skips" }, body, "text/plain");
        assert.equal(r.status, 400, r.text);
        assert.equal(
          (await request(s, "GET", "/v1/sql?sql=SELECT+1+FROM+skips")).status,
          400,
          "nothing created",
        );
        r = await ingest(s, { ...query, table: "skips", skip_error: "true" }, body, "text/plain");
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(await rows(s, "SELECT text FROM skips"), [["kept"]]);
      },
    );
  } finally {
    await s.stop();
  }
});

Deno.test("spec: table suffix and ttl variables, pipeline versions, dry run", async (t) => {
  const { s } = await startWithUsersFile();
  try {
    assert.equal((await request(s, "POST", "/v1/pipelines/access", ACCESS, YAML)).status, 200);
    for (const prefix of ["svc_", "greptime_"]) {
      await t.step(
        `${prefix}table_suffix and ${prefix}ttl from a vrl script: <table>_<id>, ttl 1d`,
        async () => {
          const name = `by_id_${prefix}`;
          assert.equal(
            (await request(s, "POST", `/v1/pipelines/${name}`, suffixing(prefix), YAML)).status,
            200,
          );
          const now = Date.now();
          const body = JSON.stringify([{ id: 7, ts: now }, { id: 8, ts: now }]);
          const r = await ingest(
            s,
            { db: "public", table: `sfx${prefix.length}`, pipeline_name: name },
            body,
            "application/json",
          );
          assert.equal(r.status, 200, r.text);
          for (const id of [7, 8]) {
            const [[, ddl]] = await rows(s, `SHOW CREATE TABLE "sfx${prefix.length}_${id}"`);
            assert.match(String(ddl), /ttl = '1day'/);
            assert.doesNotMatch(String(ddl), /svc_|greptime_/);
          }
        },
      );
    }

    await t.step(
      "svc_auto_create_table, svc_physical_table, svc_append_mode, svc_merge_mode, svc_skip_wal",
      async () => {
        const q = { db: "public", pipeline_name: "greptime_identity" };
        const send = (table: string, entry: Record<string, unknown>) =>
          ingest(s, { ...q, table }, JSON.stringify({ v: 1, ...entry }), "application/json");
        const refused = await send("no_create", { svc_auto_create_table: "false" });
        assert.equal(refused.status, 400, refused.text);
        assert.match(refused.text, /auto_create_table/);
        const options = {
          svc_physical_table: "phy",
          svc_append_mode: "false",
          svc_merge_mode: "last_non_null",
          svc_skip_wal: "true",
        };
        assert.equal((await send("opts", options)).status, 200);
        const [[, ddl]] = await rows(s, 'SHOW CREATE TABLE "opts"');
        for (const [key, value] of Object.entries(options)) {
          assert.ok(String(ddl).includes(`${key.slice(4)} = '${value}'`), `${key} in ${ddl}`);
        }
        assert.doesNotMatch(String(ddl), /svc_/);
      },
    );

    await t.step("version: omitted → the latest; given → that one; DELETE removes it", async () => {
      const upload = (yaml: string) => request(s, "POST", "/v1/pipelines/ver", yaml, YAML);
      const first = (await upload(ACCESS)).json().pipelines[0].version;
      // The latest version reads the two words the other way round.
      assert.equal((await upload(ACCESS.replace("%{level} %{text}", "%{text} %{level}"))).status, 200);
      const q = { db: "public", pipeline_name: "ver" };
      const line = "2024-05-25T20:16:37 x y";
      assert.equal((await ingest(s, { ...q, table: "latest" }, line, "text/plain")).status, 200);
      assert.equal(
        (await ingest(s, { ...q, table: "pinned", version: first }, line, "text/plain")).status,
        200,
      );
      assert.deepEqual(await rows(s, "SELECT level, text FROM latest"), [["y", "x"]]);
      assert.deepEqual(await rows(s, "SELECT level, text FROM pinned"), [["x", "y"]]);
      const del = await request(s, "DELETE", `/v1/pipelines/ver?${new URLSearchParams({ version: first })}`);
      assert.equal(del.status, 200, del.text);
      const gone = await ingest(s, { ...q, table: "pinned", version: first }, line, "text/plain");
      assert.equal(gone.status, 400, gone.text);
    });

    await t.step("POST /v1/pipelines/_dryrun runs a pipeline and writes nothing", async () => {
      const body = JSON.stringify({
        pipeline_name: "access",
        data: JSON.stringify([{ message: "2024-05-25T20:16:37 INFO d" }]),
      });
      const r = await request(s, "POST", "/v1/pipelines/_dryrun", body, {
        "content-type": "application/json",
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json()[0].table_name, "dry_run");
      assert.ok(!(await rows(s, "SHOW TABLES")).flat().includes("dry_run"));
    });
  } finally {
    await s.stop();
  }
});

Deno.test("spec: skip_error=true also skips an entry that does not parse (an NDJSON line, a JSON scalar)", async () => {
  const { s } = await startWithUsersFile();
  const query = { db: "public", pipeline_name: "access" };
  try {
    assert.equal((await request(s, "POST", "/v1/pipelines/access", ACCESS, YAML)).status, 200);
    const good = (n: number) => JSON.stringify({ message: `2024-05-25T20:18:0${n} INFO ok${n}` });
    const cases = [
      [
        "bad_line",
        `${good(1)}\n{"message": "2024-05-25T20:18:05 INFO cut\n${good(2)}`,
        "application/x-ndjson",
      ],
      ["scalar", `${good(1)}\n42\n${good(2)}`, "application/json"],
    ];
    for (const [table, body, type] of cases) {
      const failed = await ingest(s, { ...query, table }, body, type);
      assert.equal(failed.status, 400, `${table} without skip_error: ${failed.text}`);
      const r = await ingest(s, { ...query, table, skip_error: "true" }, body, type);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.json().output, [{ affectedrows: 2 }]);
      assert.equal(r.json().skipped, 1, r.text);
      assert.deepEqual(await rows(s, `SELECT text FROM ${table} ORDER BY time`), [["ok1"], ["ok2"]]);
    }
    // A syntax error in an application/json stream still fails: the next entry's start is unknown.
    const broken = `${good(1)} {"message": ${good(2)}`;
    const r = await ingest(
      s,
      { ...query, table: "broken", skip_error: "true" },
      broken,
      "application/json",
    );
    assert.equal(r.status, 400, r.text);
  } finally {
    await s.stop();
  }
});
