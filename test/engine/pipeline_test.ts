import { httpStatusOf } from "../../src/http/render_error.ts";
import { PetrelError } from "../../src/common/errors.ts";
/** Whole-pipeline runs: modes, auto-typing, hints, table suffixes, dispatcher, skip_error (reference §3.2, §5–§9). */
import assert from "node:assert/strict";
import { compilePipeline, type Pipeline } from "../../engine/mod.ts";
import { run, summary } from "./helpers.ts";

const AUTO = "processors:\n  - epoch:\n      field: ts\n      resolution: ms\n";

Deno.test("auto transform: time index first, keys sorted, nested as binary JSON", () => {
  const p = compilePipeline(AUTO);
  const res = run(p, [
    { ts: 1716668197217, z: "s", a: 1, f: 1.5, b: true, o: { y: 1, x: [2] }, n: null },
    { ts: "1716668197218", new_col: "x" },
  ]);
  assert.deepEqual(summary(res), [{
    table: "t",
    options: undefined,
    columns: [
      "ts:TimestampMillisecond:TIMESTAMP",
      "a:Int64:FIELD",
      "b:Boolean:FIELD",
      "f:Float64:FIELD",
      "o:Binary:FIELD",
      "z:String:FIELD",
      "new_col:String:FIELD",
    ],
    rows: [
      [1716668197217, 1, true, 1.5, 'bytes:{"x":[2],"y":1}', "s", null],
      [1716668197218, null, null, null, null, null, "x"],
    ],
  }]);
});

Deno.test("auto transform: date time index and Int64/Float64 mismatch", () => {
  const p = compilePipeline("processors:\n  - date:\n      field: t\n");
  const res = run(p, [{ t: "2024-05-25T20:16:37.217+00:00", m: "x" }]);
  assert.deepEqual(summary(res)[0].columns, ["t:TimestampNanosecond:TIMESTAMP", "m:String:FIELD"]);
  assert.deepEqual(summary(res)[0].rows, [["1716668197217000000n", "x"]]);
  assert.throws(
    () => run(p, [{ t: "2024-05-25T20:16:37Z", score: 1 }, { t: "2024-05-25T20:16:37Z", score: 1.5 }]),
    /Column datatype mismatch\. For column: score, expected datatype: Int64, actual datatype: Float64/,
  );
});

Deno.test("auto transform: a time processor with ignore_missing does not count; its output is a field", () => {
  const p = compilePipeline(
    "processors:\n  - date:\n      field: e\n      ignore_missing: true\n  - epoch:\n      field: t\n      resolution: s\n",
  );
  const res = run(p, [{ t: 1716668197, e: "2024-05-25T20:16:37Z" }, { t: 1716668198 }]);
  assert.deepEqual(summary(res)[0].columns, ["t:TimestampSecond:TIMESTAMP", "e:TimestampNanosecond:FIELD"]);
  assert.deepEqual(summary(res)[0].rows, [[1716668197, "1716668197000000000n"], [1716668198, null]]);
});

Deno.test("auto transform: missing or bad time index is a cast error (400; GreptimeDB: Unexpected, 500)", () => {
  const p = compilePipeline("processors:\n  - epoch:\n      field: ts\n      ignore_missing: false\n");
  assert.throws(() => run(p, [{ x: 1 }]), (e: PetrelError) => {
    assert.ok(e.message.includes("Processor epoch: missing field: ts"));
    return true;
  });
  const q = compilePipeline(
    "processors:\n  - epoch:\n      field: ts\n  - select:\n      fields: [ts]\n      type: exclude\n",
  );
  assert.throws(() => run(q, [{ ts: 1 }]), (e: PetrelError) => {
    assert.equal(e.message, "Failed to cast type, msg: missing field");
    assert.equal(httpStatusOf(e), 400);
    return true;
  });
});

