/**
 * Where COPY … TO writes rows, one format each, fed page by page (a large table is never held
 * whole): CSV with a header row, JSON lines, Parquet (`parquet_sink.ts`).
 */
import type { ResultColumn, Value } from "../../common/rows.ts";
import { csvField } from "../../codec/csv.ts";
import type { CopyFormat } from "./parse.ts";
import { jsonLine, valueText } from "./values.ts";
import { parquetSink } from "./parquet_sink.ts";
import { type RowSink, writeAll } from "./row_sink.ts";

export type { RowSink };

/** A sink writing text through a buffer flushed every ~1 MiB. */
function textSink(file: Deno.FsFile, header: (columns: ResultColumn[]) => string, line: LineFn): RowSink {
  const encoder = new TextEncoder();
  let names: string[] = [], types: string[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer !== "") writeAll(file, encoder.encode(buffer));
    buffer = "";
  };
  return {
    begin(columns) {
      names = columns.map((c) => c.name);
      types = columns.map((c) => c.data_type);
      buffer += header(columns);
    },
    rows(rows) {
      for (const r of rows) {
        buffer += line(names, types, r);
        if (buffer.length > 1 << 20) flush();
      }
    },
    end: flush,
  };
}

type LineFn = (names: string[], types: string[], row: Value[]) => string;

function csvLine(_names: string[], types: string[], row: Value[]): string {
  let out = "";
  for (let j = 0; j < row.length; j++) {
    const v = row[j];
    if (j > 0) out += ",";
    if (v === null || v === undefined) continue;
    // an empty value is quoted: an empty unquoted field reads back as NULL
    const text = valueText(v, types[j]);
    out += text === "" ? '""' : csvField(text);
  }
  return out + "\n";
}

/** The sink of a format, writing to an open file. */
export function sinkFor(format: CopyFormat, file: Deno.FsFile): RowSink {
  if (format === "csv") {
    return textSink(file, (cols) => cols.map((c) => csvField(c.name)).join(",") + "\n", csvLine);
  }
  if (format === "json") return textSink(file, () => "", jsonLine);
  return parquetSink(file);
}
