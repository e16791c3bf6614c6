/**
 * Issue 17: a `vrl` result of null drops the entry, an array fans it out into one row per element
 * (reference §4.18), through /v1/ingest and /v1/pipelines/_dryrun on a real server.
 */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";

async function sql(s: TestServer, text: string): Promise<unknown[][]> {
  const res = await fetch(`${s.url}/v1/sql`, { method: "POST", body: new URLSearchParams({ sql: text }) });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.output[0].records?.rows ?? [];
}

async function upload(s: TestServer, name: string, yaml: string): Promise<Response> {
  return await fetch(`${s.url}/v1/pipelines/${name}`, {
    method: "POST",
    headers: { "content-type": "application/x-yaml" },
    body: yaml,
  });
}

async function ingest(
  s: TestServer,
  table: string,
  pipeline: string,
  entries: unknown[],
  params = "",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.url}/v1/ingest?table=${table}&pipeline_name=${pipeline}${params}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(entries),
  });
  return { status: res.status, body: await res.json() };
}

/** A dry run with an inline pipeline (the new request form). */
async function dryRun(
  s: TestServer,
  yaml: string,
  entries: unknown[],
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${s.url}/v1/pipelines/_dryrun`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pipeline: yaml, data: JSON.stringify(entries) }),
  });
  return { status: res.status, body: await res.json() };
}

/** Indents a VRL program into a `vrl` processor. */
function vrl(source: string): string {
  return `  - vrl:\n      source: |\n${source.trim().split("\n").map((l) => "        " + l).join("\n")}\n`;
}

const DROP_SOURCE = `if .drop == true { null } else { . }`;
const ITEMS_SOURCE = `items = array!(.items)\nmap_values(items) -> |v| { {"v": v} }`;
const NO_TIME_INDEX =
  "Exactly one time-related processor and one timestamp value is required to use auto transform. `ignore_missing` can not be set to true.";

Deno.test("vrl issue pipelines as written (no time processor, no transform) are rejected at upload, as GreptimeDB does", async () => {
  const s = await startTestServer();
  try {
    for (const source of [DROP_SOURCE, ITEMS_SOURCE]) {
      const yaml = `processors:\n${vrl(source)}`;
      const up = await upload(s, "literal", yaml);
      assert.equal(up.status, 400);
      assert.ok(String((await up.json()).error).startsWith(NO_TIME_INDEX));
      const dry = await dryRun(s, yaml, [{ items: [1] }]);
      assert.equal(dry.status, 400);
      assert.ok(
        String((dry.body as { error: string }).error).startsWith(
          `Failed to build pipeline: ${NO_TIME_INDEX}`,
        ),
      );
    }
  } finally {
    await s.stop();
  }
});

// The issue's programs with the least GreptimeDB needs: a v1 transform (greptime_timestamp is added).
const DROP = `processors:\n${vrl(DROP_SOURCE)}transform:\n  - field: a\n    type: int64\n`;
const ITEMS = `processors:\n${vrl(ITEMS_SOURCE)}transform:\n  - field: v\n    type: int64\n`;

Deno.test("vrl null result drops the entry and an array fans out, through /v1/ingest", async () => {
  const s = await startTestServer();
  try {
    assert.equal((await upload(s, "drop", DROP)).status, 200);
    assert.equal((await upload(s, "items", ITEMS)).status, 200);
    let res = await ingest(s, "kept", "drop", [{ drop: true, a: 1 }, { a: 2 }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.output, [{ affectedrows: 1 }]);
    assert.deepEqual(await sql(s, "SELECT a FROM kept"), [[2]]);
    res = await ingest(s, "fanned", "items", [{ items: [1, 2] }, { items: [] }, { items: [3] }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.output, [{ affectedrows: 3 }]);
    assert.deepEqual(await sql(s, "SELECT v FROM fanned ORDER BY v"), [[1], [2], [3]]);
    // Every entry dropped: nothing written, no output key.
    res = await ingest(s, "none", "drop", [{ drop: true, a: 1 }]);
    assert.equal(res.status, 200);
    assert.equal(res.body.output, undefined);
  } finally {
    await s.stop();
  }
});

/** The dry-run cells of every row of every table, as `[table, {key: value}]`. */
function dryRows(body: unknown): [string, Record<string, unknown>][] {
  const tables = body as { table_name: string; rows: { key: string; value: unknown }[][] }[];
  return tables.flatMap((t) =>
    t.rows.map((
      r,
    ): [string, Record<string, unknown>] => [
      t.table_name,
      Object.fromEntries(r.map((c) => [c.key, c.value])),
    ])
  );
}

Deno.test("vrl null drop and fan-out through /v1/pipelines/_dryrun", async () => {
  const s = await startTestServer();
  try {
    const drop = await dryRun(s, DROP, [{ drop: true, a: 1 }, { a: 2 }]);
    assert.equal(drop.status, 200, JSON.stringify(drop.body));
    const [table] = drop.body as Record<string, unknown>[];
    assert.equal(table.table_name, "dry_run");
    assert.deepEqual(table.schema, [
      { name: "a", data_type: "INT64", column_type: "FIELD", fulltext: false },
      {
        name: "greptime_timestamp",
        data_type: "TIMESTAMP_NANOSECOND",
        column_type: "TIMESTAMP",
        fulltext: false,
      },
    ]);
    const rows = table.rows as Record<string, unknown>[][];
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0][0], { key: "a", value: 2, data_type: "INT64", semantic_type: "FIELD" });
    assert.equal(typeof rows[0][1].value, "number");
    const fan = await dryRun(s, ITEMS, [{ items: [1, 2] }]);
    assert.equal(fan.status, 200, JSON.stringify(fan.body));
    assert.deepEqual(dryRows(fan.body).map(([t, r]) => [t, r.v]), [["dry_run", 1], ["dry_run", 2]]);
    // Dry runs never skip errors: a bad element fails the whole run.
    const bad = await dryRun(s, ITEMS.replace('{"v": v}', "v"), [{ items: [{ v: 1 }, 2] }]);
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.deepEqual(bad.body, {
      error:
        "Failed to exec pipeline: Array element at index 1 must be an object for one-to-many transformation, got integer",
    });
  } finally {
    await s.stop();
  }
});

// Each case: a VRL array whose element 1 is not an object, and the kind GreptimeDB prints.
const NON_OBJECT_ELEMENTS: [string, string][] = [
  [`"text"`, "string"],
  [`7`, "integer"],
  [`1.5`, "float"],
  [`true`, "boolean"],
  [`t'2024-01-01T00:00:00Z'`, "timestamp"],
  [`[1, 2]`, "array"],
  [`null`, "null"],
];

Deno.test("vrl fan-out: a non-object element fails with GreptimeDB's message and kind name", async () => {
  const s = await startTestServer();
  try {
    for (const [element, kind] of NON_OBJECT_ELEMENTS) {
      const yaml = `processors:\n${vrl(`[{"v": 0}, ${element}]`)}transform:\n  - field: v\n    type: int64\n`;
      assert.equal((await upload(s, "kinds", yaml)).status, 200, element);
      const res = await ingest(s, "kinds", "kinds", [{}]);
      assert.equal(res.status, 400, element);
      assert.deepEqual(res.body, {
        error: `Array element at index 1 must be an object for one-to-many transformation, got ${kind}`,
      }, element);
    }
    // A scalar result (possible when the static type is "any") fails as a one-element array.
    const yaml = `processors:\n${vrl(`parse_json!(.j)`)}transform:\n  - field: v\n    type: int64\n`;
    assert.equal((await upload(s, "scalar", yaml)).status, 200);
    const res = await ingest(s, "kinds", "scalar", [{ j: `"x"` }]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: "Array element at index 0 must be an object for one-to-many transformation, got string",
    });
    assert.equal((await sql(s, "SHOW TABLES LIKE 'kinds'")).length, 0, "a failed request writes nothing");
  } finally {
    await s.stop();
  }
});

const ELEMENTS = `processors:\n${vrl(`array!(.items)`)}transform:\n  - field: v\n    type: int64\n`;

Deno.test("vrl fan-out with skip_error: a bad element skips only itself", async () => {
  const s = await startTestServer();
  try {
    assert.equal((await upload(s, "elements", ELEMENTS)).status, 200);
    const entries = [{ items: [{ v: 1 }, "not an object", { v: 3 }, { v: "four" }, { v: 5 }] }, {
      items: [{ v: 6 }],
    }];
    let res = await ingest(s, "skip", "elements", entries);
    assert.equal(res.status, 400);
    assert.match(String(res.body.error), /^Array element at index 1 must be an object/);
    res = await ingest(s, "skip", "elements", entries.slice(0, 1).map((e) => ({ items: e.items.slice(3) })));
    assert.equal(res.status, 400);
    assert.match(String(res.body.error), /^Failed to transform array element at index 0: .*four/);
    assert.equal((await sql(s, "SHOW TABLES LIKE 'skip'")).length, 0, "nothing written without skip_error");
    res = await ingest(s, "skip", "elements", entries, "&skip_error=true");
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.output, [{ affectedrows: 4 }]);
    assert.deepEqual(await sql(s, "SELECT v FROM skip ORDER BY v"), [[1], [3], [5], [6]]);
  } finally {
    await s.stop();
  }
});

// Fan out, then per element: parse the time, upper-case the host, drop debug lines (a second vrl).
const AFTER = `processors:
${
  vrl(`base = del(.host)
map_values(array!(.events)) -> |e| { {"host": base, "time": e.time, "level": e.level, "msg": e.msg} }`)
}  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S"
  - letter:
      fields:
        - host
      method: upper
${vrl(`if .level == "debug" { null } else { . }`)}`;

Deno.test("vrl fan-out: processors after the vrl one run on each element", async () => {
  const s = await startTestServer();
  try {
    const up = await upload(s, "after", AFTER);
    assert.equal(up.status, 200, await up.text());
    const events = [
      { time: "2024-05-01 10:00:00", level: "info", msg: "a" },
      { time: "2024-05-01 10:00:01", level: "debug", msg: "b" },
      { time: "not a time", level: "info", msg: "c" },
      { time: "2024-05-01 10:00:03", level: "warn", msg: "d" },
    ];
    let res = await ingest(s, "after", "after", [{ host: "h1", events }]);
    assert.equal(res.status, 400);
    assert.match(String(res.body.error), /^Failed to transform array element at index 2: Processor date: /);
    res = await ingest(s, "after", "after", [{ host: "h1", events }], "&skip_error=true");
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await sql(s, "SELECT host, level, msg, CAST(time AS BIGINT) FROM after ORDER BY time"), [
      ["H1", "info", "a", Date.UTC(2024, 4, 1, 10) * 1e6],
      ["H1", "warn", "d", Date.UTC(2024, 4, 1, 10, 0, 3) * 1e6],
    ]);
    const dry = await dryRun(s, AFTER, [{ host: "h2", events: [events[0], events[1]] }]);
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.deepEqual(dryRows(dry.body).map(([, r]) => [r.host, r.msg]), [["H2", "a"]]);
  } finally {
    await s.stop();
  }
});

Deno.test("vrl fan-out: a vrl right after the fanning one sees the whole array, as in GreptimeDB", async () => {
  const s = await startTestServer();
  try {
    const yaml = `processors:\n${vrl(`array!(.items)`)}${
      vrl(`filter(array!(.)) -> |_i, e| { e.v != 2 }`)
    }transform:\n  - field: v\n    type: int64\n`;
    const up = await upload(s, "whole", yaml);
    assert.equal(up.status, 200, await up.text());
    const res = await ingest(s, "whole", "whole", [{ items: [{ v: 1 }, { v: 2 }, { v: 3 }] }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await sql(s, "SELECT v FROM whole ORDER BY v"), [[1], [3]]);
  } finally {
    await s.stop();
  }
});

// Per-element hints: each element picks its own table suffix and ttl.
const HINTS = `processors:
${
  vrl(`map_values(array!(.items)) -> |e| {
  {"v": e.v, "greptime_table_suffix": "_" + to_string!(e.kind), "greptime_ttl": e.ttl}
}`)
}transform:
  - field: v
    type: int64
`;

Deno.test("vrl fan-out: greptime_* hints apply per element", async () => {
  const s = await startTestServer();
  try {
    assert.equal((await upload(s, "hints", HINTS)).status, 200);
    const items = [{ v: 1, kind: "a", ttl: "1d" }, { v: 2, kind: "b", ttl: "7d" }, {
      v: 3,
      kind: "a",
      ttl: "1d",
    }];
    const res = await ingest(s, "logs", "hints", [{ items }]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.output, [{ affectedrows: 2 }, { affectedrows: 1 }]);
    assert.deepEqual(await sql(s, "SELECT v FROM logs_a ORDER BY v"), [[1], [3]]);
    assert.deepEqual(await sql(s, "SELECT v FROM logs_b"), [[2]]);
    const [[, ddlA]] = await sql(s, "SHOW CREATE TABLE logs_a");
    assert.match(String(ddlA), /ttl = '1day'/);
    const [[, ddlB]] = await sql(s, "SHOW CREATE TABLE logs_b");
    assert.match(String(ddlB), /ttl = '7days'/);
    assert.equal(
      (await sql(s, "SHOW TABLES LIKE 'logs'")).length,
      0,
      "nothing lands in the unsuffixed table",
    );
    const dry = await dryRun(s, HINTS, [{ items }]);
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    assert.deepEqual(dryRows(dry.body).map(([t, r]) => [t, r.v]), [["dry_run_a", 1], ["dry_run_a", 3], [
      "dry_run_b",
      2,
    ]]);
  } finally {
    await s.stop();
  }
});
