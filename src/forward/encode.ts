/**
 * Forwarded samples on the wire: a Prometheus remote-write 1.0 body (the encoder the tests and
 * benches use, `src/protocols/remote_write/encoder.ts`) or InfluxDB line protocol for GreptimeDB's
 * `/v1/influxdb/write` (one field, `greptime_value`, which GreptimeDB and Petrel store as the
 * metric's value column).
 */
import type { Sample, Series } from "../common/series.ts";
import { encodeRemoteWriteV1 } from "../protocols/remote_write/encoder.ts";
import type { ForwardSample } from "../storage/forward_read.ts";

/** Groups samples into series (full label sets), each in time order as remote write wants. */
export function toSeries(samples: ForwardSample[]): Series[] {
  const bySeries = new Map<string, Series>();
  for (const s of samples) {
    const key = `${s.metric}\u0000${JSON.stringify(s.labels)}`;
    let series = bySeries.get(key);
    if (series === undefined) {
      bySeries.set(key, series = { labels: { __name__: s.metric, ...s.labels }, samples: [] });
    }
    const sample: Sample = { value: s.value, timestampMs: s.ts };
    if (s.stale) sample.stale = true;
    series.samples.push(sample);
  }
  for (const s of bySeries.values()) s.samples.sort((a, b) => a.timestampMs - b.timestampMs);
  return [...bySeries.values()];
}

/** A snappy-compressed remote-write 1.0 `WriteRequest`. */
export function encodeRemoteWrite(samples: ForwardSample[]): Uint8Array<ArrayBuffer> {
  return encodeRemoteWriteV1(toSeries(samples));
}

const escapeMeasurement = (s: string) => s.replace(/[\\, ]/g, (c) => `\\${c}`);
const escapeTag = (s: string) => s.replace(/[\\,= ]/g, (c) => `\\${c}`);

/**
 * Line protocol with millisecond timestamps. Stale markers and NaN have no line-protocol form and
 * are left out (the upstream marks staleness on its own when series stop).
 */
export function encodeLineProtocol(samples: ForwardSample[]): string {
  const lines: string[] = [];
  for (const s of samples) {
    if (s.stale || !Number.isFinite(s.value)) continue;
    let line = escapeMeasurement(s.metric);
    for (const name of Object.keys(s.labels).sort()) {
      const v = s.labels[name];
      if (v !== "") line += `,${escapeTag(name)}=${escapeTag(v)}`;
    }
    line += ` greptime_value=${Number.isInteger(s.value) ? s.value.toFixed(1) : String(s.value)} ${s.ts}`;
    lines.push(line);
  }
  return lines.join("\n");
}
