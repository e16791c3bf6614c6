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
  | "TimestampNanosecond"
  /** `Decimal128(precision, scale)`, shown as `Decimal(10, 2)` (src/common/decimal.ts). */
  | `Decimal(${number}, ${number})`
  /** `VECTOR(dim)`: dim little-endian f32s in one binary (src/common/vector.ts). */
  | `Vector(${number})`;

/**
 * The type of a query's output column: a column's, or one only expressions have (intervals, and
 * DataFusion's arrays as GreptimeDB's `List<…>`, src/common/list_type.ts).
 */
export type ResultType = DataType | "IntervalMonthDayNano" | `List<${string}>`;

/** GreptimeDB's semantic types of a column. */
export type SemanticType = "TAG" | "FIELD" | "TIMESTAMP";

/** A cell value. Timestamps are integers in their column's unit (bigint where they exceed 2^53). */
export type Value = string | number | bigint | boolean | null | Uint8Array;

/** A secondary index on a column (GreptimeDB's column options); option values are normalised strings. */
export interface ColumnIndex {
  kind: "inverted" | "fulltext" | "skipping";
  options: Record<string, string>;
}

/** One column of a batch or a table. */
export interface ColumnSchema {
  name: string;
  type: DataType;
  semantic: SemanticType;
  /** Applied when a write creates the table or adds the column (pipelines); kept by the catalog. */
  index?: ColumnIndex;
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
  /** false: the request's hints (`ttl`, …) do not apply when this write creates the table. */
  createWithHints?: boolean;
}

/** One column's values, row by row (a plain array, or a typed array for numbers or bigints). */
export type ColumnValues = ArrayLike<Value>;

/**
 * A batch that holds its values by column, as a parse worker delivers them: the writer reads the
 * columns directly, and `rows` is built (once) only when some other consumer asks for it, after which
 * the rows are what counts (a consumer may have changed them).
 */
export class ColumnarBatch implements WriteBatch {
  options?: TableOptions;
  createType?: CreateType;
  #rows: Value[][] | undefined;

  /** `cols[j][r]` is row r of `columns[j]`; every column holds `rowCount` values. */
  constructor(
    public table: string,
    public columns: ColumnSchema[],
    readonly cols: ColumnValues[],
    readonly rowCount: number,
  ) {}

  /** Whether `rows` has been built (then it, not `cols`, holds the values). */
  get materialized(): boolean {
    return this.#rows !== undefined;
  }

  get rows(): Value[][] {
    if (this.#rows === undefined) {
      const n = this.rowCount, width = this.cols.length;
      const rows: Value[][] = new Array(n);
      for (let r = 0; r < n; r++) {
        const row: Value[] = new Array(width);
        for (let j = 0; j < width; j++) row[j] = this.cols[j][r];
        rows[r] = row;
      }
      this.#rows = rows;
    }
    return this.#rows;
  }

  set rows(rows: Value[][]) {
    this.#rows = rows;
  }
}

/** The batch's values by column when it still holds them that way (no copy), else null. */
export function columnsOf(batch: WriteBatch): ColumnarBatch | null {
  return batch instanceof ColumnarBatch && !batch.materialized ? batch : null;
}

/** How many rows a batch holds (without building a columnar batch's rows). */
export function rowCountOf(batch: WriteBatch): number {
  return columnsOf(batch)?.rowCount ?? batch.rows.length;
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
