/** `/v1/logs`: GreptimeDB's JSON log query over a log table (time range, filters, columns, limit). */
import assert from "node:assert/strict";
import { post, withServer } from "../protocols_http/util.ts";

const LINES = [
  ["2024-11-07T10:00:00Z", "GET /a 200", "info", 12],
  ["2024-11-07T10:00:01Z", "GET /b 500", "error", 340],
  ["2024-11-07T10:00:02Z", "POST /a 201", "info", 25],
  ["2024-11-07T10:00:03Z", "it's quoted", "warn", 7],
  ["2024-11-08T00:00:00Z", "next day", "info", 1],
] as const;

const query = (extra: Record<string, unknown>) => ({
  table: { catalog_name: "greptime", schema_name: "public", table_name: "app_logs" },
  time_filter: { start: "2024-11-07", end: null, span: null },
  limit: { skip: null, fetch: null },
  columns: ["message"],
  filters: [],
  context: "None",
  exprs: [],
  ...extra,
});

/** [case, query overrides, messages expected] */
const CASES: [string, Record<string, unknown>, string[]][] = [
  ["a date covers its day", {}, ["GET /a 200", "GET /b 500", "POST /a 201", "it's quoted"]],
  ["start and end", { time_filter: { start: "2024-11-07T10:00:01Z", end: "2024-11-07T10:00:03Z" } }, [
    "GET /b 500",
    "POST /a 201",
  ]],
  ["start and span", { time_filter: { start: "2024-11-07T10:00:00Z", span: "2s" } }, [
    "GET /a 200",
    "GET /b 500",
  ]],
  ["no time filter, fetch and skip", { time_filter: {}, limit: { skip: 1, fetch: 2 } }, [
    "GET /b 500",
    "POST /a 201",
  ]],
  ["Contains", { filters: [{ column_name: "message", filters: [{ Contains: "/a" }] }] }, [
    "GET /a 200",
    "POST /a 201",
  ]],
  [
    "Contains is case-sensitive",
    { filters: [{ column_name: "message", filters: [{ Contains: "get" }] }] },
    [],
  ],
  ["Contains of a quote, literally", {
    filters: [{ column_name: "message", filters: [{ Contains: "t's" }] }],
  }, ["it's quoted"]],
  ["Contains of LIKE's wildcards, literally", {
    filters: [{ column_name: "message", filters: [{ Contains: "%" }, { Contains: "_" }] }],
  }, []],
  ["Prefix and Exact", {
    filters: [{ column_name: "message", filters: [{ Prefix: "GET" }] }, {
      column_name: "level",
      filters: [{ Exact: "error" }],
    }],
  }, ["GET /b 500"]],
  ["Postfix with a quote", { filters: [{ column_name: "message", filters: [{ Postfix: "'s quoted" }] }] }, [
    "it's quoted",
  ]],
  ["Regex", { filters: [{ column_name: "message", filters: [{ Regex: "^(GET|POST) /a" }] }] }, [
    "GET /a 200",
    "POST /a 201",
  ]],
  ["GreatThan on a number", {
    filters: [{ column_name: "ms", filters: [{ GreatThan: { value: "20", inclusive: false } }] }],
  }, ["GET /b 500", "POST /a 201"]],
  ["Between inclusive", {
    filters: [{
      column_name: "ms",
      filters: [{ Between: { start: "7", end: "12", start_inclusive: true, end_inclusive: true } }],
    }],
  }, ["GET /a 200", "it's quoted"]],
  ["In", { filters: [{ column_name: "level", filters: [{ In: ["warn", "error"] }] }] }, [
    "GET /b 500",
    "it's quoted",
  ]],
  ["Or of filters", {
    filters: {
      Or: [{ column_name: "level", filters: [{ Exact: "warn" }] }, {
        column_name: "ms",
        filters: [{ LessThan: { value: "13", inclusive: true } }],
      }],
    },
  }, ["GET /a 200", "it's quoted"]],
];

Deno.test("/v1/logs: time ranges, filters, columns and limits", async () => {
  await withServer(async (s) => {
    const create = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        sql:
          `CREATE TABLE app_logs (ts TIMESTAMP(3) TIME INDEX, message STRING, level STRING, ms BIGINT) WITH (append_mode = 'true');
          INSERT INTO app_logs VALUES ${
            LINES.map((l) => `('${l[0]}', '${l[1].replace("'", "''")}', '${l[2]}', ${l[3]})`).join(", ")
          }`,
      }),
    });
    assert.equal(create.status, 200, await create.text());
    for (const [name, extra, expected] of CASES) {
      const r = await post(`${s.url}/v1/logs`, JSON.stringify(query(extra)), {
        "content-type": "application/json",
      });
      assert.equal(r.status, 200, `${name}: ${r.text}`);
      const out = JSON.parse(r.text).output[0].records;
      assert.deepEqual(out.rows.map((row: string[]) => row[0]), expected, name);
    }
    const all = await post(`${s.url}/v1/logs`, JSON.stringify(query({ columns: [], time_filter: {} })), {});
    const records = JSON.parse(all.text).output[0].records;
    assert.deepEqual(records.schema.column_schemas.map((c: { name: string }) => c.name), [
      "ts",
      "message",
      "level",
      "ms",
    ]);
    assert.equal(records.rows.length, 5);
    for (
      const [body, why] of [
        ["{", /Invalid log query/],
        [JSON.stringify(query({ table: { table_name: "nope" } })), /Table not found/],
        [JSON.stringify(query({ filters: [{ column_name: "nope", filters: [] }] })), /column nope not found/],
        [
          JSON.stringify(query({ filters: [{ column_name: "message", filters: [{ Fuzzy: "x" }] }] })),
          /unsupported filter/,
        ],
      ] as const
    ) {
      const r = await post(`${s.url}/v1/logs`, body, {});
      assert.ok(r.status >= 400 && r.status < 500, `${body}: ${r.status} ${r.text}`);
      assert.match(r.text, why);
    }
  });
});
