/**
 * The head of a physical metric table: what compaction has done (`upto`, dirty windows) and, in
 * memory, every sample not in chunks yet that reads need: the samples from `from` on (the open
 * windows, fed by each write) and every sample of dirty windows. SQLite stays the truth: the
 * buffers are loaded from the samples table on first use and reloaded after any rollback.
 *
 * A read of `[start, end]` is then: chunks before `upto`, merged with late samples; the samples table
 * (time-first scan) for `[upto, from)`, which is empty unless compaction lags far behind; and the
 * buffers from `from` on. Only the middle part scans other series' samples.
 */
import type { DatabaseHandle } from "./database.ts";
import { SeriesBuffer } from "./metric_buffer.ts";
import {
  type CompactionState,
  createChunkSql,
  loadCompactionState,
  markDirty,
  readSlice,
  WINDOW_MS,
  windowOf,
} from "./metric_chunks.ts";
import type { TableMeta } from "./table.ts";
import { quoteIdent } from "./table.ts";

/** The most recent time span kept in memory when compaction lags behind (the rest is read from SQLite). */
const HEAD_SPAN_MS = 3 * WINDOW_MS;

/** The head of one physical table. */
export interface MetricHead {
  state: CompactionState;
  /** Samples not in chunks, by series id (null until a read needs them). */
  buffers: Map<number, SeriesBuffer> | null;
  /** The buffers hold every sample at or after this time. */
  from: number;
  instance: number;
  /** The handle's `catalogLoads` when loaded: a rollback since means the head may be ahead of the disk. */
  epoch: number;
}

/** A window a compaction job is reading, and whether a write reached it meanwhile. */
export interface JobMark {
  start: number;
  touched: boolean;
}

const heads = new WeakMap<DatabaseHandle, Map<number, MetricHead>>();
/** Kept apart from the heads, so a job still hears of writes after the heads were dropped. */
const jobs = new WeakMap<DatabaseHandle, Map<number, JobMark>>();

/** Marks a window of a physical table as being compacted; returns the mark writes will set. */
export function beginJob(handle: DatabaseHandle, physical: TableMeta, start: number): JobMark {
  let perDb = jobs.get(handle);
  if (perDb === undefined) jobs.set(handle, perDb = new Map());
  const mark = { start, touched: false };
  // Two jobs at once (a synchronous compaction while a background job waits on its worker): the
  // older one no longer hears of writes, so it must leave its window dirty.
  const older = perDb.get(physical.id);
  if (older !== undefined) older.touched = true;
  perDb.set(physical.id, mark);
  return mark;
}

/** Tells a running job of the physical table that its window may have changed (a truncate). */
export function touchJob(handle: DatabaseHandle, physical: TableMeta): void {
  const job = jobs.get(handle)?.get(physical.id);
  if (job !== undefined) job.touched = true;
}

/** Whether a compaction job is reading a window of the physical table right now. */
export function jobRunning(handle: DatabaseHandle, physical: TableMeta): boolean {
  return jobs.get(handle)?.has(physical.id) ?? false;
}

/** Ends a job's mark (unless a newer job's replaced it). */
export function endJob(handle: DatabaseHandle, physical: TableMeta, mark: JobMark): void {
  const perDb = jobs.get(handle);
  if (perDb?.get(physical.id) === mark) perDb.delete(physical.id);
}

/** The head of a physical table (its chunk tables created if it predates them). */
export function metricHead(handle: DatabaseHandle, physical: TableMeta): MetricHead {
  let perDb = heads.get(handle);
  if (perDb === undefined) heads.set(handle, perDb = new Map());
  const cached = perDb.get(physical.id);
  if (cached !== undefined && cached.instance === handle.instance && cached.epoch === handle.catalogLoads) {
    return cached;
  }
  if (handle.readOnly) return readerHead(handle, physical);
  for (const sql of createChunkSql(physical)) handle.conn.exec(sql);
  const head: MetricHead = {
    state: loadCompactionState(handle, physical),
    buffers: null,
    from: Infinity,
    instance: handle.instance,
    epoch: handle.catalogLoads,
  };
  perDb.set(physical.id, head);
  return head;
}

/**
 * The head as a reader on another thread sees it (a query worker, inside its read transaction): the
 * compaction state as committed, buffers holding only the dirty windows (read from the samples table
 * once per query) and `from` at infinity, so everything compaction has not reached is read from the
 * samples table too. Not cached: the writer moves on between queries ({@link forgetHeads}).
 */
function readerHead(handle: DatabaseHandle, physical: TableMeta): MetricHead {
  let perDb = heads.get(handle);
  if (perDb === undefined) heads.set(handle, perDb = new Map());
  const cached = perDb.get(physical.id);
  if (cached !== undefined) return cached;
  const exists = handle.conn.prepare(
    `SELECT 1 FROM ${quoteIdent(physical.schema)}.sqlite_schema WHERE type = 'table' AND name = ?`,
  ).get(`__petrel_compaction_${physical.id}`);
  const state: CompactionState = exists
    ? loadCompactionState(handle, physical)
    : { upto: -Infinity, dirty: new Set() };
  const buffers = new Map<number, SeriesBuffer>();
  for (const start of state.dirty) readSlice(handle, physical, start, start + WINDOW_MS, buffers);
  const head: MetricHead = {
    state,
    buffers,
    from: Infinity,
    instance: handle.instance,
    epoch: handle.catalogLoads,
  };
  perDb.set(physical.id, head);
  return head;
}

/** Drops every cached head of a database (a reader does before each query: the writer moved on). */
export function forgetHeads(handle: DatabaseHandle): void {
  heads.delete(handle);
}

