/**
 * Remote read over HTTP: SAMPLES and STREAMED_XOR_CHUNKS answers from tables written by remote write
 * and line protocol; matchers of every type pushed into SQL safely; time ranges; databases.
 */
import assert from "node:assert/strict";
import { decodeSnappy, encodeSnappy } from "../../src/codec/snappy.ts";
import { prometheusProtoRoot } from "../../src/protocols/prompb/schema.ts";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlExec, uniqueName } from "./util.ts";
import { type Series, STALE_NAN } from "../../src/common/series.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { type LabelMatcher } from "../../src/common/label_matcher.ts";
import {
  CHUNKED_READ_RESPONSE_CONTENT_TYPE,
  decodeChunkedReadResponse,
} from "../../src/protocols/remote_read/chunked.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

const root = prometheusProtoRoot();
const ReadRequest = root.lookupType("prometheus.ReadRequest");
const ReadResponse = root.lookupType("prometheus.ReadResponse");
const TYPES = { EQ: 0, NEQ: 1, RE: 2, NRE: 3 } as const;
const RW = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };

interface Query {
  start: number;
  end: number;
  matchers: LabelMatcher[];
}

/** A snappy ReadRequest body. */
function readRequest(queries: Query[], accepted: number[] = []): Uint8Array {
  const msg = ReadRequest.fromObject({
    queries: queries.map((q) => ({
      startTimestampMs: q.start,
      endTimestampMs: q.end,
      matchers: q.matchers.map((m) => ({ type: TYPES[m.type], name: m.name, value: m.value })),
    })),
    acceptedResponseTypes: accepted,
  });
  return encodeSnappy(ReadRequest.encode(msg).finish());
}

type Got = { labels: Record<string, string>; samples: [number, number][] }[];

/** POSTs a read and decodes a SAMPLES answer into labels and `[t, v]` pairs per query. */
async function readSamples(queries: Query[], query = ""): Promise<Got[]> {
  const r = await fetch(`${base}/v1/metricsapi/read${query}`, {
    method: "POST",
    body: new Uint8Array(readRequest(queries)),
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
  });
  const bytes = new Uint8Array(await r.arrayBuffer());
  assert.equal(r.status, 200, new TextDecoder().decode(bytes));
  assert.equal(r.headers.get("content-type"), "application/x-protobuf");
  assert.equal(r.headers.get("content-encoding"), "snappy");
  const obj = ReadResponse.toObject(ReadResponse.decode(decodeSnappy(bytes, 1 << 30)), {
    longs: Number,
    arrays: true,
  }) as {
    results: {
      timeseries: {
        labels: { name: string; value: string }[];
        samples: { value?: number; timestamp?: number }[];
      }[];
    }[];
  };
  return obj.results.map((res) =>
    res.timeseries.map((ts) => ({
      labels: Object.fromEntries(ts.labels.map((l) => [l.name, l.value])),
      samples: ts.samples.map((s) => [s.timestamp ?? 0, s.value ?? 0] as [number, number]),
    }))
  );
}

// Data: metric `$m` with 4 series, samples at t = 1000..5000.
const M = uniqueName("rr");
const T0 = 1_700_000_000_000;
const data: Series[] = [
  { labels: { __name__: M, job: "api", instance: "a" }, samples: [] },
  { labels: { __name__: M, job: "api", instance: "b" }, samples: [] },
  { labels: { __name__: M, job: "db", instance: "a" }, samples: [] },
  { labels: { __name__: M, job: "it's \\ odd", instance: "c" }, samples: [] },
  { labels: { __name__: M, instance: "d" }, samples: [] },
];
data.forEach((s, i) => {
  for (let k = 0; k < 5; k++) s.samples.push({ value: i * 10 + k, timestampMs: T0 + k * 1000 });
});
{
  const r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(data), RW);
  assert.equal(r.status, 204, r.text);
}

const NAME: LabelMatcher = { type: "EQ", name: "__name__", value: M };
const ALL = { start: T0, end: T0 + 4000 };
const seriesOf = (i: number, from = 0, to = 4) => ({
  labels: data[i].labels,
  samples: data[i].samples.slice(from, to + 1).map((s) => [s.timestampMs, s.value] as [number, number]),
});

