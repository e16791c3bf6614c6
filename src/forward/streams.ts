/**
 * What a destination reads, as streams with one durable cursor each: a physical metric table (samples
 * in insert-sequence order, `src/storage/forward_seq.ts`) or a database schema's write journal of
 * ordinary tables (`src/storage/forward_journal.ts`). A stream hands out batches of opaque items and
 * knows how to encode any slice of one (a refused batch is split) for the destination's protocol.
 */
import type { Value } from "../common/rows.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import {
  type ForwardSample,
  metricBacklog,
  type MetricStream,
  readMetricBatch,
  skipMetricBacklog,
} from "../storage/forward_read.ts";
import { journalAfter, journalBacklog, journalSkipTo } from "../storage/forward_journal.ts";
import { ENTRY_START, readEntryRows } from "../storage/forward_entry.ts";
import type { SeqCursor } from "../storage/forward_seq.ts";
import { isMetricTable, type TableMeta, timeUnit } from "../storage/mod.ts";
import { encodeLineProtocol, encodeRemoteWrite } from "./encode.ts";
import { encodeTableRows } from "./encode_table.ts";
import { encodeOtlpLogs, isOtlpLogTable } from "./encode_otlp.ts";
import { encodeOtlpTraces, isOtlpTraceTable } from "./encode_otlp_traces.ts";

/** Log and trace tables in GreptimeDB's OpenTelemetry models; the rows of any other are passed over. */
function otlpPayload(table: TableMeta, rows: Value[][]): Payload | null {
  if (isOtlpLogTable(table)) {
    const body = encodeOtlpLogs(table, rows);
    return body === ""
      ? null
      : { body, kind: "otlp_logs", headers: { "x-greptime-log-table-name": table.name } };
  }
  if (isOtlpTraceTable(table)) {
    const body = encodeOtlpTraces(table, rows);
    const headers = {
      "x-greptime-pipeline-name": "greptime_trace_v1",
      "x-greptime-trace-table-name": table.name,
    };
    return body === "" ? null : { body, kind: "otlp_traces", headers };
  }
  return null;
}

/** A request body and how it is sent. */
export interface Payload {
  body: Uint8Array<ArrayBuffer> | string;
  /** `remote_write`, OTLP/HTTP JSON logs or traces, or line protocol at a precision. */
  kind: "remote_write" | "otlp_logs" | "otlp_traces" | { precision: string };
  /** Extra headers (GreptimeDB's OTLP table and pipeline headers, which other receivers ignore). */
  headers?: Record<string, string>;
}

/** Items read after a cursor, and the cursor after them. */
export interface Batch<T = unknown> {
  items: T[];
  /** Rows read (forwarded or skipped); 0 when caught up. */
  read: number;
  next: SeqCursor;
  encode(items: T[]): Payload | null;
  /** Where an item sits in the write order (for dead letters). */
  seqOf(item: T): number;
}

/** One stream of a database. */
export interface Stream {
  /** Names the cursor. */
  name: string;
  /** Estimated bytes of a stored row, for `max_lag_bytes` and the queue size. */
  rowBytes: number;
  read(handle: DatabaseHandle, after: SeqCursor, limit: number): Batch;
  backlog(handle: DatabaseHandle, after: SeqCursor, now: number): { rows: number; ageMs: number };
  skip(
    handle: DatabaseHandle,
    after: SeqCursor,
    now: number,
    maxAgeMs: number,
    keepRows: number,
  ): { cursor: SeqCursor; skipped: number };
}

/** A physical metric table's samples, sent as remote write or (greptime) line protocol. */
export function metricSource(stream: MetricStream, protocol: "remote_write" | "greptime"): Stream {
  return {
    name: stream.name,
    rowBytes: 24,
    read(handle, after, limit): Batch<ForwardSample> {
      const b = readMetricBatch(handle, stream, after, limit);
      return {
        items: b.samples,
        read: b.read,
        next: b.next,
        seqOf: (s) => s.seq,
        encode: (items) => {
          if (protocol === "remote_write") return { body: encodeRemoteWrite(items), kind: "remote_write" };
          const body = encodeLineProtocol(items);
          return body === "" ? null : { body, kind: { precision: "ms" } };
        },
      };
    },
    backlog: (handle, after, now) => metricBacklog(handle, stream, after, now),
    skip: (handle, after, now, maxAgeMs, keepRows) =>
      skipMetricBacklog(handle, stream, after, now, maxAgeMs, keepRows),
  };
}

const PRECISION = { s: "s", ms: "ms", us: "us", ns: "ns" } as const;

/** One row of an ordinary table, tagged with its journal entry. */
interface TableRow {
  seq: number;
  values: Value[];
}

/**
 * The ordinary tables of one schema (`main` or `nowal`), through its journal. The cursor is
 * `(seq, pos, done, key)` as `(seq, ts, seriesId, key)`: the entry being read, the position in it
 * (the last rowid read, or the last primary key read: `forward_entry.ts`), and 1 once it is
 * finished. A batch holds rows of one table (one precision per request).
 */
export function journalSource(
  schema: string,
  wanted: (table: string) => boolean,
  protocol: "greptime" | "otlp",
): Stream {
  return {
    name: `tables/${schema}`,
    rowBytes: 64,
    read(handle, after, limit): Batch<TableRow> {
      let cursor = after;
      const items: TableRow[] = [];
      let table: TableMeta | undefined, read = 0;
      const entries = journalAfter(handle, schema, after.seriesId === 1 ? after.seq : after.seq - 1, 64);
      for (const e of entries) {
        const t = handle.getTable(e.table);
        if (t === undefined || isMetricTable(t) || !wanted(t.name)) {
          cursor = { seq: e.seq, ts: 0, seriesId: 1 };
          read++;
          continue;
        }
        if (table !== undefined && t.name !== table.name) break;
        table = t;
        const at = e.seq === after.seq && after.seriesId === 0
          ? { pos: after.ts, key: after.key ?? null }
          : ENTRY_START;
        const want = limit - items.length;
        const r = readEntryRows(handle, t, e, at, want);
        for (const values of r.rows) items.push({ seq: e.seq, values });
        read += r.rows.length;
        if (r.rows.length < want) {
          cursor = { seq: e.seq, ts: 0, seriesId: 1 };
          read++;
        } else {
          cursor = { seq: e.seq, ts: r.at.pos, seriesId: 0, key: r.at.key };
          break;
        }
      }
      const meta = table;
      return {
        items,
        read,
        next: cursor,
        seqOf: (r) => r.seq,
        encode: (rows) => {
          if (meta === undefined) return null;
          if (protocol === "otlp") return otlpPayload(meta, rows.map((r) => r.values));
          const body = encodeTableRows(meta, rows.map((r) => r.values));
          return body === "" ? null : { body, kind: { precision: PRECISION[timeUnit(meta)] } };
        },
      };
    },
    backlog(handle, after, now) {
      const b = journalBacklog(handle, schema, after.seriesId === 1 ? after.seq : after.seq - 1);
      return { rows: b.rows, ageMs: b.oldestAt === null ? 0 : Math.max(0, now - b.oldestAt) };
    },
    skip(handle, after, now, maxAgeMs, keepRows) {
      const from = after.seriesId === 1 ? after.seq : after.seq - 1;
      const r = journalSkipTo(handle, schema, from, maxAgeMs > 0 ? now - maxAgeMs : 0, keepRows);
      if (r.skipped === 0) return { cursor: after, skipped: 0 };
      return { cursor: { seq: r.seq, ts: 0, seriesId: 1 }, skipped: r.skipped };
    },
  };
}
