/**
 * Scenarios shaped after GreptimeDB's pipeline integration tests (tests-integration `http.rs`):
 * the documents and payloads used there, checked at the engine boundary (columns and rows).
 */
import assert from "node:assert/strict";
import { compilePipeline, identityPipeline, type Pipeline } from "../../engine/mod.ts";
import { run, summary } from "./helpers.ts";

const LOG = {
  id1: "2436",
  id2: "2528",
  logger: "INTERACT.MANAGER",
  type: "I",
  time: "2024-05-25 20:16:37.217",
  log: "ClusterAdapter:enter sendTextDataToCluster\\n",
};
const T217 = "1716668197217000000n";

Deno.test("test_pipeline_api: transform with inverted, skipping, fulltext and tags", () => {
  const p = compilePipeline(`
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
      ignore_missing: true

transform:
  - fields:
      - id1
      - id2
    type: int32
    index: inverted
  - fields:
      - logger
    type: string
  - field: type
    type: string
    index: skipping
    tag: true
  - field: log
    type: string
    index: fulltext
    tag: true
  - field: time
    type: time
    index: timestamp
`);
  const s = summary(run(p, [LOG], { table: "logs1" }));
  assert.deepEqual(s, [{
    table: "logs1",
    options: undefined,
    columns: [
      "id1:Int32:FIELD",
      "id2:Int32:FIELD",
      "logger:String:FIELD",
      "type:String:TAG",
      "log:String:TAG",
      "time:TimestampNanosecond:TIMESTAMP",
    ],
    rows: [[2436, 2528, "INTERACT.MANAGER", "I", "ClusterAdapter:enter sendTextDataToCluster\\n", T217]],
  }]);
});

Deno.test("test_pipeline_2: version 2 keeps untransformed keys as strings, sorted", () => {
  const p = compilePipeline(`
version: 2
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
      ignore_missing: true

transform:
  - field: id1
    type: int32
    index: inverted
  - field: time
    type: time
    index: timestamp
`);
  const s = summary(run(p, [LOG]));
  assert.deepEqual(s[0].columns, [
    "id1:Int32:FIELD",
    "time:TimestampNanosecond:TIMESTAMP",
    "id2:String:FIELD",
    "log:String:FIELD",
    "logger:String:FIELD",
    "type:String:FIELD",
  ]);
  assert.deepEqual(s[0].rows, [[
    2436,
    T217,
    "2528",
    "ClusterAdapter:enter sendTextDataToCluster\\n",
    "INTERACT.MANAGER",
    "I",
  ]]);
});

const ROUTED = `
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
      ignore_missing: true

transform:
  - fields:
      - id1, id1_int
      - id2, id2_int
    type: int32
  - fields:
      - id1
      - id2
    type: string
  - field: type
    type: string
    index: skipping
    tag: true
  - field: log
    type: string
    index: fulltext
    tag: true
  - field: time
    type: time
    index: timestamp
`;

Deno.test("test_pipeline_dispatcher: routes by type to a named pipeline, identity, or fails", () => {
  const p = compilePipeline(`${ROUTED}
dispatcher:
  field: type
  rules:
    - value: http
      table_suffix: http
      pipeline: http
    - value: db
      table_suffix: db
    - value: not_found
      table_suffix: not_found
      pipeline: not_found
`);
  // The child sees the processed entry: `time` is already a timestamp, so no date processor.
  const http = compilePipeline(`
transform:
  - fields: [id1, id2]
    type: int32
  - field: time
    type: time
    index: timestamp
`);
  const resolve = (name: string): Pipeline | undefined => (name === "http" ? http : undefined);
  const res = run(p, [{ ...LOG, type: "http" }, { ...LOG, type: "db" }, { ...LOG, type: "api" }], {
    table: "logs1",
    resolve,
  });
  const s = summary(res);
  assert.deepEqual(s.map((b) => b.table), ["logs1", "logs1http", "logs1db"]);
  assert.deepEqual(s[0].rows[0].slice(0, 5), [2436, 2528, "2436", "2528", "api"]);
  assert.deepEqual(s[1].rows, [[2436, 2528, T217]]);
  // Identity sees the processed entry: `time` is already a timestamp.
  assert.ok(s[2].columns.includes("time:TimestampNanosecond:FIELD"));
  assert.throws(
    () => run(p, [{ ...LOG, type: "not_found" }], { table: "logs1", resolve }),
    /Pipeline not found, name: not_found, version: latest/,
  );
});

Deno.test("test_pipeline_suffix_template: _${type} per row; missing type → base table", () => {
  const p = compilePipeline(`${ROUTED}\ntable_suffix: _\${type}\n`);
  const { type: _omit, ...noType } = LOG;
  const s = summary(
    run(p, [{ ...LOG, type: "http" }, { ...LOG, type: "http" }, { ...LOG, type: "db" }, noType], {
      table: "d_table",
    }),
  );
  assert.deepEqual(s.map((b) => [b.table, b.rows.length]), [["d_table_http", 2], ["d_table_db", 1], [
    "d_table",
    1,
  ]]);
});

