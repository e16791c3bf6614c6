/**
 * The parameters of Prometheus' HTTP API as its `web/api/v1` reads them: times as unix seconds
 * (float) or RFC 3339, durations as float seconds or Prometheus durations (`5m`), and the
 * `invalid parameter "…"` errors it answers with (400 `bad_data`).
 */
import { invalidArguments, type PetrelError } from "../../common/errors.ts";
import { parseDurationMs } from "../../promql/duration.ts";

/** Prometheus' boundary times as its clients print them (Go's zero-ish min and max `time.Time`). */
const MIN_TIME_TEXT = "-292273086-05-16T16:47:06Z", MAX_TIME_TEXT = "292277025-08-18T07:12:54.999999999Z";
/** Prometheus' `minTime`/`maxTime` in ms (`math.MinInt64/1000 + 62135596801` s, and the max). */
export const MIN_TIME_MS = -9223309901257974000, MAX_TIME_MS = 9223309901257974000;

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** `invalid parameter "<name>": <message>`, Prometheus' `invalidParamError`. */
export function invalidParam(name: string, message: string): PetrelError {
  return invalidArguments(`invalid parameter ${JSON.stringify(name)}: ${message}`);
}

/** A time in ms, or null when the text is none of Prometheus' forms. */
export function parsePromTime(text: string): number | null {
  if (FLOAT.test(text)) {
    const t = Number(text);
    const secs = Math.trunc(t);
    return secs * 1000 + Math.round((t - secs) * 1000);
  }
  const m = RFC3339.exec(text);
  if (m !== null) {
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
    let ms = Date.UTC(y, mo - 1, d, h, mi, s);
    if (new Date(ms).getUTCDate() !== d) return null;
    if (m[7] !== undefined) ms += Math.floor(Number(`0${m[7]}`) * 1000 + 1e-9);
    if (m[9] !== undefined) ms -= (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11])) * 60_000;
    return ms;
  }
  if (text === MIN_TIME_TEXT) return MIN_TIME_MS;
  if (text === MAX_TIME_TEXT) return MAX_TIME_MS;
  return null;
}

/** A required time parameter (`start`/`end` of `query_range`): `cannot parse "x" to a valid timestamp`. */
export function requireTime(params: URLSearchParams, name: string): number {
  const text = params.get(name) ?? "";
  const ms = parsePromTime(text);
  if (ms === null) throw invalidParam(name, `cannot parse ${JSON.stringify(text)} to a valid timestamp`);
  return ms;
}

/** An optional time parameter (`time`, and `start`/`end` of the metadata endpoints) with a default. */
export function timeParam(params: URLSearchParams, name: string, defaultMs: number): number {
  const text = params.get(name) ?? "";
  if (text === "") return defaultMs;
  const ms = parsePromTime(text);
  if (ms === null) {
    throw invalidParam(
      name,
      `Invalid time value for '${name}': cannot parse ${JSON.stringify(text)} to a valid timestamp`,
    );
  }
  return ms;
}

/** A duration in ms: float seconds or a Prometheus duration; an error message when neither. */
export function parsePromDuration(text: string): number | string {
  if (FLOAT.test(text)) {
    const ms = Number(text) * 1000;
    if (Math.abs(ms) * 1e6 > 9.223372036854776e18) {
      return `cannot parse ${JSON.stringify(text)} to a valid duration. It overflows int64`;
    }
    return ms;
  }
  return parseDurationMs(text) ?? `cannot parse ${JSON.stringify(text)} to a valid duration`;
}

/** A duration parameter (`step`, `timeout`), required or optional (null when absent). */
export function durationParam(params: URLSearchParams, name: string, required: true): number;
export function durationParam(params: URLSearchParams, name: string, required?: false): number | null;
export function durationParam(params: URLSearchParams, name: string, required = false): number | null {
  const text = params.get(name) ?? "";
  if (text === "" && !required) return null;
  const ms = parsePromDuration(text);
  if (typeof ms === "string") throw invalidParam(name, ms);
  return ms;
}

/** The `step` of a range query in ms: required, and positive (Prometheus' refusal otherwise). */
export function stepParam(params: URLSearchParams): number {
  const stepMs = durationParam(params, "step", true);
  if (!(stepMs > 0)) {
    throw invalidArguments(
      "zero or negative query resolution step widths are not accepted. Try a positive integer",
    );
  }
  return stepMs;
}

/** `lookback_delta` (Prometheus) or `lookback` (GreptimeDB), in ms, or null. */
export function lookbackParam(params: URLSearchParams): number | null {
  const text = params.get("lookback_delta") || params.get("lookback") || "";
  if (text === "") return null;
  const ms = parsePromDuration(text);
  if (typeof ms === "string") throw invalidArguments(`error parsing lookback delta duration: ${ms}`);
  return ms;
}

/** `limit` of the metadata endpoints: a non-negative integer, 0 (or absent) meaning no limit. */
export function limitParam(params: URLSearchParams): number {
  const text = params.get("limit") ?? "";
  if (text === "") return 0;
  if (!/^[+-]?\d+$/.test(text)) {
    throw invalidArguments(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  }
  const n = Number(text);
  if (n < 0) throw invalidArguments("limit must be positive");
  return n;
}
