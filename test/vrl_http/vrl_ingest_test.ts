import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";

async function sql(s: TestServer, text: string): Promise<unknown[][]> {
  const res = await fetch(`${s.url}/v1/sql`, { method: "POST", body: new URLSearchParams({ sql: text }) });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.output[0].records.rows;
}

async function upload(s: TestServer, name: string, yaml: string): Promise<Response> {
  return await fetch(`${s.url}/v1/pipelines/${name}`, {
    method: "POST",
    headers: { "content-type": "application/x-yaml" },
    body: yaml,
  });
}

async function ingest(s: TestServer, table: string, pipeline: string, entries: unknown[]): Promise<Response> {
  return await fetch(`${s.url}/v1/ingest?table=${table}&pipeline_name=${pipeline}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(entries),
  });
}

const SUFFIX_AND_TTL = `
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
  - vrl:
      source: |
        .svc_table_suffix = "_" + to_string!(.id)
        .greptime_ttl = to_string!(.keep)
        del(.keep)
        .
transform:
  - field: id
    type: int32
  - field: message
    type: string
  - field: time
    type: time
    index: timestamp
`;

Deno.test("vrl through /v1/ingest: svc_table_suffix and ttl from fields pick table and options", async () => {
  const s = await startTestServer();
  try {
    const up = await upload(s, "suffixed", SUFFIX_AND_TTL);
    assert.equal(up.status, 200, await up.text());
    const now = new Date().toISOString().replace("T", " ").slice(0, 23);
    const res = await ingest(s, "app", "suffixed", [
      { id: 1, message: "one", time: now, keep: "7d" },
      { id: 2, message: "two", time: now, keep: "1h" },
      { id: 1, message: "uno", time: now.slice(0, 20) + "999", keep: "7d" },
    ]);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual((await res.json()).output, [{ affectedrows: 2 }, { affectedrows: 1 }]);
    assert.deepEqual((await sql(s, "SELECT message FROM app_1 ORDER BY message")).flat(), ["one", "uno"]);
    assert.deepEqual((await sql(s, "SELECT message FROM app_2")).flat(), ["two"]);
    const [[, ddl1]] = await sql(s, "SHOW CREATE TABLE app_1");
    assert.match(String(ddl1), /ttl = '7days'/);
    const [[, ddl2]] = await sql(s, "SHOW CREATE TABLE app_2");
    assert.match(String(ddl2), /ttl = '1h'/);
    const tables = (await sql(s, "SHOW TABLES")).flat();
    assert.ok(!tables.includes("app"), "nothing lands in the unsuffixed table");
  } finally {
    await s.stop();
  }
});

const FAN_OUT = `
processors:
  - vrl:
      source: |
        events = del(.events)
        base_host = del(.host)
        map_values(array!(events)) -> |event| {
          {"host": base_host, "event_type": event.type, "ts": event.ts}
        }
transform:
  - field: host
    type: string
    index: tag
  - field: event_type
    type: string
  - field: ts
    type: epoch, ms
    index: timestamp
`;

Deno.test("vrl through /v1/ingest: an array result fans one entry out into many rows", async () => {
  const s = await startTestServer();
  try {
    const up = await upload(s, "fanout", FAN_OUT);
    assert.equal(up.status, 200, await up.text());
    const res = await ingest(s, "events", "fanout", [
      {
        host: "h1",
        events: [{ type: "login", ts: 1000 }, { type: "click", ts: 2000 }, { type: "logout", ts: 3000 }],
      },
      { host: "h2", events: [] },
    ]);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await sql(s, "SELECT host, event_type, ts FROM events ORDER BY ts"), [
      ["h1", "login", 1000],
      ["h1", "click", 2000],
      ["h1", "logout", 3000],
    ]);
  } finally {
    await s.stop();
  }
});

Deno.test("vrl through /v1/ingest: null drops the entry, runtime errors fail or are skipped", async () => {
  const s = await startTestServer();
  try {
    const yaml = `
processors:
  - vrl:
      source: |
        if .level == "debug" { null } else {
          .n = to_int!(.n)
          .
        }
transform:
  - field: level
    type: string
  - field: n
    type: int64
  - field: ts
    type: epoch, s
    index: timestamp
`;
    assert.equal((await upload(s, "filtering", yaml)).status, 200);
    let res = await ingest(s, "f", "filtering", [
      { level: "info", n: "1", ts: 1 },
      { level: "debug", n: "2", ts: 2 },
      { level: "warn", n: "three", ts: 3 },
    ]);
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /Failed to execute VRL/);
    assert.equal((await sql(s, "SHOW TABLES LIKE 'f'")).length, 0, "nothing written when one entry fails");
    res = await fetch(`${s.url}/v1/ingest?table=f&pipeline_name=filtering&skip_error=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ level: "info", n: "1", ts: 1 }, { level: "debug", n: "2", ts: 2 }, {
        level: "warn",
        n: "three",
        ts: 3,
      }]),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await sql(s, "SELECT level, n FROM f"), [["info", 1]]);
  } finally {
    await s.stop();
  }
});

