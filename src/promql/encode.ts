/**
 * Query results as Prometheus' HTTP API renders them: the `data` object of `/query` and
 * `/query_range` (`resultType`, `result`), times as unix seconds with millisecond fraction
 * (`1700000000.5` → `1700000000.500`), values as strings the way Prometheus formats floats.
 */
import type { PromQueryData, PromSample } from "../protocols/prometheus_api/types.ts";
import type { Labels, QueryResult } from "./values.ts";

/** A sample value as Prometheus' API prints it: `"+Inf"`, `"NaN"`, `"0.1"`, `"1e-07"`, `"1e+21"`. */
export function formatPromValue(v: number): string {
  if (v !== v) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const abs = Math.abs(v);
  if (abs >= 1e-6 && abs < 1e21) return String(v);
  // Go's 'e' format: at least two exponent digits.
  return v.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
}

/** A millisecond timestamp as Prometheus' API prints it (seconds, three decimals when fractional). */
export function formatPromTime(ms: number): string {
  const neg = ms < 0 ? "-" : "";
  const a = Math.abs(ms);
  const secs = Math.floor(a / 1000), frac = a % 1000;
  return frac === 0 ? `${neg}${secs}` : `${neg}${secs}.${String(frac).padStart(3, "0")}`;
}

function metricJson(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return "{" + names.map((n) => `${JSON.stringify(n)}:${JSON.stringify(labels[n])}`).join(",") + "}";
}

const point = (ms: number, v: number) => `[${formatPromTime(ms)},"${formatPromValue(v)}"]`;

/** The exact JSON text of Prometheus' `data` for a query result. */
export function promQLResultJson(r: QueryResult): string {
  let result: string;
  switch (r.resultType) {
    case "scalar":
      result = point(r.timestampMs, r.value);
      break;
    case "string":
      result = `[${formatPromTime(r.timestampMs)},${JSON.stringify(r.value)}]`;
      break;
    case "vector":
      result = "[" +
        r.result.map((s) => `{"metric":${metricJson(s.labels)},"value":${point(s.timestampMs, s.value)}}`)
          .join(",") +
        "]";
      break;
    case "matrix":
      result = "[" +
        r.result.map((s) =>
          `{"metric":${metricJson(s.labels)},"values":[${
            s.values.map((v, i) => point(s.timestamps[i], v)).join(",")
          }]}`
        ).join(",") + "]";
      break;
  }
  return `{"resultType":"${r.resultType}","result":${result}}`;
}

/** A result as the HTTP layer's {@link PromQueryData}, values formatted as Prometheus formats them. */
export function toPromQueryData(r: QueryResult): PromQueryData {
  const sample = (ms: number, v: number): PromSample => [ms / 1000, formatPromValue(v)];
  switch (r.resultType) {
    case "scalar":
      return { resultType: "scalar", result: sample(r.timestampMs, r.value) };
    case "string":
      return { resultType: "string", result: [r.timestampMs / 1000, r.value] };
    case "vector":
      return {
        resultType: "vector",
        result: r.result.map((s) => ({ metric: s.labels, value: sample(s.timestampMs, s.value) })),
      };
    case "matrix":
      return {
        resultType: "matrix",
        result: r.result.map((s) => ({
          metric: s.labels,
          values: s.values.map((v, i) => sample(s.timestamps[i], v)),
        })),
      };
  }
}
