/**
 * COPY … FROM's Parquet reader (hyparquet). hyparquet decodes asynchronously, and an import writes
 * in one synchronous transaction, so a file's row groups are decoded before the transaction starts.
 * Timestamps and dates come back as {@link ParquetTime} (exact nanoseconds, whatever the file's
 * unit) so the table's column decides their unit.
 */
import { parquetMetadata, parquetRead, parquetSchema } from "hyparquet";
import { invalidArguments } from "../../common/errors.ts";
import type { Value } from "../../common/rows.ts";
import { readWholeFile } from "./paths.ts";
import type { FileRows } from "./text_readers.ts";

/** A Parquet timestamp or date as nanoseconds since the epoch. */
export class ParquetTime {
  constructor(readonly ns: bigint) {}
}

const parsers = {
  timestampFromMilliseconds: (v: bigint) => new ParquetTime(BigInt(v) * 1_000_000n),
  timestampFromMicroseconds: (v: bigint) => new ParquetTime(BigInt(v) * 1000n),
  timestampFromNanoseconds: (v: bigint) => new ParquetTime(BigInt(v)),
  dateFromDays: (v: number) => new ParquetTime(BigInt(v) * 86_400_000_000_000n),
};

function cell(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (v instanceof ParquetTime) return v as unknown as Value;
  if (typeof v === "object" && !(v instanceof Uint8Array)) {
    return JSON.stringify(v, (_k, x) => typeof x === "bigint" ? String(x) : x);
  }
  return v as Value;
}

/** A Parquet file's columns and rows (read whole: see the module comment). */
export async function readParquet(path: string): Promise<FileRows> {
  const bytes = readWholeFile(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let names: string[];
  let metadata;
  try {
    metadata = parquetMetadata(buffer);
    names = parquetSchema(metadata).children.map((c) => c.element.name);
  } catch (e) {
    throw invalidArguments(`COPY FROM ${path}: not a Parquet file (${(e as Error).message})`);
  }
  const rows: Value[][] = [];
  try {
    await parquetRead({
      file: buffer,
      metadata,
      columns: names,
      utf8: false,
      parsers,
      onComplete: (data: unknown[][]) => {
        for (const r of data) rows.push(r.map(cell));
      },
    });
  } catch (e) {
    throw invalidArguments(`COPY FROM ${path}: cannot read the Parquet data (${(e as Error).message})`);
  }
  return { names, rows };
}
