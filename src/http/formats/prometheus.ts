/**
 * The Prometheus HTTP API envelope (reference §6.10, GreptimeDB `http/result/prometheus_resp.rs`):
 * `{"status":"success","data":…}` and `{"status":"error","error":"…","errorType":"<StatusCode name>"}`.
 * Sample times are unix seconds printed as serde prints f64 (`1700000000.0`); sample values are
 * strings as Rust's Display prints f64 (`"2"`, `"0.5"`), with Prometheus' `NaN`/`+Inf`/`-Inf`.
 */
import { PetrelError, StatusCode, statusCodeName } from "../../common/errors.ts";
import { HttpError, httpStatusOf, httpStatusOfCode, type PromApiErrorType } from "../render_error.ts";

export { type PromApiErrorType, promApiErrorTypeOfStatus } from "../render_error.ts";
import { formatDisplayFloat, formatJsonFloat } from "./json_text.ts";
import type {
  PromHistogram,
  PromMatrixSeries,
  PromQueryData,
  PromSample,
  PromVectorSeries,
} from "../../protocols/prometheus_api/types.ts";

export type {
  PromHistogram,
  PromMatrixSeries,
  PromQueryData,
  PromSample,
  PromVectorSeries,
} from "../../protocols/prometheus_api/types.ts";

/** A JSON value for the `data` of the other endpoints (labels, series, metadata, buildinfo…). */
export type PromJson = string | number | boolean | null | PromJson[] | { [key: string]: PromJson };

/** Optional `warnings` / `infos` arrays of a success envelope. */
export interface PromAnnotations {
  warnings?: string[];
  infos?: string[];
}

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * A sample from a millisecond timestamp and a float value.
 * @example promSample(1700000000500, 2) // [1700000000.5, "2"]
 */
export function promSample(timestampMs: number, value: number): PromSample {
  return [timestampMs / 1000, formatDisplayFloat(value)];
}

function sampleJson(sample: PromSample): string {
  return `[${formatJsonFloat(sample[0])},${JSON.stringify(sample[1])}]`;
}

