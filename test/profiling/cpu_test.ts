import assert from "node:assert/strict";
import { spawnServer, startTestServer } from "../helpers/server.ts";
import { waitFor } from "../helpers/debian.ts";
import { cpuProfileRunning } from "../../src/profiling/mod.ts";
import { busyUntil, decodePprofBody, parseFlamegraph } from "./helpers.ts";

// A distinctive name the profiles must show: the test burns CPU in it while the server samples.
function petrelTestBusyLoop(): void {
  let x = 0;
  for (let i = 0; i < 20_000; i++) x += Math.sqrt(i + x);
  if (x < 0) throw new Error("unreachable");
}

Deno.test("POST /debug/prof/cpu: pprof, text and flamegraph of the running process", async (t) => {
  const s = await startTestServer();
  const profile = (query: string) =>
    busyUntil(fetch(`${s.url}/debug/prof/cpu?${query}`, { method: "POST" }), petrelTestBusyLoop);
  try {
    await t.step("proto (the default): a gzipped pprof profile that pprof-format decodes", async () => {
      const res = await profile("seconds=0.5&frequency=200");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/octet-stream");
      assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename=".*\.pb\.gz"/);
      const { profile: p, sampleTypes, functionNames } = decodePprofBody(
        new Uint8Array(await res.arrayBuffer()),
      );
      assert.deepEqual(sampleTypes, ["samples/count", "cpu/nanoseconds"]);
      assert.equal(Number(p.period), Math.round(1e9 / 200), "period is 1/frequency in ns");
      const strings = p.stringTable.strings;
      assert.equal(
        `${strings[Number(p.periodType!.type)]}/${strings[Number(p.periodType!.unit)]}`,
        "cpu/nanoseconds",
      );
      assert.ok(Number(p.durationNanos) >= 0.4e9, `duration ${p.durationNanos} covers the half second`);
      assert.ok(Number(p.timeNanos) > 1.6e18, "start time is wall-clock ns");
      assert.ok(p.sample.length > 0, "has samples");
      const counted = p.sample.reduce((n, x) => n + Number(x.value[0]), 0);
      assert.ok(counted >= 10, `at 200 Hz for 0.5 s there are many samples (got ${counted})`);
      assert.ok(
        functionNames.has("petrelTestBusyLoop"),
        `busy function sampled: ${[...functionNames].slice(0, 20)}`,
      );
    });

    await t.step("text: top tables by self and by total time", async () => {
      const res = await profile("seconds=0.4&output=text&frequency=250");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type")!, /^text\/plain/);
      const text = await res.text();
      assert.match(text, /^Petrel CPU profile\nType: cpu \(nanoseconds\)\n/);
      assert.match(text, /Top \d+ by self \(flat\) cpu:\n\s+flat\s+flat%\s+sum%\s+cum\s+cum%\s+function\n/);
      assert.match(text, /Top \d+ by total \(cum\) cpu:/);
      const row = text.split("\n").find((l) => l.includes("petrelTestBusyLoop"));
      assert.ok(row, "busy function listed");
      assert.match(
        row!,
        /^\s+[\d.]+ (s|ms|µs|ns)\s+[\d.]+%\s+[\d.]+%\s+[\d.]+ (s|ms|µs|ns)\s+[\d.]+%\s+petrelTestBusyLoop \(file:/,
      );
    });

    await t.step("flamegraph: a well-formed SVG with a frame per function", async () => {
      const res = await profile("seconds=0.4&output=flamegraph&frequency=250");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "image/svg+xml");
      const svg = parseFlamegraph(await res.text());
      assert.equal(svg.width, 1200);
      assert.ok(svg.titles.length > 1);
      assert.match(svg.titles[0], /^all: /, "the bottom frame is the whole profile");
      assert.ok(svg.titles.some((x) => x.startsWith("petrelTestBusyLoop (file:")), "busy function drawn");
    });

    await t.step("bad parameters answer 400 naming the parameter", async () => {
      const cases: [string, string][] = [
        ["seconds=abc", "seconds"],
        ["seconds=0", "seconds"],
        ["seconds=-1", "seconds"],
        ["seconds=301", "seconds"],
        ["frequency=0", "frequency"],
        ["frequency=1.5", "frequency"],
        ["frequency=100000", "frequency"],
        ["output=pdf", "output"],
      ];
      for (const [query, param] of cases) {
        const res = await fetch(`${s.url}/debug/prof/cpu?${query}`, { method: "POST" });
        assert.equal(res.status, 400, query);
        const body = await res.json();
        assert.match(body.error, new RegExp(`^Invalid request parameter: ${param} must be`), query);
      }
      assert.equal(cpuProfileRunning(), false, "no profile was started by a bad request");
    });

    await t.step("a second profile while one runs answers 409", async () => {
      const first = fetch(`${s.url}/debug/prof/cpu?seconds=1&output=text`, { method: "POST" });
      assert.ok(await waitFor(() => Promise.resolve(cpuProfileRunning() || null), 10_000), "first started");
      const second = await fetch(`${s.url}/debug/prof/cpu?seconds=0.1`, { method: "POST" });
      assert.equal(second.status, 409);
      assert.match((await second.json()).error, /already being taken/);
      const done = await first;
      assert.equal(done.status, 200);
      assert.match(await done.text(), /^Petrel CPU profile/);
      assert.equal(cpuProfileRunning(), false);
    });

    await t.step("GET is not allowed", async () => {
      const res = await fetch(`${s.url}/debug/prof/cpu`);
      assert.equal(res.status, 405);
      await res.body?.cancel();
    });
  } finally {
    await s.stop();
  }
});

Deno.test("a CPU profile stops when its client goes away, freeing the profiler", async () => {
  const s = await startTestServer();
  try {
    const abort = new AbortController();
    const req = fetch(`${s.url}/debug/prof/cpu?seconds=60`, { method: "POST", signal: abort.signal });
    assert.ok(await waitFor(() => Promise.resolve(cpuProfileRunning() || null), 10_000), "started");
    abort.abort();
    await req.catch(() => {});
    assert.ok(
      await waitFor(() => Promise.resolve(!cpuProfileRunning() || null), 10_000),
      "stopped well before 60 s",
    );
  } finally {
    await s.stop();
  }
});

Deno.test("a CPU profile's use of request.signal draws no legacy-abort warning from Deno", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_prof_" });
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
  try {
    const r = await fetch(`${server.url}/debug/prof/cpu?seconds=1&output=proto`, { method: "POST" });
    assert.equal(r.status, 200);
    await r.arrayBuffer();
  } finally {
    await server.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
  // Deno.serve warns once when a handler touches request.signal without `unstable: no-legacy-abort`.
  assert.doesNotMatch(server.stderr(), /legacy behavior/);
});
