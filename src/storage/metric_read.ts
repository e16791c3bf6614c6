/**
 * The metric engine's read side for remote read and PromQL: label matchers are resolved against the
 * cached series index (no SQL), then each chosen series is assembled in time order from the parts
 * `metric_head.ts` describes: XOR chunks of compacted windows (a seek per series), the buffers of
 * dirty windows and of the head, and, only when compaction lags, a time-first scan of the samples
 * table for the span between them.
 */
import type { LabelMatcher } from "../common/label_matcher.ts";
import { matchLabels } from "../common/label_matcher.ts";
import {
  type ColumnarSeries,
  type Sample,
  type SampleColumns,
  type Series,
  sortSeries,
  STALE_NAN,
} from "../common/series.ts";
import { decodeXorInto, xorChunkLength } from "../codec/xor_chunk.ts";
import type { DatabaseHandle } from "./database.ts";
import type { SeriesBuffer } from "./metric_buffer.ts";
import {
  readChunks,
  readSlice,
  seriesWithChunks,
  type StoredChunk,
  WINDOW_MS,
  windowOf,
} from "./metric_chunks.ts";
import { headBuffers, metricHead } from "./metric_head.ts";
import { isLogicalTable } from "./metric_layout.ts";
import { physicalOf } from "./metric_engine.ts";
import { seriesIndex } from "./metric_series.ts";
import type { LabelledSeries } from "./metric_series.ts";
import type { TableMeta } from "./table.ts";
import { ttlCutoff } from "./table.ts";

/** The series of a logical table matching every matcher, in Prometheus' order, labels with `__name__`. */
export function matchSeries(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
): LabelledSeries[] {
  const index = seriesIndex(handle, physicalOf(handle, logical));
  let sorted = index.sorted.get(logical.id);
  if (sorted === undefined) {
    // Sorted once per new series rather than per read: a 1k-series sort is most of a small query.
    const all = (index.byTable.get(logical.id) ?? []).map((entry) => ({
      entry,
      labels: { __name__: logical.name, ...entry.labels },
    }));
    index.sorted.set(logical.id, sorted = sortSeries(all));
  }
  return matchers.length === 0 ? sorted : sorted.filter((s) => matchLabels(matchers, s.labels));
}

/** Where a read's samples come from, resolved once for all its series. */
interface ReadParts {
  /** Inclusive bounds of the read (expired samples hidden). */
  start: number;
  end: number;
  chunks: Map<number, StoredChunk[]>;
  /** Compacted windows in range whose chunks are stale: read from `buffers` instead. */
  dirty: number[];
  dirtySet: Set<number>;
  /** Samples of the span compaction has not reached and the head does not hold. */
  gap: Map<number, SeriesBuffer>;
  buffers: Map<number, SeriesBuffer>;
  /** The buffers hold every sample from this time on. */
  from: number;
}

/** {@link selectMetricColumns} of table `metric` in `handle`; undefined when it is no logical table. */
export function selectColumnsOf(
  handle: DatabaseHandle,
  metric: string,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
  reserve?: (samples: number) => void,
): ColumnarSeries[] | undefined {
  const t = handle.getTable(metric);
  if (t === undefined || !isLogicalTable(t)) return undefined;
  return selectMetricColumns(handle, t, matchers, startMs, endMs, reserve);
}

/**
 * Series of a logical table matching the matchers, with their samples in [startMs, endMs] in
 * columns (expired samples hidden), sorted by label set as Prometheus sorts them. Series without
 * samples in the range are left out. `reserve` is told how many samples (at most) the read will
 * hold before they are read, and may throw to stop it.
 */
export function selectMetricColumns(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
  reserve?: (samples: number) => void,
): ColumnarSeries[] {
  const physical = physicalOf(handle, logical);
  const matched = matchSeries(handle, logical, matchers);
  const bounds = readBounds(logical, physical, startMs, endMs);
  if (matched.length === 0 || bounds === null) return [];
  const [start, end] = bounds;
  const parts = readParts(handle, physical, matched.map((m) => m.entry.id), start, end);
  // All series share one pair of arrays and get views of it: a typed array per series costs more
  // than copying its samples when a read is small (1k series × 20 samples for an instant query).
  const sources = matched.map((m) => sourcesOf(m.entry.id, parts));
  let total = 0;
  for (const src of sources) total += src.count;
  // Before any sample is decoded: a caller's limit fails the read while memory is still small.
  reserve?.(total);
  const cols: SampleColumns = {
    timestamps: new Float64Array(total),
    values: new Float64Array(total),
    stale: null,
  };
  const out: ColumnarSeries[] = [];
  let at = 0;
  for (let i = 0; i < matched.length; i++) {
    const n = assemble(sources[i], parts, cols, at);
    const view = trim(cols, at, at + n, start, end);
    if (view.timestamps.length > 0) out.push({ labels: matched[i].labels, ...view });
    at += sources[i].count;
  }
  return out;
}

/**
 * The series of a logical table matching the matchers that hold samples in [startMs, endMs], for
 * the metadata endpoints. No chunk is decoded: a compacted series counts when it has a chunk in an
 * hour window overlapping the range (Prometheus answers at its blocks' granularity likewise);
 * buffered samples count exactly.
 */
export function matchSeriesInRange(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
): LabelledSeries[] {
  const physical = physicalOf(handle, logical);
  const matched = matchSeries(handle, logical, matchers);
  const bounds = readBounds(logical, physical, startMs, endMs);
  if (matched.length === 0 || bounds === null) return [];
  const ids = matched.map((m) => m.entry.id);
  // which series have chunks is all that is asked: SQLite answers it without handing the chunks over
  const parts = readParts(handle, physical, ids, bounds[0], bounds[1], false);
  const [start, end] = bounds, upto = metricHead(handle, physical).state.upto;
  const chunked = start < upto
    ? seriesWithChunks(handle, physical, ids, start, Math.min(end, upto - 1), parts.dirty)
    : new Set<number>();
  return matched.filter((m) => chunked.has(m.entry.id) || hasBufferedSamples(m.entry.id, parts));
}