Deno.test("v2: transform columns first, consumed keys removed, rest auto-typed", () => {
  const p = compilePipeline(
    "version: 2\nprocessors:\n  - epoch:\n      field: t\n      resolution: s\ntransform:\n  - field: id1\n    type: int32\n    index: inverted\n  - field: t\n    type: time, s\n    index: timestamp\n",
  );
  const res = run(p, [{ id1: "2436", id2: "x", t: 1716668197 }]);
  assert.deepEqual(summary(res), [{
    table: "t",
    options: undefined,
    columns: ["id1:Int32:FIELD", "t:TimestampSecond:TIMESTAMP", "id2:String:FIELD"],
    rows: [[2436, 1716668197, "x"]],
  }]);
  assert.deepEqual(res.batches[0].columns[0].index, { kind: "inverted", options: {} });
});

/** [hint key, value, expected options]. Both spellings (`greptime_` and `svc_`) are special variables. */
const HINTS: [string, unknown, Record<string, string>][] = [
  ["greptime_ttl", "1d", { ttl: "1d" }],
  ["svc_ttl", "7d", { ttl: "7d" }],
  ["greptime_auto_create_table", "false", { auto_create_table: "false" }],
  ["svc_auto_create_table", true, { auto_create_table: "true" }],
  ["greptime_append_mode", "true", { append_mode: "true" }],
  ["svc_append_mode", false, { append_mode: "false" }],
  ["greptime_merge_mode", "last_non_null", { merge_mode: "last_non_null" }],
  ["svc_merge_mode", "last_row", { merge_mode: "last_row" }],
  ["greptime_physical_table", "phy", { physical_table: "phy" }],
  ["svc_physical_table", "phy2", { physical_table: "phy2" }],
  ["greptime_skip_wal", "true", { skip_wal: "true" }],
  ["svc_skip_wal", 1, { skip_wal: "1" }],
];

for (const [key, value, options] of HINTS) {
  Deno.test(`hint ${key} becomes a table option and is removed from the row`, () => {
    const p = compilePipeline(AUTO);
    const res = run(p, [{ ts: 1, m: "a", [key]: value }, { ts: 2, m: "b" }]);
    const s = summary(res);
    assert.equal(s.length, 2);
    assert.deepEqual(s[0].options, options);
    assert.deepEqual(s[0].columns, ["ts:TimestampMillisecond:TIMESTAMP", "m:String:FIELD"]);
    assert.deepEqual(s[0].rows, [[1, "a"]]);
    assert.equal(s[1].options, undefined);
  });
}

Deno.test("hint: auto_create_table must be a boolean", () => {
  const p = compilePipeline(AUTO);
  assert.throws(
    () => run(p, [{ ts: 1, greptime_auto_create_table: "yes" }]),
    /`auto_create_table` hint must be a boolean/,
  );
});

Deno.test("hints: table suffix from both spellings; rows go to several tables", () => {
  const p = compilePipeline(AUTO);
  const res = run(p, [
    { ts: 1, id: 1, greptime_table_suffix: "_1" },
    { ts: 2, id: 2, svc_table_suffix: "_2", svc_ttl: "1d" },
    { ts: 3, id: 3 },
    { ts: 4, id: 4, greptime_table_suffix: "_1" },
  ], { table: "logs" });
  assert.deepEqual(
    summary(res).map((b) => [b.table, b.options, b.rows.map((r) => r[1])]),
    [["logs_1", undefined, [1, 4]], ["logs_2", { ttl: "1d" }, [2]], ["logs", undefined, [3]]],
  );
});

Deno.test("v1: a hint listed in the transform is both a column and a hint", () => {
  const p = compilePipeline("transform:\n  - field: greptime_ttl\n    type: string\n");
  const s = summary(run(p, [{ greptime_ttl: "1d" }]));
  assert.deepEqual(s[0].options, { ttl: "1d" });
  assert.equal(s[0].rows[0][0], "1d");
});

/** [template, entry, expected table]. */
const SUFFIXES: [string, Record<string, unknown>, string][] = [
  ["_${type}", { type: "http" }, "t_http"],
  ["_${ type }_${n}", { type: "a", n: 7 }, "t_a_7"],
  ["_${type}", { type: 1.5 }, "t"],
  ["_${type}", {}, "t"],
  ["_${type}_${missing}", { type: "a" }, "t"],
  ["_${type}", { type: "a", greptime_table_suffix: "_hint" }, "t_hint"],
  ["-fixed", {}, "t-fixed"],
];

