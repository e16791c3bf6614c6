/**
 * SQL result output formats of `/v1/sql` and `/v1/promql` (reference §6.1), one file per format as
 * GreptimeDB's `http/result/` is split. `renderSqlOutputs` picks the format from the `format` param.
 */
import type { QueryOutput } from "../../common/rows.ts";
import { renderCsv } from "./csv.ts";
import { renderGreptimedbV1 } from "./greptimedb_v1.ts";
import { renderInfluxdbV1 } from "./influxdb_v1.ts";
import { renderJson } from "./json.ts";
import { renderNull } from "./null.ts";
import { singleOutput } from "./response.ts";
import { renderTable } from "./table.ts";

export { csvBody, type CsvOptions, renderCsv } from "./csv.ts";
export { greptimeOutputJson, renderGreptimedbV1 } from "./greptimedb_v1.ts";
export { convertTimestamp, type InfluxdbV1Options, parseEpoch, renderInfluxdbV1 } from "./influxdb_v1.ts";
export { jsonBody, renderJson } from "./json.ts";
export { nullBody, renderNull } from "./null.ts";
export { renderTable, tableBody } from "./table.ts";
export {
  cellEncoderFor,
  encodeValue,
  formatDisplayFloat,
  formatJsonFloat,
  renderJsonText,
} from "./json_text.ts";
export { type FormatName, type LimitOptions, type RenderOptions } from "./response.ts";

/** Request parameters that shape a SQL result. */
export interface SqlFormatOptions {
  /** The `format` parameter, case-insensitive; unknown or empty → `greptimedb_v1`. */
  format: string;
  /** The `epoch` parameter (influxdb_v1 only). */
  epoch?: string;
  /** The `limit` parameter (greptimedb_v1, csv*, table, json only). */
  limit?: number;
  /** The `compression` parameter (arrow only): `zstd` honoured, `lz4` written uncompressed. */
  compression?: string;
  /** Elapsed time of the request in ms. */
  executionTimeMs: number;
}

type Renderer = (outputs: QueryOutput[], opts: SqlFormatOptions) => Response | Promise<Response>;

/** The format table: `format` parameter value → renderer. */
const RENDERERS: Record<string, Renderer> = {
  greptimedb_v1: renderGreptimedbV1,
  influxdb_v1: renderInfluxdbV1,
  csv: (outputs, opts) => renderCsv(outputs, opts),
  csvwithnames: (outputs, opts) => renderCsv(outputs, { ...opts, withNames: true }),
  csvwithnamesandtypes: (outputs, opts) => renderCsv(outputs, { ...opts, withNames: true, withTypes: true }),
  table: renderTable,
  json: renderJson,
  null: renderNull,
  // Arrow (apache-arrow) loads on first use: most servers never send it, and it is a large module.
  arrow: (outputs, opts) => {
    singleOutput(outputs, "arrow"); // a bad request is refused at once, before the module loads
    return import("./arrow.ts").then((m) => m.renderArrow(outputs, opts));
  },
};

/**
 * Renders the outputs of a request's statements in the requested format. Throws a 400 `PetrelError`
 * when a single-statement format gets several outputs.
 * @example renderSqlOutputs(outputs, { format: "csvWithNames", executionTimeMs: 2 })
 */
export function renderSqlOutputs(
  outputs: QueryOutput[],
  opts: SqlFormatOptions,
): Response | Promise<Response> {
  const format = opts.format.toLowerCase();
  const render = Object.hasOwn(RENDERERS, format) ? RENDERERS[format] : renderGreptimedbV1;
  return render(outputs, opts);
}

export {
  type PromAnnotations,
  type PromApiErrorType,
  promApiErrorTypeOfStatus,
  prometheusApiError,
  prometheusDataResponse,
  prometheusError,
  prometheusErrorFrom,
  prometheusQueryResponse,
  prometheusSuccess,
  type PromHistogram,
  type PromJson,
  type PromMatrixSeries,
  type PromQueryData,
  type PromSample,
  promSample,
  type PromVectorSeries,
} from "./prometheus.ts";
