/**
 * Metric series (Prometheus remote write; OTLP metrics next) into tables (reference §7.2). With the
 * metric engine (the default) each metric is a logical table on a physical table; a metric whose
 * table already exists as a plain table keeps being written there; without it every metric is a
 * plain table. Tables a write creates carry GreptimeDB's `greptime.semantic.*` options.
 */
import { databaseNotFound } from "../common/errors.ts";
import { splitSpecialLabels } from "../common/labels.ts";
import type { TableOptions, WriteBatch } from "../common/rows.ts";
import type { Series } from "../common/series.ts";
import type { MetricPoints, MetricWrite, Storage } from "../storage/mod.ts";
import { isMetricTable } from "../storage/mod.ts";
import { remoteWriteToBatches } from "./metric_tables.ts";

/** Where the series come from and how to store them. */
export interface MetricIngest {
  /** The request's database; a series' special labels may name another. */
  db: string;
  /** The `greptime.semantic.source` stamp (e.g. `prometheus`) and its version (e.g. `1.0`). */
  source: string;
  sourceVersion?: string;
  /** `greptime.semantic.metric.metadata_quality` of tables without `tableOptions` (remote write: `inferred`). */
  metadataQuality?: string;
  /** `[prom_store] with_metric_engine`. */
  withMetricEngine: boolean;
  hints: Record<string, string>;
  /** The physical table the request names (`?physical_table=`), over any hint. */
  physicalTable?: string;
  /** Options of each metric's table by name (OTLP's per-metric semantics), instead of the source stamp. */
  tableOptions?: ReadonlyMap<string, TableOptions>;
}

function semanticOptions(m: MetricIngest): TableOptions {
  const options: TableOptions = {
    "greptime.semantic.signal_type": "metric",
    "greptime.semantic.source": m.source,
  };
  if (m.sourceVersion !== undefined) options["greptime.semantic.source_version"] = m.sourceVersion;
  if (m.metadataQuality !== undefined) {
    options["greptime.semantic.metric.metadata_quality"] = m.metadataQuality;
  }
  return options;
}

/** The options a created table of `metric` gets. */
function optionsFor(m: MetricIngest, metric: string, fallback: TableOptions): TableOptions {
  return m.tableOptions?.get(metric) ?? fallback;
}

/**
 * Writes series, one transaction per database; `onWritten` hears the samples of each committed
 * transaction (so a failure in a later database still reports what was written), and the total is
 * returned.
 */
export function ingestSeries(
  storage: Storage,
  series: Series[],
  m: MetricIngest,
  onWritten: (samples: number) => void = () => {},
): number {
  let written = 0;
  const wrote = (n: number) => {
    written += n;
    onWritten(n);
  };
  // The endpoint picks the physical table itself: GreptimeDB overwrites this hint here.
  const hints = { ...m.hints };
  delete hints.physical_table;
  if (!m.withMetricEngine) {
    for (const [db, batches] of plainBatchesByDatabase(storage, series, m)) {
      wrote(storage.write(db, batches, { hints, accommodateExistingSchema: true, singleValue: true }));
    }
    return written;
  }
  if (m.physicalTable) hints.physical_table = m.physicalTable;
  for (const [db, w] of metricWritesByDatabase(storage, series, m)) {
    if (w.metrics.size > 0) wrote(storage.writeMetrics(db, [...w.metrics.values()], { hints }));
    if (w.plain.length > 0) {
      const fallback = semanticOptions(m);
      const batches = remoteWriteToBatches(w.plain).map((t) => ({
        ...t.batch,
        options: optionsFor(m, t.batch.table, fallback),
      }));
      const plainHints = { ...hints };
      delete plainHints.physical_table;
      wrote(
        storage.write(db, batches, { hints: plainHints, accommodateExistingSchema: true, singleValue: true }),
      );
    }
  }
  return written;
}

/**
 * Writes one-sample series already grouped by metric as points (`MetricPoints`), free of special
 * labels (so all in `m.db`, on the physical table the request names), through the metric engine in
 * one transaction, as {@link ingestSeries} would; null, with nothing written, when a metric's table
 * exists as a plain table (the caller then takes `ingestSeries`).
 */
