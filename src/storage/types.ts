/**
 * The shapes that cross the storage boundary: every ingestion path (protocols, pipelines, SQL
 * INSERT) hands the writer a `WriteBatch`, and every reader gets a `QueryOutput`.
 */

/** GreptimeDB's data type names, as `column_schemas[].data_type` and `DESC` show them. */
export type DataType =
  | "Boolean"
  | "Int8"
  | "Int16"
  | "Int32"
  | "Int64"
  | "UInt8"
  | "UInt16"
  | "UInt32"
  | "UInt64"
  | "Float32"
  | "Float64"
  | "String"
  | "Binary"
  | "Json"
  | "Date"
  | "TimestampSecond"
  | "TimestampMillisecond"
  | "TimestampMicrosecond"
  | "TimestampNanosecond";

/** GreptimeDB's semantic types of a column. */
export type SemanticType = "TAG" | "FIELD" | "TIMESTAMP";

/** A cell value. Timestamps are integers in their column's unit (bigint where they exceed 2^53). */
export type Value = string | number | bigint | boolean | null | Uint8Array;

/** One column of a batch or a table. */
export interface ColumnSchema {
  name: string;
  type: DataType;
  semantic: SemanticType;
}

/** Table options as GreptimeDB's `WITH (...)` clause holds them (string values, keys as given). */
export type TableOptions = Record<string, string>;

/** How a table is created when a write finds it missing (GreptimeDB's AutoCreateTableType). */
export type CreateType = "physical" | "log" | "last_non_null" | "trace" | "logical";

/** Rows for one table: `rows[i][j]` is the value of `columns[j]`. */
export interface WriteBatch {
  table: string;
  columns: ColumnSchema[];
  rows: Value[][];
  /** Options applied only if this write creates the table (hints, pipeline variables). */
  options?: TableOptions;
  createType?: CreateType;
}

/** A column of a result set. */
export interface ResultColumn {
  name: string;
  data_type: DataType | string;
}

/** The result of one statement: a record set or a count of affected rows. */
export type QueryOutput =
  | { kind: "records"; columns: ResultColumn[]; rows: Value[][] }
  | { kind: "affected"; rows: number };
