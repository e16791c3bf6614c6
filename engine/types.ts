/**
 * Column types of pipeline output: GreptimeDB data types plus the index a transform asked for,
 * and the helpers that name and convert them.
 */
import type { ColumnIndex, ColumnSchema, DataType, Value, WriteBatch } from "../src/common/rows.ts";
import type { Timestamp } from "./value.ts";
import { nsToUnit, type TimeUnit } from "../src/common/time_unit.ts";

export type { ColumnIndex };

/** A pipeline output column: the storage column with the index a transform asked for (reference §7.2). */
export type PipelineColumn = ColumnSchema;

/** A write batch produced by a pipeline; `columns` carry their index flags. */
export interface PipelineBatch extends WriteBatch {
  columns: PipelineColumn[];
}

/** GreptimeDB's protobuf `ColumnDataType` names (dry run output, coercion messages). */
export const PROTO_TYPE_NAME: Record<DataType, string> = {
  Boolean: "BOOLEAN",
  Int8: "INT8",
  Int16: "INT16",
  Int32: "INT32",
  Int64: "INT64",
  UInt8: "UINT8",
  UInt16: "UINT16",
  UInt32: "UINT32",
  UInt64: "UINT64",
  Float32: "FLOAT32",
  Float64: "FLOAT64",
  String: "STRING",
  Binary: "BINARY",
  Json: "JSON",
  Date: "DATE",
  TimestampSecond: "TIMESTAMP_SECOND",
  TimestampMillisecond: "TIMESTAMP_MILLISECOND",
  TimestampMicrosecond: "TIMESTAMP_MICROSECOND",
  TimestampNanosecond: "TIMESTAMP_NANOSECOND",
};

/** SQL type names as SHOW CREATE TABLE prints them. */
export const SQL_TYPE_NAME: Record<DataType, string> = {
  Boolean: "BOOLEAN",
  Int8: "TINYINT",
  Int16: "SMALLINT",
  Int32: "INT",
  Int64: "BIGINT",
  UInt8: "TINYINT UNSIGNED",
  UInt16: "SMALLINT UNSIGNED",
  UInt32: "INT UNSIGNED",
  UInt64: "BIGINT UNSIGNED",
  Float32: "FLOAT",
  Float64: "DOUBLE",
  String: "STRING",
  Binary: "VARBINARY",
  Json: "JSON",
  Date: "DATE",
  TimestampSecond: "TIMESTAMP(0)",
  TimestampMillisecond: "TIMESTAMP(3)",
  TimestampMicrosecond: "TIMESTAMP(6)",
  TimestampNanosecond: "TIMESTAMP(9)",
};

/** A timestamp as a cell of a timestamp column of `unit` (floor division, numbers where exact). */
export function timestampCellOf(ts: Timestamp, unit: TimeUnit): Value {
  switch (unit) {
    case "s":
      return Math.floor(ts.ms / 1000);
    case "ms":
      return ts.ms;
    case "us":
      return ts.ms * 1000 + Math.floor(ts.subMs / 1000);
    case "ns":
      return ts.ns;
  }
}

/** A nanosecond instant as a cell of a timestamp column of `unit` (floor division). */
export function timestampCell(ns: bigint, unit: TimeUnit): Value {
  return unit === "ns" ? ns : intCell(nsToUnit(ns, unit));
}

/** An integer as a cell: a number when it is exactly representable, else a bigint. */
export function intCell(n: bigint): Value {
  return n >= -9007199254740991n && n <= 9007199254740991n ? Number(n) : n;
}
