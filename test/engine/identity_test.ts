import { httpStatusOf } from "../../src/http/render_error.ts";
import { PetrelError } from "../../src/common/errors.ts";
/** The built-in identity pipeline, dry-run rendering and the DDL preview (reference §10.1, §12.3, §12.8). */
import assert from "node:assert/strict";
import { compilePipeline, dryRun, dryRunJson, identityPipeline, pipelineDdl } from "../../engine/mod.ts";
import { Timestamp } from "../../engine/value.ts";
import { columnsOf } from "../../src/common/rows.ts";
import { run, summary } from "./helpers.ts";

Deno.test("identity: flattening, arrays as JSON, hints removed, greptime_timestamp input dropped", () => {
  const before = BigInt(Date.now()) * 1_000_000n;
  const res = run(identityPipeline(), [{
    z: 1,
    a: { c: { d: "x" }, b: 1.5, e: {} },
    arr: [1, { b: 2, a: [3] }, new Timestamp(0)],
    greptime_ttl: "1d",
    greptime_table_suffix: "_ignored",
    greptime_timestamp: 5,
    n: null,
  }]);
  const s = summary(res);
  assert.equal(s.length, 1);
  assert.equal(s[0].table, "t");
  assert.deepEqual(s[0].options, { ttl: "1d" });
  assert.deepEqual(s[0].columns, [
    "greptime_timestamp:TimestampNanosecond:TIMESTAMP",
    "a.b:Float64:FIELD",
    "a.c.d:String:FIELD",
    "arr:String:FIELD",
    "z:Int64:FIELD",
  ]);
  assert.deepEqual(s[0].rows[0].slice(1), [1.5, "x", '[1,{"a":[3],"b":2},"1970-01-01T00:00:00+00:00"]', 1]);
  assert.ok((res.batches[0].rows[0][0] as bigint) >= before);
});

/** [max_nested_levels, expected columns after the time index]. */
const LEVELS: [number | undefined, Record<string, unknown>][] = [
  [undefined, { "a.b.c": 1 }],
  [1, { a: '{"b":{"c":1}}' }],
  [2, { "a.b": '{"c":1}' }],
  [3, { "a.b.c": 1 }],
  [0, { "a.b.c": 1 }],
];

for (const [levels, expected] of LEVELS) {
  Deno.test(`identity: max_nested_levels=${levels}`, () => {
    const b = run(identityPipeline({ maxNestedLevels: levels }), [{ a: { b: { c: 1 } } }]).batches[0];
    const got: Record<string, unknown> = {};
    b.columns.forEach((c, i) => i > 0 && (got[c.name] = b.rows[0][i]));
    assert.deepEqual(got, expected);
  });
}

Deno.test("identity: columns in sorted order as first encountered, later rows padded", () => {
  const s = summary(run(identityPipeline(), [{ b: 1 }, { a: "x", c: true }]));
  assert.deepEqual(s[0].columns.slice(1), ["b:Int64:FIELD", "a:String:FIELD", "c:Boolean:FIELD"]);
  assert.deepEqual(s[0].rows.map((r) => r.slice(1)), [[1, null, null], [null, "x", true]]);
});

Deno.test("identity: non-object entry and type mismatch", () => {
  assert.throws(() => run(identityPipeline(), [[1]]), /Top level value must be map/);
  assert.throws(
    () => run(identityPipeline(), [{ a: 1 }, { a: "x" }]),
    /Column datatype mismatch\. For column: a/,
  );
  const res = run(identityPipeline(), [{ a: 1 }, { a: "x" }, 3], { skipError: true });
  assert.equal(res.skipped, 2);
  assert.throws(
    () => run(identityPipeline(), [{ a: 1 }, { a: 1.5 }]),
    /expected datatype: Int64, actual datatype: Float64/,
  );
  // JSON `2.0` is the JS number 2: after a float it stays a float.
  const f = summary(run(identityPipeline(), [{ a: 1.5 }, { a: 2 }]));
  assert.deepEqual(f[0].columns[1], "a:Float64:FIELD");
  assert.deepEqual(f[0].rows.map((r) => r[1]), [1.5, 2]);
});

