/**
 * A window's samples encoded as the chunks compaction writes (`metric_chunks.ts`), packed in a few
 * typed arrays: what a job builds on the writer's thread page by page, or on a compaction worker
 * (`compaction_worker.ts`) from a read-only connection, whence it comes back as transferred buffers
 * (no per-chunk object to copy across threads).
 */
import { encodeXorColumns } from "../codec/xor_chunk.ts";
import type { DatabaseHandle } from "./database.ts";
import type { SeriesBuffer } from "./metric_buffer.ts";
import { type EncodedWindow, readSlice, WINDOW_MS } from "./metric_chunks.ts";
import type { TableMeta } from "./table.ts";

/** The most samples in one chunk (an XOR chunk counts them in 16 bits). */
const MAX_CHUNK = 4096;

/** Encodes per-series buffers as chunks of at most `MAX_CHUNK` samples, series in the map's order. */
export function encodeWindow(series: Map<number, SeriesBuffer>): EncodedWindow {
  let count = 0;
  for (const s of series.values()) count += Math.ceil(s.length / MAX_CHUNK);
  const ids = new Float64Array(count), starts = new Float64Array(count), ends = new Float64Array(count);
  const offsets = new Uint32Array(count + 1);
  let bytes = new Uint8Array(1024), used = 0, k = 0;
  for (const [id, s] of series) {
    for (let from = 0; from < s.length; from += MAX_CHUNK) {
      const to = Math.min(s.length, from + MAX_CHUNK);
      const data = encodeXorColumns(s, from, to);
      if (used + data.length > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, used + data.length));
        grown.set(bytes.subarray(0, used));
        bytes = grown;
      }
      bytes.set(data, used);
      ids[k] = id;
      starts[k] = s.timestamps[from];
      ends[k] = s.timestamps[to - 1];
      used += data.length;
      offsets[++k] = used;
    }
  }
  return { ids, starts, ends, offsets, bytes: bytes.slice(0, used) };
}

/** The buffers a transfer of an encoded window hands over. */
export function windowBuffers(w: EncodedWindow): ArrayBuffer[] {
  return [w.ids.buffer, w.starts.buffer, w.ends.buffer, w.offsets.buffer, w.bytes.buffer];
}

/** Reads the window starting at `start` from the samples table and encodes it (a worker's whole job). */
export function readWindow(handle: DatabaseHandle, physical: TableMeta, start: number): EncodedWindow {
  const series = new Map<number, SeriesBuffer>();
  readSlice(handle, physical, start, start + WINDOW_MS, series);
  return encodeWindow(series);
}

/** What a compaction worker is asked: one window of a physical table of a file-backed database. */
export interface WindowRequest {
  db: string;
  main: string;
  nowal: string;
  /** The physical table, by name and id (a table dropped and created again is another). */
  table: string;
  tableId: number;
  start: number;
}

/** A compaction worker's answer: the encoded window, or that its table is gone, or an error. */
export interface WindowReply {
  id: number;
  window?: EncodedWindow;
  gone?: true;
  error?: string;
}
