/**
 * The `influxdb_v1` JSON result (GreptimeDB `http/result/influxdb_result_v1.rs`), with the `epoch`
 * conversion of Timestamp columns. `limit` does not apply to this format.
 */
import type { QueryOutput, Value } from "../../common/rows.ts";
import { type CellEncoder, cellEncoderFor, encodeRowArray } from "./json_text.ts";
import { CONTENT_TYPE, formatResponse, type RenderOptions, wholeMillis } from "./response.ts";
import { floorDiv, NS_PER_UNIT, unitOfType } from "../../common/time_unit.ts";

/** Options of the influxdb_v1 renderer. */
export interface InfluxdbV1Options extends RenderOptions {
  /** `ns|u|µ|ms|s`, case-insensitive; any other value means `ms`; absent means no conversion. */
  epoch?: string;
}

/** Nanoseconds per unit of an `epoch` name (`u` is microseconds), as GreptimeDB's `TimeUnit::factor()`. */
const NANOS_PER: Record<string, bigint> = {
  s: NS_PER_UNIT.s,
  ms: NS_PER_UNIT.ms,
  u: NS_PER_UNIT.us,
  ns: NS_PER_UNIT.ns,
};

/** The `epoch` name of a timestamp type's unit. */
function epochUnitOf(type: string): string | undefined {
  const unit = unitOfType(type);
  return unit === "us" ? "u" : unit;
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** The target unit of an `epoch` parameter (GreptimeDB `Epoch::parse`, unknown → ms), or undefined. */
export function parseEpoch(epoch: string | undefined): string | undefined {
  if (epoch === undefined) return undefined;
  const e = epoch.toLowerCase();
  if (e === "ns" || e === "ms" || e === "s") return e;
  if (e === "u" || e === "\u00b5") return "u";
  return "ms";
}

/**
 * A timestamp value moved from one unit to another as `Timestamp::convert_to` does: coarser → finer
 * multiplies (kept unchanged on i64 overflow), finer → coarser floors.
 */
export function convertTimestamp(value: Value, fromUnit: string, toUnit: string): Value {
  if (typeof value !== "number" && typeof value !== "bigint") return value;
  if (typeof value === "number" && !Number.isInteger(value)) return value;
  const from = NANOS_PER[fromUnit];
  const to = NANOS_PER[toUnit];
  if (from === undefined || to === undefined || from === to) return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    // Exact in doubles while every operand and result stays below 2^53; BigInt only beyond.
    if (from > to) {
      const out = value * Number(from / to);
      if (Number.isSafeInteger(out)) return out;
    } else {
      const d = Number(to / from);
      let q = Math.floor(value / d);
      const r = value - q * d;
      if (r < 0) q -= 1;
      else if (r >= d) q += 1;
      return q;
    }
  }
  const v = BigInt(value);
  let out: bigint;
  if (from > to) {
    out = v * (from / to);
    if (out < I64_MIN || out > I64_MAX) return value;
  } else {
    out = floorDiv(v, to / from);
  }
  return out >= -9007199254740991n && out <= 9007199254740991n ? Number(out) : out;
}

function seriesJson(output: QueryOutput & { kind: "records" }, toUnit: string | undefined): string {
  const columns = output.columns.map((c) => JSON.stringify(c.name)).join(",");
  const encoders: CellEncoder[] = output.columns.map((c) => {
    const encode = cellEncoderFor(c.data_type);
    const fromUnit = epochUnitOf(c.data_type);
    if (toUnit === undefined || fromUnit === undefined || fromUnit === toUnit) return encode;
    return (v: Value) => encode(convertTimestamp(v, fromUnit, toUnit));
  });
  const values = output.rows.map((row) => encodeRowArray(row, encoders)).join(",");
  return `{"name":"","columns":[${columns}],"values":[${values}]}`;
}

/**
 * `{"results":[{"statement_id":i,"series":[…]}],"execution_time_ms":N}`; affected-rows statements
 * have `"series":[]`.
 */
export function renderInfluxdbV1(outputs: QueryOutput[], opts: InfluxdbV1Options): Response {
  const ms = wholeMillis(opts.executionTimeMs);
  const toUnit = parseEpoch(opts.epoch);
  const results = outputs.map((o, i) =>
    `{"statement_id":${i},"series":[${o.kind === "records" ? seriesJson(o, toUnit) : ""}]}`
  );
  const body = `{"results":[${results.join(",")}],"execution_time_ms":${ms}}`;
  return formatResponse(body, CONTENT_TYPE.json, "influxdb_v1", ms);
}