for (const [tpl, entry, table] of SUFFIXES) {
  Deno.test(`table_suffix ${tpl} on ${JSON.stringify(entry)} → ${table}`, () => {
    const p = compilePipeline(`${AUTO}table_suffix: "${tpl}"\n`);
    assert.equal(run(p, [{ ts: 1, ...entry }]).batches[0].table, table);
  });
}

Deno.test("table_suffix in v2 cannot reference transformed keys", () => {
  const p = compilePipeline(
    `version: 2\n${AUTO}transform:\n  - field: type\n    type: string\n  - field: ts\n    type: epoch, ms\n    index: time\ntable_suffix: _\${type}\n`,
  );
  assert.equal(run(p, [{ ts: 1, type: "x" }]).batches[0].table, "t");
});

Deno.test("table_suffix in v1 sees transformed keys", () => {
  const p = compilePipeline(
    `${AUTO}transform:\n  - field: type\n    type: string\n  - field: ts\n    type: epoch, ms\n    index: time\ntable_suffix: _\${type}\n`,
  );
  assert.equal(run(p, [{ ts: 1, type: "x" }]).batches[0].table, "t_x");
});

const DISPATCH = `${AUTO}dispatcher:
  field: kind
  rules:
    - value: http
      table_suffix: _http
      pipeline: http_pipe
    - value: 1
      table_suffix: _one
    - value: true
      table_suffix: _bool
transform:
  - field: kind
    type: string
  - field: ts
    type: epoch, ms
    index: time
`;

Deno.test("dispatcher: typed equality, child pipeline and identity default", () => {
  const parent = compilePipeline(DISPATCH);
  const child = compilePipeline("transform:\n  - field: path\n    type: string\n", { name: "http_pipe" });
  const resolved: string[] = [];
  const res = run(parent, [
    { kind: "http", path: "/a", ts: 1 },
    { kind: 1, ts: 2 },
    { kind: "1", ts: 3 },
    { kind: true, ts: 4 },
    { ts: 5 },
  ], {
    table: "logs",
    resolve: (n) => {
      resolved.push(n);
      return n === "http_pipe" ? child : undefined;
    },
  });
  assert.deepEqual(resolved, ["http_pipe"]);
  const s = summary(res);
  assert.deepEqual(s.map((b) => b.table), ["logs", "logs_http", "logs_one", "logs_bool"]);
  assert.deepEqual(s[0].rows, [["1", 3], [null, 5]]);
  assert.deepEqual(s[1].columns, ["path:String:FIELD", "greptime_timestamp:TimestampNanosecond:TIMESTAMP"]);
  assert.equal(s[1].rows[0][0], "/a");
  // Identity keeps every processed key; the epoch processor already made `ts` a timestamp.
  assert.deepEqual(s[2].columns, [
    "greptime_timestamp:TimestampNanosecond:TIMESTAMP",
    "kind:Int64:FIELD",
    "ts:TimestampNanosecond:FIELD",
  ]);
  assert.deepEqual(s[2].rows[0].slice(1), [1, "2000000n"]);
});

Deno.test("dispatcher: missing pipeline fails the request even with skip_error", () => {
  const parent = compilePipeline(DISPATCH);
  assert.throws(
    () => run(parent, [{ kind: "http", ts: 1 }], { skipError: true }),
    /Pipeline not found, name: http_pipe, version: latest/,
  );
});

Deno.test("skip_error: failing entries are skipped and counted; false fails the request", () => {
  const p = compilePipeline("processors:\n  - epoch:\n      field: ts\n");
  const records = [{ ts: 1 }, { ts: "bad" }, { nots: 1 }, { ts: 2 }];
  const res = run(p, records, { skipError: true });
  assert.equal(res.skipped, 2);
  assert.deepEqual(summary(res)[0].rows, [[1], [2]]);
  assert.throws(() => run(p, records), /Failed to parse bad to int/);
});

