/**
 * The `arrow` format (GreptimeDB `http/result/arrow_result.rs`): the Arrow IPC *stream* of a single
 * statement, with Arrow types matching GreptimeDB's (`Timestamp(unit)` without a time zone, Int64,
 * UInt64, Float64, Utf8, Bool, Binary, Date32). Columns are built straight into typed buffers.
 *
 * `compression=zstd` compresses record batch bodies with node:zlib's zstd; `lz4` is accepted but
 * written uncompressed (no LZ4 frame codec is available without another package).
 */
import {
  Binary,
  Bool,
  compressionRegistry,
  CompressionType,
  type Data,
  DataType,
  DateDay,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
} from "apache-arrow";
import { zstdCompressSync, zstdDecompressSync } from "node:zlib";
import type { QueryOutput, Value } from "../../common/rows.ts";
import { encodeValue } from "./json_text.ts";
import { isVectorType } from "../../common/vector.ts";
import { CONTENT_TYPE, formatResponse, type RenderOptions, singleOutput } from "./response.ts";

/** Options of the arrow renderer. */
export interface ArrowOptions extends RenderOptions {
  /** `zstd` or `lz4`, case-insensitive; anything else means none. */
  compression?: string;
}

let zstdRegistered = false;

function registerZstd(): void {
  if (zstdRegistered) return;
  compressionRegistry.set(CompressionType.ZSTD, {
    encode: (data: Uint8Array) => new Uint8Array(zstdCompressSync(data)),
    decode: (data: Uint8Array) => new Uint8Array(zstdDecompressSync(data)),
  });
  zstdRegistered = true;
}

type ColumnKind =
  | "bool"
  | "int"
  | "bigint"
  | "float"
  | "utf8"
  | "binary"
  | "date";

interface ArrowColumnType {
  type: DataType;
  kind: ColumnKind;
}

function intType(type: DataType): ArrowColumnType {
  return { type, kind: "int" };
}

/** Arrow types of GreptimeDB's data type names. */
const ARROW_TYPES: Record<string, () => ArrowColumnType> = {
  Boolean: () => ({ type: new Bool(), kind: "bool" }),
  Int8: () => intType(new Int8()),
  Int16: () => intType(new Int16()),
  Int32: () => intType(new Int32()),
  Int64: () => ({ type: new Int64(), kind: "bigint" }),
  UInt8: () => intType(new Uint8()),
  UInt16: () => intType(new Uint16()),
  UInt32: () => intType(new Uint32()),
  UInt64: () => ({ type: new Uint64(), kind: "bigint" }),
  Float32: () => ({ type: new Float32(), kind: "float" }),
  Float64: () => ({ type: new Float64(), kind: "float" }),
  String: () => ({ type: new Utf8(), kind: "utf8" }),
  // Petrel keeps Json as text, so it is shipped as Utf8 (GreptimeDB ships jsonb bytes as Binary).
  Json: () => ({ type: new Utf8(), kind: "utf8" }),
  Binary: () => ({ type: new Binary(), kind: "binary" }),
  Date: () => ({ type: new DateDay(), kind: "date" }),
  TimestampSecond: () => ({ type: new TimestampSecond(), kind: "bigint" }),
  TimestampMillisecond: () => ({ type: new TimestampMillisecond(), kind: "bigint" }),
  TimestampMicrosecond: () => ({ type: new TimestampMicrosecond(), kind: "bigint" }),
  TimestampNanosecond: () => ({ type: new TimestampNanosecond(), kind: "bigint" }),
};

/** A type for a column whose data_type name Petrel does not map: guessed from its values. */
function inferType(rows: Value[][], col: number): ArrowColumnType {
  let sawNumber = false, sawFraction = false, sawBigint = false, sawBool = false, sawOther = false;
  for (const row of rows) {
    const v = row[col];
    if (v === null || v === undefined) continue;
    if (typeof v === "number") {
      sawNumber = true;
      if (!Number.isInteger(v)) sawFraction = true;
    } else if (typeof v === "bigint") sawBigint = true;
    else if (typeof v === "boolean") sawBool = true;
    else sawOther = true;
  }
  if (sawOther || (sawBool && (sawNumber || sawBigint))) return { type: new Utf8(), kind: "utf8" };
  if (sawBool) return { type: new Bool(), kind: "bool" };
  if (sawBigint && !sawFraction) return { type: new Int64(), kind: "bigint" };
  if (sawNumber || sawBigint) return { type: new Float64(), kind: "float" };
  return { type: new Utf8(), kind: "utf8" };
}

