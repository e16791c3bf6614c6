import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { startTestServer } from "../helpers/server.ts";
import { decodePprofBody, parseFlamegraph } from "./helpers.ts";

// Allocations the heap profile must attribute to this function while they are alive.
let retained: unknown[] = [];
function petrelTestAllocate(): void {
  for (let i = 0; i < 200_000; i++) retained.push({ i, text: `row ${i}`, list: [i, i + 1, i + 2] });
}

Deno.test("heap profiling: status, activate, dump in three formats, deactivate", async (t) => {
  const s = await startTestServer();
  const post = (path: string, init: RequestInit = {}) => fetch(s.url + path, { method: "POST", ...init });
  try {
    await t.step("inactive at start; a dump then answers 409 naming activate", async () => {
      const status = await fetch(s.url + "/debug/prof/mem/status");
      assert.equal(status.status, 200);
      assert.equal(await status.text(), `{"active": false}`);
      const dump = await post("/debug/prof/mem");
      assert.equal(dump.status, 409);
      assert.match((await dump.json()).error, /POST \/debug\/prof\/mem\/activate/);
    });

    await t.step("activate, then status says active", async () => {
      const res = await post("/debug/prof/mem/activate");
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "Heap profiling activated");
      assert.equal(
        await (await post("/debug/prof/mem/activate")).text(),
        "Heap profiling activated",
        "idempotent",
      );
      assert.deepEqual(await (await fetch(s.url + "/debug/prof/mem/status")).json(), { active: true });
      petrelTestAllocate();
    });

    let proto = new Uint8Array();
    await t.step("proto: inuse objects and space, with the allocating function", async () => {
      const res = await post("/debug/prof/mem?output=proto");
      assert.equal(res.status, 200);
      proto = new Uint8Array(await res.arrayBuffer());
      const { profile, sampleTypes, functionNames } = decodePprofBody(proto);
      assert.deepEqual(sampleTypes, ["inuse_objects/count", "inuse_space/bytes"]);
      assert.ok(profile.sample.length > 0);
      assert.ok(
        functionNames.has("petrelTestAllocate"),
        `allocator sampled: ${[...functionNames].slice(0, 20)}`,
      );
      const bytes = profile.sample.reduce((n, x) => n + Number(x.value[1]), 0);
      assert.ok(bytes > 1_000_000, `sampled live bytes (${bytes}) reflect the retained objects`);
    });

    await t.step("text (the default)", async () => {
      const res = await post("/debug/prof/mem");
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.match(text, /^Petrel heap profile\nType: inuse_space \(bytes\)\n/);
      assert.match(text, /Top \d+ by self \(flat\) inuse_space:/);
      assert.match(
        text,
        /(KiB|MiB)\s+[\d.]+%\s+[\d.]+%\s+[\d.]+ (B|KiB|MiB)\s+[\d.]+%\s+petrelTestAllocate \(file:/,
      );
    });

    await t.step("flamegraph", async () => {
      const res = await post("/debug/prof/mem?output=flamegraph");
      assert.equal(res.headers.get("content-type"), "image/svg+xml");
      const svg = parseFlamegraph(await res.text());
      assert.ok(svg.titles.some((x) => x.startsWith("petrelTestAllocate (file:")));
      assert.match(svg.titles[0], /^all: [\d.]+ (KiB|MiB|GiB)/);
    });

    await t.step("bad output answers 400 naming output", async () => {
      const res = await post("/debug/prof/mem?output=svg");
      assert.equal(res.status, 400);
      assert.match((await res.json()).error, /output must be one of proto, text, flamegraph/);
    });

    await t.step("symbol: an uploaded pprof (gzipped or not) becomes a flamegraph", async () => {
      for (const body of [proto, new Uint8Array(gunzipSync(proto))]) {
        const res = await post("/debug/prof/mem/symbol", { body });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "image/svg+xml");
        const svg = parseFlamegraph(await res.text());
        assert.ok(svg.titles.some((x) => x.startsWith("petrelTestAllocate (file:")));
      }
      const form = new FormData();
      form.append("file", new Blob([proto]), "heap.pb.gz");
      const multipart = await post("/debug/prof/mem/symbol", { body: form });
      assert.equal(multipart.status, 200, "a multipart upload (curl -F) works too");
      parseFlamegraph(await multipart.text());
      const text = await post("/debug/prof/mem/symbol?output=text", { body: proto });
      assert.match(await text.text(), /petrelTestAllocate/);
    });

    await t.step("deactivate", async () => {
      const res = await post("/debug/prof/mem/deactivate");
      assert.equal(await res.text(), "Heap profiling deactivated");
      assert.equal(await (await fetch(s.url + "/debug/prof/mem/status")).text(), `{"active": false}`);
      assert.equal((await post("/debug/prof/mem")).status, 409);
      retained = [];
    });
  } finally {
    await post("/debug/prof/mem/deactivate").then((r) => r.body?.cancel());
    await s.stop();
  }
});

Deno.test("gdump keeps its flag: GET reports it, POST form field activate sets it", async () => {
  const s = await startTestServer();
  const post = (path: string, init: RequestInit = {}) => fetch(s.url + path, { method: "POST", ...init });
  try {
    assert.equal(await (await fetch(s.url + "/debug/prof/mem/gdump")).text(), `{"active": false}`);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const on = await post("/debug/prof/mem/gdump", { headers: form, body: "activate=true" });
    assert.equal(await on.text(), "gdump activated");
    assert.deepEqual(await (await fetch(s.url + "/debug/prof/mem/gdump")).json(), { active: true });
    const off = await post("/debug/prof/mem/gdump", { headers: form, body: "activate=false" });
    assert.equal(await off.text(), "gdump deactivated");
    for (const body of ["activate=yes", "", "active=true"]) {
      const bad = await post("/debug/prof/mem/gdump", { headers: form, body });
      assert.equal(bad.status, 400, body);
      assert.match((await bad.json()).error, /form field activate must be true or false/);
    }
  } finally {
    await s.stop();
  }
});