Deno.test("vrl at upload: compile errors and regex results are rejected with the diagnostic", async () => {
  const s = await startTestServer();
  try {
    const cases: [string, RegExp][] = [
      [`.x = to_int(.y)\n.`, /Failed to compile VRL, error\[E103\]: unhandled fallible assignment/],
      [`r'abc'`, /Vrl script should return object or array in the end|Please don't use regex in Vrl script/],
      [`.x = r'abc'\n.`, /Please don't use regex in Vrl script/],
      [`.x = `, /Failed to compile VRL/],
    ];
    for (const [source, message] of cases) {
      const yaml = `processors:\n  - vrl:\n      source: |\n${
        source.split("\n").map((l) => "        " + l).join("\n")
      }\n`;
      const res = await upload(s, "bad", yaml);
      assert.equal(res.status, 400, source);
      assert.match((await res.json()).error, message, source);
    }
  } finally {
    await s.stop();
  }
});

Deno.test("petrel vrl: main.ts routes the vrl command to the CLI", async () => {
  const { runMain } = await import("../helpers/server.ts");
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/p.vrl`, `.greeting = "hi " + string!(.name)\n.`);
  await Deno.writeTextFile(`${dir}/e.ndjson`, `{"name":"ada"}\n{"name":1}\n`);
  const run = await runMain(["vrl", "--program", `${dir}/p.vrl`, "--input", `${dir}/e.ndjson`]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  assert.deepEqual(JSON.parse(lines[0]), { greeting: "hi ada", name: "ada" });
  assert.match(lines[1], /^error: /);
  await Deno.writeTextFile(`${dir}/bad.vrl`, `.x = to_int(.y)\n.`);
  const bad = await runMain(["vrl", "--program", `${dir}/bad.vrl`, "--input", `${dir}/e.ndjson`]);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /E103/);
});

const GROK_WORDS = `
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S"
  - vrl:
      source: |
        . = merge(., parse_grok!(.message, "%{WORD:user} %{NUMBER:n}\\\\s\\\\b%{GREEDYDATA:rest}"))
        .
transform:
  - field: user
    type: string
  - field: rest
    type: string
  - field: time
    type: time
    index: timestamp
`;

Deno.test("vrl parse_grok through /v1/ingest: \\w \\s \\b read UTF-8 text as Oniguruma does (Unicode)", async () => {
  const s = await startTestServer();
  try {
    const up = await upload(s, "grok_words", GROK_WORDS);
    assert.equal(up.status, 200, await up.text());
    const res = await ingest(s, "words", "grok_words", [
      { message: "héllo 12\u0085élan vital", time: "2024-01-01 00:00:00" },
    ]);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await sql(s, "SELECT user, rest FROM words"), [["héllo", "élan vital"]]);
  } finally {
    await s.stop();
  }
});