export function ingestMetricWrites(
  storage: Storage,
  metrics: ReadonlyMap<string, MetricPoints>,
  m: MetricIngest,
  onWritten: (samples: number) => void = () => {},
): number | null {
  const writes: MetricWrite[] = [];
  const fallback = semanticOptions(m);
  for (const [metric, points] of metrics) {
    if (points.length === 0) continue;
    if (writes.length === 0 && !storage.hasDatabase(m.db)) throw databaseNotFound(m.db);
    const existing = storage.getTable(m.db, metric);
    if (existing !== undefined && !isMetricTable(existing)) return null;
    writes.push({ metric, series: [], points, options: optionsFor(m, metric, fallback) });
  }
  if (writes.length === 0) return 0;
  const hints = { ...m.hints };
  delete hints.physical_table;
  if (m.physicalTable) hints.physical_table = m.physicalTable;
  const written = storage.writeMetrics(m.db, writes, { hints });
  onWritten(written);
  return written;
}

/** What one database receives: metric-engine writes, and the series of metrics that are plain tables. */
interface DatabaseWrites {
  metrics: Map<string, MetricWrite>;
  plain: Series[];
}

/**
 * Groups series by database and metric for the metric engine; series of a metric whose table
 * exists as a plain (mito) table are set aside for the plain writer.
 */
function metricWritesByDatabase(
  storage: Storage,
  series: Series[],
  m: MetricIngest,
): Map<string, DatabaseWrites> {
  const fallback = semanticOptions(m);
  const byDb = new Map<string, DatabaseWrites>();
  // Where each (database, physical table, metric) goes, decided once per request, not per series;
  // keyed by the metric name alone in the common case (one string per metric, hashed once).
  const byMetric = new Map<string, MetricWrite | Series[]>();
  const bySpecial = new Map<string, MetricWrite | Series[]>();
  for (const s of series) {
    if (s.samples.length === 0) continue;
    const target = splitSpecialLabels(s.labels);
    const db = target.database ?? m.db;
    const special = target.database !== undefined || target.physicalTable !== undefined;
    const routes = special ? bySpecial : byMetric;
    const key = special ? `${db}\u0000${target.physicalTable ?? ""}\u0000${target.metric}` : target.metric;
    let route = routes.get(key);
    if (route === undefined) {
      const options = optionsFor(m, target.metric, fallback);
      route = routeOf(storage, byDb, db, target.metric, target.physicalTable, options);
      routes.set(key, route);
    }
    if (Array.isArray(route)) route.push(s);
    else route.series.push({ labels: target.tags, samples: s.samples });
  }
  return byDb;
}

/** The metric-engine write a series goes to, or the plain list when its table exists as a plain table. */
function routeOf(
  storage: Storage,
  byDb: Map<string, DatabaseWrites>,
  db: string,
  metric: string,
  physicalTable: string | undefined,
  options: TableOptions,
): MetricWrite | Series[] {
  if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  let w = byDb.get(db);
  if (w === undefined) byDb.set(db, w = { metrics: new Map(), plain: [] });
  const existing = storage.getTable(db, metric);
  if (existing !== undefined && !isMetricTable(existing)) return w.plain;
  const key = `${physicalTable ?? ""}\u0000${metric}`;
  let write = w.metrics.get(key);
  if (write === undefined) {
    write = { metric, series: [], options };
    if (physicalTable !== undefined) write.physicalTable = physicalTable;
    w.metrics.set(key, write);
  }
  return write;
}

/** Groups the series' tables by target database for the plain writer; every database must exist. */
function plainBatchesByDatabase(
  storage: Storage,
  series: Series[],
  m: MetricIngest,
): Map<string, WriteBatch[]> {
  const options = semanticOptions(m);
  const byDb = new Map<string, WriteBatch[]>();
  for (const t of remoteWriteToBatches(series)) {
    const db = t.database ?? m.db;
    t.batch.options = optionsFor(m, t.batch.table, options);
    t.batch.createType = "physical";
    let list = byDb.get(db);
    if (list === undefined) byDb.set(db, list = []);
    list.push(t.batch);
  }
  for (const db of byDb.keys()) if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  return byDb;
}