/** [custom_time_index, record, expected time column, expected cell | error]. */
const CUSTOM: [string, Record<string, unknown>, string, unknown][] = [
  ["ts;epoch;s", { ts: 1716668197, m: 1 }, "ts:TimestampSecond:TIMESTAMP", 1716668197],
  ["ts;epoch;ms", { ts: "1716668197217" }, "ts:TimestampMillisecond:TIMESTAMP", 1716668197217],
  [
    "ts;epoch;us",
    { ts: new Timestamp(1716668197217, 1000) },
    "ts:TimestampMicrosecond:TIMESTAMP",
    1716668197217001,
  ],
  [
    "ts;datestr;%Y-%m-%d %H:%M:%S%z",
    { ts: "2024-05-25 20:16:37+0800" },
    "ts:TimestampNanosecond:TIMESTAMP",
    1716639397000000000n,
  ],
  ["ts;epoch;ms", { ts: "abc" }, "", { error: "Failed to cast type, msg:" }],
  ["ts;datestr;%Y-%m-%d %H:%M:%S", { ts: "2024-05-25 20:16:37" }, "", { error: "Failed to cast type, msg:" }],
];

for (const [cfg, rec, col, expected] of CUSTOM) {
  Deno.test(`identity: custom_time_index ${cfg} on ${JSON.stringify(rec.ts)}`, () => {
    const p = identityPipeline({ customTimeIndex: cfg });
    if (expected && typeof expected === "object" && "error" in expected) {
      assert.throws(() => run(p, [rec]), (e: PetrelError) => {
        assert.ok(e.message.startsWith((expected as { error: string }).error), e.message);
        assert.equal(httpStatusOf(e), 400, "bad input is a 400 (GreptimeDB: 500)");
        return true;
      });
      const lenient = identityPipeline({ customTimeIndex: cfg, ignoreErrors: true });
      assert.equal(run(lenient, [rec]).batches[0].rows.length, 1);
      return;
    }
    const b = run(p, [rec]).batches[0];
    assert.equal(`${b.columns[0].name}:${b.columns[0].type}:${b.columns[0].semantic}`, col);
    assert.deepEqual(b.rows[0][0], expected);
    assert.ok(!b.columns.slice(1).some((c) => c.name === "ts"), "time field removed from normal columns");
  });
}

const BAD_CONFIGS: [string, string][] = [
  [
    "ts;epoch",
    "Invalid custom time index config: ts;epoch, reason: config format: '<field>;<type>;<config>'",
  ],
  [
    "ts;epoch;m",
    "Invalid custom time index config: ts;epoch;m, reason: epoch type must be one of ns, us, ms, s",
  ],
  [
    "ts;date;x",
    "Invalid custom time index config: ts;date;x, reason: identity time index type must be one of epoch, datestr",
  ],
];
for (const [cfg, msg] of BAD_CONFIGS) {
  Deno.test(`identity: bad custom_time_index ${cfg}`, () => {
    assert.throws(() => identityPipeline({ customTimeIndex: cfg }), (e: PetrelError) => {
      assert.equal(e.message, msg);
      assert.equal(httpStatusOf(e), 400);
      return true;
    });
  });
}

