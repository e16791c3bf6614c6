import { httpStatusOf } from "../../src/http/render_error.ts";
import assert from "node:assert/strict";
import { parseLineProtocol, precisionToNanos } from "../../src/protocols/lineproto/parser.ts";
import { PetrelError } from "../../src/common/errors.ts";
import {
  crashLineProtocolWorker,
  lineProtocolWorkerReady,
  parseLineProtocolBody,
  reviveLineProtocolWorker,
  setLineProtocolWorkerMinBytes,
  stopLineProtocolWorker,
} from "../../src/protocols/lineproto/stream/pool.ts";
import type { Value, WriteBatch } from "../../src/common/rows.ts";
import { plainBatch } from "../helpers/batches.ts";

const NOW = 1_700_000_000_123_456_789n;
const TS = "greptime_timestamp TIMESTAMP TimestampNanosecond";

/** A batch as `[table, ["name SEMANTIC Type", ...], rows]`, compact enough for a table of cases. */
type Shape = [string, string[], Value[][]];

function shape(batches: WriteBatch[]): Shape[] {
  return batches.map((b) => {
    assert.equal(b.createType, "last_non_null");
    for (const r of b.rows) assert.equal(r.length, b.columns.length);
    return [b.table, b.columns.map((c) => `${c.name} ${c.semantic} ${c.type}`), b.rows];
  });
}

interface Case {
  name: string;
  body: string;
  precision?: string;
  want?: Shape[];
  /** Expected error message, after the common prefix. */
  error?: string;
}

const P = "Failed to parse InfluxDB line protocol: ";

