/**
 * Comparing query answers with a real Prometheus: a Prometheus process loaded by remote write, and
 * a comparison of two Prometheus API responses (same label sets; floats within 1e-9 relative;
 * NaN and infinities equal; order only where the query orders).
 * The "Petrel side" is any function from a query and a time (or range) to an API response, so the
 * same comparison can run against the engine directly or through Petrel's HTTP API.
 */
import type { Series } from "../../src/common/series.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import type { PromQLEngine } from "../../src/promql/engine.ts";
import { promQLResultJson } from "../../src/promql/encode.ts";
import { promErrorType } from "../../src/promql/errors.ts";
import { ensureDebianBinary, freePort, waitFor } from "../helpers/debian.ts";

/** When to evaluate: an instant, or a range. */
export type When = { time: number } | { start: number; end: number; step: number };

/** A Prometheus API response body of `/query` or `/query_range`. */
export interface ApiResponse {
  status: "success" | "error";
  data?: { resultType: string; result: unknown };
  errorType?: string;
  error?: string;
}

/** Anything that answers queries like Prometheus' API. */
export type QuerySide = (query: string, when: When) => Promise<ApiResponse>;

/** The engine as a {@link QuerySide}: results and errors in the API's shapes. */
export function engineSide(engine: PromQLEngine): QuerySide {
  return async (query: string, when: When): Promise<ApiResponse> => {
    try {
      const r = "time" in when
        ? await engine.instantQuery(query, when.time)
        : await engine.rangeQuery(query, when.start, when.end, when.step);
      return { status: "success", data: JSON.parse(promQLResultJson(r)) };
    } catch (e) {
      return { status: "error", errorType: promErrorType(e), error: (e as Error).message };
    }
  };
}

/** A running Prometheus with a temporary data directory. */
export interface PromServer {
  url: string;
  /** Its TSDB directory (for disk use per sample). */
  dataDir: string;
  query: QuerySide;
  stop(): Promise<void>;
}

/** Starts Prometheus 2.x with the remote-write receiver, or returns null (printing why) when missing. */
export async function startPrometheus(): Promise<PromServer | null> {
  const bin = await ensureDebianBinary("prometheus", "prometheus");
  if (bin === null) return null;
  const dir = await Deno.makeTempDir({ prefix: "petrel-promql-eq-" });
  await Deno.writeTextFile(`${dir}/prometheus.yml`, "global:\n  evaluation_interval: 1m\n");
  const port = freePort();
  const child = new Deno.Command(bin, {
    args: [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--web.enable-remote-write-receiver",
      "--storage.tsdb.retention.time=100y",
      "--log.level=warn",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const ready = await waitFor(
    async () => (await fetch(`${url}/-/ready`).then((r) => (r.body?.cancel(), r.ok))) || null,
    30_000,
  );
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.stderr.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  if (ready === null) {
    await stop();
    throw new Error("prometheus did not become ready");
  }
  const query = apiQuerySide(`${url}/api/v1`);
  return { url, dataDir: `${dir}/data`, query, stop };
}

/**
 * A {@link QuerySide} over a Prometheus-compatible HTTP API at `base` (`…/api/v1`); `post` sends
 * the parameters as a form, as Grafana does.
 */
export function apiQuerySide(base: string, post = false): QuerySide {
  return async (q, when) => {
    const params = new URLSearchParams({ query: q });
    let path = "/query";
    if ("time" in when) params.set("time", String(when.time / 1000));
    else {
      path = "/query_range";
      params.set("start", String(when.start / 1000));
      params.set("end", String(when.end / 1000));
      params.set("step", String(when.step / 1000));
    }
    const res = post
      ? await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: params.toString(),
      })
      : await fetch(`${base}${path}?${params}`);
    return await res.json() as ApiResponse;
  };
}

/**
 * Writes series by remote write to Prometheus (one request: an empty head accepts any time), or
 * to Petrel with `path` = `/v1/prometheus/write`.
 */
export async function remoteWrite(url: string, series: Series[], path = "/api/v1/write"): Promise<void> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-protobuf",
      "content-encoding": "snappy",
      "x-prometheus-remote-write-version": "0.1.0",
    },
    body: encodeRemoteWriteV1(series),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`remote write failed: ${res.status} ${text}`);
}

function parseValue(s: string): number {
  if (s === "NaN") return NaN;
  if (s === "+Inf") return Infinity;
  if (s === "-Inf") return -Infinity;
  return Number(s);
}

/** Whether two API value strings are equal: NaN = NaN, ±Inf exact, else 1e-9 relative. */
export function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseValue(a), y = parseValue(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  const diff = Math.abs(x - y);
  return diff <= 1e-9 * Math.max(Math.abs(x), Math.abs(y)) || diff <= 1e-12;
}

type Point = [number, string];
interface ResultSeries {
  metric: Record<string, string>;
  value?: Point;
  values?: Point[];
}

const keyOf = (m: Record<string, string>) => JSON.stringify(Object.entries(m).sort());

function samePoints(a: Point[], b: Point[]): string | null {
  if (a.length !== b.length) return `${a.length} points vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i][0] !== b[i][0]) return `time ${a[i][0]} vs ${b[i][0]}`;
    if (!sameValue(a[i][1], b[i][1])) return `at ${a[i][0]}: ${a[i][1]} vs ${b[i][1]}`;
  }
  return null;
}

/** Compares Prometheus' answer with ours; null when they agree, else what differs. */
export function compareResponses(prom: ApiResponse, ours: ApiResponse, ordered: boolean): string | null {
  if (prom.status !== ours.status) {
    return `status ${prom.status} (${prom.error ?? ""}) vs ${ours.status} (${ours.error ?? ""})`;
  }
  if (prom.status === "error") {
    if (prom.errorType !== ours.errorType) return `errorType ${prom.errorType} vs ${ours.errorType}`;
    // The engine's own errors lack the API's `invalid parameter "query": ` prefix.
    const strip = (e: string | undefined) => (e ?? "").replace(/^invalid parameter "query": /, "");
    const want = strip(prom.error), got = strip(ours.error);
    return want === got ? null : `error ${JSON.stringify(want)} vs ${JSON.stringify(got)}`;
  }
  const p = prom.data!, o = ours.data!;
  if (p.resultType !== o.resultType) return `resultType ${p.resultType} vs ${o.resultType}`;
  if (p.resultType === "scalar" || p.resultType === "string") {
    const a = p.result as Point, b = o.result as Point;
    return samePoints([a], [b]);
  }
  const a = p.result as ResultSeries[], b = o.result as ResultSeries[];
  if (a.length !== b.length) {
    return `${a.length} series vs ${b.length}: ${b.map((s) => keyOf(s.metric)).join(" ")}`;
  }
  const byKey = new Map(b.map((s, i) => [keyOf(s.metric), { s, i }]));
  for (let i = 0; i < a.length; i++) {
    const got = byKey.get(keyOf(a[i].metric));
    if (got === undefined) return `missing ${keyOf(a[i].metric)}`;
    if (ordered && got.i !== i) return `${keyOf(a[i].metric)} at ${got.i}, Prometheus has it at ${i}`;
    const diff = samePoints(a[i].values ?? [a[i].value!], got.s.values ?? [got.s.value!]);
    if (diff !== null) return `${keyOf(a[i].metric)}: ${diff}`;
  }
  return null;
}
