/**
 * PromQL off the main thread, through the real server: while a long PromQL query evaluates, a
 * line-protocol write is acknowledged and a cheap PromQL query sees it (evaluated on the main
 * thread, the long query held both until it ended); long queries (the HTTP API's, TQL EVAL's) still end
 * by their timeout with their errors, and queries read what was written since the worker last looked (new series, new
 * tables, samples compaction has not reached).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { waitFor } from "../helpers/debian.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

/** About 1.5 s per hour of subquery range at 1 ms steps: minutes here, so it ends by its timeout. */
const LONG = "sum_over_time(vector(1)[72h:1ms])";

type PromAnswer = {
  status: number;
  body: { status: string; errorType?: string; data?: { result: unknown[] } };
};

Deno.test("a write and a cheap PromQL query are answered while a long PromQL query runs", async () => {
  const server = await startTestServer();
  const query = async (params: Record<string, string>): Promise<PromAnswer> => {
    const r = await fetch(`${server.url}/v1/prometheus/api/v1/query?${new URLSearchParams(params)}`);
    return { status: r.status, body: await r.json() };
  };
  const write = async (body: string) => {
    const r = await fetch(`${server.url}/v1/influxdb/write?precision=ms`, { method: "POST", body });
    assert.equal(r.status, 204, await r.text());
  };
  try {
    const now = Date.now();
    await write(`pw_cpu,host=a v=1 ${now - 1000}`);
    // the worker has opened the database and seen the table
    const cheap = (time: number) => query({ query: '{__name__=~"pw_.*"}', time: String(time / 1000) });
    assert.equal((await cheap(now)).body.data?.result.length, 1);

    // each long query takes one of the two threads that are not kept for quick queries
    const longQueries: Array<[string, () => Promise<Response>]> = [
      [
        "the HTTP API",
        () =>
          fetch(
            `${server.url}/v1/prometheus/api/v1/query?${new URLSearchParams({ query: LONG, timeout: "3s" })}`,
          ),
      ],
      ["TQL EVAL", () =>
        fetch(`${server.url}/v1/sql`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", "x-greptime-timeout": "3s" },
          body: new URLSearchParams({ sql: `TQL EVAL (0, 10, '5') ${LONG}` }),
        })],
    ];
    const ends: number[] = [];
    for (const [i, [name, send]] of longQueries.entries()) {
      const settled: string[] = [];
      const long = send().then(async (
        r,
      ) => (settled.push("long"), { status: r.status, body: await r.json() }));
      // the long query is under way (it takes seconds whichever thread evaluates it)
      await new Promise((r) => setTimeout(r, 500));
      await write(`pw_cpu,host=b${i} v=2 ${now}`);
      settled.push("write");
      const seen = await cheap(now + 1000);
      settled.push("cheap");
      assert.deepEqual(
        settled,
        ["write", "cheap"],
        `the write or the cheap query waited for ${name}'s long query`,
      );
      assert.equal(seen.body.data?.result.length, 2 + i, JSON.stringify(seen.body));
      ends.push((await long).status);
    }
    // each ends by its timeout: the HTTP API's parameter (Prometheus' 503), the request's (408)
    assert.deepEqual(ends, [503, 408]);
  } finally {
    await server.stop();
    await Deno.remove(server.dataHome, { recursive: true });
  }
});

Deno.test("PromQL in a worker reads new series, compacted windows, late samples and the head", async () => {
  const server = await startTestServer();
  const count = async (time: number) => {
    const params = new URLSearchParams({ query: "count_over_time(pw_up[4h])", time: String(time / 1000) });
    const r = await fetch(`${server.url}/v1/prometheus/api/v1/query?${params}`);
    const body = await r.json();
    assert.equal(r.status, 200, JSON.stringify(body));
    const result = body.data.result as Array<{ metric: Record<string, string>; value: [number, string] }>;
    return result.map((s) => [s.metric.job, Number(s.value[1])]);
  };
  const write = async (job: string, times: number[]) => {
    const series = [{
      labels: { __name__: "pw_up", job },
      samples: times.map((t, i) => ({ timestampMs: t, value: i })),
    }];
    const r = await fetch(`${server.url}/v1/prometheus/write`, {
      method: "POST",
      body: encodeRemoteWriteV1(series),
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    assert.equal(r.status, 204, await r.text());
  };
  const compacted = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^petrel_metric_compaction_windows_total (\d+)/m.exec(text)?.[1] ?? 0);
  };
  try {
    const hour = 3_600_000, now = Date.now(), start = Math.floor(now / hour) * hour - 3 * hour;
    const minutes = (from: number, to: number) =>
      Array.from({ length: Math.floor((to - from) / 60_000) }, (_, i) => from + i * 60_000);
    // three hours up to now: the first two windows close and are compacted, the rest stays in the head
    await write("a", minutes(start, now));
    const n = minutes(start, now).length;
    assert.deepEqual(await count(now), [["a", n]]);
    assert.ok(await waitFor(async () => (await compacted()) >= 2 || null, 20_000), "no window was compacted");
    // a series the worker has not seen, and a late sample into a compacted window
    await write("b", minutes(start, now));
    await write("a", [start + 30_000]);
    assert.deepEqual(await count(now), [["a", n + 1], ["b", n]]);
  } finally {
    await server.stop();
    await Deno.remove(server.dataHome, { recursive: true });
  }
});
