import { httpStatusOf } from "../../src/http/render_error.ts";
/** Compile-time cases for the pipeline document and the transform section (reference §3, §5–§7, §13). */
import assert from "node:assert/strict";
import { compilePipeline, PipelineCompileError } from "../../engine/mod.ts";

const TS = "  - field: t\n    type: time\n    index: timestamp\n";
const DATE = "processors:\n  - date:\n      field: t\n";

/** [name, yaml, expected error substring]. */
const ERRORS: [string, string, string][] = [
  ["yaml syntax", "processors: [", "Yaml load error."],
  ["several documents", "a: 1\n---\nb: 2\n", "Yaml parse error."],
  ["empty text", "", "Yaml parse error."],
  ["version 3", `version: 3\n${DATE}`, "Invalid Pipeline doc version number: 3"],
  ["version v2", `version: v2\n${DATE}`, "Invalid Pipeline doc version number: v2"],
  ["version 1.5", `version: 1.5\n${DATE}`, "Invalid Pipeline doc version number: 1.5"],
  ["version 1.0 (a float)", `version: 1.0\n${DATE}`, "Invalid Pipeline doc version number: 1.0"],
  ["transform item not a map", `${DATE}transform:\n  - x\n`, "Transform element must be a map"],
  ["transform without fields", `${DATE}transform:\n  - type: string\n`, "Transform fields must be set."],
  ["transform without type", `${DATE}transform:\n  - fields: [a, b]\n`, "Transform [a, b] type MUST BE set."],
  ["unknown type alias", `${DATE}transform:\n  - field: a\n    type: int\n`, "Failed to parse type: 'int'"],
  [
    "bad resolution",
    `${DATE}transform:\n  - field: t\n    type: epoch, minute\n    index: time\n`,
    "Invalid resolution: 'minute'. Available resolutions: nanosecond,nano,ns,microsecond,micro,us,millisecond,milli,ms,second,sec,s",
  ],
  [
    "type word not trimmed",
    `${DATE}transform:\n  - field: t\n    type: 'timestamp ,ms'\n`,
    "Failed to parse type: 'timestamp ,ms'",
  ],
  [
    "unknown index",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: btree\n${TS}`,
    "Unsupported index type: btree",
  ],
  [
    "index map without type",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {options: {}}\n${TS}`,
    "Transform index `type` must be set.",
  ],
  [
    "index map unknown key",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: fulltext, enable: true}\n${TS}`,
    "Unsupported field in transform index config: enable",
  ],
  [
    "inverted with options",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: inverted, options: {}}\n${TS}`,
    "Index type `inverted` does not support options in pipeline config",
  ],
  [
    "fulltext on int",
    `${DATE}transform:\n  - field: a\n    type: int64\n    index: fulltext\n${TS}`,
    "Index `fulltext` only supports STRING columns, but got INT64",
  ],
  [
    "fulltext unknown option",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: fulltext, options: {enable: true}}\n${TS}`,
    "Unsupported option `enable` for `fulltext` index",
  ],
  [
    "fulltext bad analyzer",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: fulltext, options: {analyzer: French}}\n${TS}`,
    "Invalid options for `fulltext` index",
  ],
  [
    "skipping bad rate",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: skipping, options: {false_positive_rate: 2}}\n${TS}`,
    "Invalid options for `skipping` index",
  ],
  [
    "option value not scalar",
    `${DATE}transform:\n  - field: a\n    type: string\n    index: {type: skipping, options: {granularity: [1]}}\n${TS}`,
    "Transform index option `index.options.granularity` must be a string, boolean, integer, or real scalar",
  ],
  [
    "bad on_failure",
    `${DATE}transform:\n  - field: a\n    type: string\n    on_failure: retry\n${TS}`,
    "Invalid transform on_failure value: retry",
  ],
  [
    "default on timestamp",
    `${DATE}transform:\n  - field: t\n    type: time\n    index: time\n    default: 0\n`,
    "Default value not unsupported for type TimestampNanosecond",
  ],
  [
    "default not parsable",
    `${DATE}transform:\n  - field: a\n    type: int8\n    default: 300\n${TS}`,
    "Failed to parse int8: 300",
  ],
  [
    "duplicate column across transforms",
    `${DATE}transform:\n  - field: a\n    type: string\n  - field: b, a\n    type: string\n${TS}`,
    "Column name must be unique, but got duplicated: a",
  ],
  [
    "time index with two fields",
    `${DATE}transform:\n  - fields: [a, b]\n    type: time\n    index: time\n`,
    "Illegal to set multiple timestamp Index columns, please set only one: a, b",
  ],
  [
    "two time indexes",
    `${DATE}transform:\n  - field: a\n    type: time\n    index: time\n  - field: b\n    type: time\n    index: timestamp\n`,
    "Transform must have exactly one field specified as timestamp Index, but got 2: a, b",
  ],
  [
    "version 2 without time index",
    `version: 2\n${DATE}transform:\n  - field: a\n    type: string\n`,
    "Transform must have exactly one field specified as timestamp Index, but got 0: ",
  ],
  [
    "auto transform without time processor",
    "processors:\n  - letter:\n      field: a\n",
    "Exactly one time-related processor and one timestamp value is required to use auto transform.",
  ],
  [
    "auto transform with ignore_missing time processor",
    "processors:\n  - epoch:\n      field: a\n      ignore_missing: true\n",
    "`ignore_missing` can not be set to true.",
  ],
  [
    "auto transform with two time fields",
    "processors:\n  - epoch:\n      fields: [a, b]\n",
    "Exactly one time-related processor",
  ],
  ["dispatcher without field", `${DATE}dispatcher:\n  rules: []\n`, "Field is required for dispatcher"],
  [
    "dispatcher rule without value",
    `${DATE}dispatcher:\n  field: k\n  rules:\n    - table_suffix: _x\n`,
    "Value is required for dispatcher rule",
  ],
  [
    "dispatcher rule without suffix",
    `${DATE}dispatcher:\n  field: k\n  rules:\n    - value: x\n`,
    "Table_suffix is required for dispatcher rule",
  ],
  [
    "table_suffix not a string",
    `${DATE}table_suffix: [1]\n`,
    "A valid table suffix template is required for tablesuffix section",
  ],
  [
    "table_suffix unclosed",
    `${DATE}table_suffix: _\${a\n`,
    "A valid table suffix template is required for tablesuffix section",
  ],
];

for (const [name, yaml, expected] of ERRORS) {
  Deno.test(`document error: ${name}`, () => {
    assert.throws(() => compilePipeline(yaml), (e: Error) => {
      assert.ok(e instanceof PipelineCompileError, `not a compile error: ${e}`);
      assert.equal(e.code, 1004);
      assert.equal(httpStatusOf(e), 400);
      assert.ok(e.message.includes(expected), `"${e.message}" should contain "${expected}"`);
      assert.ok(e.detail.includes(expected.split(" (")[0]), `detail "${e.detail}"`);
      return true;
    });
  });
}

/** Documents that must compile, and the mode / columns they get. */
const OK: [string, string, string, string[]][] = [
  ["no transform → auto", DATE, "auto", []],
  ["empty transform list → auto", `${DATE}transform: []\n`, "auto", []],
  [
    "v1 transform gets greptime_timestamp",
    `${DATE}transform:\n  - field: a\n    type: string\n`,
    "v1",
    ["a:String:FIELD", "greptime_timestamp:TimestampNanosecond:TIMESTAMP"],
  ],
  [
    "version '2' string and transforms key",
    `version: '2'\n${DATE}transforms:\n  - fields: [a, 'b, c']\n    type: uint32\n    tag: true\n${TS}`,
    "v2",
    ["a:UInt32:TAG", "c:UInt32:TAG", "t:TimestampNanosecond:TIMESTAMP"],
  ],
  [
    "transforms wins over transform",
    `${DATE}transform:\n  - field: x\n    type: string\ntransforms:\n  - field: y\n    type: boolean\n${TS}`,
    "v1",
    ["y:Boolean:FIELD", "t:TimestampNanosecond:TIMESTAMP"],
  ],
  [
    "resolutions and case-insensitive type words",
    `${DATE}transform:\n  - field: a\n    type: Epoch, s\n  - field: b\n    type: TIMESTAMP, ms\n  - field: c\n    type: time, us\n    index: tag\n${TS}`,
    "v1",
    [
      "a:TimestampSecond:FIELD",
      "b:TimestampMillisecond:FIELD",
      "c:TimestampMicrosecond:TAG",
      "t:TimestampNanosecond:TIMESTAMP",
    ],
  ],
  [
    "duplicates inside one fields list are not detected",
    `${DATE}transform:\n  - fields: [a, a]\n    type: json\n${TS}`,
    "v1",
    ["a:Json:FIELD", "a:Json:FIELD", "t:TimestampNanosecond:TIMESTAMP"],
  ],
  [
    "unknown top-level and processor keys ignored",
    `description: x\nwhatever: 1\nprocessors:\n  - date:\n      field: t\n      bogus: 1\n`,
    "auto",
    [],
  ],
];

for (const [name, yaml, mode, columns] of OK) {
  Deno.test(`document ok: ${name}`, () => {
    const p = compilePipeline(yaml);
    assert.equal(p.mode, mode);
    assert.deepEqual(
      p.transform.map((t) => `${t.column.name}:${t.column.type}:${t.column.semantic}`),
      columns,
    );
  });
}

Deno.test("document: index options are normalised with defaults", () => {
  const p = compilePipeline(
    `${DATE}transform:\n  - field: a\n    type: string\n    index: fulltext\n  - field: b\n    type: string\n    index: {type: fulltext, options: {analyzer: chinese, case_sensitive: true, backend: tantivy}}\n  - field: c\n    type: int32\n    index: {type: skipping, options: {granularity: 1024, false_positive_rate: 0.02}}\n  - field: d\n    type: string\n    index: inverted\n    tag: true\n${TS}`,
  );
  const idx = p.transform.map((t) => [t.column.semantic, t.column.index]);
  assert.deepEqual(idx, [
    ["FIELD", {
      kind: "fulltext",
      options: {
        analyzer: "English",
        backend: "bloom",
        case_sensitive: "false",
        false_positive_rate: "0.01",
        granularity: "10240",
      },
    }],
    ["FIELD", {
      kind: "fulltext",
      options: {
        analyzer: "Chinese",
        backend: "tantivy",
        case_sensitive: "true",
        false_positive_rate: "0.01",
        granularity: "10240",
      },
    }],
    ["FIELD", {
      kind: "skipping",
      options: { false_positive_rate: "0.02", granularity: "1024", type: "BLOOM" },
    }],
    ["TAG", { kind: "inverted", options: {} }],
    ["TIMESTAMP", undefined],
  ]);
});

Deno.test("document: compile error location names the line", () => {
  assert.throws(
    () =>
      compilePipeline(
        "processors:\n  - date:\n      field: t\n  - letter:\n      field: a\n      method: x\n",
      ),
    (e: PipelineCompileError) => {
      assert.equal(e.detail, "Invalid method: x");
      assert.deepEqual(e.location, { processor: "letter", key: "method", line: 6 });
      return true;
    },
  );
});

Deno.test("document: section-level transform errors carry a line", () => {
  assert.throws(
    () =>
      compilePipeline(
        `${DATE}transform:\n  - field: a\n    type: string\n  - field: b, a\n    type: string\n${TS}`,
      ),
    (e: PipelineCompileError) => {
      assert.equal(e.location.line, 7);
      return true;
    },
  );
});

Deno.test("document: aliases expanding past the node budget fail fast, not hang (billion laughs)", () => {
  // Nine levels of nine aliases: a few hundred bytes that expand to 9^9 nodes.
  const levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 9; i++) levels.push(`l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(", ")}]`);
  const yaml = `${levels.join("\n")}\n${DATE}`;
  const start = performance.now();
  assert.throws(() => compilePipeline(yaml), (e: Error) => {
    assert.ok(e instanceof PipelineCompileError, `not a compile error: ${e}`);
    assert.equal(httpStatusOf(e), 400);
    assert.match(e.message, /^Yaml load error\. .*aliases/);
    return true;
  });
  assert.ok(performance.now() - start < 2000, `took ${performance.now() - start} ms`);
});

Deno.test("document: flow collections nested past 127 fail fast with their line; brackets in scalars do not count", () => {
  // the YAML parser took 1.5-4 s to run out of stack on 100 000 levels
  for (const open of ["[", "{a: "]) {
    const yaml = `${DATE}x:\n  ${open.repeat(100_000)}`;
    const start = performance.now();
    assert.throws(() => compilePipeline(yaml), (e: Error) => {
      assert.ok(e instanceof PipelineCompileError, `not a compile error: ${e}`);
      assert.equal(e.message, "Yaml load error. Flow collections nested more than 127 deep (line 5)");
      return true;
    });
    assert.ok(performance.now() - start < 200, `took ${performance.now() - start} ms`);
  }
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  compilePipeline(`${DATE}x: ${nested(127)}\n`);
  assert.throws(() => compilePipeline(`${DATE}x: ${nested(128)}\n`), /nested more than 127 deep \(line 4\)/);
  // unbalanced brackets in plain and quoted scalars and comments, 200 lines of them
  const lines = Array.from({ length: 200 }, (_, i) => `  k${i}: a[b{ '[[' "{[\\"[" # [[{`).join("\n");
  compilePipeline(`${DATE}x:\n${lines}\n`);
});

Deno.test("document: aliases within the budget are expanded as written", () => {
  const p = compilePipeline(
    "formats: &f ['%Y-%m-%d %H:%M:%S']\nstr: &s string\nprocessors:\n  - date:\n      field: t\n      formats: *f\n" +
      `transform:\n  - field: a\n    type: *s\n${TS}`,
  );
  assert.deepEqual(p.transform.map((t) => `${t.column.name}:${t.column.type}`), [
    "a:String",
    "t:TimestampNanosecond",
  ]);
});

Deno.test("document: an alias names the latest anchor of that name before it", () => {
  const p = compilePipeline(
    `a: &t int32\nb: &t string\n${DATE}transform:\n  - field: x\n    type: *t\n${TS}`,
  );
  assert.equal(p.transform[0].column.type, "String");
});
