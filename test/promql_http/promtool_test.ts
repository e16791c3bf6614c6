/**
 * Debian's `promtool query instant|range|labels|series` (Prometheus 2.42's client) against Petrel's
 * `/v1/prometheus` API: promtool speaks POST forms, RFC 3339 and unix times, and prints what it
 * decoded, so a shape it cannot read fails here. `promtool check metrics` lints Petrel's `/metrics`.
 */
import assert from "node:assert/strict";
import { ensureDebianBinary } from "../helpers/debian.ts";
import { MID, secs, startLoadedServer, T } from "./fixture.ts";

const PROMTOOL = await ensureDebianBinary("promtool", "prometheus");

/** Runs promtool with `args`, feeding `stdin` when given. */
async function promtool(args: string[], stdin?: string): Promise<{ code: number; out: string; err: string }> {
  const child = new Deno.Command(PROMTOOL!, {
    args,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout), err: dec.decode(out.stderr) };
}

Deno.test({
  name: "promtool query instant|range|labels|series against Petrel",
  ignore: PROMTOOL === null,
  fn: async (t) => {
    const s = await startLoadedServer();
    const server = `${s.url}/v1/prometheus`;
    try {
      await t.step("instant, JSON output", async () => {
        const r = await promtool([
          "query",
          "instant",
          "-o",
          "json",
          `--time=${new Date(MID).toISOString()}`,
          server,
          'http_requests_total{job="api"}',
        ]);
        assert.equal(r.code, 0, r.err);
        const v = JSON.parse(r.out) as { metric: Record<string, string>; value: [number, string] }[];
        assert.deepEqual(v.map((x) => [x.metric.instance, x.value[1]]), [["i-1", "1300"], ["i-2", "1600"]]);
      });
      await t.step("instant, PromQL text output", async () => {
        const r = await promtool(["query", "instant", `--time=${secs(MID)}`, server, "sum(up)"]);
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out.trim(), `{} => 1 @[${secs(MID)}]`);
      });
      await t.step("range", async () => {
        const r = await promtool([
          "query",
          "range",
          "-o",
          "json",
          `--start=${secs(T + 120_000)}`,
          `--end=${secs(T + 180_000)}`,
          "--step=30s",
          server,
          'rate(http_requests_total{instance="i-2"}[1m])',
        ]);
        assert.equal(r.code, 0, r.err);
        const m = JSON.parse(r.out) as { metric: Record<string, string>; values: [number, string][] }[];
        assert.equal(m.length, 1);
        assert.deepEqual(m[0].metric, { instance: "i-2", job: "api" });
        assert.deepEqual(m[0].values.map((v) => v[0]), [
          (T + 120_000) / 1000,
          (T + 150_000) / 1000,
          (T + 180_000) / 1000,
        ]);
        for (const [, v] of m[0].values) assert.ok(Math.abs(Number(v) - 2) < 1e-9, v);
      });
      await t.step("labels in a time range holding the data, and in promtool's default range", async () => {
        const r = await promtool([
          "query",
          "labels",
          `--start=${T / 1000}`,
          `--end=${MID / 1000}`,
          server,
          "job",
        ]);
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out.trim(), "api\nweb");
        // promtool's default range is about now (the fixture's samples are from 2023): none, as in Prometheus.
        const recent = await promtool(["query", "labels", server, "job"]);
        assert.equal(recent.code, 0, recent.err);
        assert.equal(recent.out.trim(), "");
      });
      await t.step("series with --match and a time range", async () => {
        const r = await promtool([
          "query",
          "series",
          "--match=up",
          '--match=cpu{host="a"}',
          `--start=${new Date(T).toISOString()}`,
          `--end=${new Date(MID).toISOString()}`,
          server,
        ]);
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out.trim(), '{__name__="cpu", host="a"}\n{__name__="up", instance="i-1", job="api"}');
      });
      await t.step("a bad query: promtool prints Prometheus' error", async () => {
        const r = await promtool(["query", "instant", server, "sum("]);
        assert.notEqual(r.code, 0);
        assert.match(
          r.err,
          /bad_data: invalid parameter "query": 1:5: parse error: unclosed left parenthesis/,
        );
      });
      await t.step("check metrics: Petrel's own /metrics passes Prometheus' exposition lint", async () => {
        const page = await (await fetch(`${s.url}/metrics`)).text();
        // The loaded server has written tables, so per-table series are on the page too.
        assert.match(page, /^# TYPE \S+ (counter|gauge|histogram)$/m);
        const r = await promtool(["check", "metrics"], page);
        // GreptimeDB's own counter name, which its Grafana dashboards chart, has no `_total`
        const lint = (r.out + r.err).split("\n").filter((l) =>
          l !== "" && l !== 'greptime_table_operator_ingest_rows counter metrics should have "_total" suffix'
        );
        assert.deepEqual(lint, []);
      });
    } finally {
      await s.stop();
    }
  },
});
