/**
 * Backpressure (issue 14): `[http] max_total_body_memory` bounds request bodies in flight; a request
 * that does not fit is answered 429 with Retry-After before its body is read, and writes nothing; a
 * body larger than the whole budget is a 413. SQLite busy (another connection holding the write
 * lock past busy_timeout) is a 503 with Retry-After, never a 500, while reads go on.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { startTestServer } from "../helpers/server.ts";
import { bodyMemoryOf } from "../../src/http/body_memory.ts";

const BUDGET = 1024 * 1024;

/** Valid line protocol of exactly `size` bytes (blank lines pad it). */
function lineProtocolOf(size: number, measurement: string): string {
  const line = `${measurement},host=a v=1i 1700000000000\n`;
  return line + "\n".repeat(size - line.length);
}

async function count(base: string, table: string): Promise<number> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(`SELECT count(*) FROM ${table}`)}`);
  const body = await r.json();
  if (r.status !== 200) return 0;
  return Number(body.output[0].records.rows[0][0]);
}

Deno.test("max_total_body_memory: a body that does not fit is 429 with Retry-After, and fits once the budget frees", async () => {
  const s = await startTestServer({ http: { max_total_body_memory: BUDGET } });
  const memory = bodyMemoryOf(s.server.app);
  const port = Number(new URL(s.url).port);
  const held = lineProtocolOf(700_000, "held");
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    // An upload that stops after its headers and 10 bytes: its declared 700 000 bytes stay reserved.
    await conn.write(new TextEncoder().encode(
      `POST /v1/influxdb/write?precision=ms HTTP/1.1\r\nhost: x\r\ncontent-length: ${held.length}\r\n\r\n` +
        held.slice(0, 10),
    ));
    for (let i = 0; i < 200 && memory.inUse === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(memory.inUse, held.length);

    const other = lineProtocolOf(400_000, "refused");
    const r = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, { method: "POST", body: other });
    const text = await r.text();
    assert.equal(r.status, 429, text);
    assert.equal(r.headers.get("retry-after"), "1");
    assert.match(text, /Request body memory limit exceeded: .*max_total_body_memory/);
    assert.equal(await count(s.url, "refused"), 0);

    // A chunked upload (no Content-Length) is reserved chunk by chunk and refused the same way.
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(other));
        c.close();
      },
    });
    const r2 = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, { method: "POST", body: chunked });
    assert.equal(r2.status, 429, await r2.text());

    // The held upload completes; its reservation is returned with its answer.
    await conn.write(new TextEncoder().encode(held.slice(10)));
    const reply = new Uint8Array(1024);
    const n = await conn.read(reply);
    assert.match(new TextDecoder().decode(reply.subarray(0, n ?? 0)), /^HTTP\/1\.1 204/);
    assert.equal(memory.inUse, 0);

    const again = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, { method: "POST", body: other });
    assert.equal(again.status, 204, await again.text());
    assert.equal(await count(s.url, "refused"), 1);
    assert.equal(await count(s.url, "held"), 1);

    const huge = await fetch(`${s.url}/v1/influxdb/write`, {
      method: "POST",
      body: lineProtocolOf(BUDGET + 1, "huge"),
    });
    assert.equal(huge.status, 413, await huge.text());
  } finally {
    conn.close();
    await s.stop();
  }
});

Deno.test("SQLite busy: a write blocked past busy_timeout is 503 with Retry-After; reads go on", async () => {
  const s = await startTestServer();
  try {
    const w = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, {
      method: "POST",
      body: "busy,host=a v=1i 1\n",
    });
    assert.equal(w.status, 204);
    // Another process (here: connection) takes the write lock and keeps it.
    const other = new DatabaseSync(join(s.dataHome, "data", "public.sqlite"));
    other.exec("PRAGMA busy_timeout=0; BEGIN IMMEDIATE");
    try {
      const blocked = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, {
        method: "POST",
        body: "busy,host=b v=2i 2\n",
      });
      const text = await blocked.text();
      assert.equal(blocked.status, 503, text);
      assert.equal(blocked.headers.get("retry-after"), "1");
      assert.match(text, /Storage is busy \(database is locked\)/);
      const sqlInsert = await fetch(`${s.url}/v1/sql`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "sql=" +
          encodeURIComponent("INSERT INTO busy (host, v, greptime_timestamp) VALUES ('c', 3, 3)"),
      });
      assert.equal(sqlInsert.status, 503, await sqlInsert.text());
      assert.equal(await count(s.url, "busy"), 1);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const after = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, {
      method: "POST",
      body: "busy,host=b v=2i 2\n",
    });
    assert.equal(after.status, 204);
    assert.equal(await count(s.url, "busy"), 2);
  } finally {
    await s.stop();
  }
});
