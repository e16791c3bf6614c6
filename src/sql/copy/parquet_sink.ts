/**
 * COPY … TO in Parquet (hyparquet-writer): one row group per page of rows, the file written as it
 * grows. Column types follow GreptimeDB's Arrow schema: timestamps INT64 TIMESTAMP in their unit
 * (seconds as MILLIS, Parquet has no seconds), integers with their width and sign, FLOAT/DOUBLE,
 * UTF-8 strings, booleans, binary, dates; decimals and JSON as strings.
 */
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import type { ResultColumn, Value } from "../../common/rows.ts";
import { unitOfType } from "../../common/time_unit.ts";
import { isVectorType } from "../../common/vector.ts";
import { type RowSink, writeAll } from "./row_sink.ts";

type Convert = (v: Value) => unknown;
/** The writer's own hyparquet version's schema element (it pins one of its own). */
type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]["schema"][number];

interface ColumnPlan {
  element: SchemaElement;
  convert: Convert;
}

const encoder = new TextEncoder();
const toBigInt: Convert = (v) => typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
const toText: Convert = (v) =>
  encoder.encode(v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));

function integer(name: string, bits: 8 | 16 | 32 | 64, isSigned: boolean): ColumnPlan {
  const logical_type = { type: "INTEGER" as const, bitWidth: bits, isSigned };
  if (bits === 64) {
    return { element: { name, type: "INT64", repetition_type: "OPTIONAL", logical_type }, convert: toBigInt };
  }
  return {
    element: { name, type: "INT32", repetition_type: "OPTIONAL", logical_type },
    convert: (v) => (bits === 32 && !isSigned ? Number(v) | 0 : Number(v)),
  };
}

/** The Parquet column of a result column and how its values convert. */
function planColumn(c: ResultColumn): ColumnPlan {
  const name = c.name;
  const type = c.data_type;
  const unit = unitOfType(type);
  if (unit !== undefined) {
    const scale = unit === "s" ? 1000n : 1n;
    const pqUnit = unit === "ns" ? "NANOS" : unit === "us" ? "MICROS" : "MILLIS";
    return {
      element: {
        name,
        type: "INT64",
        repetition_type: "OPTIONAL",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: false, unit: pqUnit },
      },
      convert: (v) => (toBigInt(v) as bigint) * scale,
    };
  }
  // a vector is its f32 bytes, as GreptimeDB writes VECTOR columns (Binary in Arrow and Parquet)
  switch (isVectorType(type) ? "Binary" : type) {
    case "Boolean":
      return { element: { name, type: "BOOLEAN", repetition_type: "OPTIONAL" }, convert: (v) => Boolean(v) };
    case "Int8":
      return integer(name, 8, true);
    case "Int16":
      return integer(name, 16, true);
    case "Int32":
      return integer(name, 32, true);
    case "Int64":
      return integer(name, 64, true);
    case "UInt8":
      return integer(name, 8, false);
    case "UInt16":
      return integer(name, 16, false);
    case "UInt32":
      return integer(name, 32, false);
    case "UInt64":
      return integer(name, 64, false);
    case "Float32":
      return { element: { name, type: "FLOAT", repetition_type: "OPTIONAL" }, convert: (v) => Number(v) };
    case "Float64":
      return { element: { name, type: "DOUBLE", repetition_type: "OPTIONAL" }, convert: (v) => Number(v) };
    case "Binary":
      return {
        element: { name, type: "BYTE_ARRAY", repetition_type: "OPTIONAL" },
        convert: (v) => (v instanceof Uint8Array ? v : encoder.encode(String(v))),
      };
    case "Date":
      return {
        element: { name, type: "INT32", repetition_type: "OPTIONAL", converted_type: "DATE" },
        convert: (v) => Number(v),
      };
    default:
      return {
        element: {
          name,
          type: "BYTE_ARRAY",
          repetition_type: "OPTIONAL",
          converted_type: "UTF8",
          logical_type: { type: "STRING" },
        },
        convert: toText,
      };
  }
}

/** hyparquet-writer's buffer, flushed to the file past 1 MiB (as its own Node file writer does). */
function fileWriter(file: Deno.FsFile): ByteWriter {
  const writer = new ByteWriter();
  const flush = () => {
    writeAll(file, new Uint8Array(writer.buffer, 0, writer.index));
    writer.index = 0;
  };
  const grow = writer.ensure.bind(writer);
  writer.ensure = (size: number) => {
    if (writer.index > 1 << 20) flush();
    grow(size);
  };
  writer.finish = flush;
  return writer;
}

/** A Parquet sink writing to an open file. */
export function parquetSink(file: Deno.FsFile): RowSink {
  let plans: ColumnPlan[] = [];
  let writer: ParquetWriter | undefined;
  return {
    begin(columns) {
      plans = columns.map(planColumn);
      const root: SchemaElement = { name: "root", num_children: plans.length };
      writer = new ParquetWriter({
        writer: fileWriter(file),
        schema: [root, ...plans.map((p) => p.element)],
        createdBy: "petrel",
      });
    },
    rows(rows) {
      if (rows.length === 0) return;
      const columnData = plans.map((p, j) => ({
        name: p.element.name,
        data: rows.map((r) => (r[j] === null || r[j] === undefined ? null : p.convert(r[j]))),
      }));
      writer!.write({ columnData, rowGroupSize: rows.length });
    },
    end() {
      writer!.finish();
    },
  };
}
