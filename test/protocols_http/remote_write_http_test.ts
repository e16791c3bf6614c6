/**
 * Remote write over HTTP: 1.0 and 2.0, every compression label real senders use, tables as SQL sees
 * them, stale markers, the VictoriaMetrics handshake, and malformed bodies of every kind → 4xx with
 * nothing written.
 */
import assert from "node:assert/strict";
import { encodeSnappy } from "../../src/codec/snappy.ts";
import { decodeSnappy } from "../../src/codec/snappy.ts";
import { encodeZstd } from "../../src/codec/zstd.ts";
import { startTestServer } from "../helpers/server.ts";
import { post, showCreate, sqlExec, sqlRows, tableNames, uniqueName, withServer } from "./util.ts";
import { type Series, STALE_NAN } from "../../src/common/series.ts";
import { encodeRemoteWriteV1, encodeRemoteWriteV2 } from "../../src/protocols/remote_write/encoder.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

const V1 = { "content-type": "application/x-protobuf", "content-encoding": "snappy" };
const V2 = {
  "content-type": "application/x-protobuf;proto=io.prometheus.write.v2.Request",
  "content-encoding": "snappy",
};

function seriesOf(metric: string, n = 3, extra: Record<string, string> = {}): Series[] {
  return Array.from({ length: n }, (_, i) => ({
    labels: { __name__: metric, job: "api", instance: `host-${i}`, ...extra },
    samples: [{ value: i, timestampMs: 1_700_000_000_000 }, {
      value: i + 0.5,
      timestampMs: 1_700_000_015_000,
    }],
  }));
}

/** The body as its 2.0 form, recompressed with zstd. */
function zstdOf(snappyBody: Uint8Array): Uint8Array {
  return encodeZstd(decodeSnappy(snappyBody, 1 << 30));
}

// ---- accepted forms: every way real senders label their bodies ----
const accepted: {
  name: string;
  body: (m: string) => Uint8Array;
  headers: Record<string, string>;
  v2?: true;
}[] = [
  { name: "1.0 snappy", body: (m) => encodeRemoteWriteV1(seriesOf(m)), headers: V1 },
  {
    name: "1.0 without Content-Encoding (npm prometheus-remote-write)",
    body: (m) => encodeRemoteWriteV1(seriesOf(m)),
    headers: { "content-type": "application/x-protobuf" },
  },
  { name: "1.0 without any header", body: (m) => encodeRemoteWriteV1(seriesOf(m)), headers: {} },
  {
    name: "1.0 with Prometheus' headers",
    body: (m) => encodeRemoteWriteV1(seriesOf(m)),
    headers: { ...V1, "x-prometheus-remote-write-version": "0.1.0", "user-agent": "Prometheus/2.42.0" },
  },
  {
    name: "1.0 proto=prometheus.WriteRequest",
    body: (m) => encodeRemoteWriteV1(seriesOf(m)),
    headers: {
      "content-type": 'application/x-protobuf; proto="prometheus.WriteRequest"',
      "content-encoding": "snappy",
    },
  },
  {
    name: "1.0 zstd",
    body: (m) => zstdOf(encodeRemoteWriteV1(seriesOf(m))),
    headers: { ...V1, "content-encoding": "zstd" },
  },
  {
    name: "1.0 zstd labeled snappy (vmagent)",
    body: (m) => zstdOf(encodeRemoteWriteV1(seriesOf(m))),
    headers: V1,
  },
  { name: "2.0 snappy", body: (m) => encodeRemoteWriteV2(seriesOf(m)), headers: V2, v2: true },
  {
    name: "2.0 zstd",
    body: (m) => zstdOf(encodeRemoteWriteV2(seriesOf(m))),
    headers: { ...V2, "content-encoding": "zstd" },
    v2: true,
  },
];
for (const c of accepted) {
  Deno.test(`remote write HTTP: ${c.name} → 204, rows in SQL`, async () => {
    const m = uniqueName("rw");
    const r = await post(`${base}/v1/metricsapi/write`, c.body(m), c.headers);
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, "");
    if (c.v2) {
      assert.equal(r.headers.get("x-prometheus-remote-write-samples-written"), "6");
      assert.equal(r.headers.get("x-prometheus-remote-write-histograms-written"), "0");
      assert.equal(r.headers.get("x-prometheus-remote-write-exemplars-written"), "0");
    } else assert.equal(r.headers.get("x-prometheus-remote-write-samples-written"), null);
    assert.deepEqual(
      await sqlRows(
        base,
        `SELECT instance, job, greptime_value, greptime_timestamp FROM ${m} ORDER BY instance, greptime_timestamp`,
      ),
      [
        ["host-0", "api", 0, 1_700_000_000_000],
        ["host-0", "api", 0.5, 1_700_000_015_000],
        ["host-1", "api", 1, 1_700_000_000_000],
        ["host-1", "api", 1.5, 1_700_000_015_000],
        ["host-2", "api", 2, 1_700_000_000_000],
        ["host-2", "api", 2.5, 1_700_000_015_000],
      ],
    );
  });
}

