/** What every COPY … TO format writes through. */
import type { ResultColumn, Value } from "../../common/rows.ts";

/** Takes a result's rows in pages into a file (which its owner closes). */
export interface RowSink {
  /** Called once, before any rows, with the result's columns. */
  begin(columns: ResultColumn[]): void;
  rows(rows: Value[][]): void;
  /** Writes what remains. */
  end(): void;
}

/** Writes all of `bytes` (a sync write may take only part of them). */
export function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += file.writeSync(bytes.subarray(at));
}