const cases: Case[] = [
  {
    name: "tags, float field, timestamp",
    body: "cpu,host=a,region=eu usage=1.5 1700000000000000000",
    want: [["cpu", ["host TAG String", "region TAG String", "usage FIELD Float64", TS], [[
      "a",
      "eu",
      1.5,
      1700000000000000000n,
    ]]]],
  },
  {
    name: "every field type; plain integer is a float",
    body: 'm f=1,i=-2i,u=3u,s="x y",b=t,n=1024 1',
    want: [["m", [
      "f FIELD Float64",
      "i FIELD Int64",
      "u FIELD UInt64",
      "s FIELD String",
      "b FIELD Boolean",
      "n FIELD Float64",
      TS,
    ], [[1, -2, 3, "x y", true, 1024, 1n]]]],
  },
  {
    name: "booleans in every spelling",
    body: "m a=t,b=T,c=true,d=True,e=TRUE,f=f,g=F,h=false,i=False,j=FALSE 1",
    want: [["m", "abcdefghij".split("").map((k) => `${k} FIELD Boolean`).concat(TS), [[
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      1n,
    ]]]],
  },
  {
    name: "missing timestamp is now",
    body: "m v=1",
    want: [["m", ["v FIELD Float64", TS], [[1, NOW]]]],
  },
  {
    name: "comments, blank lines, CRLF, leading and trailing whitespace",
    body: "# header\n\n  m v=1 5  \r\n\t# indented comment\r\n\nm v=2 6\n",
    want: [["m", ["v FIELD Float64", TS], [[1, 5n], [2, 6n]]]],
  },
  {
    name: "escapes in measurement, tag keys/values and field keys",
    body: "my\\ meas\\,ure,ta\\ g\\=k=v\\,a\\ l\\=ue fi\\,el\\=d\\ k=1 1",
    want: [["my meas,ure", ["ta g=k TAG String", "fi,el=d k FIELD Float64", TS], [["v,a l=ue", 1, 1n]]]],
  },
  {
    name: "measurement keeps '=' and escaped-equals literally; other backslashes stay",
    body: "a=b\\=c,t=x\\y v=1 1",
    want: [["a=b\\=c", ["t TAG String", "v FIELD Float64", TS], [["x\\y", 1, 1n]]]],
  },
  {
    name: "quoted strings: escaped quote and backslash, commas, spaces, '=' and newlines inside",
    body: 'm s="a \\"q\\" \\\\ b,c=d e",t="line1\nline2" 1\nm s="" 2',
    want: [["m", ["s FIELD String", "t FIELD String", TS], [['a "q" \\ b,c=d e', "line1\nline2", 1n], [
      "",
      null,
      2n,
    ]]]],
  },
  {
    name: "float syntax: exponent, leading dot, sign",
    body: "m a=1e3,b=-1.5E-2,c=.5,d=+2,e=1.,f=-0 1",
    want: [["m", "abcdef".split("").map((k) => `${k} FIELD Float64`).concat(TS), [[
      1000,
      -0.015,
      0.5,
      2,
      1,
      -0,
      1n,
    ]]]],
  },
  {
    name: "floats past 15 digits round as Number() does",
    body:
      "m a=1.7142857142857142,b=-0.30000000000000004,c=12345678901234567890,d=1234567890123456.5e2,e=.1234567890123456789 1",
    want: [["m", "abcde".split("").map((k) => `${k} FIELD Float64`).concat(TS), [[
      1.7142857142857142,
      -0.30000000000000004,
      12345678901234567890,
      123456789012345650,
      0.1234567890123456789,
      1n,
    ]]]],
  },
  {
    name: "long floats that are not floats",
    body: "m a=1234567890123456.7.8 1",
    error: "Unable to parse floating-point value '1234567890123456.7.8'",
  },
  {
    name: "series prefixes found by search: no space on a later line, spaces only inside strings",
    body: 'a,t=1 s="x y" 1\nb,t=2 s="p q"\nc,t=3\nd v=1',
    error: "line 3 (1-based): No fields were provided",
  },
  {
    name: "escaped space in one series prefix, plain ones around it",
    body: "a,t=1 v=1 1\nb\\ c,t=x\\ y v=2 2\nd v=3 3",
    want: [
      ["a", ["t TAG String", "v FIELD Float64", TS], [["1", 1, 1n]]],
      ["b c", ["t TAG String", "v FIELD Float64", TS], [["x y", 2, 2n]]],
      ["d", ["v FIELD Float64", TS], [[3, 3n]]],
    ],
  },
  {
    name: "integers at the 64-bit limits become bigint",
    body: "m a=9223372036854775807i,b=-9223372036854775808i,c=18446744073709551615u,d=9007199254740991i 1",
    want: [[
      "m",
      ["a FIELD Int64", "b FIELD Int64", "c FIELD UInt64", "d FIELD Int64", TS],
      [[
        9223372036854775807n,
        -9223372036854775808n,
        18446744073709551615n,
        9007199254740991,
      ]].map((r) => [...r, 1n]),
    ]],
  },
  {
    name: "columns in first-appearance order; time index after the first line's fields",
    body: "m,host=a cpu=1 1\nm,host=b,dc=x mem=2i 2\nn v=1 3",
    want: [
      ["m", ["host TAG String", "cpu FIELD Float64", TS, "dc TAG String", "mem FIELD Int64"], [
        ["a", 1, 1n, null, null],
        ["b", null, 2n, "x", 2],
      ]],
      ["n", ["v FIELD Float64", TS], [[1, 3n]]],
    ],
  },
  {
    name: "same series repeated uses cached tags",
    body: "m,h=a v=1 1\nm,h=a v=2 2\nm,h=b v=3 3\nm,h=a v=4 4",
    want: [["m", ["h TAG String", "v FIELD Float64", TS], [["a", 1, 1n], ["a", 2, 2n], ["b", 3, 3n], [
      "a",
      4,
      4n,
    ]]]],
  },
  {
    name: "duplicate field keys: last wins",
    body: "m v=1,v=2 1",
    want: [["m", ["v FIELD Float64", TS], [[2, 1n]]]],
  },
  {
    name: "negative timestamp",
    body: "m v=1 -5",
    want: [["m", ["v FIELD Float64", TS], [[1, -5n]]]],
  },
  { name: "empty body", body: "", want: [] },
  { name: "only comments", body: "# a\n#b\n", want: [] },
  // errors
  { name: "no fields", body: "m\n", error: "error parsing line 1 (1-based): No fields were provided" },
  { name: "no fields after tags", body: "m,t=a", error: "line 1 (1-based): No fields were provided" },
  {
    // The prefix was parsed on line 1, so line 2 must not be taken for it up to line 3's space.
    name: "no fields after a series seen on an earlier line",
    body: "m,t=a f=1 1\nm,t=a\nm,t=a f=2 2",
    error: "line 2 (1-based): No fields were provided",
  },
  {
    name: "a series seen before, then the same text with an escaped space",
    body: "m,t=a f=1 1\nm,t=a\\ b f=2 2",
    want: [["m", ["t TAG String", "f FIELD Float64", TS], [["a", 1, 1n], ["a b", 2, 2n]]]],
  },
  {
    name: "empty measurement",
    body: ",t=a v=1",
    error: "line 1 (1-based): Invalid measurement was provided",
  },
  {
    name: "line number counts blank and comment lines",
    body: "m v=1\n\n# c\nm v=\n",
    error: "line 4 (1-based)",
  },
  { name: "missing field value", body: "m v= 1", error: "missing value for field key 'v'" },
  { name: "missing '=' in field", body: "m v 1", error: "missing '=' after field key 'v'" },
  { name: "missing '=' in tag", body: "m,t v=1", error: "missing '=' after tag key 't'" },
  { name: "empty tag value", body: "m,t= v=1", error: "missing value for tag key 't'" },
  { name: "empty tag key", body: "m,=a v=1", error: "empty tag key" },
  {
    name: "duplicate tag",
    body: "m,t=a,t=b v=1",
    error: 'Must not contain duplicate tags, but "t" was repeated',
  },
  { name: "bad float", body: "m v=1.2.3 1", error: "Unable to parse floating-point value '1.2.3'" },
  { name: "NaN is not a float", body: "m v=NaN 1", error: "Invalid field value for field key 'v': 'NaN'" },
  {
    name: "bad boolean spelling",
    body: "m v=tRUE 1",
    error: "Invalid field value for field key 'v': 'tRUE'",
  },
  { name: "bad integer", body: "m v=1.5i 1", error: "Unable to parse integer value '1.5i'" },
  { name: "integer overflow", body: "m v=9223372036854775808i", error: "Unable to parse integer value" },
  { name: "negative unsigned", body: "m v=-1u", error: "Unable to parse unsigned integer value '-1u'" },
  { name: "unsigned overflow", body: "m v=18446744073709551616u", error: "Unable to parse unsigned integer" },
  { name: "bad timestamp", body: "m v=1 12a", error: "Unable to parse timestamp value '12a'" },
  { name: "float timestamp", body: "m v=1 1.5", error: "Unable to parse timestamp value '1.5'" },
  { name: "trailing content", body: "m v=1 1 extra", error: "Found trailing content: 'extra'" },
  { name: "garbage after string", body: 'm s="a"b 1', error: "Found trailing content: 'b 1'" },
  {
    name: "unterminated string",
    body: 'm s="abc 1\nm v=1',
    error: "Unterminated string value for field key 's'",
  },
  { name: "measurement ends with backslash", body: "m\\", error: "may not end with a backslash" },
  { name: "field key ends with backslash", body: "m v\\\nm v=1", error: "may not end with a backslash" },
  { name: "field type conflict", body: "m v=1 1\nm v=1i 2", error: "line 2 (1-based): field type conflict" },
  {
    name: "tag and field with one name",
    body: "m,v=a v=1 1",
    error: "column 'v' of measurement 'm' is a tag",
  },
  {
    name: "reserved time index name",
    body: "m greptime_timestamp=1 1",
    error: "reserved for the time index",
  },
  {
    name: "timestamp overflow after precision",
    body: "m v=1 9223372036854775807",
    precision: "s",
    error: "overflow",
  },
];

