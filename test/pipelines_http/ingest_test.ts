/**
 * `/v1/ingest` end to end, as a table of cases: (pipelines to upload, request, body) → expected
 * reply, rows read back through `/v1/sql`, and table options seen in `SHOW CREATE TABLE`.
 * One real server serves every case; each case writes to its own table `t<i>`.
 */
import assert from "node:assert/strict";
import type { Value } from "../../src/common/rows.ts";
import { startTestServer } from "../helpers/server.ts";
import { errorOf, PipelineClient } from "./helpers.ts";

interface IngestCase {
  name: string;
  /** Why the case is known to fail (a bug outside this area); the step is then ignored. */
  knownBug?: string;
  /** YAML of the pipeline the request names (uploaded as `p<i>`); omit to use `pipelineName`. */
  yaml?: string;
  /** A pipeline name to use instead (e.g. `greptime_identity`). */
  pipelineName?: string;
  /** Other pipelines to upload first (dispatcher targets), by name. */
  others?: Record<string, string>;
  contentType?: string | null;
  body: string;
  /** Extra query parameters. */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A body ingested first with the same pipeline and table (must succeed). */
  before?: string;
  status?: number;
  /** Substring of the `error` of a failed request. */
  error?: string;
  /** Fields the reply must carry (e.g. `output`, `skipped`). */
  reply?: Record<string, unknown>;
  /** A query (`{t}` = the case's table) and the rows it must return. */
  select?: string;
  rows?: Value[][];
  /** Substrings each table's `SHOW CREATE TABLE` must contain (`{t}` in names and texts). */
  created?: Record<string, string[]>;
  /** Substrings a table's `SHOW CREATE TABLE` must not contain. */
  notCreated?: Record<string, string[]>;
  /** Tables (`{t}`-templated) that must not exist afterwards. */
  absent?: string[];
}

/** A v1 document: processors, then a transform ending with `ts` (epoch ms) as the time index. */
function v1(processors: string, transform: string): string {
  return `processors:\n${processors}\ntransform:\n${transform}\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n`;
}

const TS = 1716668197217;
/** A JSON body of entries, each given the fixed `ts` unless it sets its own. */
function json(...entries: Record<string, unknown>[]): string {
  return JSON.stringify(entries.map((e) => ({ ts: TS, ...e })));
}

/** A version-2 pipeline whose only transform is the `ts` time index; every other key is auto-typed. */
const V2_AUTO =
  "version: 2\nprocessors: []\ntransform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n";

