/**
 * Remote write 1.0 label sets are taken from a cache by their wire bytes, shared from request to
 * request (`label_cache.ts`): a series that adds labels after its samples, or repeats another's
 * leading labels, must still get exactly its own label set, every time.
 */
import assert from "node:assert/strict";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlExec, sqlRows, uniqueName } from "./util.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

const V1 = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
const enc = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  out.push(n);
  return out;
}

function field(tag: number, bytes: number[]): number[] {
  return [tag, ...varint(bytes.length), ...bytes];
}

function label(name: string, value: string): number[] {
  return field(10, [...field(10, [...enc.encode(name)]), ...field(18, [...enc.encode(value)])]);
}

function sample(value: number, timestampMs: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, value, true);
  return field(18, [9, ...b, 16, ...varint(timestampMs)]);
}

/** A 1.0 body of hand-ordered `TimeSeries` fields (labels may follow the samples). */
function body(...series: number[][]): Uint8Array {
  return encodeSnappy(new Uint8Array(series.flatMap((s) => field(10, s))));
}

async function write(b: Uint8Array): Promise<void> {
  const r = await post(`${base}/v1/prometheus/write?db=public`, b, V1);
  assert.equal(r.status, 204, r.text);
}

Deno.test("remote write labels cache: a label after the samples belongs to that series alone, each time", async () => {
  const m = uniqueName("rwcache");
  const plain = (v: number, t: number) => [...label("__name__", m), ...label("job", "a"), ...sample(v, t)];
  await write(body(plain(1, 1000)));
  // the same leading label bytes, then one more label after the sample
  await write(
    body([...label("__name__", m), ...label("job", "a"), ...sample(2, 2000), ...label("extra", "x")]),
  );
  await write(body(plain(3, 3000)));
  await write(
    body([...label("__name__", m), ...label("job", "a"), ...sample(4, 4000), ...label("extra", "y")]),
  );
  assert.deepEqual(
    await sqlRows(base, `SELECT greptime_timestamp, job, extra, greptime_value FROM ${m} ORDER BY 1`),
    [[1000, "a", null, 1], [2000, "a", "x", 2], [3000, "a", null, 3], [4000, "a", "y", 4]],
  );
});

Deno.test("remote write labels cache: repeated requests keep routing by database labels and empty values", async () => {
  const m = uniqueName("rwcache"), db = uniqueName("rwcachedb");
  await sqlExec(base, `CREATE DATABASE ${db}`);
  for (let t = 1; t <= 3; t++) {
    await write(encodeRemoteWriteV1([
      { labels: { __name__: m, __database__: db, job: "a" }, samples: [{ value: t, timestampMs: t * 1000 }] },
      { labels: { __name__: m, job: "a", empty: "" }, samples: [{ value: -t, timestampMs: t * 1000 }] },
    ]));
  }
  assert.deepEqual(await sqlRows(base, `SELECT job, greptime_value FROM ${m} ORDER BY 2`, db), [
    ["a", 1],
    ["a", 2],
    ["a", 3],
  ]);
  assert.deepEqual(await sqlRows(base, `SELECT job, greptime_value FROM ${m} ORDER BY 2`), [
    ["a", -3],
    ["a", -2],
    ["a", -1],
  ]);
});
