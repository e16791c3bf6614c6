/**
 * A real Prometheus (Debian's package) against Petrel: it scrapes itself and remote-writes to us
 * (samples must become queryable in SQL), and it answers PromQL from data only Petrel holds, fetched
 * through remote read. Skipped with a printed reason when the package cannot be had.
 */
import assert from "node:assert/strict";
import { ensureDebianBinary, freePort, waitFor } from "../helpers/debian.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { post, sqlRows } from "./util.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

const PROMETHEUS = await ensureDebianBinary("prometheus", "prometheus");

interface Prom {
  url: string;
  log(): Promise<string>;
  stop(): Promise<void>;
}

async function startPrometheus(config: string): Promise<Prom> {
  const dir = await Deno.makeTempDir({ prefix: "petrel_prom_" });
  await Deno.writeTextFile(`${dir}/prometheus.yml`, config);
  const port = freePort();
  const logFile = await Deno.open(`${dir}/log`, { write: true, create: true });
  const child = new Deno.Command(PROMETHEUS!, {
    args: [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  child.stderr.pipeTo(logFile.writable).catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const prom: Prom = {
    url,
    log: () => Deno.readTextFile(`${dir}/log`).catch(() => ""),
    stop: async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
  const ready = await waitFor(async () => {
    const r = await fetch(`${url}/-/ready`);
    await r.body?.cancel();
    return r.status === 200 ? true : null;
  }, 30_000);
  if (!ready) {
    const log = await prom.log();
    await prom.stop();
    throw new Error(`prometheus did not become ready:\n${log.slice(-3000)}`);
  }
  return { ...prom, url };
}

async function withBoth(
  config: (petrel: TestServer) => string,
  fn: (petrel: TestServer, prom: Prom) => Promise<void>,
) {
  const petrel = await startTestServer();
  let prom: Prom | undefined;
  try {
    prom = await startPrometheus(config(petrel));
    await fn(petrel, prom);
  } catch (e) {
    if (prom) console.error((await prom.log()).slice(-3000));
    throw e;
  } finally {
    await prom?.stop();
    await petrel.stop();
  }
}

Deno.test({
  name: "real Prometheus remote-writes its own scrape into Petrel; SQL sees the samples",
  ignore: PROMETHEUS === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withBoth(
      (petrel) => {
        const self = new URL(petrel.url);
        return `global:
  scrape_interval: 1s
  external_labels: { replica: promA }
scrape_configs:
  - job_name: prom_self
    static_configs: [{ targets: ['127.0.0.1:${self.port}'] }]
    metrics_path: /metrics
remote_write:
  - url: ${petrel.url}/v1/prometheus/write?db=public
    remote_timeout: 10s
    queue_config: { batch_send_deadline: 1s, max_shards: 1, min_backoff: 100ms, max_backoff: 1s }
`;
      },
      async (petrel) => {
        // Prometheus scrapes Petrel's own /metrics (job prom_self) and sends `up` among the rest.
        const rows = await waitFor(
          async () => {
            const r = await fetch(
              `${petrel.url}/v1/sql?sql=${
                encodeURIComponent("SELECT job, instance, replica, greptime_value FROM up")
              }`,
            );
            const body = await r.json();
            const got = body.output?.[0]?.records?.rows as unknown[][] | undefined;
            return got && got.length > 0 ? got : null;
          },
          90_000,
          500,
        );
        assert.ok(rows, "no `up` samples arrived within 90 s");
        const self = new URL(petrel.url);
        assert.deepEqual(rows[0], ["prom_self", `127.0.0.1:${self.port}`, "promA", 1]);
        const desc = await sqlRows(petrel.url, "DESC TABLE up");
        assert.deepEqual(desc.map((r) => r[0]), [
          "greptime_timestamp",
          "greptime_value",
          "instance",
          "job",
          "replica",
        ]);
        // Scrape-internal series arrive as well (e.g. scrape_samples_scraped).
        const n = await sqlRows(petrel.url, "SELECT count(*) FROM scrape_samples_scraped");
        assert.ok(Number(n[0][0]) >= 1);
      },
    ),
});

Deno.test({
  name:
    "real Prometheus answers PromQL from Petrel-only data through remote read; a failing endpoint is a warning",
  ignore: PROMETHEUS === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withBoth(
      (petrel) =>
        `global:
  scrape_interval: 1h
  external_labels: { replica: promA }
remote_read:
  - url: ${petrel.url}/v1/prometheus/read?db=public
    read_recent: true
  # A database Petrel does not have: its 4xx must reach the query as a warning, not an error.
  - url: ${petrel.url}/v1/prometheus/read?db=no_such_db
    read_recent: true
`,
      async (petrel, prom) => {
        const now = Date.now();
        const samples = (base: number) =>
          Array.from({ length: 10 }, (_, i) => ({ value: base + i, timestampMs: now - (9 - i) * 10_000 }));
        const series = [
          { labels: { __name__: "petrel_only", replica: "promA", x: "1" }, samples: samples(0) },
          { labels: { __name__: "petrel_only", replica: "promA", x: "2" }, samples: samples(100) },
          // Lacks the external label: Prometheus' matcher keeps it out.
          { labels: { __name__: "petrel_only", replica: "other", x: "3" }, samples: samples(1000) },
        ];
        const w = await post(`${petrel.url}/v1/metricsapi/write`, encodeRemoteWriteV1(series), {
          "content-type": "application/x-protobuf",
          "content-encoding": "snappy",
        });
        assert.equal(w.status, 204, w.text);
        const query = async (q: string) => {
          const r = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}&time=${now / 1000}`);
          const body = await r.json();
          assert.equal(r.status, 200, JSON.stringify(body));
          // Only the endpoint naming a missing database fails, and Prometheus says why.
          assert.equal(body.warnings?.length, 1, JSON.stringify(body.warnings));
          assert.match(
            body.warnings[0],
            /^remote_read: remote server http:\/\/127\.0\.0\.1:\d+\/v1\/prometheus\/read\?db=no_such_db returned HTTP status 400 Bad Request: .*Database not found: no_such_db/,
          );
          return body.data.result as { metric: Record<string, string>; value: [number, string] }[];
        };
        const instant = await query("petrel_only");
        assert.deepEqual(
          instant.map((r) => [r.metric, r.value[1]]).sort((a, b) =>
            JSON.stringify(a).localeCompare(JSON.stringify(b))
          ),
          [[{ __name__: "petrel_only", x: "1" }, "9"], [{ __name__: "petrel_only", x: "2" }, "109"]],
        );
        assert.deepEqual((await query("sum(petrel_only)")).map((r) => r.value[1]), ["118"]);
        assert.deepEqual((await query('count_over_time(petrel_only{x="2"}[5m])')).map((r) => r.value[1]), [
          "10",
        ]);
        assert.deepEqual(await query("no_such_metric_anywhere"), []);
      },
    ),
});