/**
 * After samples of `[from, to)` were deleted (inside the delete's transaction): the compacted windows
 * of the range are marked dirty (reads skip their chunks; compaction rewrites them), a job reading
 * one is told it moved, and the head is dropped so its buffers reload without the deleted samples.
 */
export function samplesDeleted(handle: DatabaseHandle, physical: TableMeta, from: number, to: number): void {
  const upto = metricHead(handle, physical).state.upto, starts: number[] = [];
  for (let w = windowOf(from); w < to && w < upto; w += WINDOW_MS) starts.push(w);
  const job = jobs.get(handle)?.get(physical.id);
  if (job !== undefined && job.start < to && job.start + WINDOW_MS > from) job.touched = true;
  windowsDeleted(handle, physical, starts);
}

/**
 * After samples of the windows starting at `starts` were deleted (inside the delete's transaction),
 * as {@link samplesDeleted}: only those windows are marked dirty, since a dirty window's samples are
 * held in memory until it is compacted again.
 */
export function windowsDeleted(handle: DatabaseHandle, physical: TableMeta, starts: Iterable<number>): void {
  const head = metricHead(handle, physical);
  const job = jobs.get(handle)?.get(physical.id);
  for (const w of starts) {
    if (w < head.state.upto) markDirty(handle, physical, w);
    if (job !== undefined && job.start === w) job.touched = true;
  }
  forgetHead(handle, physical);
}

/** Drops the cached head of one physical table (it was dropped or emptied). */
export function forgetHead(handle: DatabaseHandle, physical: TableMeta): void {
  heads.get(handle)?.delete(physical.id);
}

/** The head's buffers, loaded from the samples table on first use. */
export function headBuffers(
  handle: DatabaseHandle,
  physical: TableMeta,
  head: MetricHead,
): Map<number, SeriesBuffer> {
  if (head.buffers !== null) return head.buffers;
  const buffers = new Map<number, SeriesBuffer>();
  const from = Math.max(head.state.upto, windowOf(Date.now() - HEAD_SPAN_MS));
  readSlice(handle, physical, from, Number.MAX_SAFE_INTEGER, buffers);
  for (const start of head.state.dirty) readSlice(handle, physical, start, start + WINDOW_MS, buffers);
  head.buffers = buffers;
  head.from = from;
  return buffers;
}

/**
 * Notes samples just inserted (inside the write's transaction): buffered when reads need them,
 * a late one's window marked dirty (durably, with the write), and a running job told its window moved.
 */
export function noteSamples(
  handle: DatabaseHandle,
  physical: TableMeta,
  ts: number[],
  ids: number[],
  values: Array<number | string | null>,
): void {
  const head = metricHead(handle, physical);
  const { upto, dirty } = head.state;
  const buffers = head.buffers, from = head.from, job = jobs.get(handle)?.get(physical.id) ?? null;
  let buf: SeriesBuffer | undefined, bufId = -1;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (job !== null && t >= job.start && t < job.start + WINDOW_MS) job.touched = true;
    const late = t < upto;
    if (late) {
      const start = windowOf(t);
      if (!dirty.has(start)) {
        markDirty(handle, physical, start);
        dirty.add(start);
        // Reads take a dirty window from the buffers alone, so they need all of it (this write's
        // samples included: they are in the table already).
        if (buffers !== null) readSlice(handle, physical, start, start + WINDOW_MS, buffers);
      }
    }
    if (buffers !== null && (late || t >= from)) {
      // Writes come grouped by series: look the buffer up once per run of one series.
      if (ids[i] !== bufId) {
        bufId = ids[i];
        buf = buffers.get(bufId);
        if (buf === undefined) buffers.set(bufId, buf = new SeriesBuffer());
      }
      const v = values[i];
      buf!.add(t, typeof v === "number" ? v : NaN, v === null);
    }
  }
}

/**
 * After a window was compacted: its samples are in chunks, so the buffers let go of them, unless a
 * write reached the window while it was read (then it stays dirty and keeps them). `gaps`: earlier
 * windows that took samples meanwhile, now dirty (`writeWindow`).
 */
export function windowCompacted(
  handle: DatabaseHandle,
  physical: TableMeta,
  head: MetricHead,
  start: number,
  touched: boolean,
  upto: number,
  gaps: readonly number[] = [],
): void {
  for (const w of gaps) {
    // read from the buffers alone as dirty: load the window unless they hold it already
    if (head.buffers !== null && !head.state.dirty.has(w) && w < head.from) {
      readSlice(handle, physical, w, w + WINDOW_MS, head.buffers);
    }
    head.state.dirty.add(w);
  }
  if (touched) {
    // A dirty window is read from the buffers alone: load it unless they hold it already.
    if (head.buffers !== null && !head.state.dirty.has(start) && start < head.from) {
      readSlice(handle, physical, start, start + WINDOW_MS, head.buffers);
    }
    head.state.dirty.add(start);
  } else {
    head.state.dirty.delete(start);
    if (head.buffers !== null) {
      for (const b of head.buffers.values()) b.removeRange(start, start + WINDOW_MS);
    }
  }
  head.state.upto = Math.max(head.state.upto, upto);
  if (head.buffers !== null && head.from < head.state.upto) {
    // The buffers' open range moves up to the compacted end; anything below it is late (and kept).
    const keepLate = head.state.dirty;
    for (const b of head.buffers.values()) {
      let t = head.from;
      while (t < head.state.upto) {
        const w = windowOf(t);
        if (!keepLate.has(w)) b.removeRange(t, Math.min(w + WINDOW_MS, head.state.upto));
        t = w + WINDOW_MS;
      }
    }
    head.from = head.state.upto;
  }
}
