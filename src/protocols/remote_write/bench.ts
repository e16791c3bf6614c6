/**
 * The remote-write decoder's benchmark (snappy + protobuf, no HTTP, no storage).
 * Run: `deno run -A src/protocols/remote_write/bench.ts`.
 */
import type { Series } from "../../common/series.ts";
import { encodeRemoteWriteV1 } from "./encoder.ts";
import { decodeRemoteWrite } from "./parser.ts";

/** Samples per second of `decodeRemoteWrite` (snappy + protobuf) on the usual shape. */
export function benchRemoteWrite(series = 10_000, samplesPerSeries = 1, requests = 50): number {
  const bodies: Uint8Array[] = [];
  for (let r = 0; r < requests; r++) {
    const ts: Series[] = [];
    for (let s = 0; s < series; s++) {
      ts.push({
        labels: {
          __name__: "rwbench_metric",
          instance: `host-${s % 100}`,
          job: "rwbench",
          series: String(s),
        },
        samples: Array.from({ length: samplesPerSeries }, (_, k) => ({
          value: (s * 7 + k + r) % 1000 / 10,
          timestampMs: 1700000000000 + (r * samplesPerSeries + k) * 1000,
        })),
      });
    }
    bodies.push(encodeRemoteWriteV1(ts));
  }
  const headers = { contentType: "application/x-protobuf", contentEncoding: "snappy" };
  decodeRemoteWrite(bodies[0], headers, { limit: 1 << 30, strict: true });
  const t0 = performance.now();
  let n = 0;
  for (const b of bodies) {
    for (const s of decodeRemoteWrite(b, headers, { limit: 1 << 30, strict: true }).series) {
      n += s.samples.length;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return Math.round(n / seconds);
}

if (import.meta.main) console.log(JSON.stringify({ remoteWriteSamplesPerSec: benchRemoteWrite() }));
