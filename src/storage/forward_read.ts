/**
 * The read side of forwarding (`src/forward/`): the streams a destination reads (one per physical
 * metric table, since the insert sequence is per physical table) and their next batches, as labelled
 * samples in write order. Reads what is stored; nothing is copied for forwarding.
 */
import type { DatabaseHandle } from "./database.ts";
import { backlog, readAfter, type SeqCursor, skipAhead } from "./forward_seq.ts";
import { isLogicalTable } from "./metric_layout.ts";
import { seriesIndex } from "./metric_series.ts";
import type { TableMeta } from "./table.ts";

/** A physical metric table and the logical tables of it a destination forwards. */
export interface MetricStream {
  /** `metric/<physical table>`: names the cursor. */
  name: string;
  physical: TableMeta;
  /** Logical tables forwarded, by catalog id. */
  tables: Map<number, string>;
}

/** One labelled sample of a batch. */
export interface ForwardSample {
  seq: number;
  metric: string;
  labels: Record<string, string>;
  ts: number;
  /** NaN for a stored NaN. */
  value: number;
  stale: boolean;
}

/** A batch: the samples to send and the cursor after it (past rows of tables not forwarded too). */
export interface ForwardBatch {
  samples: ForwardSample[];
  /** Rows read (forwarded or not); 0 when the stream is caught up. */
  read: number;
  next: SeqCursor;
}

/** The metric streams of a database holding tables `wanted` accepts. */
export function metricStreams(handle: DatabaseHandle, wanted: (table: string) => boolean): MetricStream[] {
  const byPhysical = new Map<string, MetricStream>();
  for (const t of handle.listTables()) {
    if (!isLogicalTable(t) || !wanted(t.name)) continue;
    const physical = handle.getTable(t.options.on_physical_table);
    if (physical === undefined) continue;
    let s = byPhysical.get(physical.name);
    if (s === undefined) {
      byPhysical.set(physical.name, s = { name: `metric/${physical.name}`, physical, tables: new Map() });
    }
    s.tables.set(t.id, t.name);
  }
  return [...byPhysical.values()];
}

/** The next batch of up to `limit` rows after `after`. */
export function readMetricBatch(
  handle: DatabaseHandle,
  stream: MetricStream,
  after: SeqCursor,
  limit: number,
): ForwardBatch {
  const rows = readAfter(handle, stream.physical, after, limit);
  if (rows.length === 0) return { samples: [], read: 0, next: after };
  const index = seriesIndex(handle, stream.physical);
  const samples: ForwardSample[] = [];
  for (const r of rows) {
    const entry = index.byId.get(r.seriesId);
    const metric = entry === undefined ? undefined : stream.tables.get(entry.tableId);
    if (metric === undefined) continue;
    samples.push({
      seq: r.seq,
      metric,
      labels: entry!.labels,
      ts: r.ts,
      value: typeof r.value === "number" ? r.value : NaN,
      stale: r.value === null,
    });
  }
  const last = rows[rows.length - 1];
  return { samples, read: rows.length, next: { seq: last.seq, ts: last.ts, seriesId: last.seriesId } };
}

/** Rows after a cursor and the age (ms) of the oldest (0 when none). */
export function metricBacklog(
  handle: DatabaseHandle,
  stream: MetricStream,
  after: SeqCursor,
  now: number,
): { rows: number; ageMs: number } {
  const b = backlog(handle, stream.physical, after);
  return { rows: b.rows, ageMs: b.oldestSeq === null ? 0 : Math.max(0, now - b.oldestSeq / 1000) };
}

/** Moves a cursor past writes older than `maxAgeMs`, then leaving at most `keepRows`; returns it and the rows skipped. */
export function skipMetricBacklog(
  handle: DatabaseHandle,
  stream: MetricStream,
  after: SeqCursor,
  now: number,
  maxAgeMs: number,
  keepRows: number,
): { cursor: SeqCursor; skipped: number } {
  const before = maxAgeMs > 0 ? (now - maxAgeMs) * 1000 : 0;
  return skipAhead(handle, stream.physical, after, before, keepRows);
}
