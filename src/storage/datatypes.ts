/**
 * GreptimeDB data types and how they live in SQLite: the declared column type carries the
 * GreptimeDB type name (so result sets can report it) plus a word that picks the right affinity.
 */
import type { DataType, Value } from "../common/rows.ts";
import { invalidArguments } from "../common/errors.ts";
import { unitOf } from "../common/time_unit.ts";
import { decimalSpec, decimalType, DEFAULT_DECIMAL } from "../common/decimal.ts";
import { vectorDim, vectorType } from "../common/vector.ts";

type FixedType = Exclude<DataType, `Decimal(${number}, ${number})` | `Vector(${number})`>;

const DECL: Record<FixedType, string> = {
  Boolean: "Boolean_INT",
  Int8: "Int8",
  Int16: "Int16",
  Int32: "Int32",
  Int64: "Int64",
  UInt8: "UInt8",
  UInt16: "UInt16",
  UInt32: "UInt32",
  UInt64: "UInt64",
  Float32: "Float32",
  Float64: "Float64",
  String: "String_TEXT",
  Binary: "Binary_BLOB",
  Json: "Json_TEXT",
  Date: "Date_INT",
  TimestampSecond: "TimestampSecond_INT",
  TimestampMillisecond: "TimestampMillisecond_INT",
  TimestampMicrosecond: "TimestampMicrosecond_INT",
  TimestampNanosecond: "TimestampNanosecond_INT",
};

const BY_DECL = new Map<string, DataType>(
  Object.entries(DECL).map(([t, d]) => [d.toLowerCase(), t as DataType]),
);

const DECIMAL_DECL = /^decimal_(\d+)_(\d+)_int$/i;
const VECTOR_DECL = /^vector_(\d+)_blob$/i;

/**
 * The SQLite declared type of a column of this GreptimeDB type (decimals: the unscaled integer;
 * vectors: their f32 bytes).
 */
export function sqliteDeclType(type: DataType): string {
  const dec = decimalSpec(type);
  if (dec) return `Decimal_${dec.precision}_${dec.scale}_INT`;
  const dim = vectorDim(type);
  return dim !== undefined ? `Vector_${dim}_BLOB` : DECL[type as FixedType];
}

/** The GreptimeDB type behind a SQLite declared type, or undefined for expressions and foreign columns. */
export function dataTypeOfDecl(decl: string | null | undefined): DataType | undefined {
  if (!decl) return undefined;
  const dec = DECIMAL_DECL.exec(decl);
  if (dec) return `Decimal(${Number(dec[1])}, ${Number(dec[2])})`;
  const vec = VECTOR_DECL.exec(decl);
  if (vec) return `Vector(${Number(vec[1])})`;
  return BY_DECL.get(decl.toLowerCase());
}

/**
 * The range of each integer type: SQLite stores them all as one 64-bit INTEGER, so the writer, SQL
 * INSERT and casts check it (DataFusion's casts and GreptimeDB's inserts fail past it).
 */
export const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  Int8: [-128n, 127n],
  Int16: [-32768n, 32767n],
  Int32: [-2147483648n, 2147483647n],
  Int64: [-(2n ** 63n), 2n ** 63n - 1n],
  UInt8: [0n, 255n],
  UInt16: [0n, 65535n],
  UInt32: [0n, 4294967295n],
  UInt64: [0n, 2n ** 64n - 1n],
};

/** Whether a value of this type is a timestamp. */
export function isTimestampType(type: string): boolean {
  return type.startsWith("Timestamp");
}

/** Whether a column of this type is stored as an SQLite integer. */
export function isIntegerType(type: DataType): boolean {
  return type.startsWith("Int") || type.startsWith("UInt") || isTimestampType(type) ||
    type === "Boolean" || type === "Date";
}

/** The SQL type name GreptimeDB prints in SHOW CREATE TABLE. */
export function sqlTypeName(type: DataType): string {
  const dec = decimalSpec(type);
  if (dec) return `DECIMAL(${dec.precision},${dec.scale})`;
  const dim = vectorDim(type);
  if (dim !== undefined) return `VECTOR(${dim})`;
  switch (type as FixedType) {
    case "Boolean":
      return "BOOLEAN";
    case "Int8":
      return "TINYINT";
    case "Int16":
      return "SMALLINT";
    case "Int32":
      return "INT";
    case "Int64":
      return "BIGINT";
    case "UInt8":
      return "TINYINT UNSIGNED";
    case "UInt16":
      return "SMALLINT UNSIGNED";
    case "UInt32":
      return "INT UNSIGNED";
    case "UInt64":
      return "BIGINT UNSIGNED";
    case "Float32":
      return "FLOAT";
    case "Float64":
      return "DOUBLE";
    case "String":
      return "STRING";
    case "Binary":
      return "VARBINARY";
    case "Json":
      return "JSON";
    case "Date":
      return "DATE";
    case "TimestampSecond":
      return "TIMESTAMP(0)";
    case "TimestampMillisecond":
      return "TIMESTAMP(3)";
    case "TimestampMicrosecond":
      return "TIMESTAMP(6)";
    case "TimestampNanosecond":
      return "TIMESTAMP(9)";
  }
  // a view's column can be of a type no table column has (`Null`, `List<Int64>`): its name, as
  // GreptimeDB prints one it has no SQL word for
  return String(type).toUpperCase();
}

