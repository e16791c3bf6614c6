import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";

// pipelines.md §12.7: pipeline/request errors are `{"error"}`; insert-stage errors are ErrorResponse.
Deno.test("/v1/ingest: pipeline errors are plain, insert-stage errors carry code and headers", async () => {
  const s = await startTestServer();
  try {
    const ingest = (body: unknown) =>
      fetch(`${s.url}/v1/ingest?table=shape_t&pipeline_name=greptime_identity`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    let res = await fetch(`${s.url}/v1/ingest?table=shape_t&pipeline_name=nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(res.status, 400);
    const plain = await res.json();
    assert.deepEqual(Object.keys(plain), ["error"]);
    assert.equal(res.headers.get("x-greptime-err-code"), null);

    res = await ingest([{ v: 1 }]);
    assert.equal(res.status, 200, await res.text());
    res = await ingest([{ v: "not a number" }]);
    assert.equal(res.status, 400);
    const insert = await res.json();
    assert.equal(insert.code, 1004, JSON.stringify(insert));
    assert.equal(typeof insert.error, "string");
    assert.equal(typeof insert.execution_time_ms, "number");
    assert.equal(res.headers.get("x-greptime-err-code"), "1004");
  } finally {
    await s.stop();
  }
});