for (const c of cases) {
  Deno.test(`line protocol: ${c.name}`, () => {
    if (c.error !== undefined) {
      assert.throws(() => parseLineProtocol(c.body, c.precision, NOW), (e: unknown) => {
        assert.ok(e instanceof PetrelError);
        assert.equal(e.code, 1004);
        assert.equal(httpStatusOf(e), 400);
        assert.ok(e.message.startsWith(P), e.message);
        assert.ok(e.message.includes(c.error!), `${e.message}\n  does not contain\n${c.error}`);
        return true;
      });
    } else {
      assert.deepEqual(shape(parseLineProtocol(c.body, c.precision, NOW)), c.want);
    }
  });
}

const precisions: [string | undefined, bigint][] = [
  [undefined, 1n],
  ["n", 1n],
  ["ns", 1n],
  ["u", 1000n],
  ["us", 1000n],
  ["µ", 1000n],
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
];

for (const [p, mult] of precisions) {
  Deno.test(`line protocol precision ${p ?? "(default)"}`, () => {
    assert.equal(precisionToNanos(p), mult);
    const rows = parseLineProtocol("m v=1 7\nm v=2", p, NOW)[0].rows;
    assert.equal(rows[0][1], 7n * mult);
    assert.equal(rows[1][1], NOW, "a missing timestamp is now, whatever the precision");
  });
}

for (const p of ["", "x", "sec", "NS", "mins"]) {
  Deno.test(`line protocol bad precision '${p}'`, () => {
    assert.throws(() => parseLineProtocol("m v=1 1", p, NOW), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(httpStatusOf(e), 400);
      assert.equal(e.message, `Failed to convert time precision, name: ${p}`);
      return true;
    });
  });
}

Deno.test("line protocol: a bad line anywhere means no batches at all", () => {
  const good = Array.from({ length: 100 }, (_, i) => `m,h=h${i} v=${i} ${i}`).join("\n");
  assert.throws(
    () => parseLineProtocol(`${good}\nm v=oops\n${good}`, undefined, NOW),
    /line 101 \(1-based\)/,
  );
});