/** information_schema.columns' `data_type`: the lowercase SQL name. */
export function infoSchemaTypeName(type: DataType): string {
  if (isTimestampType(type)) return `timestamp(${({ s: 0, ms: 3, us: 6, ns: 9 })[unitOf(type)]})`;
  if (type === "String") return "string";
  return sqlTypeName(type).toLowerCase();
}

const SQL_TYPE_WORDS: Record<string, DataType> = {
  BOOLEAN: "Boolean",
  BOOL: "Boolean",
  TINYINT: "Int8",
  INT8: "Int8",
  SMALLINT: "Int16",
  INT16: "Int16",
  INT: "Int32",
  INTEGER: "Int32",
  INT32: "Int32",
  BIGINT: "Int64",
  INT64: "Int64",
  UINT8: "UInt8",
  UINT16: "UInt16",
  UINT32: "UInt32",
  UINT64: "UInt64",
  FLOAT: "Float32",
  FLOAT32: "Float32",
  REAL: "Float32",
  DOUBLE: "Float64",
  FLOAT64: "Float64",
  STRING: "String",
  TEXT: "String",
  VARCHAR: "String",
  CHAR: "String",
  TINYTEXT: "String",
  MEDIUMTEXT: "String",
  LONGTEXT: "String",
  BINARY: "Binary",
  VARBINARY: "Binary",
  BLOB: "Binary",
  BYTEA: "Binary",
  JSON: "Json",
  DATE: "Date",
  TIMESTAMP: "TimestampMillisecond",
  DATETIME: "TimestampMicrosecond",
  TIMESTAMPTZ: "TimestampMillisecond",
  TIMESTAMP_S: "TimestampSecond",
  TIMESTAMP_SEC: "TimestampSecond",
  TIMESTAMPSECOND: "TimestampSecond",
  TIMESTAMP_MS: "TimestampMillisecond",
  TIMESTAMPMILLISECOND: "TimestampMillisecond",
  TIMESTAMP_US: "TimestampMicrosecond",
  TIMESTAMPMICROSECOND: "TimestampMicrosecond",
  TIMESTAMP_NS: "TimestampNanosecond",
  TIMESTAMPNANOSECOND: "TimestampNanosecond",
};

const DECIMAL_WORDS = new Set(["DECIMAL", "NUMERIC", "DEC", "DECIMAL128"]);

/** Whether a SQL type word names a vector (`VECTOR(dim)`). */
export function isVectorWord(word: string): boolean {
  return word.toUpperCase() === "VECTOR";
}

/** Whether a SQL type word names a decimal (`DECIMAL(p, s)`, `NUMERIC`). */
export function isDecimalWord(word: string): boolean {
  return DECIMAL_WORDS.has(word.toUpperCase());
}

const UNSIGNED: Record<string, DataType> = {
  Int8: "UInt8",
  Int16: "UInt16",
  Int32: "UInt32",
  Int64: "UInt64",
};

/**
 * Maps a SQL type as written in DDL (`BIGINT UNSIGNED`, `TIMESTAMP(9)`, `DOUBLE`) to a DataType.
 * Also accepts GreptimeDB's own names (`Float64`, `TimestampMillisecond`).
 */
export function parseSqlType(word: string, precision?: number, unsigned = false, scale?: number): DataType {
  const upper = word.toUpperCase();
  if (DECIMAL_WORDS.has(upper) && !unsigned) {
    if (precision === undefined) return decimalType(DEFAULT_DECIMAL.precision, DEFAULT_DECIMAL.scale);
    return decimalType(precision, scale ?? 0);
  }
  if (isVectorWord(upper) && !unsigned) return vectorType(precision);
  let type = SQL_TYPE_WORDS[upper];
  if (!type) throw invalidArguments(`Unsupported data type: ${word}`);
  if ((upper === "TIMESTAMP" || upper === "DATETIME" || upper === "TIMESTAMPTZ") && precision !== undefined) {
    const unit: Record<number, DataType> = {
      0: "TimestampSecond",
      3: "TimestampMillisecond",
      6: "TimestampMicrosecond",
      9: "TimestampNanosecond",
    };
    if (!(precision in unit)) throw invalidArguments(`Invalid timestamp precision: ${precision}`);
    type = unit[precision];
  }
  if (unsigned) {
    const u = UNSIGNED[type];
    if (!u) throw invalidArguments(`Unsupported data type: ${word} UNSIGNED`);
    type = u;
  }
  return type;
}

const TWO_64 = 1n << 64n;
const TWO_63 = 1n << 63n;

/** UInt64 values above 2^63-1 are stored as their two's complement so SQLite keeps them as integers. */
export function encodeUInt64(v: bigint): bigint {
  return v >= TWO_63 ? v - TWO_64 : v;
}

/** Inverse of {@link encodeUInt64}. */
export function decodeUInt64(v: bigint): bigint {
  return v < 0n ? v + TWO_64 : v;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** A SQLite integer as the Value shape: a number when exact, else the bigint. */
export function fromSqliteInteger(v: bigint): number | bigint {
  return v <= MAX_SAFE && v >= MIN_SAFE ? Number(v) : v;
}

/** The empty blob stands for a null tag inside a WITHOUT ROWID primary key, which forbids NULL. */
export const NULL_TAG: Uint8Array = new Uint8Array(0);

/** Whether a read value is the null-tag stand-in. */
export function isNullTag(v: Value): boolean {
  return v instanceof Uint8Array && v.length === 0;
}
