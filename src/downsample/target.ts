/**
 * What a downsampling rule writes. A metric source gives one metric per aggregate,
 * `<target>_<aggregate>` (e.g. `cpu_5m_avg`), with the source series' labels, a sample per window
 * stamped at the window's start: each aggregate has its own meaning and unit, so PromQL selects,
 * sums and rates them as separate metrics, as Prometheus recording rules name theirs. An ordinary
 * source gives one table, `<target>`, with the source's tags (as strings), its time index and a
 * column `<field>_<aggregate>` per numeric field (Float64; counts Int64), like a GreptimeDB flow.
 * Both targets dedup by (labels or tags, time), so writing a window again replaces it.
 */
import type { DownsampleRule } from "../config/downsample.ts";
import type { ColumnSchema, TableOptions, Value, WriteBatch } from "../common/rows.ts";
import type { MetricSeriesInput, MetricWrite, Storage } from "../storage/mod.ts";
import { deleteTimeRange } from "../storage/delete_range.ts";
import { sourceShape } from "../storage/window_aggregate.ts";
import type { TableMeta } from "../storage/table.ts";
import type { SourceShape, WindowGroup } from "../storage/window_aggregate.ts";
import type { FlowSink } from "./flow_spec.ts";
import { fitToSink, type FlowRow, isWholeQuery } from "./flow_query.ts";

/** The metric writes of a metric source's windows. */
export function metricWrites(rule: DownsampleRule, shape: SourceShape, groups: WindowGroup[]): MetricWrite[] {
  const field = shape.fields[0];
  const options = rule.ttl === "" ? undefined : { ttl: rule.ttl };
  return rule.aggregates.map((agg) => {
    const bySeries = new Map<string, MetricSeriesInput>();
    for (const g of groups) {
      const value = g.values[field]?.[agg];
      if (value === null || value === undefined) continue;
      const labels: Record<string, string> = {};
      for (const [k, v] of Object.entries(g.tags)) if (v !== null && v !== "") labels[k] = v;
      const key = JSON.stringify(labels);
      let s = bySeries.get(key);
      if (s === undefined) bySeries.set(key, s = { labels, samples: [] });
      s.samples.push({ timestampMs: g.windowMs, value });
    }
    return { metric: `${rule.target}_${agg}`, series: [...bySeries.values()], options };
  }).filter((w) => w.series.length > 0);
}

/** The batch of an ordinary source's windows. */
export function tableBatch(rule: DownsampleRule, shape: SourceShape, groups: WindowGroup[]): WriteBatch {
  const columns: ColumnSchema[] = [
    ...shape.tags.map((name): ColumnSchema => ({ name, type: "String", semantic: "TAG" })),
    { name: shape.timeIndex, type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  ];
  for (const f of shape.fields) {
    for (const agg of rule.aggregates) {
      columns.push({ name: `${f}_${agg}`, type: agg === "count" ? "Int64" : "Float64", semantic: "FIELD" });
    }
  }
  const rows = groups.map((g): Value[] => {
    const row: Value[] = [...shape.tags.map((t) => g.tags[t]), g.windowMs];
    for (const f of shape.fields) for (const agg of rule.aggregates) row.push(g.values[f]?.[agg] ?? null);
    return row;
  });
  return { table: rule.target, columns, rows, options: rule.ttl === "" ? undefined : { ttl: rule.ttl } };
}

/**
 * The options of a sink Petrel makes: the flow's ttl. A sink without a window key has the constant
 * time index 0, which its database's ttl would expire at once, so it keeps its rows by default.
 */
function sinkOptions(rule: DownsampleRule, sink: FlowSink): TableOptions | undefined {
  if (rule.ttl !== "") return { ttl: rule.ttl };
  return sink.query !== undefined && isWholeQuery(sink.query) ? { ttl: "forever" } : undefined;
}

/**
 * The batch of a flow's windows: its GROUP BY tags (as strings), the window start as the time index
 * named by the window alias, a column per aliased aggregate (Float64; counts Int64) and `update_at`,
 * when the row was computed (GreptimeDB's flow sinks carry it too).
 */
export function flowBatch(rule: DownsampleRule, sink: FlowSink, groups: WindowGroup[]): WriteBatch {
  const columns = flowSinkColumns(sink);
  const now = Date.now();
  const rows = groups.map((g): Value[] => [
    ...sink.groupTags.map((t) => g.tags[t]),
    ...sink.columns.map((c) => g.values[c.field]?.[c.aggregate] ?? null),
    now,
    g.windowMs,
  ]);
  return { table: rule.target, columns, rows, options: sinkOptions(rule, sink) };
}

/**
 * The batch of a general flow's rows (`flow_query.ts`): the SELECT's outputs, then `update_at` (and
 * `__ts_placeholder` without a window key), as the sink `existing` (when there is one) declares its
 * columns.
 */
export function flowQueryBatch(
  rule: DownsampleRule,
  sink: FlowSink,
  rows: FlowRow[],
  existing: TableMeta | undefined,
): WriteBatch {
  const now = Date.now();
  // a query without a window key ends with its constant time index, 0
  const tail = isWholeQuery(sink.query!) ? [now, 0] : [now];
  const fit = fitToSink(sink.query!, existing, rows.map((r) => [...r.values, ...tail]));
  return { table: rule.target, ...fit, options: sinkOptions(rule, sink) };
}

/** The columns of a flow's sink table, in the order its batches carry them. */
export function flowSinkColumns(sink: FlowSink): ColumnSchema[] {
  if (sink.query !== undefined) return sink.query.columns;
  if (sink.tql !== undefined) return sink.tql.columns;
  return [
    ...sink.groupTags.map((name): ColumnSchema => ({ name, type: "String", semantic: "TAG" })),
    ...sink.columns.map((c): ColumnSchema => ({
      name: c.name,
      type: c.aggregate === "count" ? "Int64" : "Float64",
      semantic: "FIELD",
    })),
    { name: "update_at", type: "TimestampMillisecond", semantic: "FIELD" },
    { name: sink.timeColumn, type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  ];
}

/**
 * Deletes a rule's target rows of the windows in `[from, to)` (inside the caller's transaction), so
 * a window written again holds only the groups its source still has. A target that is itself a
 * rule's source has that rule's windows marked, as any delete does.
 */
export function clearTargetWindows(
  storage: Storage,
  rule: DownsampleRule,
  source: TableMeta,
  from: number,
  to: number,
): void {
  const handle = storage.database(rule.target_database);
  const names = rule.sink === undefined && sourceShape(source).metric
    ? rule.aggregates.map((a) => `${rule.target}_${a}`)
    : [rule.target];
  const watched = storage.lateWatches.of(rule.target_database);
  for (const name of names) {
    const t = handle.getTable(name);
    if (t !== undefined) deleteTimeRange(handle, t, from, to, watched?.get(name.toLowerCase()));
  }
}