/** The Arrow type a result column gets. */
function arrowTypeOf(dataType: string, rows: Value[][], col: number): ArrowColumnType {
  // a vector is its f32 bytes in Arrow, as in GreptimeDB's (VectorType's arrow type is Binary)
  const make = isVectorType(dataType) ? ARROW_TYPES.Binary : ARROW_TYPES[dataType];
  return make ? make() : inferType(rows, col);
}

function toBigInt(v: Value): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  return 0n;
}

function toNumber(v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return Number(v);
  return 0;
}

function toText(v: Value): string {
  return typeof v === "string" ? v : encodeValue(v);
}

const encoder = new TextEncoder();

function toBytes(v: Value): Uint8Array {
  return v instanceof Uint8Array ? v : encoder.encode(toText(v));
}

interface TypedArrayCtor {
  new (length: number): {
    [i: number]: number | bigint;
  };
}

/** Builds one column's Arrow Data from row-major values. */
function columnData(t: ArrowColumnType, rows: Value[][], col: number): Data {
  const length = rows.length;
  const validity = new Uint8Array((length + 7) >> 3);
  let nullCount = 0;
  for (let r = 0; r < length; r++) {
    const v = rows[r][col];
    if (v === null || v === undefined) nullCount++;
    else validity[r >> 3] |= 1 << (r & 7);
  }
  const nullBitmap = nullCount > 0 ? validity : undefined;
  const type = t.type;
  const isSet = (r: number) => (validity[r >> 3] & (1 << (r & 7))) !== 0;

  if (t.kind === "bool") {
    const data = new Uint8Array((length + 7) >> 3);
    for (let r = 0; r < length; r++) {
      if (isSet(r) && toNumber(rows[r][col]) !== 0) data[r >> 3] |= 1 << (r & 7);
    }
    return makeData({ type, length, nullCount, nullBitmap, data } as never);
  }
  if (t.kind === "utf8" || t.kind === "binary") {
    const offsets = new Int32Array(length + 1);
    const chunks: Uint8Array[] = new Array(length);
    let total = 0;
    for (let r = 0; r < length; r++) {
      const v = rows[r][col];
      const bytes = isSet(r) ? toBytes(v as Value) : new Uint8Array(0);
      chunks[r] = bytes;
      total += bytes.length;
      offsets[r + 1] = total;
    }
    const data = new Uint8Array(total);
    for (let r = 0; r < length; r++) data.set(chunks[r], offsets[r]);
    return makeData({ type, length, nullCount, nullBitmap, valueOffsets: offsets, data } as never);
  }
  const ArrayType = (type as unknown as { ArrayType: TypedArrayCtor }).ArrayType;
  const data = new ArrayType(length);
  if (t.kind === "bigint") {
    const unsigned = type instanceof Uint64;
    for (let r = 0; r < length; r++) {
      if (!isSet(r)) continue;
      const b = toBigInt(rows[r][col]);
      data[r] = unsigned ? BigInt.asUintN(64, b) : BigInt.asIntN(64, b);
    }
  } else {
    for (let r = 0; r < length; r++) if (isSet(r)) data[r] = toNumber(rows[r][col]);
  }
  return makeData({ type, length, nullCount, nullBitmap, data } as never);
}

/** The Arrow IPC stream bytes of a records output (schema, then one batch when there are rows). */
export function arrowStreamBytes(
  output: QueryOutput & { kind: "records" },
  compression?: string,
): Uint8Array<ArrayBuffer> {
  const types = output.columns.map((c, i) => arrowTypeOf(c.data_type, output.rows, i));
  const fields = output.columns.map((c, i) => new Field(c.name, types[i].type, true));
  const schema = new Schema(fields);
  let compressionType: CompressionType | null = null;
  if (compression?.toLowerCase() === "zstd") {
    registerZstd();
    compressionType = CompressionType.ZSTD;
  }
  const writer = new RecordBatchStreamWriter({ compressionType });
  writer.reset(undefined, schema);
  if (output.rows.length > 0) {
    const children = types.map((t, i) => columnData(t, output.rows, i));
    const struct = makeData({ type: new Struct(fields), length: output.rows.length, nullCount: 0, children });
    writer.write(new RecordBatch(schema, struct));
  }
  writer.finish();
  // The writer concatenates its chunks into a fresh ArrayBuffer.
  return writer.toUint8Array(true) as Uint8Array<ArrayBuffer>;
}

/** Renders a single statement as an Arrow IPC stream; affected rows give an empty body. */
export function renderArrow(outputs: QueryOutput[], opts: ArrowOptions): Response {
  const output = singleOutput(outputs, "arrow");
  const body = output?.kind === "records" ? arrowStreamBytes(output, opts.compression) : new Uint8Array(0);
  return formatResponse(body, CONTENT_TYPE.arrow, "arrow", opts.executionTimeMs);
}
