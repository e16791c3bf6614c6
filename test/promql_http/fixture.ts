/**
 * A Petrel loaded with a small known data set for the PromQL HTTP tests: metrics by remote write
 * (metric engine) and a line-protocol table, ten minutes of samples 15 s apart from T.
 */
import assert from "node:assert/strict";
import type { Series } from "../../src/common/series.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { remoteWrite } from "../promql/prom_compare.ts";

/** The first sample's time (ms); samples at T + k × 15 s, k = 0…39. */
export const T = 1_700_000_000_000;
export const STEP_MS = 15_000, N = 40;
/** An instant where every series has a sample within the lookback (T + 5 min). */
export const MID = T + 300_000;

function counter(labels: Record<string, string>, perStep: number): Series {
  return {
    labels,
    samples: Array.from(
      { length: N },
      (_, k) => ({ timestampMs: T + k * STEP_MS, value: 1000 + k * perStep }),
    ),
  };
}

/** The remote-written series. */
export function fixtureSeries(): Series[] {
  return [
    counter({ __name__: "http_requests_total", instance: "i-1", job: "api" }, 15),
    counter({ __name__: "http_requests_total", instance: "i-2", job: "api" }, 30),
    counter({ __name__: "http_requests_total", instance: "i-3", job: "web" }, 45),
    {
      labels: { __name__: "up", instance: "i-1", job: "api" },
      samples: Array.from({ length: N }, (_, k) => ({ timestampMs: T + k * STEP_MS, value: 1 })),
    },
  ];
}

/** Line protocol for table `cpu` (tags host; fields usage, idle), one row per host per step, in seconds. */
export function fixtureLines(): string {
  const lines: string[] = [];
  for (let k = 0; k < N; k++) {
    const s = (T + k * STEP_MS) / 1000;
    lines.push(
      `cpu,host=a usage=${k},idle=${100 - k} ${s}`,
      `cpu,host=b usage=${2 * k},idle=${100 - 2 * k} ${s}`,
    );
  }
  return lines.join("\n");
}

/** Starts Petrel and loads the fixture into `public` (and `http_requests_total` into database `other`). */
export async function startLoadedServer(
  overrides: Parameters<typeof startTestServer>[0] = {},
): Promise<TestServer> {
  const s = await startTestServer(overrides);
  try {
    await remoteWrite(s.url, fixtureSeries(), "/v1/prometheus/write");
    const res = await fetch(`${s.url}/v1/influxdb/write?precision=s`, {
      method: "POST",
      body: fixtureLines(),
    });
    if (res.status !== 204) throw new Error(`line protocol write: ${res.status} ${await res.text()}`);
    const create = await fetch(`${s.url}/v1/sql?sql=CREATE+DATABASE+other`, { method: "POST" });
    if (!create.ok) throw new Error(`create database: ${await create.text()}`);
    await remoteWrite(s.url, fixtureSeries().slice(0, 1), "/v1/prometheus/write?db=other");
  } catch (e) {
    await s.stop();
    throw e;
  }
  return s;
}

/** Seconds as Prometheus' API parameters write them. */
export const secs = (ms: number) => String(ms / 1000);

/** One request to the Prometheus API and what must come back. */
export interface Case {
  name: string;
  /** Path under `/v1/prometheus/api/v1/` (or `/v1/metricsapi/api/v1/` when `spec` is set). */
  path: string;
  params?: Record<string, string | string[]>;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  spec?: boolean;
  status?: number;
  /** The exact body, or a check of the parsed one. */
  body?: string | ((b: { status: string; data: unknown; errorType?: string; error?: string }) => void);
}

/** Runs a case table against a loaded server, one test step per case. */
export async function runCases(t: Deno.TestContext, url: string, cases: Case[]): Promise<void> {
  for (const c of cases) {
    await t.step(c.name, async () => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(c.params ?? {})) for (const x of [v].flat()) params.append(k, x);
      const base = `${url}/v1/${c.spec ? "metricsapi" : "prometheus"}/api/v1/${c.path}`;
      const res = c.method === "POST"
        ? await fetch(base, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...c.headers },
          body: params.toString(),
        })
        : await fetch(`${base}?${params}`, { headers: c.headers });
      const text = await res.text();
      assert.equal(res.status, c.status ?? 200, text);
      if (res.status !== 405) assert.equal(res.headers.get("content-type"), "application/json");
      if (typeof c.body === "string") assert.equal(text, c.body);
      else if (c.body) c.body(JSON.parse(text));
    });
  }
}
