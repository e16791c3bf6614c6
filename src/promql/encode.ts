/**
 * Query results as Prometheus' HTTP API renders them: the `data` object of `/query` and
 * `/query_range` (`resultType`, `result`), times as unix seconds with millisecond fraction
 * (`1700000000.5` → `1700000000.500`), values as strings the way Prometheus formats floats.
 */
import type { PromQueryData, PromSample } from "../protocols/prometheus_api/types.ts";
import type { Labels, QueryResult } from "./values.ts";
import { formatFloatF } from "./printer.ts";

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

/**
 * A JSON string as Go's encoders write it: `<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes, and
 * `\b`, `\f` as `\u0008`, `\u000c` (an escaped backslash before a `b` stays as it is).
 */
export function goJsonString(s: string): string {
  return JSON.stringify(s)
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/\\\\|\\([bf])/g, (m, c) => c === undefined ? m : c === "b" ? "\\u0008" : "\\u000c");
}

function metricJson(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return "{" + names.map((n) => `${goJsonString(n)}:${goJsonString(labels[n])}`).join(",") + "}";
}

/** A scalar's or string's time: Go's encoding/json of float seconds (1700000000.5, no padding). */
const jsonSeconds = (ms: number) => String(ms / 1000);

const point = (ms: number, v: number) => `[${formatPromTime(ms)},"${formatPromValue(v)}"]`;

/** The exact JSON text of Prometheus' `data` for a query result. */
export function promQLResultJson(r: QueryResult): string {
  let result: string;
  switch (r.resultType) {
    case "scalar":
      // Prometheus' Scalar.MarshalJSON: FormatFloat 'f' ("1000000000000000000000", "0.00000015").
      result = `[${jsonSeconds(r.timestampMs)},"${formatFloatF(r.value)}"]`;
      break;
    case "string":
      result = `[${jsonSeconds(r.timestampMs)},${goJsonString(r.value)}]`;
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
      return { resultType: "scalar", result: [r.timestampMs / 1000, formatFloatF(r.value)] };
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
