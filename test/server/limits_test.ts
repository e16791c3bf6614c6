import assert from "node:assert/strict";
import zlib from "node:zlib";
import { readBodyLimited } from "../../src/http/body.ts";
import { startTestServer } from "../helpers/server.ts";

/** A body sent as a chunked stream (no Content-Length), `chunks` pieces with `delayMs` between them. */
function slowBody(chunks: Uint8Array[], delayMs = 0): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

Deno.test("body limit: 413 JSON while streaming, also for chunked uploads without Content-Length", async () => {
  const s = await startTestServer({ http: { body_limit: 1024 } });
  try {
    const chunk = new TextEncoder().encode("x".repeat(300));
    const res = await fetch(s.url + "/debug/log_level", {
      method: "POST",
      body: slowBody([chunk, chunk, chunk, chunk, chunk]),
      // @ts-ignore: Deno's fetch streams request bodies with duplex "half"
      duplex: "half",
    });
    assert.equal(res.status, 413);
    assert.match((await res.json()).error, /length limit exceeded/);

    const declared = await fetch(s.url + "/debug/log_level", { method: "POST", body: "y".repeat(2000) });
    assert.equal(declared.status, 413);
    await declared.body?.cancel();

    const under = await fetch(s.url + "/debug/log_level", { method: "POST", body: "info" + " ".repeat(900) });
    assert.equal(under.status, 200);
    await under.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("Content-Encoding gzip, zstd, deflate and br are decoded once for every endpoint", async () => {
  const s = await startTestServer();
  try {
    const body = new TextEncoder().encode("warn");
    const encoded: Record<string, Uint8Array> = {
      gzip: zlib.gzipSync(body),
      zstd: zlib.zstdCompressSync(body),
      deflate: zlib.deflateSync(body),
      br: zlib.brotliCompressSync(body),
    };
    for (const [encoding, bytes] of Object.entries(encoded)) {
      const res = await fetch(s.url + "/debug/log_level", {
        method: "POST",
        body: new Uint8Array(bytes),
        headers: { "content-encoding": encoding },
      });
      assert.equal(res.status, 200, encoding);
      assert.match(await res.text(), /to warn$/, encoding);
    }
    const bad = await fetch(s.url + "/debug/log_level", {
      method: "POST",
      body: new Uint8Array([1, 2, 3, 4]),
      headers: { "content-encoding": "gzip" },
    });
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error, /Failed to decompress gzip request body/);
  } finally {
    await s.stop();
  }
});

Deno.test("a truncated compressed body is a 400 in every codec, and nothing of it is written", async () => {
  const s = await startTestServer();
  try {
    const lines = new TextEncoder().encode(
      Array.from({ length: 200 }, (_, i) => `cut,host=h${i} v=${i} ${1_700_000_000_000 + i}`).join("\n"),
    );
    const codecs: [string, (b: Uint8Array) => Uint8Array][] = [
      ["gzip", zlib.gzipSync],
      ["deflate", zlib.deflateSync],
      ["br", zlib.brotliCompressSync],
      ["zstd", zlib.zstdCompressSync],
    ];
    for (const [encoding, compress] of codecs) {
      const packed = compress(lines);
      const res = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, {
        method: "POST",
        body: new Uint8Array(packed.subarray(0, packed.length - 2)),
        headers: { "content-encoding": encoding },
      });
      assert.equal(res.status, 400, encoding);
      assert.match(
        (await res.json()).error,
        new RegExp(`Failed to decompress (${encoding}|gzip) request body`),
      );
    }
    const tables = await fetch(`${s.url}/v1/sql`, {
      method: "POST",
      body: new URLSearchParams({ sql: "SHOW TABLES" }),
    });
    const names = (await tables.json()).output[0].records.rows.flat();
    assert.ok(!names.includes("cut"), `no partial body was written: ${names}`);
  } finally {
    await s.stop();
  }
});

Deno.test("a compressed body that inflates past body_limit is refused with 413", async () => {
  const s = await startTestServer({ http: { body_limit: 64 * 1024 } });
  try {
    for (const [encoding, compress] of [["gzip", zlib.gzipSync], ["zstd", zlib.zstdCompressSync]] as const) {
      const bomb = compress(new Uint8Array(50 * 1024 * 1024));
      assert.ok(bomb.length < 64 * 1024, "the bomb itself is under the limit");
      const res = await fetch(s.url + "/debug/log_level", {
        method: "POST",
        body: new Uint8Array(bomb),
        headers: { "content-encoding": encoding },
      });
      assert.equal(res.status, 413, encoding);
      assert.match((await res.json()).error, /length limit exceeded/);
    }
  } finally {
    await s.stop();
  }
});

Deno.test("request timeout: 408 on a slow request, from config or x-greptime-timeout", async () => {
  const s = await startTestServer({ http: { timeout: 300 } });
  try {
    const chunk = new TextEncoder().encode("i");
    const slow = () => slowBody([chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk], 100);
    const started = performance.now();
    let res = await fetch(s.url + "/debug/log_level", {
      method: "POST",
      body: slow(),
      // @ts-ignore: streaming request body
      duplex: "half",
    });
    assert.equal(res.status, 408);
    assert.match((await res.json()).error, /timed out after 300ms/);
    assert.ok(performance.now() - started < 900, "answered at the deadline, not after the body");

    res = await fetch(s.url + "/debug/log_level", {
      method: "POST",
      body: slow(),
      headers: { "x-greptime-timeout": "0s" },
      // @ts-ignore: streaming request body
      duplex: "half",
    });
    assert.equal(res.status, 400, "no timeout: the whole (bad) body was read and judged");
    await res.body?.cancel();

    res = await fetch(s.url + "/debug/log_level", {
      method: "POST",
      body: slow(),
      headers: { "x-greptime-timeout": "150ms" },
      // @ts-ignore: streaming request body
      duplex: "half",
    });
    assert.equal(res.status, 408);
    assert.match((await res.json()).error, /150ms/);
  } finally {
    await s.stop();
  }
});

Deno.test("request timeout: remote write and shippers' writes answer 504 (their senders retry 5xx, drop 408)", async () => {
  const s = await startTestServer({ http: { timeout: 0 } });
  try {
    const chunk = new TextEncoder().encode("x");
    const writes = [
      "/v1/prometheus/write",
      "/v1/metricsapi/write",
      // Shippers' write paths: their senders drop a batch answered 408 (see Route.timeoutIsGatewayTimeout).
      "/v1/influxdb/write",
      "/v1/influxdb/api/v2/write",
      "/v1/otlp/v1/logs",
      "/v1/otlp/v1/metrics",
      "/v1/otlp/v1/traces",
      "/v1/loki/api/v1/push",
      "/v1/ingest?table=t&pipeline_name=greptime_identity",
      "/v1/events/logs?table=t&pipeline_name=greptime_identity",
      "/v1/elasticsearch/_bulk",
      "/v1/elasticsearch/t/_bulk",
    ];
    for (const path of writes) {
      const type = path.includes("/otlp/") ? "application/x-protobuf" : "application/json";
      const res = await fetch(s.url + path, {
        method: "POST",
        body: slowBody([chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk], 100),
        headers: {
          "x-greptime-timeout": "150ms",
          "content-type": type,
          ...(path.endsWith("/traces") ? { "x-greptime-pipeline-name": "greptime_trace_v1" } : {}),
        },
        // @ts-ignore: streaming request body
        duplex: "half",
      });
      assert.equal(res.status, 504, path);
      assert.match((await res.json()).error, /timed out after 150ms/);
    }
    const other = await fetch(s.url + "/v1/sql", {
      method: "POST",
      body: slowBody([chunk, chunk, chunk, chunk, chunk, chunk, chunk, chunk], 100),
      headers: { "x-greptime-timeout": "150ms", "content-type": "application/x-www-form-urlencoded" },
      // @ts-ignore: streaming request body
      duplex: "half",
    });
    assert.equal(other.status, 408, "every other endpoint keeps 408");
    await other.body?.cancel();
  } finally {
    await s.stop();
  }
});

Deno.test("readBodyLimited: a body read for a worker lands in shared memory, whole and unchanged", async () => {
  const bytes = new TextEncoder().encode("m f=1 1\n".repeat(20_000));
  const post = () =>
    new Request("http://x/", {
      method: "POST",
      body: bytes,
      headers: { "content-length": String(bytes.length) },
    });
  const shared = await readBodyLimited(post(), 0, true);
  assert.ok(shared.buffer instanceof SharedArrayBuffer);
  assert.deepEqual(new Uint8Array(shared), bytes);
  const plain = await readBodyLimited(post(), 0);
  assert.ok(plain.buffer instanceof ArrayBuffer);
  assert.deepEqual(plain, bytes);
  // Still held to the limit.
  await assert.rejects(
    readBodyLimited(post(), 1000, true),
    /length limit exceeded/,
  );
});