/** Whether a series has samples in a read's gap or buffers ({@link sourcesOf}'s count without chunks > 0). */
function hasBufferedSamples(id: number, p: ReadParts): boolean {
  if ((p.gap.get(id)?.length ?? 0) > 0) return true;
  const buffer = p.buffers.get(id);
  if (buffer === undefined) return false;
  for (const w of p.dirty) {
    if (buffer.countRange(Math.max(w, p.start), Math.min(w + WINDOW_MS, p.end + 1)) > 0) return true;
  }
  return buffer.countRange(Math.max(p.from, p.start), p.end + 1) > 0;
}

/** The read's inclusive bounds in ms with expired samples cut off; null when nothing is left. */
function readBounds(
  logical: TableMeta,
  physical: TableMeta,
  startMs: number,
  endMs: number,
): [number, number] | null {
  let start = Math.ceil(startMs);
  for (const t of [logical, physical]) {
    const cutoff = ttlCutoff(t);
    if (cutoff !== undefined && Number(cutoff) > start) start = Number(cutoff);
  }
  const end = Math.floor(endMs);
  return end < start ? null : [start, end];
}

function readParts(
  handle: DatabaseHandle,
  physical: TableMeta,
  ids: number[],
  start: number,
  end: number,
  withChunks = true,
): ReadParts {
  const head = metricHead(handle, physical);
  const buffers = headBuffers(handle, physical, head);
  const { upto } = head.state;
  const chunks = start < upto && withChunks
    ? readChunks(handle, physical, ids, start, Math.min(end, upto - 1))
    : new Map();
  const dirty = [...head.state.dirty].filter((w) => w + WINDOW_MS > start && w <= end).sort((a, b) => a - b);
  const gap = new Map<number, SeriesBuffer>();
  const gapFrom = Math.max(start, upto), gapTo = Math.min(end + 1, head.from);
  if (gapFrom < gapTo) readSlice(handle, physical, gapFrom, gapTo, gap, new Set(ids));
  return { start, end, chunks, dirty, dirtySet: new Set(dirty), gap, buffers, from: head.from };
}

/** One series' parts of a read, and how many samples they hold at most. */
interface SeriesSources {
  chunks: StoredChunk[];
  buffer: SeriesBuffer | undefined;
  gap: SeriesBuffer | undefined;
  count: number;
}

function sourcesOf(id: number, p: ReadParts): SeriesSources {
  const stored = p.chunks.get(id) ?? [];
  const chunks = p.dirty.length === 0 ? stored : stored.filter((c) => !p.dirtySet.has(windowOf(c.start)));
  const buffer = p.buffers.get(id), gap = p.gap.get(id);
  let count = gap?.length ?? 0;
  for (const c of chunks) count += xorChunkLength(c.data);
  if (buffer !== undefined) {
    for (const w of p.dirty) {
      count += buffer.countRange(Math.max(w, p.start), Math.min(w + WINDOW_MS, p.end + 1));
    }
    count += buffer.countRange(Math.max(p.from, p.start), p.end + 1);
  }
  return { chunks, buffer, gap, count };
}

/**
 * Lays one series' samples into `out` from `at`: its parts are disjoint in time, so they go end to
 * end. Buffered spans are clipped to the read; chunks may reach past its ends (see `trim`).
 */
function assemble(src: SeriesSources, p: ReadParts, out: SampleColumns, at: number): number {
  const { chunks, buffer: buf, gap } = src;
  const lo = Math.max(p.from, p.start), first = at;
  let c = 0;
  // Compacted windows: chunks and dirty windows interleaved in time order.
  for (const w of p.dirty) {
    while (c < chunks.length && chunks[c].start < w) at += decodeXorInto(chunks[c++].data, out, at);
    if (buf !== undefined) {
      at += buf.copyRange(Math.max(w, p.start), Math.min(w + WINDOW_MS, p.end + 1), out, at);
    }
  }
  while (c < chunks.length) at += decodeXorInto(chunks[c++].data, out, at);
  if (gap !== undefined) at += gap.copyRange(-Infinity, Infinity, out, at);
  if (buf !== undefined) at += buf.copyRange(lo, p.end + 1, out, at);
  return at - first;
}

/** The samples of `cols[from, to)` with start ≤ t ≤ end, as views. */
function trim(cols: SampleColumns, from: number, to: number, start: number, end: number): SampleColumns {
  const ts = cols.timestamps;
  let lo = from, hi = to;
  while (lo < to && ts[lo] < start) lo++;
  while (hi > lo && ts[hi - 1] > end) hi--;
  return {
    timestamps: ts.subarray(lo, hi),
    values: cols.values.subarray(lo, hi),
    stale: cols.stale?.subarray(lo, hi) ?? null,
  };
}

/** {@link selectMetricColumns} with a sample object per sample (remote read's form). */
export function selectMetricSeries(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
): Series[] {
  return selectMetricColumns(handle, logical, matchers, startMs, endMs).map((s) => {
    const samples = new Array<Sample>(s.timestamps.length);
    for (let i = 0; i < samples.length; i++) {
      samples[i] = s.stale?.[i] === 1
        ? { timestampMs: s.timestamps[i], value: STALE_NAN, stale: true }
        : { timestampMs: s.timestamps[i], value: s.values[i] };
    }
    return { labels: s.labels, samples };
  });
}
