/** HTTP helpers shared by the retention and downsampling tests: SQL, `/metrics`, PromQL, remote write. */
import assert from "node:assert/strict";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";
import type { Series } from "../../src/common/series.ts";

/** Runs SQL over `/v1/sql`; returns the rows of the last output (or throws with the body). */
export async function sql(url: string, query: string, db = "public"): Promise<unknown[][]> {
  const r = await fetch(`${url}/v1/sql?db=${encodeURIComponent(db)}`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  if (r.status !== 200) throw new Error(`${r.status}: ${JSON.stringify(body)}`);
  const out = body.output[body.output.length - 1];
  return out.records?.rows ?? [];
}

/** The status and body of a SQL statement that should fail. */
export async function sqlError(
  url: string,
  query: string,
  db = "public",
): Promise<{ status: number; error: string }> {
  const r = await fetch(`${url}/v1/sql?db=${encodeURIComponent(db)}`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  return { status: r.status, error: String(body.error ?? "") };
}

/** The value of one `/metrics` sample line (`name{labels}`), or undefined when absent. */
export function metricValue(text: string, series: string): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith(series + " ")) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

/** Sends series by Prometheus remote write (v1) to a database. */
export async function remoteWrite(url: string, series: Series[], db = "public"): Promise<void> {
  const r = await fetch(`${url}/v1/prometheus/write?db=${encodeURIComponent(db)}`, {
    method: "POST",
    body: encodeRemoteWriteV1(series),
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
  });
  assert.equal(r.status, 204, await r.text());
}

/** Writes InfluxDB line protocol (ms precision) to a database. */
export async function lineWrite(url: string, lines: string[], db = "public"): Promise<void> {
  const r = await fetch(`${url}/v1/influxdb/write?db=${encodeURIComponent(db)}&precision=ms`, {
    method: "POST",
    body: lines.join("\n"),
  });
  assert.equal(r.status, 204, await r.text());
}

/** A PromQL range query's matrix result. */
export async function queryRange(
  url: string,
  query: string,
  startMs: number,
  endMs: number,
  stepS: number,
  db = "public",
): Promise<Array<{ metric: Record<string, string>; values: Array<[number, string]> }>> {
  const params = new URLSearchParams({
    query,
    start: String(startMs / 1000),
    end: String(endMs / 1000),
    step: String(stepS),
    db,
  });
  const r = await fetch(`${url}/v1/prometheus/api/v1/query_range?${params}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.data.result;
}