Deno.test("remote write HTTP: schema is columns sorted by name, ms time index, Float64 value, String tags", async () => {
  const m = uniqueName("rw");
  const r = await post(
    `${base}/v1/metricsapi/write`,
    encodeRemoteWriteV1(seriesOf(m, 1, { zone: "z", az: "a" })),
    V1,
  );
  assert.equal(r.status, 204);
  const desc = await sqlRows(base, `DESC TABLE ${m}`);
  assert.deepEqual(desc.map((row) => [row[0], row[1], row[5]]), [
    ["az", "String", "TAG"],
    ["greptime_timestamp", "TimestampMillisecond", "TIMESTAMP"],
    ["greptime_value", "Float64", "FIELD"],
    ["instance", "String", "TAG"],
    ["job", "String", "TAG"],
    ["zone", "String", "TAG"],
  ]);
  const ddl = await showCreate(base, m);
  assert.match(ddl, /'greptime.semantic.source' = 'prometheus'/);
  assert.match(ddl, /'greptime.semantic.source_version' = '1.0'/);
});

Deno.test("remote write HTTP: many metrics and label sets in one request", async () => {
  const a = uniqueName("rwa"), b = uniqueName("rwb");
  const series = [
    ...seriesOf(a, 2),
    { labels: { __name__: b, x: "1" }, samples: [{ value: 7, timestampMs: 5 }] },
    { labels: { __name__: b, y: "2" }, samples: [{ value: 8, timestampMs: 6 }] },
  ];
  assert.equal((await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), V1)).status, 204);
  assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${a}`), [[4]]);
  assert.deepEqual(await sqlRows(base, `SELECT x, y, greptime_value FROM ${b} ORDER BY greptime_timestamp`), [
    ["1", null, 7],
    [null, "2", 8],
  ]);
});

Deno.test("remote write HTTP: samples in any order; a repeated (series, time) keeps the request's last value", async () => {
  for (const times of [3, 50]) { // a few distinct times, and more than the sort scans before hashing
    const m = uniqueName("rword");
    // series created in one order, then written in the other, times descending within each
    const first = [{ labels: { __name__: m, s: "a" }, samples: [{ value: 0, timestampMs: 0 }] }, {
      labels: { __name__: m, s: "b" },
      samples: [{ value: 0, timestampMs: 0 }],
    }];
    assert.equal((await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(first), V1)).status, 204);
    const samples = (s: number) =>
      Array.from(
        { length: times },
        (_, k) => ({ value: s * 1000 + times - k, timestampMs: (times - k) * 1000 }),
      );
    const series = [
      { labels: { __name__: m, s: "b" }, samples: samples(2) },
      { labels: { __name__: m, s: "a" }, samples: samples(1) },
      // the same series and time again, later in the request: this value wins
      { labels: { __name__: m, s: "b" }, samples: [{ value: -7, timestampMs: 2000 }] },
    ];
    assert.equal((await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), V1)).status, 204);
    const want: unknown[][] = [[0, "a", 0], [0, "b", 0]];
    for (let t = 1; t <= times; t++) {
      want.push([t * 1000, "a", 1000 + t], [t * 1000, "b", t === 2 ? -7 : 2000 + t]);
    }
    assert.deepEqual(
      await sqlRows(base, `SELECT greptime_timestamp, s, greptime_value FROM ${m} ORDER BY 1, 2`),
      want,
    );
  }
});

Deno.test("remote write HTTP: stale markers are kept (NULL value)", async () => {
  const m = uniqueName("rw");
  const series = [{
    labels: { __name__: m },
    samples: [{ value: 1, timestampMs: 1000 }, { value: STALE_NAN, timestampMs: 2000, stale: true as const }],
  }];
  assert.equal((await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), V1)).status, 204);
  assert.deepEqual(await sqlRows(base, `SELECT greptime_timestamp, greptime_value FROM ${m} ORDER BY 1`), [
    [1000, 1],
    [2000, null],
  ]);
});

Deno.test("remote write HTTP: db parameter, database labels, header; unknown database → 400, nothing written", async () => {
  await sqlExec(base, "CREATE DATABASE IF NOT EXISTS rwdb");
  const m = uniqueName("rw");
  let r = await post(`${base}/v1/metricsapi/write?db=rwdb`, encodeRemoteWriteV1(seriesOf(m, 1)), V1);
  assert.equal(r.status, 204, r.text);
  r = await post(
    `${base}/v1/prometheus/write`,
    encodeRemoteWriteV1(seriesOf(m, 1, { __database__: "rwdb", instance: "lbl" })),
    V1,
  );
  assert.equal(r.status, 204, r.text);
  r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(seriesOf(m, 1, { instance: "hdr" })), {
    ...V1,
    "x-greptime-db-name": "rwdb",
  });
  assert.equal(r.status, 204, r.text);
  assert.deepEqual(await sqlRows(base, `SELECT DISTINCT instance FROM ${m} ORDER BY 1`, "rwdb"), [["hdr"], [
    "host-0",
  ], ["lbl"]]);
  assert.ok(!(await tableNames(base)).includes(m));
  const other = uniqueName("rw");
  const mixed = [...seriesOf(other, 1), ...seriesOf(other, 1, { x_greptime_database: "no_such_db" })];
  r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(mixed), V1);
  assert.equal(r.status, 400, r.text);
  assert.match(JSON.parse(r.text).error, /no_such_db/);
  assert.ok(!(await tableNames(base)).includes(other));
});

Deno.test("remote write HTTP: get_vm_proto_version handshake → 200 '1', nothing written", async () => {
  const m = uniqueName("rw");
  const r = await post(
    `${base}/v1/metricsapi/write?get_vm_proto_version=1`,
    encodeRemoteWriteV1(seriesOf(m)),
    V1,
  );
  assert.equal(r.status, 200);
  assert.equal(r.text, "1");
  assert.ok(!(await tableNames(base)).includes(m));
});

Deno.test("remote write HTTP: metadata-only and empty requests → 204", async () => {
  const meta = encodeRemoteWriteV1([], [{ metric: "x", type: "counter", help: "h", unit: "" }]);
  assert.equal((await post(`${base}/v1/metricsapi/write`, meta, V1)).status, 204);
  assert.equal((await post(`${base}/v1/metricsapi/write`, encodeSnappy(new Uint8Array(0)), V1)).status, 204);
});

Deno.test("remote write HTTP: hints become table options", async () => {
  const m = uniqueName("rw");
  const now = Date.now();
  const series = [{ labels: { __name__: m }, samples: [{ value: 1, timestampMs: now }] }];
  const r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), {
    ...V1,
    "x-greptime-hints": "ttl=30d,physical_table=ignored",
  });
  assert.equal(r.status, 204, r.text);
  assert.match(await showCreate(base, m), /ttl = '30d/);
});

// ---- rejected: 400/413/415, and never anything written ----
const utf8Bad = (m: string) => {
  // A label value with a lone continuation byte, spliced into an otherwise valid 1.0 body.
  const raw = decodeSnappy(
    encodeRemoteWriteV1([{ labels: { __name__: m, v: "AB" }, samples: [{ value: 1, timestampMs: 1 }] }]),
    1 << 20,
  );
  const at = raw.indexOf(0x41);
  raw[at] = 0x80;
  return encodeSnappy(raw);
};
const rejected: {
  name: string;
  body: (m: string) => Uint8Array;
  headers: Record<string, string>;
  status: number;
  error: RegExp;
}[] = [
  {
    name: "not snappy",
    body: () => new TextEncoder().encode("hello world"),
    headers: V1,
    status: 400,
    error: /./,
  },
  {
    name: "snappy of garbage protobuf",
    body: () => encodeSnappy(new Uint8Array([0x0a, 0xff, 0xff, 0x01])),
    headers: V1,
    status: 400,
    error: /Failed to decode prometheus remote request/,
  },
  {
    name: "truncated body",
    body: (m) => encodeSnappy(decodeSnappy(encodeRemoteWriteV1(seriesOf(m)), 1 << 20).subarray(0, 30)),
    headers: V1,
    status: 400,
    error: /Failed to decode prometheus remote request/,
  },
  {
    name: "series without __name__",
    body: () => encodeRemoteWriteV1([{ labels: { job: "x" }, samples: [{ value: 1, timestampMs: 1 }] }]),
    headers: V1,
    status: 400,
    error: /missing '__name__'/,
  },
  {
    name: "invalid label name",
    body: (m) =>
      encodeRemoteWriteV1([{ labels: { __name__: m, "x-y": "1" }, samples: [{ value: 1, timestampMs: 1 }] }]),
    headers: V1,
    status: 400,
    error: /Invalid label name/,
  },
  {
    name: "unknown content type",
    body: (m) => encodeRemoteWriteV1(seriesOf(m)),
    headers: { "content-type": "application/json", "content-encoding": "snappy" },
    status: 415,
    error: /unsupported prometheus remote write content type/,
  },
  {
    name: "unknown proto",
    body: (m) => encodeRemoteWriteV1(seriesOf(m)),
    headers: { "content-type": "application/x-protobuf;proto=foo.Bar", "content-encoding": "snappy" },
    status: 415,
    error: /unsupported prometheus remote write content type/,
  },
  {
    name: "2.0 without Content-Encoding",
    body: (m) => encodeRemoteWriteV2(seriesOf(m)),
    headers: { "content-type": V2["content-type"] },
    status: 415,
    error: /only snappy and zstd/,
  },
  {
    name: "2.0 body sent as 1.0 with a valid bad series",
    body: (m) => encodeRemoteWriteV2([{ labels: { job: m }, samples: [{ value: 1, timestampMs: 1 }] }]),
    headers: V2,
    status: 400,
    error: /missing '__name__'/,
  },
  {
    name: "decompression bomb: snappy header claims 2 GiB",
    body: () => new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x08, 0x00]),
    headers: V1,
    status: 413,
    error: /length limit exceeded|limit/,
  },
];
for (const c of rejected) {
  Deno.test(`remote write HTTP rejected: ${c.name} → ${c.status}, nothing written`, async () => {
    const m = uniqueName("rwbad");
    const before = await tableNames(base);
    const r = await post(`${base}/v1/metricsapi/write`, c.body(m), c.headers);
    assert.equal(r.status, c.status, r.text);
    assert.match(JSON.parse(r.text).error, c.error);
    assert.deepEqual(await tableNames(base), before);
  });
}

Deno.test("remote write HTTP: a bomb within the request limit but past body_limit → 413", async () => {
  await withServer(async (s) => {
    // 1 MiB of zeros compresses to a few KB: small on the wire, over the 64 KiB limit once decoded.
    const big = [{
      labels: { __name__: "bomb", v: "x".repeat(1 << 20) },
      samples: [{ value: 1, timestampMs: 1 }],
    }];
    for (const headers of [V1, { ...V1, "content-encoding": "zstd" }]) {
      const body = headers["content-encoding"] === "zstd"
        ? zstdOf(encodeRemoteWriteV1(big))
        : encodeRemoteWriteV1(big);
      assert.ok(body.length < 64 * 1024, `${body.length}`);
      const r = await post(`${s.url}/v1/metricsapi/write`, body, headers);
      assert.equal(r.status, 413, `${headers["content-encoding"]}: ${r.text}`);
    }
    assert.deepEqual(await tableNames(s.url), []);
  }, { http: { body_limit: 64 * 1024 } });
});

Deno.test("remote write HTTP: is_strict_mode rejects invalid UTF-8 label values; lax mode accepts them", async () => {
  await withServer(async (s) => {
    const r = await post(`${s.url}/v1/metricsapi/write`, utf8Bad("strict_m"), V1);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(await tableNames(s.url), []);
  }, { http: { is_strict_mode: true } });
  const m = uniqueName("lax");
  const r = await post(`${base}/v1/metricsapi/write`, utf8Bad(m), V1);
  assert.equal(r.status, 204, r.text);
  assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${m}`), [[1]]);
});

Deno.test("remote write HTTP: 2.0 errors carry the written counts; 1.0 errors do not", async () => {
  const m = uniqueName("rwconflict");
  // A table whose greptime_value is a string: the remote-write Float64 value cannot go in.
  assert.equal((await post(`${base}/v1/lineproto/write`, `${m} greptime_value="x" 1`)).status, 204);
  const series = [{ labels: { __name__: m }, samples: [{ value: 1, timestampMs: 1 }] }];
  let r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV2(series), V2);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.headers.get("x-prometheus-remote-write-samples-written"), "0");
  assert.equal(r.headers.get("x-prometheus-remote-write-exemplars-written"), "0");
  r = await post(`${base}/v1/metricsapi/write`, encodeSnappy(new Uint8Array([0x2a, 0xff])), V2);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.headers.get("x-prometheus-remote-write-samples-written"), "0");
  r = await post(`${base}/v1/metricsapi/write`, encodeRemoteWriteV1(series), V1);
  assert.equal(r.status, 400, r.text);
  assert.equal(r.headers.get("x-prometheus-remote-write-samples-written"), null);
  assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${m}`), [[1]]);
});
