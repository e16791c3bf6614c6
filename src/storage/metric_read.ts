/**
 * The metric engine's read side for remote read and PromQL: label matchers are resolved against the
 * cached series index (no SQL), then one range scan of the time-first samples key returns the
 * samples of the chosen series, each series' samples in time order.
 */
import type { LabelMatcher } from "../common/label_matcher.ts";
import { matchLabels } from "../common/label_matcher.ts";
import type { DatabaseHandle } from "./database.ts";
import type { TableMeta } from "./table.ts";
import { ttlCutoff } from "./table.ts";
import { samplesTable } from "./metric_layout.ts";
import { physicalOf } from "./metric_engine.ts";
import { seriesIndex } from "./metric_series.ts";
import type { SeriesEntry } from "./metric_series.ts";
import { type Sample, type Series, sortSeries, STALE_NAN } from "../common/series.ts";

type Row = [seriesId: number, ts: number, value: number | string | null];

function collect(rows: unknown[], bySeries: Map<number, Sample[]>): void {
  let id = -1;
  let list: Sample[] | undefined;
  for (const r of rows as Row[]) {
    if (r[0] !== id) list = bySeries.get(id = r[0]);
    const v = r[2];
    list?.push(
      v === null
        ? { timestampMs: r[1], value: STALE_NAN, stale: true }
        : { timestampMs: r[1], value: typeof v === "number" ? v : NaN },
    );
  }
}

/** The series of a logical table matching every matcher, each label set given with `__name__`. */
export function matchSeries(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
): Array<{ entry: SeriesEntry; labels: Record<string, string> }> {
  const index = seriesIndex(handle, physicalOf(handle, logical));
  const out: Array<{ entry: SeriesEntry; labels: Record<string, string> }> = [];
  for (const entry of index.byTable.get(logical.id) ?? []) {
    const labels = { __name__: logical.name, ...entry.labels };
    if (matchLabels(matchers, labels)) out.push({ entry, labels });
  }
  return sortSeries(out);
}

/**
 * Series of a logical table matching the matchers, with their samples in [startMs, endMs]
 * (expired samples hidden), sorted by label set as Prometheus sorts them. Series without samples
 * in the range are left out.
 */
export function selectMetricSeries(
  handle: DatabaseHandle,
  logical: TableMeta,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
): Series[] {
  const physical = physicalOf(handle, logical);
  const matched = matchSeries(handle, logical, matchers);
  if (matched.length === 0) return [];
  let start = Math.ceil(startMs);
  for (const t of [logical, physical]) {
    const cutoff = ttlCutoff(t);
    if (cutoff !== undefined && Number(cutoff) > start) start = Number(cutoff);
  }
  const end = Math.floor(endMs);
  if (end < start) return [];
  const bySeries = new Map<number, Sample[]>();
  for (const m of matched) bySeries.set(m.entry.id, []);
  // One scan of the time range in key order (time first). A (series, time) index would make reads
  // of a few series over long ranges seeks, but measured: it cuts writes ~7× (10k series: 138k vs
  // ~1M samples/s), a bucketed (bucket, series, ts) key or index ~2-3×.
  // every series of the physical table: no need to filter by id
  const all = matched.length === seriesIndex(handle, physical).byId.size;
  const filter = all ? "" : " AND series_id IN (SELECT value FROM json_each(?))";
  const stmt = handle.conn.prepare(
    `SELECT series_id, ts, value FROM ${
      samplesTable(physical)
    } WHERE ts >= ? AND ts <= ?${filter} ORDER BY ts`,
  );
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const rows = all ? stmt.all(start, end) : stmt.all(start, end, JSON.stringify([...bySeries.keys()]));
  collect(rows, bySeries);
  const out: Series[] = [];
  for (const m of matched) {
    const samples = bySeries.get(m.entry.id)!;
    if (samples.length > 0) out.push({ labels: m.labels, samples });
  }
  return out;
}