const TEST_PIPELINE = `
processors:
  - dissect:
      fields: [line]
      patterns: ['%{id1} %{id2} %{logger} %{type} %{log} %{time}']
  - epoch:
      field: time
      resolution: ns
transform:
  - fields: [id1, id2]
    type: int32
    index: inverted
  - field: logger
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

Deno.test("dry run: schema, typed rows, exact nanosecond JSON", () => {
  const p = compilePipeline(TEST_PIPELINE);
  const out = dryRun(p, [{ line: "2436 2528 INTERACT.MANAGER I ClusterAdapter 1716668197217000000" }]);
  assert.equal(out.length, 1);
  assert.equal(out[0].table_name, "dry_run");
  assert.deepEqual(out[0].schema.map((c) => [c.name, c.data_type, c.column_type, c.fulltext]), [
    ["id1", "INT32", "FIELD", false],
    ["id2", "INT32", "FIELD", false],
    ["logger", "STRING", "FIELD", false],
    ["type", "STRING", "TAG", false],
    ["log", "STRING", "TAG", true],
    ["time", "TIMESTAMP_NANOSECOND", "TIMESTAMP", false],
  ]);
  assert.deepEqual(out[0].rows[0][0], {
    key: "id1",
    value: 2436,
    data_type: "INT32",
    semantic_type: "FIELD",
  });
  const json = dryRunJson(out);
  assert.ok(json.includes('"value":1716668197217000000,"data_type":"TIMESTAMP_NANOSECOND"'), json);
  assert.deepEqual(JSON.parse(json)[0].rows[0][2], {
    key: "logger",
    value: "INTERACT.MANAGER",
    data_type: "STRING",
    semantic_type: "FIELD",
  });
});

Deno.test("ddl: CREATE TABLE preview with indexes, tags and time index", () => {
  const p = compilePipeline(TEST_PIPELINE);
  assert.deepEqual(pipelineDdl(p, "logs1"), {
    sql: [
      "CREATE TABLE IF NOT EXISTS `logs1` (",
      "  `id1` INT NULL INVERTED INDEX,",
      "  `id2` INT NULL INVERTED INDEX,",
      "  `logger` STRING NULL,",
      "  `type` STRING NULL SKIPPING INDEX WITH(false_positive_rate = '0.01', granularity = '10240', type = 'BLOOM'),",
      "  `log` STRING NULL FULLTEXT INDEX WITH(analyzer = 'English', backend = 'bloom', case_sensitive = 'false', false_positive_rate = '0.01', granularity = '10240'),",
      "  `time` TIMESTAMP(9) NOT NULL,",
      "  TIME INDEX (`time`),",
      "  PRIMARY KEY (`type`, `log`)",
      ")",
      "ENGINE=mito",
      "WITH(",
      "  append_mode = 'true'",
      ")",
    ].join("\n"),
  });
  assert.equal(
    pipelineDdl(p, "logs1", { tableExists: true }).message,
    "table already exists, the CREATE TABLE SQL may be different",
  );
});

Deno.test("ddl: warnings and errors", () => {
  const withSuffix = compilePipeline(`${TEST_PIPELINE}table_suffix: _\${type}\n`);
  assert.equal(
    pipelineDdl(withSuffix, "t").message,
    "the pipeline has dispatcher or table_suffix, the table name may not be fixed",
  );
  assert.throws(
    () => pipelineDdl(identityPipeline(), "t"),
    /built-in pipelines don't have fixed table schema/,
  );
  assert.throws(
    () => pipelineDdl(compilePipeline("processors:\n  - epoch:\n      field: t\n"), "t"),
    /auto transform doesn't have fixed table schema/,
  );
  assert.throws(() => pipelineDdl(compilePipeline(TEST_PIPELINE), ""), /table name is required/);
});

Deno.test("identity: key order and key sets vary between entries", () => {
  const s = summary(
    run(identityPipeline(), [{ b: 1, a: 2 }, { b: 3, a: 4 }, { a: 5, b: 6 }, { c: 7, a: 8 }, {
      b: 9,
      a: 10,
    }]),
  );
  assert.deepEqual(s[0].columns.slice(1), ["a:Int64:FIELD", "b:Int64:FIELD", "c:Int64:FIELD"]);
  assert.deepEqual(s[0].rows.map((r) => r.slice(1)), [
    [2, 1, null],
    [4, 3, null],
    [5, 6, null],
    [8, null, 7],
    [10, 9, null],
  ]);
});

Deno.test("identity: entries of plain shapes come out by column, with the rows the row path builds", () => {
  const res = identityPipeline().run([{ a: 1.5, n: { b: "x" } }, { a: 2, c: [1] }, { n: { b: null } }], {
    table: "t",
    skipError: false,
    resolve: () => undefined,
  });
  assert.equal(res.batches.length, 1);
  const batch = columnsOf(res.batches[0]);
  assert.ok(batch, "a ColumnarBatch");
  assert.deepEqual(batch.columns.map((c) => `${c.name}:${c.type}`), [
    "greptime_timestamp:TimestampNanosecond",
    "a:Float64",
    "n.b:String",
    "c:String",
  ]);
  const now = batch.cols[0][0];
  assert.deepEqual(batch.rows, [[now, 1.5, "x", null], [now, 2, null, "[1]"], [now, null, null, null]]);
});

Deno.test("identity: a type conflict in the columnar run fails as the row path does, or skips with skip_error", () => {
  const entries = [{ a: 1 }, { a: "x" }, { a: 2 }];
  assert.throws(
    () => identityPipeline().run(entries, { table: "t", skipError: false, resolve: () => undefined }),
    /Column datatype mismatch. For column: a, expected datatype: Int64, actual datatype: String/,
  );
  const res = identityPipeline().run(entries, { table: "t", skipError: true, resolve: () => undefined });
  assert.equal(res.skipped, 1);
  assert.deepEqual(res.batches[0].rows.map((r) => r[1]), [1, 2]);
});