/** Label maps print with sorted keys, as GreptimeDB's `BTreeMap` does. */
function metricJson(metric: Record<string, string>): string {
  const keys = Object.keys(metric).sort();
  return "{" + keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(metric[k])}`).join(",") + "}";
}

function histogramJson(h: PromHistogram): string {
  let out = `{"count":${JSON.stringify(h.count)},"sum":${JSON.stringify(h.sum)}`;
  if (h.buckets !== undefined) {
    const buckets = h.buckets.map(([rule, lo, hi, count]) =>
      `[${rule},${JSON.stringify(lo)},${JSON.stringify(hi)},${JSON.stringify(count)}]`
    );
    out += `,"buckets":[${buckets.join(",")}]`;
  }
  return out + "}";
}

function histogramSampleJson([t, h]: [number, PromHistogram]): string {
  return `[${formatJsonFloat(t)},${histogramJson(h)}]`;
}

function vectorSeriesJson(s: PromVectorSeries): string {
  let out = `{"metric":${metricJson(s.metric)}`;
  if (s.value !== undefined) out += `,"value":${sampleJson(s.value)}`;
  if (s.histogram !== undefined) out += `,"histogram":${histogramSampleJson(s.histogram)}`;
  return out + "}";
}

function matrixSeriesJson(s: PromMatrixSeries): string {
  let out = `{"metric":${metricJson(s.metric)}`;
  const values = s.values ?? [];
  if (values.length > 0 || s.histograms === undefined) {
    out += `,"values":[${values.map(sampleJson).join(",")}]`;
  }
  if (s.histograms !== undefined && s.histograms.length > 0) {
    out += `,"histograms":[${s.histograms.map(histogramSampleJson).join(",")}]`;
  }
  return out + "}";
}

/** JSON text of a query result: `{"resultType":"vector","result":[…]}`. */
function promQueryDataJson(data: PromQueryData): string {
  let result: string;
  switch (data.resultType) {
    case "vector":
      result = "[" + data.result.map(vectorSeriesJson).join(",") + "]";
      break;
    case "matrix":
      result = "[" + data.result.map(matrixSeriesJson).join(",") + "]";
      break;
    default:
      result = data.result === null ? "null" : sampleJson(data.result);
  }
  return `{"resultType":${JSON.stringify(data.resultType)},"result":${result}}`;
}

function annotationsJson(a: PromAnnotations | undefined): string {
  let out = "";
  if (a?.warnings !== undefined) out += `,"warnings":${JSON.stringify(a.warnings)}`;
  if (a?.infos !== undefined) out += `,"infos":${JSON.stringify(a.infos)}`;
  return out;
}

/**
 * Go's JSON encoder (Prometheus') escapes `<`, `>`, `&`, U+2028 and U+2029 in strings; those
 * characters can only occur inside strings of JSON text, so escaping them in the whole text is exact.
 */
function goJsonText(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function successResponse(dataJson: string, annotations: PromAnnotations | undefined): Response {
  const body = goJsonText(`{"status":"success","data":${dataJson}${annotationsJson(annotations)}}`);
  return new Response(body, { status: 200, headers: JSON_HEADERS });
}

/** A success envelope around a `/query` or `/query_range` result. */
export function prometheusQueryResponse(data: PromQueryData, annotations?: PromAnnotations): Response {
  return successResponse(promQueryDataJson(data), annotations);
}

/**
 * A success envelope around any other `data` (label names, label values, series, metadata…).
 * @example prometheusSuccess(["__name__", "host"])
 */
export function prometheusSuccess(data: PromJson, annotations?: PromAnnotations): Response {
  return successResponse(JSON.stringify(data), annotations);
}

/**
 * A success envelope around `data` already rendered as JSON text (the PromQL encoder's exact
 * Prometheus output).
 */
export function prometheusDataResponse(dataJson: string, annotations?: PromAnnotations): Response {
  return successResponse(dataJson, annotations);
}

const STATUS_OF_ERROR_TYPE: Record<PromApiErrorType, number> = {
  bad_data: 400,
  execution: 422,
  canceled: 503,
  timeout: 503,
  internal: 500,
  not_found: 404,
  unavailable: 503,
};

/**
 * Prometheus' error envelope, keys in its order: `{"status":"error","errorType":"bad_data","error":"…"}`,
 * with the HTTP status Prometheus gives the type (bad_data 400, execution 422, timeout 503…) unless
 * `status` is given.
 */
export function prometheusApiError(errorType: PromApiErrorType, message: string, status?: number): Response {
  const error = JSON.stringify(message);
  const body = goJsonText(`{"status":"error","errorType":${JSON.stringify(errorType)},"error":${error}}`);
  return new Response(body, { status: status ?? STATUS_OF_ERROR_TYPE[errorType], headers: JSON_HEADERS });
}

/** The message GreptimeDB shows for a code: Unknown and Internal are masked (reference §4.2). */
function outputMessage(code: number, message: string): string {
  return code === StatusCode.Unknown || code === StatusCode.Internal ? `Internal error: ${code}` : message;
}

/**
 * An error envelope with the HTTP status mapped from the code (or `status` when given).
 * @example prometheusError(1004, "match[] parameter is required")
 */
export function prometheusError(code: number, message: string, status?: number): Response {
  return errorResponse(new PetrelError(code, message), status ?? httpStatusOfCode(code), {});
}

/** An error envelope for any thrown value; non-`PetrelError`s are Internal (1003, 500). */
export function prometheusErrorFrom(error: unknown): Response {
  const headers = error instanceof HttpError ? error.headers : {};
  const inner = error instanceof HttpError ? error.error : error;
  const err = inner instanceof PetrelError
    ? inner
    : new PetrelError(StatusCode.Internal, inner instanceof Error ? inner.message : String(inner));
  return errorResponse(err, httpStatusOf(err), headers);
}

function errorResponse(err: PetrelError, status: number, headers: HeadersInit): Response {
  const body = `{"status":"error","error":${
    JSON.stringify(outputMessage(err.code, err.message))
  },"errorType":${JSON.stringify(statusCodeName(err.code))}}`;
  const all = new Headers(headers);
  for (const [k, v] of Object.entries(JSON_HEADERS)) all.set(k, v);
  return new Response(body, { status, headers: all });
}
