import assert from "node:assert/strict";
import { Session } from "node:inspector/promises";
import { startTestServer } from "../helpers/server.ts";
import { parseFlamegraph } from "./helpers.ts";
import { renderProfile, type StackProfile } from "../../src/profiling/mod.ts";

// A hand-made profile whose numbers are known, for the renderers.
const KNOWN: StackProfile = {
  sampleTypes: [{ type: "samples", unit: "count" }, { type: "cpu", unit: "nanoseconds" }],
  samples: [
    {
      stack: [{ name: "main", file: "a.ts", line: 1 }, { name: "parse<T>", file: "a.ts", line: 9 }],
      values: [3, 3e6],
    },
    {
      stack: [{ name: "main", file: "a.ts", line: 1 }, { name: "write & flush", file: "b.ts", line: 2 }],
      values: [1, 1e6],
    },
    { stack: [{ name: "main", file: "a.ts", line: 1 }], values: [1, 1e6] },
  ],
  timeNanos: 0,
  durationNanos: 5e6,
};

Deno.test("renderers: text totals and an escaped SVG from a known profile", () => {
  const text = renderProfile(KNOWN, "text", "Known").body as string;
  assert.match(text, /Duration: 5\.00 ms, samples: 5, total cpu: 5\.00 ms/);
  const parse = text.split("\n").find((l) => l.includes("parse<T> (a.ts:9)"))!;
  assert.match(parse, /^\s+3\.00 ms\s+60\.00%\s+60\.00%\s+3\.00 ms\s+60\.00%\s+parse<T> \(a\.ts:9\)$/);
  const main = text.split("\n").filter((l) => l.includes("main (a.ts:1)"));
  assert.match(main[0], /^\s+1\.00 ms\s+20\.00%\s+[\d.]+%\s+5\.00 ms\s+100\.00%\s+main \(a\.ts:1\)$/);
  const svg = parseFlamegraph(renderProfile(KNOWN, "flamegraph", "Known <profile>").body as string);
  assert.deepEqual(svg.titles, [
    "all: 5.00 ms (100.00%), self 0 ns",
    "main (a.ts:1): 5.00 ms (100.00%), self 1.00 ms",
    "parse<T> (a.ts:9): 3.00 ms (60.00%), self 3.00 ms",
    "write & flush (b.ts:2): 1.00 ms (20.00%), self 1.00 ms",
  ]);
  const empty = parseFlamegraph(
    renderProfile({ ...KNOWN, samples: [] }, "flamegraph", "Empty").body as string,
  );
  assert.deepEqual(empty.titles, []);
});

Deno.test("POST /debug/prof/mem/symbol reads V8 .heapprofile and .cpuprofile JSON, refuses others", async (t) => {
  const s = await startTestServer();
  const upload = (body: BodyInit) => fetch(`${s.url}/debug/prof/mem/symbol`, { method: "POST", body });
  const session = new Session();
  session.connect();
  try {
    await t.step("a .heapprofile written by V8", async () => {
      await session.post("HeapProfiler.enable");
      await session.post("HeapProfiler.startSampling", { samplingInterval: 1024 });
      const keep = Array.from({ length: 20_000 }, (_, i) => ({ i }));
      const { profile } = await session.post("HeapProfiler.stopSampling");
      assert.ok(keep.length > 0);
      const res = await upload(JSON.stringify(profile));
      assert.equal(res.status, 200);
      const svg = parseFlamegraph(await res.text());
      assert.match(svg.titles[0], /^all: [\d.]+ (B|KiB|MiB)/, "heap values are bytes");
    });

    await t.step("a .cpuprofile written by V8", async () => {
      await session.post("Profiler.enable");
      await session.post("Profiler.start");
      const end = performance.now() + 50;
      while (performance.now() < end) Math.sqrt(Math.random());
      const { profile } = await session.post("Profiler.stop");
      const res = await upload(JSON.stringify(profile));
      assert.equal(res.status, 200);
      const svg = parseFlamegraph(await res.text());
      assert.match(svg.titles[0], /^all: [\d.]+ (ns|µs|ms|s) /, "cpu values are time");
    });

    await t.step("anything else: 400 naming the formats read", async () => {
      for (const body of ["", "hello profile", "{}", '{"head": 1}', "{not json", "\x1f\x8bnot gzip"]) {
        const res = await upload(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        const { error } = await res.json();
        assert.match(error, /^Invalid request parameter: /);
        assert.match(
          error,
          /a pprof profile \(profile\.proto, gzipped or not\), a V8 \.heapprofile JSON/,
          body,
        );
      }
    });
  } finally {
    session.disconnect();
    await s.stop();
  }
});