const cases: { name: string; query: Query; want: number[] | Got }[] = [
  {
    name: "name only: every series, labels sorted, ordered",
    query: { ...ALL, matchers: [NAME] },
    want: [0, 2, 1, 3, 4],
  },
  {
    name: "EQ",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "api" }] },
    want: [0, 1],
  },
  {
    name: "NEQ keeps series without the label",
    query: { ...ALL, matchers: [NAME, { type: "NEQ", name: "job", value: "api" }] },
    want: [2, 3, 4],
  },
  {
    name: "RE is anchored",
    query: { ...ALL, matchers: [NAME, { type: "RE", name: "job", value: "a|d" }] },
    want: [],
  },
  {
    name: "RE alternatives",
    query: { ...ALL, matchers: [NAME, { type: "RE", name: "job", value: "api|db" }] },
    want: [0, 2, 1],
  },
  {
    name: "NRE",
    query: { ...ALL, matchers: [NAME, { type: "NRE", name: "instance", value: "a|b" }] },
    want: [3, 4],
  },
  {
    name: "EQ empty = label absent",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "" }] },
    want: [4],
  },
  {
    name: "RE .+ = label present",
    query: { ...ALL, matchers: [NAME, { type: "RE", name: "job", value: ".+" }] },
    want: [0, 2, 1, 3],
  },
  {
    name: "EQ on a label the table lacks",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "zone", value: "x" }] },
    want: [],
  },
  {
    name: "NEQ on a label the table lacks",
    query: { ...ALL, matchers: [NAME, { type: "NEQ", name: "zone", value: "x" }] },
    want: [0, 2, 1, 3, 4],
  },
  {
    name: "value with quote and backslash",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "it's \\ odd" }] },
    want: [3],
  },
  {
    name: "injection attempt matches nothing",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "x' OR '1'='1" }] },
    want: [],
  },
  {
    name: "injection through backslash matches nothing",
    query: { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "x\\' OR 1=1 --" }] },
    want: [],
  },
  {
    name: "time range is inclusive on both ends",
    query: {
      start: T0 + 1000,
      end: T0 + 3000,
      matchers: [NAME, { type: "EQ", name: "instance", value: "d" }],
    },
    want: [seriesOf(4, 1, 3)],
  },
  { name: "time range before the data", query: { start: 0, end: T0 - 1, matchers: [NAME] }, want: [] },
  {
    name: "missing table → empty result",
    query: { ...ALL, matchers: [{ type: "EQ", name: "__name__", value: "no_such_metric" }] },
    want: [],
  },
];
for (const c of cases) {
  Deno.test(`remote read HTTP: ${c.name}`, async () => {
    const [got] = await readSamples([c.query]);
    const want = c.want.length > 0 && typeof c.want[0] === "number"
      ? (c.want as number[]).map((i) => seriesOf(i))
      : c.want;
    assert.deepEqual(got, want);
    for (const s of got) assert.deepEqual(Object.keys(s.labels), Object.keys(s.labels).sort());
  });
}

Deno.test("remote read HTTP: several queries answered in request order", async () => {
  const got = await readSamples([
    { ...ALL, matchers: [NAME, { type: "EQ", name: "instance", value: "d" }] },
    { ...ALL, matchers: [{ type: "EQ", name: "__name__", value: "nothing_here" }] },
    { ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "db" }] },
  ]);
  assert.deepEqual(got, [[seriesOf(4)], [], [seriesOf(2)]]);
});

Deno.test("remote read HTTP: STREAMED_XOR_CHUNKS when the client prefers it", async () => {
  const r = await fetch(`${base}/v1/metricsapi/read`, {
    method: "POST",
    body: new Uint8Array(
      readRequest([{ ...ALL, matchers: [NAME, { type: "EQ", name: "job", value: "api" }] }], [1, 0]),
    ),
  });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), CHUNKED_READ_RESPONSE_CONTENT_TYPE);
  assert.equal(r.headers.get("content-encoding"), null);
  const frames = decodeChunkedReadResponse(new Uint8Array(await r.arrayBuffer()));
  const series = frames.flatMap((f) => f.series.map((s) => ({ q: f.queryIndex, ...s })));
  assert.deepEqual(series.map((s) => [s.q, s.labels]), [[0, data[0].labels], [0, data[1].labels]]);
  assert.deepEqual(
    series[1].chunks.flatMap((c) => c.samples.map((s) => [s.timestampMs, s.value])),
    seriesOf(1).samples,
  );
});

Deno.test("remote read HTTP: SAMPLES when the client lists it first", async () => {
  const r = await fetch(`${base}/v1/metricsapi/read`, {
    method: "POST",
    body: new Uint8Array(readRequest([{ ...ALL, matchers: [NAME] }], [0, 1])),
  });
  await r.body?.cancel();
  assert.equal(r.headers.get("content-type"), "application/x-protobuf");
});

Deno.test("remote read HTTP: stale markers come back with their exact bits", async () => {
  const m = uniqueName("stale");
  const series = [{
    labels: { __name__: m },
    samples: [{ value: 1, timestampMs: 1000 }, { value: STALE_NAN, timestampMs: 2000, stale: true as const }],
  }];
  assert.equal((await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), RW)).status, 204);
  const q = [{ start: 0, end: 5000, matchers: [{ type: "EQ" as const, name: "__name__", value: m }] }];
  const r = await fetch(`${base}/v1/metricsapi/read`, {
    method: "POST",
    body: new Uint8Array(readRequest(q)),
  });
  const raw = decodeSnappy(new Uint8Array(await r.arrayBuffer()), 1 << 20);
  const hex = Array.from(raw, (b) => b.toString(16).padStart(2, "0")).join("");
  assert.ok(hex.includes("09020000000000f07f"), hex); // field 1 (double) = 0x7ff0000000000002
  const chunked = await fetch(`${base}/v1/metricsapi/read`, {
    method: "POST",
    body: new Uint8Array(readRequest(q, [1])),
  });
  const frames = decodeChunkedReadResponse(new Uint8Array(await chunked.arrayBuffer()));
  const samples = frames[0].series[0].chunks[0].samples;
  assert.equal(samples.length, 2);
  assert.ok(Number.isNaN(samples[1].value));
});

