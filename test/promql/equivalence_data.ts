/**
 * The data set of the equivalence test against a real Prometheus: one hour of series, 15 s apart,
 * starting 7 s after an hour boundary, so no sample ever sits on an evaluation time or a window
 * boundary (where Prometheus 2's closed and Prometheus 3's left-open windows differ).
 */
import { type Series, STALE_NAN } from "../../src/common/series.ts";
import { seededRandom } from "../helpers/random.ts";

/** The hour the data starts at (ms). */
export const T0 = 1_699_999_200_000;
/** Samples are at T0 + OFFSET + k × INTERVAL. */
export const OFFSET_MS = 7_000, INTERVAL_MS = 15_000, SAMPLES = 240;

function sorted(labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(labels).sort()) out[k] = labels[k];
  return out;
}

type ValueAt = (k: number) => number | "stale" | null;

function series(labels: Record<string, string>, valueAt: ValueAt, from = 0, to = SAMPLES): Series {
  const samples = [];
  for (let k = from; k < to; k++) {
    const v = valueAt(k);
    if (v === null) continue;
    const timestampMs = T0 + OFFSET_MS + k * INTERVAL_MS;
    samples.push(
      v === "stale" ? { timestampMs, value: STALE_NAN, stale: true as const } : { timestampMs, value: v },
    );
  }
  return { labels: sorted(labels), samples };
}

/** A counter: starts high (so Prometheus 2 and 3 agree on rate extrapolation), random increments. */
function counter(seed: number, start: number, maxInc: number, resetAt = -1): ValueAt {
  const rnd = seededRandom(seed);
  const values: number[] = [];
  let v = start;
  for (let k = 0; k < SAMPLES; k++) {
    if (k === resetAt) v = 0;
    v += Math.floor(rnd() * maxInc);
    values.push(v);
  }
  return (k) => values[k];
}

/** Every series of the data set. */
export function equivalenceSeries(): Series[] {
  const out: Series[] = [];
  let seed = 1;
  for (const job of ["api", "web"]) {
    for (const instance of ["i-0", "i-1", "i-2"]) {
      for (const method of ["get", "post"]) {
        const resetAt = job === "api" && instance === "i-1" && method === "get" ? 120 : -1;
        const labels = { __name__: "http_requests_total", job, instance, method };
        out.push(series(labels, counter(seed++, 1000 + seed * 37, method === "get" ? 12 : 4, resetAt)));
      }
      out.push(series({ __name__: "up", job, instance }, (k) => (instance === "i-2" && k % 40 < 10 ? 0 : 1)));
      let buckets = 0;
      for (const le of ["0.05", "0.1", "0.25", "0.5", "1", "+Inf"]) {
        buckets += 3;
        const inc = buckets;
        out.push(series(
          { __name__: "request_duration_seconds_bucket", job, instance, le },
          counter(100 + seed, 5000 * inc, inc + 2),
        ));
      }
      out.push(
        series({ __name__: "request_duration_seconds_count", job, instance }, counter(100 + seed, 90000, 20)),
      );
    }
  }
  const rnd = seededRandom(42);
  for (const instance of ["i-0", "i-1", "i-2"]) {
    for (const room of ["a", "b"]) {
      const phase = rnd() * 6, amp = 5 + rnd() * 10;
      out.push(
        series(
          { __name__: "temperature_celsius", instance, room },
          (k) => Math.round((20 + amp * Math.sin(phase + k / 17)) * 1000) / 1000,
        ),
      );
    }
    for (const mode of ["idle", "user", "system"]) {
      out.push(series({ __name__: "node_cpu_seconds_total", instance, mode }, counter(seed++, 50000, 30)));
    }
    out.push(
      series(
        { __name__: "disk_free_bytes", instance, device: "sda" },
        (k) => 1.2e11 - k * 1_048_576 * (1 + Number(instance.at(-1))),
      ),
    );
    out.push(
      series({ __name__: "node_info", instance, version: instance === "i-2" ? "2.0" : "1.0" }, () => 1),
    );
  }
  out.push(series({ __name__: "gone_series", instance: "i-0" }, (k) => k * 2, 0, 110));
  out.push(series({ __name__: "late_series", instance: "i-0" }, (k) => 500000 + k * 3, 130));
  out.push(
    series(
      { __name__: "flappy", instance: "i-0" },
      (k) => (k === 80 ? "stale" : k > 80 && k < 100 ? null : k % 7),
    ),
  );
  out.push(series({ __name__: "odd_values", kind: "nan" }, (k) => (k % 11 === 0 ? NaN : k / 3)));
  out.push(series({ __name__: "odd_values", kind: "inf" }, (k) => (k % 13 === 0 ? Infinity : -k)));
  out.push(series({ __name__: "odd_values", kind: "neg" }, (k) => -0.5 * k + 30));
  return out;
}

/** Evaluation instants (ms): inside the data, at its end, and after it (lookback running out). */
export const INSTANTS = [T0 + 30 * 60_000, T0 + 45 * 60_000, T0 + 59 * 60_000 + 45_000, T0 + 63 * 60_000];
/** Instants not on a subquery's grid (subquery windows of whole minutes would start on a grid point). */
export const SUBQUERY_INSTANTS = [T0 + 30 * 60_000 + 20_000, T0 + 50 * 60_000 + 20_000];
/** Range queries: 40 minutes at 1 m, and 10 minutes at 15 s. */
export const RANGES = [
  { start: T0 + 20 * 60_000, end: T0 + 60 * 60_000, step: 60_000 },
  { start: T0 + 40 * 60_000, end: T0 + 50 * 60_000, step: 15_000 },
];
/** A range not aligned to subquery steps. */
export const SUBQUERY_RANGES = [{
  start: T0 + 20 * 60_000 + 20_000,
  end: T0 + 60 * 60_000 + 20_000,
  step: 60_000,
}];