Deno.test("test_pipeline_context: hints in the data become per-batch table options", () => {
  const p = compilePipeline(`${ROUTED}`);
  const s = summary(run(p, [
    { ...LOG, greptime_ttl: "1d" },
    { ...LOG, greptime_ttl: "1d", greptime_skip_wal: "true" },
    { ...LOG, greptime_table_suffix: "_2" },
  ], { table: "d_table" }));
  assert.deepEqual(s.map((b) => [b.table, b.options]), [
    ["d_table", { ttl: "1d" }],
    ["d_table", { ttl: "1d", skip_wal: "true" }],
    ["d_table_2", undefined],
  ]);
});

Deno.test("test_pipeline_auto_transform: dissect append + date, everything else auto-typed", () => {
  const p = compilePipeline(`
processors:
  - dissect:
      fields:
        - message
      patterns:
        - "%{+ts} %{+ts} %{http_status_code} %{content}"
  - date:
      fields:
        - ts
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
`);
  const s = summary(run(p, [
    { message: "2024-05-25 20:16:37.217 404 hello" },
    { message: "2024-05-25 20:16:37.218 200 hello world" },
  ]));
  assert.deepEqual(s[0].columns, [
    "ts:TimestampNanosecond:TIMESTAMP",
    "content:String:FIELD",
    "http_status_code:String:FIELD",
    "message:String:FIELD",
  ]);
  assert.deepEqual(s[0].rows[1], [
    "1716668197218000000n",
    "hello world",
    "200",
    "2024-05-25 20:16:37.218 200 hello world",
  ]);
});

Deno.test("test_pipeline_auto_transform_with_select: include and exclude", () => {
  const base = `
processors:
  - dissect:
      fields:
        - message
      patterns:
        - "%{+ts} %{+ts} %{http_status_code} %{content}"
  - select:
      fields:
        - ts
        - http_status_code
`;
  const date = `  - date:
      fields:
        - ts
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
`;
  const inc = summary(run(compilePipeline(base + date), [{ message: "2024-05-25 20:16:37.217 404 hello" }]));
  assert.deepEqual(inc[0].columns, ["ts:TimestampNanosecond:TIMESTAMP", "http_status_code:String:FIELD"]);
  const exclude = compilePipeline(`
processors:
  - dissect:
      fields:
        - message
      patterns:
        - "%{+ts} %{+ts} %{http_status_code} %{content}"
  - select:
      type: exclude
      fields:
        - http_status_code
${date}`);
  const s = summary(run(exclude, [{ message: "2024-05-25 20:16:37.217 404 hello" }]));
  assert.deepEqual(s[0].columns, [
    "ts:TimestampNanosecond:TIMESTAMP",
    "content:String:FIELD",
    "message:String:FIELD",
  ]);
});

Deno.test("test_plain_text_ingestion: text lines as {message}", () => {
  const p = compilePipeline(`
processors:
  - dissect:
      fields:
        - message
      patterns:
        - "%{+ts} %{+ts} %{content}"
  - date:
      fields:
        - ts
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"

transform:
  - fields:
      - content
    type: string
  - field: ts
    type: time
    index: timestamp
`);
  const lines = ["2024-05-25 20:16:37.217 hello", "2024-05-25 20:16:37.218 hello world"];
  const s = summary(run(p, lines.map((message) => ({ message }))));
  assert.deepEqual(s[0].rows, [["hello", T217], ["hello world", "1716668197218000000n"]]);
});

Deno.test("test_identity_pipeline: mixed keys, sorted columns in order of first appearance", () => {
  const s = summary(run(identityPipeline(), [
    {
      __time__: 1453809242,
      __topic__: "",
      __source__: "10.170.***.***",
      ip: "10.200.**.***",
      time: "26/Jan/2016:19:54:02 +0800",
      status: "200",
      "user-agent": "aliyun-sdk-java",
    },
    {
      __time__: 1453809242,
      __topic__: "",
      __source__: "10.170.***.***",
      hasagei: "hasagei",
      dongdongdong: "guaguagua",
    },
  ]));
  assert.deepEqual(s[0].columns.map((c) => c.split(":")[0]), [
    "greptime_timestamp",
    "__source__",
    "__time__",
    "__topic__",
    "ip",
    "status",
    "time",
    "user-agent",
    "dongdongdong",
    "hasagei",
  ]);
  assert.deepEqual(s[0].rows[1].slice(1), [
    "10.170.***.***",
    1453809242,
    "",
    null,
    null,
    null,
    null,
    "guaguagua",
    "hasagei",
  ]);
});

Deno.test("test_pipeline_skip_error / filter: bad dates skipped, filtered entries dropped", () => {
  const p = compilePipeline(`
processors:
  - date:
      field: time
      formats:
        - "%Y-%m-%d %H:%M:%S%.3f"
  - filter:
      field: log
      targets:
        - error
transform:
  - field: log
    type: string
  - field: time
    type: time
    index: timestamp
`);
  const data = [
    { time: "2024-05-25 20:16:37.217", log: "ok" },
    { time: "2024-05-25", log: "bad date" },
    { time: "2024-05-25 20:16:37.218", log: "ERROR" },
  ];
  assert.throws(() => run(p, data), /Processor date: failed to parse 2024-05-25/);
  const res = run(p, data, { skipError: true });
  assert.equal(res.skipped, 1);
  assert.deepEqual(summary(res)[0].rows, [["ok", T217]]);
});