const CASES: IngestCase[] = [
  {
    name: "index options become column options the table keeps (SHOW CREATE TABLE, as the ddl preview)",
    yaml: v1(
      "  []",
      "  - field: id\n    type: int32\n    index: inverted\n" +
        "  - field: lvl\n    type: string\n    index: skipping\n" +
        "  - field: msg\n    type: string\n    index: fulltext\n" +
        "  - field: note\n    type: string\n    index:\n      type: fulltext\n      options:\n        analyzer: Chinese\n        case_sensitive: true",
    ),
    body: json({ id: 1, lvl: "info", msg: "hello", note: "你好" }),
    select: "SELECT id, lvl, msg, note FROM {t}",
    rows: [[1, "info", "hello", "你好"]],
    created: {
      "{t}": [
        '"id" INT NULL INVERTED INDEX',
        "\"lvl\" STRING NULL SKIPPING INDEX WITH(false_positive_rate = '0.01', granularity = '10240', type = 'BLOOM')",
        "\"msg\" STRING NULL FULLTEXT INDEX WITH(analyzer = 'English', backend = 'bloom', case_sensitive = 'false', false_positive_rate = '0.01', granularity = '10240')",
        "\"note\" STRING NULL FULLTEXT INDEX WITH(analyzer = 'Chinese', backend = 'bloom', case_sensitive = 'true', false_positive_rate = '0.01', granularity = '10240')",
      ],
    },
  },
  // ---- one case per processor (the engine's own tests cover every key)
  {
    name: "cmcd: keys typed per CMCD",
    yaml: v1(
      "  - cmcd:\n      field: c",
      "  - field: c_br\n    type: int64\n  - field: c_bs\n    type: boolean\n  - field: c_sid\n    type: string",
    ),
    body: json({ c: 'br=3200,bs,sid="6e2f"' }),
    select: "SELECT c_br, c_bs, c_sid FROM {t}",
    rows: [[3200, true, '"6e2f"']],
  },
  {
    name: "csv: target_fields",
    yaml: v1(
      "  - csv:\n      field: d\n      target_fields: a,b,c",
      "  - fields: [a, b, c]\n    type: string",
    ),
    body: json({ d: "x,y,z" }),
    select: "SELECT a, b, c FROM {t}",
    rows: [["x", "y", "z"]],
  },
  {
    name: "date: format and timezone into the time index",
    yaml:
      "processors:\n  - date:\n      field: t\n      formats: ['%Y-%m-%d %H:%M:%S']\n      timezone: Asia/Shanghai\n" +
      "transform:\n  - field: t\n    type: time, s\n    index: timestamp\n",
    body: JSON.stringify({ t: "2024-05-25 20:16:37" }),
    select: "SELECT t FROM {t}",
    rows: [[1716639397]],
    created: { "{t}": ['"t" TIMESTAMP(0) NOT NULL', 'TIME INDEX ("t")'] },
  },
  {
    name: "decolorize",
    yaml: v1("  - decolorize:\n      field: m", "  - field: m\n    type: string"),
    body: json({ m: "\x1b[32mSuccess\x1b[0m and \x1b[31mError\x1b[0m" }),
    select: "SELECT m FROM {t}",
    rows: [["Success and Error"]],
  },
  {
    name: "digest: ip preset into m_digest",
    yaml: v1(
      "  - digest:\n      field: m\n      presets: [ip]",
      "  - fields: [m, m_digest]\n    type: string",
    ),
    body: json({ m: "hello 192.168.1.1 world" }),
    select: "SELECT m, m_digest FROM {t}",
    rows: [["hello 192.168.1.1 world", "hello  world"]],
  },
  {
    name: "dissect + date over text/plain lines (message field)",
    yaml:
      "processors:\n  - dissect:\n      fields: [message]\n      patterns: ['%{+ts} %{+ts} %{level} %{msg}']\n" +
      "  - date:\n      field: ts\n      formats: ['%Y-%m-%d %H:%M:%S%.3f']\n" +
      "transform:\n  - fields: [level, msg]\n    type: string\n  - field: ts\n    type: time\n    index: timestamp\n",
    contentType: "text/plain",
    body: "2024-05-25 20:16:37.217 INFO hello world\r\n\n2024-05-25 20:16:38.000 WARN second one\n",
    select: "SELECT ts, level, msg FROM {t} ORDER BY ts",
    rows: [[1716668197217000000, "INFO", "hello world"], [1716668198000000000, "WARN", "second one"]],
    reply: { output: [{ affectedrows: 2 }] },
  },
  {
    name: "epoch: string ms into the time index",
    yaml: "processors:\n  - epoch:\n      field: e\n      resolution: ms\n" +
      "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    body: JSON.stringify({ e: "1716668197217" }),
    select: "SELECT e FROM {t}",
    rows: [[TS]],
  },
  {
    // serde_json keeps i64 integers exact; a JS double would round this nanosecond epoch.
    name: "epoch: a nanosecond JSON number above 2^53 stays exact, in json_parse output too",
    yaml:
      "processors:\n  - json_parse:\n      field: j\n  - simple_extract:\n      field: j, n\n      key: n\n" +
      "  - epoch:\n      field: e\n      resolution: ns\n" +
      "transform:\n  - field: n\n    type: int64\n  - field: e\n    type: epoch, ns\n    index: timestamp\n",
    body: '[{"e": 1716668197217123457, "j": "{\\"n\\": -9007199254740993}"}]',
    select: "SELECT CAST(CAST(e AS BIGINT) AS STRING), CAST(n AS STRING) FROM {t}",
    rows: [["1716668197217123457", "-9007199254740993"]],
  },
  {
    name: "filter: matching entries dropped, not counted as skipped",
    yaml: v1("  - filter:\n      field: level\n      targets: [debug]", "  - field: level\n    type: string"),
    body: json({ level: "DEBUG" }, { level: "info" }),
    reply: { output: [{ affectedrows: 1 }] },
    select: "SELECT level FROM {t}",
    rows: [["info"]],
  },
  {
    name: "gsub",
    yaml: v1(
      "  - gsub:\n      field: m\n      pattern: '-'\n      replacement: '_'",
      "  - field: m\n    type: string",
    ),
    body: json({ m: "a-b-c" }),
    select: "SELECT m FROM {t}",
    rows: [["a_b_c"]],
  },
  {
    name: "join",
    yaml: v1("  - join:\n      field: arr, s\n      separator: ','", "  - field: s\n    type: string"),
    body: json({ arr: ["a", "b", "c"] }),
    select: "SELECT s FROM {t}",
    rows: [["a,b,c"]],
  },
  {
    name: "json_parse + simple_extract",
    yaml: v1(
      "  - json_parse:\n      field: j, o\n  - simple_extract:\n      field: o, k\n      key: 'a.b'",
      "  - field: k\n    type: int32",
    ),
    body: json({ j: '{"a":{"b":42}}' }),
    select: "SELECT k FROM {t}",
    rows: [[42]],
  },
  {
    name: "json_path with result_index",
    yaml: v1(
      "  - json_path:\n      field: o, v\n      json_path: '$.items[*].n'\n      result_index: 1",
      "  - field: v\n    type: int64",
    ),
    body: json({ o: { items: [{ n: 1 }, { n: 2 }] } }),
    select: "SELECT v FROM {t}",
    rows: [[2]],
  },
  {
    // found by the body fuzzer: JSON.stringify threw on the bigint (500)
    name: "json_path filter over a document holding an integer past 2^53",
    yaml: v1(
      "  - json_path:\n      field: o, v\n      json_path: '$.items[?(@.n == 1)].m'\n      result_index: 0",
      "  - field: v\n    type: string",
    ),
    body: `{"ts":${TS},"o":{"items":[{"n":9223372036854775807,"m":"big"},{"n":1,"m":"one"}]}}`,
    select: "SELECT v FROM {t}",
    rows: [["one"]],
  },
  {
    name: "letter: ASCII-only case mapping",
    yaml: v1("  - letter:\n      field: a, up\n      method: upper", "  - field: up\n    type: string"),
    body: json({ a: "héllo" }),
    select: "SELECT up FROM {t}",
    rows: [["HéLLO"]],
  },
  {
    name: "regex: named groups prefixed by the field",
    yaml: v1(
      "  - regex:\n      field: m\n      pattern: '(?<level>\\w+)=(?<num>\\d+)'",
      "  - field: m_level\n    type: string\n  - field: m_num\n    type: uint32",
    ),
    body: json({ m: "warn=42" }),
    select: "SELECT m_level, m_num FROM {t}",
    rows: [["warn", 42]],
  },
  {
    name: "select include (v2 remainder keeps only the selected keys)",
    yaml: "version: 2\nprocessors:\n  - select:\n      fields: [a, ts]\n" +
      "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    body: json({ a: 1, b: 2 }),
    select: "SELECT a FROM {t}",
    rows: [[1]],
    notCreated: { "{t}": ['"b"'] },
  },
  {
    name: "urlencoding decode",
    yaml: v1("  - urlencoding:\n      field: u\n      method: decode", "  - field: u\n    type: string"),
    body: json({ u: "a%20b%2Fc" }),
    select: "SELECT u FROM {t}",
    rows: [["a b/c"]],
  },

  // ---- documents and transforms
  {
    name: "v1: only transformed keys become columns; types, tag and indexes in the DDL",
    yaml: v1(
      "  - letter:\n      field: s\n      method: lower",
      "  - field: i8\n    type: int8\n  - field: u64\n    type: uint64\n  - field: f\n    type: float32\n" +
        "  - field: b\n    type: boolean\n  - field: s\n    type: string\n    index: fulltext\n" +
        "  - field: host\n    type: string\n    tag: true\n  - field: k\n    type: string\n    index: skipping\n" +
        "  - field: inv\n    type: int32\n    index: inverted",
    ),
    body: json({
      i8: "-5",
      u64: 7,
      f: 1.5,
      b: "true",
      s: "ABC",
      host: "h1",
      k: "x",
      inv: 3,
      extra: "dropped",
    }),
    select: "SELECT i8, u64, f, b, s, host, k, inv FROM {t}",
    rows: [[-5, 7, 1.5, true, "abc", "h1", "x", 3]],
    created: {
      "{t}": [
        '"i8" TINYINT NULL',
        '"u64" BIGINT UNSIGNED NULL',
        '"f" FLOAT NULL',
        '"b" BOOLEAN NULL',
        '"s" STRING NULL',
        '"k" STRING NULL',
        '"inv" INT NULL',
        '"ts" TIMESTAMP(3) NOT NULL',
        'PRIMARY KEY ("host")',
        "append_mode = 'true'",
      ],
    },
    notCreated: { "{t}": ['"extra"'] },
  },
  {
    name: "every transform type name and its column type",
    yaml: "processors: []\ntransform:\n" +
      [
        ["a", "int8"],
        ["b", "int16"],
        ["c", "int32"],
        ["d", "int64"],
        ["e", "uint8"],
        ["f", "uint16"],
        ["g", "uint32"],
        ["h", "uint64"],
        ["i", "float32"],
        ["j", "float64"],
        ["k", "boolean"],
        ["l", "string"],
        ["m", "json"],
        ["n", "epoch, s"],
        ["o", "timestamp, us"],
        ["p", "Epoch"],
      ].map(([f, type]) => `  - field: ${f}\n    type: ${type}\n`).join("") +
      "  - field: ts\n    type: time, ms\n    index: timestamp\n",
    body: json({
      a: 1,
      b: 2,
      c: 3,
      d: 4,
      e: 5,
      f: 6,
      g: 7,
      h: 8,
      i: 0.5,
      j: 0.25,
      k: 1,
      l: 12,
      m: { x: [1] },
      n: 10,
      o: 11,
      p: 12,
    }),
    select: "SELECT a, b, c, d, e, f, g, h, i, j, k, l, n, o, p FROM {t}",
    rows: [[1, 2, 3, 4, 5, 6, 7, 8, 0.5, 0.25, true, "12", 10, 11, 12]],
    created: {
      "{t}": [
        '"a" TINYINT NULL',
        '"b" SMALLINT NULL',
        '"c" INT NULL',
        '"d" BIGINT NULL',
        '"e" TINYINT UNSIGNED NULL',
        '"f" SMALLINT UNSIGNED NULL',
        '"g" INT UNSIGNED NULL',
        '"h" BIGINT UNSIGNED NULL',
        '"i" FLOAT NULL',
        '"j" DOUBLE NULL',
        '"k" BOOLEAN NULL',
        '"l" STRING NULL',
        '"m" JSON NULL',
        '"n" TIMESTAMP(0) NULL',
        '"o" TIMESTAMP(6) NULL',
        '"p" TIMESTAMP(9) NULL',
        '"ts" TIMESTAMP(3) NOT NULL',
      ],
    },
  },
  {
    name: "v2: transformed columns first, the rest auto-typed",
    yaml:
      "version: 2\nprocessors: []\ntransform:\n  - field: id\n    type: int32\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    body: json({ id: "7", n: 1, x: 2.5, ok: false, s: "str", nothing: null }),
    select: "SELECT id, n, x, ok, s FROM {t}",
    rows: [[7, 1, 2.5, false, "str"]],
    created: {
      "{t}": ['"id" INT NULL', '"n" BIGINT NULL', '"x" DOUBLE NULL', '"ok" BOOLEAN NULL', '"s" STRING NULL'],
    },
    notCreated: { "{t}": ['"nothing"'] },
  },
  {
    name: "v2 without a transform: auto transform from the one date processor",
    yaml: "version: 2\nprocessors:\n  - date:\n      field: time\n      formats: ['%Y-%m-%dT%H:%M:%S%z']\n",
    body: JSON.stringify({ time: "2024-05-25T20:16:37+0000", v: 1 }),
    select: "SELECT time, v FROM {t}",
    rows: [[1716668197000000000, 1]],
    created: { "{t}": ['"time" TIMESTAMP(9) NOT NULL', 'TIME INDEX ("time")'] },
  },
  {
    name: "transform on_failure ignore → null, default → the default value",
    yaml: v1(
      "  - letter:\n      field: a\n      method: lower",
      "  - field: a\n    type: int32\n    on_failure: ignore\n  - field: b\n    type: int32\n    default: 9",
    ),
    body: json({ a: "x", b: "y" }),
    select: "SELECT a, b FROM {t}",
    rows: [[null, 9]],
  },
  {
    name: "transform coercion failure aborts the request (400, nothing written)",
    yaml: v1("  - letter:\n      field: a\n      method: lower", "  - field: a\n    type: int32"),
    body: json({ a: "1" }, { a: "x" }),
    status: 400,
    error: "Failed to coerce string value 'x' to type 'INT32'",
    absent: ["{t}"],
  },
  {
    name: "transform out of range integer",
    yaml: v1("  - letter:\n      field: a\n      method: lower", "  - field: n\n    type: int8"),
    body: json({ a: "x", n: 300 }),
    status: 400,
    error: "integer value `300` is out of range for INT8",
  },
  {
    name: "missing time index value",
    yaml: v1("  - letter:\n      field: a\n      method: lower", "  - field: a\n    type: string"),
    body: JSON.stringify({ a: "x" }),
    status: 400,
    error: "Time index must be non null.",
  },

  // ---- identity
  {
    name: "identity: flattening, arrays as JSON, auto-typing, greptime_timestamp",
    pipelineName: "greptime_identity",
    body: JSON.stringify({ a: { b: { c: 1 } }, arr: [1, { z: 1, a: 2 }], s: "x", f: 1.5, empty: {} }),
    select: 'SELECT "a.b.c", arr, s, f FROM {t}',
    rows: [[1, '[1,{"a":2,"z":1}]', "x", 1.5]],
    created: {
      "{t}": ['"greptime_timestamp" TIMESTAMP(9) NOT NULL', '"a.b.c" BIGINT NULL', '"arr" STRING NULL'],
    },
    notCreated: { "{t}": ['"empty"'] },
  },
  {
    name: "identity: integers beyond 2^53 stay exact (NDJSON); beyond i64 they are floats",
    pipelineName: "greptime_identity",
    contentType: "application/x-ndjson",
    body: '{"big": 9223372036854775807, "f": 1e30}\n{"big": 1716668197217123457, "f": 18446744073709551615}',
    select: "SELECT CAST(big AS STRING), f FROM {t} ORDER BY big",
    rows: [["1716668197217123457", 18446744073709552000], ["9223372036854775807", 1e30]],
    created: { "{t}": ['"big" BIGINT NULL', '"f" DOUBLE NULL'] },
  },
  {
    name: "identity: max_nested_levels from x-greptime-pipeline-params",
    pipelineName: "greptime_identity",
    headers: { "x-greptime-pipeline-params": "max_nested_levels=2" },
    body: JSON.stringify({ a: { b: { c: 1 } } }),
    select: 'SELECT "a.b" FROM {t}',
    rows: [['{"c":1}']],
  },
  {
    name: "identity: custom_time_index epoch",
    pipelineName: "greptime_identity",
    query: { custom_time_index: "at;epoch;ms" },
    body: JSON.stringify({ at: TS, v: "x" }),
    select: "SELECT at, v FROM {t}",
    rows: [[TS, "x"]],
    created: { "{t}": ['"at" TIMESTAMP(3) NOT NULL', 'TIME INDEX ("at")'] },
    notCreated: { "{t}": ["greptime_timestamp"] },
  },
  {
    name: "identity: custom_time_index datestr",
    pipelineName: "greptime_identity",
    query: { custom_time_index: "at;datestr;%Y-%m-%d %H:%M:%S%z" },
    body: JSON.stringify({ at: "2024-05-25 20:16:37+0000" }),
    select: "SELECT at FROM {t}",
    rows: [[1716668197000000000]],
  },
  {
    name: "identity: bad custom_time_index config",
    pipelineName: "greptime_identity",
    query: { custom_time_index: "at;epoch" },
    body: JSON.stringify({ at: 1 }),
    status: 400,
    error: "Invalid custom time index config: at;epoch",
  },
  {
    name: "identity: a bad custom time index value → 400 Failed to cast type (GreptimeDB: 500)",
    pipelineName: "greptime_identity",
    query: { custom_time_index: "at;epoch;ms" },
    body: JSON.stringify({ at: "soon", v: 1 }),
    status: 400,
    error: "Failed to cast type",
    absent: ["{t}"],
  },
  {
    name: "identity: ignore_errors=true uses the current time for a bad custom time index value",
    pipelineName: "greptime_identity",
    query: { custom_time_index: "at;epoch;ms", ignore_errors: "true" },
    body: JSON.stringify({ at: "soon", v: 1 }),
    select: "SELECT v FROM {t} WHERE at > 1700000000000",
    rows: [[1]],
  },
  {
    name: "identity: greptime_table_suffix ignored, other hints still options",
    pipelineName: "greptime_identity",
    body: JSON.stringify({ v: 1, greptime_table_suffix: "_x", greptime_ttl: "7d" }),
    select: "SELECT v FROM {t}",
    rows: [[1]],
    created: { "{t}": ["ttl = '7days'"] },
    absent: ["{t}_x"],
  },

  // ---- dispatcher and table_suffix
  {
    name: "dispatcher: rule with a pipeline, rule to identity, no match stays",
    others: {
      child_http: v1(
        "  - letter:\n      field: path\n      method: upper",
        "  - field: path\n    type: string",
      ),
    },
    yaml: "processors:\n  - letter:\n      field: kind\n      method: lower\n" +
      "dispatcher:\n  field: kind\n  rules:\n    - value: http\n      table_suffix: _http\n      pipeline: child_http\n" +
      "    - value: db\n      table_suffix: _db\n" +
      "transform:\n  - field: kind\n    type: string\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    body: json({ kind: "HTTP", path: "/a" }, { kind: "db", q: "select 1" }, { kind: "other" }),
    reply: { output: [{ affectedrows: 1 }, { affectedrows: 1 }, { affectedrows: 1 }] },
    select: "SELECT kind FROM {t}",
    rows: [["other"]],
    created: {
      "{t}_http": ['"path" STRING NULL'],
      "{t}_db": ['"greptime_timestamp" TIMESTAMP(9) NOT NULL', '"q" STRING NULL', '"kind" STRING NULL'],
    },
  },
  {
    name: "dispatcher: the child inherits skip_error",
    others: {
      child_epoch: "version: 2\nprocessors:\n  - epoch:\n      field: e\n" +
        "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    },
    yaml:
      "processors: []\ndispatcher:\n  field: kind\n  rules:\n    - value: e\n      table_suffix: _e\n      pipeline: child_epoch\n" +
      "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    query: { skip_error: "true" },
    body: JSON.stringify([{ kind: "e", e: "bad" }, { kind: "e", e: TS }]),
    reply: { output: [{ affectedrows: 1 }], skipped: 1 },
    created: { "{t}_e": ['"e" TIMESTAMP(3) NOT NULL'] },
    absent: ["{t}"],
  },
  {
    name: "dispatcher: rule naming a missing pipeline → 400",
    yaml:
      "processors: []\ndispatcher:\n  field: kind\n  rules:\n    - value: x\n      table_suffix: _x\n      pipeline: not_found\n" +
      "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    body: json({ kind: "x" }),
    status: 400,
    error: "Pipeline not found, name: not_found, version: latest",
  },
  {
    name: "table_suffix template: strings and integers; missing key → base table",
    yaml: "version: 2\nprocessors: []\ntable_suffix: _${region}_${n}\n" +
      "transform:\n  - field: ts\n    type: epoch, ms\n    index: timestamp\n",
    body: json({ region: "eu", n: 1 }, { region: "us", n: 2 }, { region: "us" }),
    select: "SELECT region FROM {t}",
    rows: [["us"]],
    created: { "{t}_eu_1": ['"region" STRING NULL'], "{t}_us_2": ['"n" BIGINT NULL'] },
  },

  // ---- special variables → table options, several tables from one request
  {
    name: "special variables (greptime_* and svc_*) become per-table options",
    yaml: V2_AUTO,
    body: json(
      { v: 1 },
      { v: 2, greptime_table_suffix: "_a", greptime_ttl: "1d", greptime_skip_wal: "true" },
      { v: 3, svc_table_suffix: "_b", svc_append_mode: "false", svc_merge_mode: "last_non_null" },
      {
        v: 4,
        greptime_table_suffix: "_c",
        greptime_physical_table: "phy",
        greptime_auto_create_table: "true",
      },
      { v: 5, greptime_table_suffix: "_d", greptime_append_mode: "false" },
      { v: 6, svc_table_suffix: "_e", svc_ttl: "2h", svc_skip_wal: false },
    ),
    reply: { output: [1, 1, 1, 1, 1, 1].map((n) => ({ affectedrows: n })) },
    select: "SELECT v FROM {t}",
    rows: [[1]],
    created: {
      "{t}": ["append_mode = 'true'", "'comment' = 'Created on insertion'"],
      "{t}_a": ["ttl = '1day'", "skip_wal = 'true'", "append_mode = 'true'"],
      "{t}_b": ["append_mode = 'false'", "merge_mode = 'last_non_null'"],
      "{t}_c": ["physical_table = 'phy'", "append_mode = 'true'"],
      "{t}_d": ["append_mode = 'false'"],
      "{t}_e": ["ttl = '2h'", "skip_wal = 'false'"],
    },
    notCreated: {
      "{t}": ["ttl", "skip_wal", "greptime_", "svc_"],
      "{t}_a": ["greptime_", "svc_"],
      "{t}_b": ["greptime_", "svc_"],
      "{t}_d": ["merge_mode"],
    },
  },
  {
    name: "append_mode=false takes effect: rows with the same key are deduplicated",
    yaml: V2_AUTO,
    body: json({ v: 1, greptime_append_mode: "false" }, { v: 2, greptime_append_mode: "false" }),
    select: "SELECT v FROM {t}",
    rows: [[2]],
  },
  {
    name: "merge_mode=last_non_null: a null field keeps the earlier value",
    yaml: V2_AUTO,
    body: json({ a: 1, b: "x", greptime_merge_mode: "last_non_null" }, {
      a: 2,
      greptime_merge_mode: "last_non_null",
    }),
    select: "SELECT a, b FROM {t}",
    rows: [[2, "x"]],
  },
  {
    name: "auto_create_table=false refuses a missing table",
    yaml: V2_AUTO,
    body: json({ v: 1, greptime_auto_create_table: "false" }),
    status: 400,
    error: "does not exist, and `auto_create_table` hint is disabled",
    absent: ["{t}"],
  },
  {
    name: "auto_create_table=false writes to a table that exists",
    yaml: V2_AUTO,
    before: json({ v: 1 }),
    body: json({ ts: TS + 1, v: 2, greptime_auto_create_table: "false" }),
    select: "SELECT v FROM {t} ORDER BY ts",
    rows: [[1], [2]],
  },
  {
    name: "auto_create_table must be a boolean",
    yaml: V2_AUTO,
    body: json({ v: 1, greptime_auto_create_table: "maybe" }),
    status: 400,
    error: "`auto_create_table` hint must be a boolean",
  },

  // ---- content types
  {
    name: "application/json: a stream of objects and arrays",
    yaml: V2_AUTO,
    body: `{"ts":${TS},"v":1}\n[{"ts":${TS + 1},"v":2},{"ts":${TS + 2},"v":3}] {"ts":${TS + 3},"v":4}`,
    select: "SELECT v FROM {t} ORDER BY ts",
    rows: [[1], [2], [3], [4]],
  },
  {
    name: "application/json with charset",
    yaml: V2_AUTO,
    contentType: "application/json; charset=utf-8",
    body: json({ v: 1 }),
    select: "SELECT v FROM {t}",
    rows: [[1]],
  },
  {
    name: "application/json: a scalar is refused",
    yaml: V2_AUTO,
    body: "42",
    status: 400,
    error: "json format error, please check the date is valid JSON.",
  },
  {
    name: "application/json: a syntax error",
    yaml: V2_AUTO,
    body: `{"ts":1} {"v":`,
    status: 400,
    error: "Failed to parse payload as json",
    absent: ["{t}"],
  },
  {
    name: "application/x-ndjson: one value per line, blank lines skipped",
    yaml: V2_AUTO,
    contentType: "application/x-ndjson",
    body: `{"ts":${TS},"v":1}\n\n{"ts":${TS + 1},"v":2}\n`,
    select: "SELECT v FROM {t} ORDER BY ts",
    rows: [[1], [2]],
  },
  {
    name: "application/x-ndjson: a bad line is named",
    yaml: V2_AUTO,
    contentType: "application/x-ndjson",
    body: `{"ts":${TS},"v":1}\n{"ts":\n`,
    status: 400,
    error: "invalid JSON at index: 1",
    absent: ["{t}"],
  },
  {
    name: "application/x-ndjson: ignore_errors keeps the good lines",
    yaml: V2_AUTO,
    contentType: "application/x-ndjson",
    query: { ignore_errors: "true" },
    body: `{"ts":${TS},"v":1}\nnot json\n{"ts":${TS + 1},"v":2}`,
    select: "SELECT v FROM {t} ORDER BY ts",
    rows: [[1], [2]],
  },
  {
    name: "unsupported content type → 400 listing the accepted ones",
    yaml: V2_AUTO,
    contentType: "application/xml",
    body: "<a/>",
    status: 400,
    error:
      "Invalid request parameter: invalid content type: application/xml, expected: one of application/json, application/x-ndjson, text/plain",
  },
  {
    name: "missing content type → 400",
    yaml: V2_AUTO,
    contentType: null,
    body: json({ v: 1 }),
    status: 400,
    error: "content-type",
  },

  // ---- skip_error
  {
    name: "skip_error=false (default): one bad entry fails all, across tables, nothing written",
    yaml: "version: 2\nprocessors:\n  - epoch:\n      field: e\n" +
      "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    body: JSON.stringify([{ e: TS, greptime_table_suffix: "_s" }, { e: "nope" }, { e: TS + 1 }]),
    status: 400,
    error: "Failed to parse nope to int",
    absent: ["{t}", "{t}_s"],
  },
  {
    name: "skip_error=true in the query: bad entries skipped and counted",
    yaml: "version: 2\nprocessors:\n  - epoch:\n      field: e\n" +
      "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    query: { skip_error: "true" },
    body: JSON.stringify([{ e: TS, v: 1 }, { e: "nope", v: 2 }, "not an object", { e: TS + 1, v: 3 }]),
    reply: { output: [{ affectedrows: 2 }], skipped: 2 },
    select: "SELECT v FROM {t} ORDER BY e",
    rows: [[1], [3]],
  },
  {
    name: "skip_error in x-greptime-pipeline-params overrides the query",
    yaml: "version: 2\nprocessors:\n  - epoch:\n      field: e\n" +
      "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    query: { skip_error: "false" },
    headers: { "x-greptime-pipeline-params": "skip_error=YES" },
    body: JSON.stringify([{ e: "bad" }, { e: TS, v: 1 }]),
    reply: { output: [{ affectedrows: 1 }], skipped: 1 },
    select: "SELECT v FROM {t}",
    rows: [[1]],
  },
  {
    name: "skip_error=true with every entry bad: nothing written, no output key",
    yaml: "version: 2\nprocessors:\n  - epoch:\n      field: e\n" +
      "transform:\n  - field: e\n    type: epoch, ms\n    index: timestamp\n",
    query: { skip_error: "1" },
    body: JSON.stringify([{ e: "bad" }]),
    reply: { output: undefined, skipped: 1 },
    absent: ["{t}"],
  },
  {
    name: "type conflict inside one request",
    yaml: V2_AUTO,
    body: json({ v: 1 }, { v: "text" }),
    status: 400,
    error: "Column datatype mismatch. For column: v, expected datatype: Int64, actual datatype: String",
    absent: ["{t}"],
  },
  {
    name: "skip_error does not skip write-stage errors (type conflict with the existing table)",
    yaml: V2_AUTO,
    before: json({ v: 1 }),
    query: { skip_error: "true" },
    body: json({ ts: TS + 1, v: "text" }),
    status: 400,
    error: "",
    select: "SELECT v FROM {t}",
    rows: [[1]],
  },

  // ---- request parameters (§12.7)
  {
    name: "missing table → 400",
    yaml: V2_AUTO,
    query: { table: "" },
    body: json({ v: 1 }),
    status: 400,
    error: "Invalid request parameter: table is required",
  },
  {
    name: "missing pipeline_name → 400",
    query: { pipeline_name: "" },
    body: json({ v: 1 }),
    status: 400,
    error: "Invalid request parameter: pipeline_name is required",
  },
  {
    name: "unknown pipeline → 400",
    pipelineName: "no_such_pipeline",
    body: json({ v: 1 }),
    status: 400,
    error: "Pipeline not found, name: no_such_pipeline, version: latest",
  },
  {
    name: "greptime_trace_v1 is not an ingest pipeline",
    pipelineName: "greptime_trace_v1",
    body: json({ v: 1 }),
    status: 400,
    error: "Pipeline not found, name: greptime_trace_v1, version: latest",
  },
  {
    name: "bad version format → 400",
    yaml: V2_AUTO,
    query: { version: "yesterday" },
    body: json({ v: 1 }),
    status: 400,
    error: "Invalid pipeline version format: yesterday",
  },
  {
    name: "x-greptime-pipeline-name header wins over the query",
    yaml: V2_AUTO,
    query: { pipeline_name: "no_such_pipeline" },
    headers: { "x-greptime-pipeline-name": "{p}" },
    body: json({ v: 1 }),
    select: "SELECT v FROM {t}",
    rows: [[1]],
  },
  {
    name: "deprecated x-greptime-log-pipeline-name header; a blank new header is ignored",
    yaml: V2_AUTO,
    query: { pipeline_name: "" },
    headers: { "x-greptime-pipeline-name": "  ", "x-greptime-log-pipeline-name": "{p}" },
    body: json({ v: 1 }),
    select: "SELECT v FROM {t}",
    rows: [[1]],
  },
  {
    name: "an empty body writes and creates nothing; no output key",
    yaml: V2_AUTO,
    body: "[]",
    reply: { output: undefined },
    absent: ["{t}"],
  },
  {
    name: "unknown database → 400",
    yaml: V2_AUTO,
    query: { db: "no_such_db" },
    body: json({ v: 1 }),
    status: 400,
    error: "Database not found: no_such_db",
  },
  {
    name: "a non-object entry without skip_error: 400 Top level value must be map (GreptimeDB: 500)",
    pipelineName: "greptime_identity",
    body: '[1, {"a": 1}]',
    status: 400,
    error: "Top level value must be map",
    absent: ["{t}"],
  },
  {
    name: "existing table: new keys added as columns, earlier columns null",
    yaml: V2_AUTO,
    body: json({ a: 1 }) + "\n" + json({ ts: TS + 1, b: "x" }),
    select: "SELECT a, b FROM {t} ORDER BY ts",
    rows: [[1, null], [null, "x"]],
  },
];

const fill = (s: string, t: string, p: string) => s.replaceAll("{t}", t).replaceAll("{p}", p);

Deno.test("POST /v1/ingest cases", async (tc) => {
  const server = await startTestServer();
  const client = new PipelineClient(server.url);
  try {
    for (const [i, c] of CASES.entries()) {
      await tc.step({
        name: c.name,
        ignore: c.knownBug !== undefined,
        fn: async () => {
          const t = `t${i}`;
          const p = c.yaml ? `p${i}` : c.pipelineName ?? "";
          for (const [name, yaml] of Object.entries(c.others ?? {})) await client.uploadOk(name, yaml);
          if (c.yaml) await client.uploadOk(p, c.yaml);
          const query: Record<string, string> = { table: t, pipeline_name: p };
          for (const [k, v] of Object.entries(c.query ?? {})) query[k] = fill(v, t, p);
          for (const k of Object.keys(query)) if (query[k] === "") delete query[k];
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(c.headers ?? {})) headers[k] = fill(v, t, p);
          const contentType = c.contentType === undefined ? "application/json" : c.contentType;
          if (c.before !== undefined) {
            const b = await client.ingest({ table: t, pipeline_name: p }, c.before);
            assert.equal(b.status, 200, b.text);
          }
          const r = await client.ingest(query, c.body, contentType, headers);
          assert.equal(r.status, c.status ?? 200, r.text);
          if (c.error !== undefined) assert.ok(errorOf(r).includes(c.error), `error ${r.text}`);
          for (const [k, v] of Object.entries(c.reply ?? {})) {
            assert.deepEqual((r.body as Record<string, unknown>)[k], v, `reply.${k} in ${r.text}`);
          }
          if (c.select) assert.deepEqual(await client.sql(fill(c.select, t, p)), c.rows);
          for (const [table, parts] of Object.entries(c.created ?? {})) {
            const ddl = await client.showCreate(fill(table, t, p));
            for (const part of parts) assert.ok(ddl.includes(fill(part, t, p)), `${part} not in\n${ddl}`);
          }
          for (const [table, parts] of Object.entries(c.notCreated ?? {})) {
            const ddl = await client.showCreate(fill(table, t, p));
            for (const part of parts) assert.ok(!ddl.includes(fill(part, t, p)), `${part} in\n${ddl}`);
          }
          if (c.absent) {
            const tables = await client.tables();
            for (const table of c.absent) assert.ok(!tables.includes(fill(table, t, p)), `${table} exists`);
          }
        },
      });
    }
  } finally {
    await server.stop();
  }
});

Deno.test("POST /v1/ingest: a gzip Content-Encoding body", async () => {
  const server = await startTestServer();
  const client = new PipelineClient(server.url);
  try {
    const { gzipSync } = await import("node:zlib");
    const body = new Uint8Array(gzipSync(new TextEncoder().encode("line one\nline two\n")));
    const r = await client.request("POST", "/v1/ingest?table=gz&pipeline_name=greptime_identity", body, {
      "content-type": "text/plain",
      "content-encoding": "gzip",
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await client.sql("SELECT message FROM gz ORDER BY message"), [["line one"], [
      "line two",
    ]]);
  } finally {
    await server.stop();
  }
});