Deno.test("filter drops entries silently (not counted as skipped); all filtered → no batches", () => {
  const p = compilePipeline(`${AUTO}  - filter:\n      field: lvl\n      targets: [debug]\n`);
  const res = run(p, [{ ts: 1, lvl: "DEBUG" }, { ts: 2, lvl: "info" }]);
  assert.equal(res.skipped, 0);
  assert.deepEqual(summary(res)[0].rows, [[2, "info"]]);
  assert.deepEqual(run(p, [{ ts: 1, lvl: "debug" }]).batches, []);
});

Deno.test("non-object record: Top level value must be map (400; GreptimeDB: 500)", () => {
  const p = compilePipeline(AUTO);
  assert.throws(() => run(p, ["x"]), (e: PetrelError) => {
    assert.equal(e.message, "Top level value must be map");
    assert.equal(httpStatusOf(e), 400);
    return true;
  });
});

const vrlStep = (source: string) => `  - vrl:\n      source: ${JSON.stringify(source)}\n`;

Deno.test("vrl processor: arrays fan out with per-element hints; null drops; scalars are not entries", () => {
  assert.throws(
    () => compilePipeline(`processors:\n${vrlStep(".a = ")}`),
    /Failed to compile VRL, error\[E\d+\]/,
  );
  const fan = compilePipeline(
    `processors:\n${
      vrlStep('map_values(array!(.items)) -> |i| { {"ts": i, "greptime_table_suffix": "_" + to_string!(i)} }')
    }transform:\n  - field: ts\n    type: epoch, ms\n    index: time\n`,
  );
  const s = summary(run(fan, [{ items: [1, 2] }]));
  assert.deepEqual(s.map((b) => [b.table, b.rows]), [["t_1", [[1]]], ["t_2", [[2]]]]);
  const drop = compilePipeline(
    `processors:\n${vrlStep("if .ts == 1 { null } else { . }")}${AUTO.slice("processors:\n".length)}`,
  );
  assert.deepEqual(run(drop, [{ ts: 1 }]).batches, []);
  const scalar = compilePipeline(
    `processors:\n${vrlStep("parse_json!(.m)")}${AUTO.slice("processors:\n".length)}`,
  );
  assert.throws(() => run(scalar, [{ ts: 1, m: "5" }]), /Top level value must be map/);
  const pass = compilePipeline(`${AUTO}${vrlStep(".added = 1\n.")}`);
  assert.deepEqual(summary(run(pass, [{ ts: 1 }]))[0].rows, [[1, 1]]);
});

Deno.test("one-to-many: non-object element errors name the index; skip_error skips only it", () => {
  const program = vrlStep('[{"ts": 1}, "x", {"ts": 3}]');
  // Field processors after the fan-out run on each element (GreptimeDB fails: Top level value must be map).
  const p = compilePipeline(`processors:\n${program}  - epoch:\n      field: ts\n`);
  assert.throws(() => run(p, [{}]), /Array element at index 1 must be an object/);
  assert.deepEqual(summary(run(p, [{}], { skipError: true }))[0].rows, [[1], [3]]);
  const q = compilePipeline(
    `processors:\n${program}transform:\n  - field: ts\n    type: epoch, ms\n    index: time\n`,
  );
  assert.throws(
    () => run(q, [{}]),
    /Array element at index 1 must be an object for one-to-many transformation, got string/,
  );
  const res = run(q, [{}], { skipError: true });
  assert.equal(res.skipped, 1);
  assert.deepEqual(summary(res)[0].rows, [[1], [3]]);
});

Deno.test("existing table columns are adopted for auto-typed keys", () => {
  const p: Pipeline = compilePipeline(AUTO);
  const res = p.run([{ ts: 1, host: "a", n: 1 }], {
    table: "t",
    skipError: false,
    resolve: () => undefined,
    existingColumns: () => [{ name: "host", type: "String", semantic: "TAG" }],
  });
  assert.deepEqual(summary(res)[0].columns, [
    "ts:TimestampMillisecond:TIMESTAMP",
    "host:String:TAG",
    "n:Int64:FIELD",
  ]);
});

Deno.test("a record that is an array is not fanned out without VRL", () => {
  const p = compilePipeline("transform:\n  - field: a\n    type: string\n");
  assert.throws(() => run(p, [[{ a: "x" }]]), /Top level value must be map/);
});