Deno.test("remote read HTTP: a line-protocol table (ns time index) reads back in ms", async () => {
  const m = uniqueName("lpread");
  const r = await post(
    `${base}/v1/lineproto/write?precision=ms`,
    `${m},host=a usage=1.5 ${T0}\n${m},host=a usage=2 ${T0 + 999}`,
  );
  assert.equal(r.status, 204);
  const [got] = await readSamples([{
    start: T0,
    end: T0 + 999,
    matchers: [{ type: "EQ", name: "__name__", value: m }],
  }]);
  assert.deepEqual(got, [{ labels: { __name__: m, host: "a" }, samples: [[T0, 1.5], [T0 + 999, 2]] }]);
});

Deno.test("remote read HTTP: database by parameter and by __database__ matcher", async () => {
  await sqlExec(base, "CREATE DATABASE IF NOT EXISTS rrdb");
  const m = uniqueName("rrdb");
  const series = [{ labels: { __name__: m, k: "v" }, samples: [{ value: 3, timestampMs: 10 }] }];
  assert.equal(
    (await post(`${base}/v1/metricsapi/write?db=rrdb`, encodeRemoteWriteV1(series), RW)).status,
    204,
  );
  const q = { start: 0, end: 100, matchers: [{ type: "EQ" as const, name: "__name__", value: m }] };
  const want = [[{ labels: { __name__: m, k: "v" }, samples: [[10, 3]] }]];
  assert.deepEqual(await readSamples([q], "?db=rrdb"), want);
  assert.deepEqual(
    await readSamples([{
      ...q,
      matchers: [...q.matchers, { type: "EQ", name: "__database__", value: "rrdb" }],
    }]),
    want,
  );
  assert.deepEqual(await readSamples([q]), [[]]);
});

const bad: { name: string; body: Uint8Array; status: number; error: RegExp }[] = [
  { name: "not snappy", body: new TextEncoder().encode("nope"), status: 400, error: /./ },
  {
    name: "garbage protobuf",
    body: encodeSnappy(new Uint8Array([0x0a, 0x05, 0x1a])),
    status: 400,
    error: /Failed to decode/,
  },
  {
    name: "no __name__ matcher",
    body: readRequest([{ ...ALL, matchers: [{ type: "EQ", name: "job", value: "api" }] }]),
    status: 400,
    error: /missing '__name__'/,
  },
  {
    name: "__name__ by regex",
    body: readRequest([{ ...ALL, matchers: [{ type: "RE", name: "__name__", value: ".+" }] }]),
    status: 400,
    error: /exactly one non-empty equality matcher/,
  },
  {
    name: "unknown database",
    body: readRequest([{ ...ALL, matchers: [NAME, { type: "EQ", name: "__database__", value: "nodb" }] }]),
    status: 400,
    error: /nodb/,
  },
  {
    name: "decompression bomb",
    body: new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x08, 0x00]),
    status: 413,
    error: /limit/,
  },
];
for (const c of bad) {
  Deno.test(`remote read HTTP rejected: ${c.name} → ${c.status}`, async () => {
    const r = await post(`${base}/v1/metricsapi/read`, c.body);
    assert.equal(r.status, c.status, r.text);
    assert.match(JSON.parse(r.text).error, c.error);
  });
}

Deno.test("remote read HTTP: in a multi-field table, NULL is no sample (not a stale marker); sub-ms times floor", async () => {
  const m = uniqueName("lpnull");
  const body = `${m},host=a usage=1,idle=5 ${T0}000001\n${m},host=a idle=6 ${
    T0 + 1
  }999999\n${m},host=a usage=3 ${T0 + 2}999999`;
  assert.equal((await post(`${base}/v1/lineproto/write`, body)).status, 204);
  const [got] = await readSamples([{
    start: T0,
    end: T0 + 2,
    matchers: [{ type: "EQ", name: "__name__", value: m }],
  }]);
  // `usage` is the first numeric field: the row with only `idle` has no sample for it.
  assert.deepEqual(got, [{ labels: { __name__: m, host: "a" }, samples: [[T0, 1], [T0 + 2, 3]] }]);
});

Deno.test("remote read HTTP: a table with a seconds time index reads back in exact ms", async () => {
  const m = uniqueName("secs");
  await sqlExec(
    base,
    `CREATE TABLE ${m} (host STRING, greptime_value DOUBLE, ts TIMESTAMP(0) TIME INDEX, PRIMARY KEY (host));` +
      `INSERT INTO ${m} VALUES ('a', 1, 1699999999), ('a', 2, 1700000000), ('a', 3, 1700000001)`,
  );
  const [got] = await readSamples([{
    start: 1699999999001,
    end: 1700000001000,
    matchers: [{ type: "EQ", name: "__name__", value: m }],
  }]);
  assert.deepEqual(got, [{
    labels: { __name__: m, host: "a" },
    samples: [[1700000000000, 2], [1700000001000, 3]],
  }]);
});