Deno.test("line protocol: real client bodies (node influx v1, influxdb-client v2)", () => {
  const v1 = 'v1_cpu,host=a,region=eu cores=8,note="ok \\"quoted\\"",up=true,usage=12.5 1700000000000';
  assert.deepEqual(shape(parseLineProtocol(v1, "ms", NOW)), [["v1_cpu", [
    "host TAG String",
    "region TAG String",
    "cores FIELD Float64",
    "note FIELD String",
    "up FIELD Boolean",
    "usage FIELD Float64",
    TS,
  ], [["a", "eu", 8, 'ok "quoted"', true, 12.5, 1700000000000000000n]]]]);
  const v2 =
    'v2_mem,app=influx-clients,host=a free=123u,msg="a,b c=d",ok=T,total=16000000000i,used_pct=42.25 ' +
    "1700000000000000000";
  assert.deepEqual(shape(parseLineProtocol(v2, "ns", NOW))[0][2], [[
    "influx-clients",
    "a",
    123,
    "a,b c=d",
    true,
    16000000000,
    42.25,
    1700000000000000000n,
  ]]);
});

Deno.test("line protocol worker: every grammar case parses (or fails) exactly as inline", async () => {
  const old = setLineProtocolWorkerMinBytes(0);
  try {
    assert.ok(await lineProtocolWorkerReady(), "worker did not start");
    const enc = new TextEncoder();
    const all = [
      ...cases,
      ...precisions.map(([p]) => ({ name: `precision ${p}`, body: "m f=1 5", precision: p })),
    ];
    // All posted before any is awaited, so the worker holds several at once; each outcome is
    // captured at once, so a failure cannot surface as an unhandled rejection.
    const results = all.map((c) => {
      try {
        return Promise.resolve(parseLineProtocolBody(enc.encode(c.body), c.precision, NOW)).then(
          (batches) => batches.map(plainBatch),
          (e: unknown) => e,
        );
      } catch (e) {
        return Promise.resolve(e);
      }
    });
    for (let i = 0; i < all.length; i++) {
      const c = all[i];
      let inline: WriteBatch[] | PetrelError;
      try {
        inline = parseLineProtocol(c.body, c.precision, NOW);
      } catch (e) {
        assert.ok(e instanceof PetrelError);
        inline = e;
      }
      const viaWorker = await results[i];
      if (inline instanceof PetrelError) {
        assert.ok(viaWorker instanceof PetrelError, `${c.name}: worker did not fail`);
        assert.deepEqual([viaWorker.code, httpStatusOf(viaWorker), viaWorker.message], [
          inline.code,
          httpStatusOf(inline),
          inline.message,
        ]);
      } else {
        assert.deepEqual(viaWorker, inline, c.name);
      }
    }
  } finally {
    setLineProtocolWorkerMinBytes(old);
    stopLineProtocolWorker();
  }
});

Deno.test("line protocol worker: a crash mid-request falls back to inline parsing, nothing lost", async () => {
  const old = setLineProtocolWorkerMinBytes(0);
  const body = new TextEncoder().encode("cpu,host=a u=1 1\ncpu,host=b u=2 2\n");
  try {
    assert.ok(await lineProtocolWorkerReady(), "worker did not start");
    crashLineProtocolWorker();
    const pending = [1, 2, 3].map(() => parseLineProtocolBody(body, undefined, NOW));
    const want = parseLineProtocol("cpu,host=a u=1 1\ncpu,host=b u=2 2\n", undefined, NOW);
    for (const p of pending) assert.deepEqual((await p).map(plainBatch), want);
    // Broken: later bodies are parsed inline, synchronously.
    const inline = parseLineProtocolBody(body, undefined, NOW);
    assert.ok(Array.isArray(inline));
    assert.deepEqual(inline.map(plainBatch), want);
    assert.throws(() => parseLineProtocolBody(new TextEncoder().encode("cpu u="), undefined, NOW), /line 1/);
  } finally {
    setLineProtocolWorkerMinBytes(old);
    reviveLineProtocolWorker();
    stopLineProtocolWorker();
  }
});

Deno.test("line protocol worker: small bodies stay inline and start no worker", () => {
  const r = parseLineProtocolBody(new TextEncoder().encode("m f=1 1"), "s", NOW);
  assert.ok(Array.isArray(r));
  assert.deepEqual(r.map(plainBatch), parseLineProtocol("m f=1 1", "s", NOW));
  assert.throws(() => parseLineProtocolBody(new Uint8Array(100_000), "x", NOW), /precision/);
});
