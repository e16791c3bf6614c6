/**
 * The metric engine's write side (layout in `metric_layout.ts`): creates physical and logical
 * tables on demand, adds label columns as labels appear, resolves series ids through the cached
 * index and appends samples with sorted multi-row inserts, all inside one transaction per call.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { DatabaseHandle } from "./database.ts";
import { optionsForCreate } from "./options.ts";
import type { ColumnMeta, TableMeta } from "./table.ts";
import { ttlMs, validateTableName } from "./table.ts";
import type { TableOptions } from "../common/rows.ts";
import {
  baseColumns,
  DEFAULT_PHYSICAL_TABLE,
  isLogicalTable,
  isPhysicalTable,
  labelColumn,
  labelColumns,
  logicalViewSql,
  METRIC_TIME_INDEX,
  metricValueColumn,
  seriesTable,
  sortColumns,
} from "./metric_layout.ts";
import { addPhysicalLabels, checkLabels, createPhysicalTable, saveLogicalTable } from "./metric_create.ts";
import { addEntry, forgetSeries, labelsOfKey, seriesIndex, seriesKey, tableKeys } from "./metric_series.ts";
import { noteSamples } from "./metric_head.ts";
import {
  appendPointColumns,
  appendSampleColumns,
  insertSamples,
  type SampleColumns,
} from "./metric_samples.ts";
import type { MetricPoints } from "./metric_points.ts";
import { nextSeq } from "./forward_seq.ts";
import { type LateWatch, markLate, oldest } from "./late_marks.ts";
import type { SeriesIndex } from "./metric_series.ts";
import { storedText } from "./nul_text.ts";

/** One sample to write; `stale` marks a Prometheus staleness marker. */
export interface MetricSampleInput {
  timestampMs: number;
  value: number;
  stale?: boolean;
}

/** One series to write: its labels (no `__name__`, no special labels) and samples. */
export interface MetricSeriesInput {
  labels: Record<string, string>;
  samples: MetricSampleInput[];
}

/** The series of one metric (logical table). */
export interface MetricWrite {
  metric: string;
  /** The physical table a created logical table goes on (else the hint, else the default). */
  physicalTable?: string;
  series: MetricSeriesInput[];
  /** One-sample series as parallel columns, written after `series` (`metric_points.ts`). */
  points?: MetricPoints;
  /** Options a created logical table gets (e.g. `greptime.semantic.*`). */
  options?: TableOptions;
}

/** The samples one call writes to one physical table, inserted together at the end of the call. */
interface PhysicalSamples extends SampleColumns {
  physical: TableMeta;
}

/** Options of {@link writeMetrics}. */
export interface MetricWriteOptions {
  hints?: TableOptions;
  autoCreateTable: boolean;
  /** Stamp samples with the forwarding insert sequence (`forward_seq.ts`). */
  sequenced?: boolean;
  /** The database's metrics that downsampling rules watch for late writes (`late_marks.ts`). */
  late?: ReadonlyMap<string, LateWatch[]>;
}

/** Writes metrics into their logical tables in one transaction; returns the samples accepted. */
export function writeMetrics(
  handle: DatabaseHandle,
  writes: MetricWrite[],
  opts: MetricWriteOptions,
): number {
  try {
    return handle.transaction(() => {
      let n = 0;
      const pending = new Map<number, PhysicalSamples>();
      for (const w of writes) n += writeMetric(handle, w, opts, pending);
      // One sorted multi-row insert (and one forwarding seq) per physical table and call, not per
      // metric: the seq stays strictly increasing per table and the (seq, ts, series) cursor total.
      for (const p of pending.values()) {
        if (p.ts.length === 0) continue;
        insertSamples(
          handle,
          p.physical,
          p.ts,
          p.ids,
          p.values,
          opts.sequenced ? nextSeq(handle, p.physical) : null,
        );
        noteSamples(handle, p.physical, p.ts, p.ids, p.values);
      }
      return n;
    });
  } catch (e) {
    // series ids handed out inside the rolled-back transaction do not exist on disk
    forgetSeries(handle);
    throw e;
  }
}

function autoCreateAllowed(opts: MetricWriteOptions): boolean {
  const hint = opts.hints?.auto_create_table;
  if (hint === undefined) return opts.autoCreateTable;
  const v = String(hint).trim().toLowerCase();
  if (v !== "true" && v !== "false") throw invalidArguments("`auto_create_table` hint must be a boolean");
  // either switch turns creation off (reference §7.0): a client's hint cannot undo the server's `false`
  return opts.autoCreateTable && v === "true";
}

/** The physical table of a logical one. */
export function physicalOf(handle: DatabaseHandle, logical: TableMeta): TableMeta {
  const physical = handle.getTable(logical.options.on_physical_table);
  if (physical === undefined || !isPhysicalTable(physical)) {
    throw new PetrelError(
      StatusCode.TableNotFound,
      `Physical table ${logical.options.on_physical_table} of ${logical.name} not found`,
    );
  }
  return physical;
}

/** The physical table named `name`, created when missing. */
function ensurePhysical(
  handle: DatabaseHandle,
  name: string,
  hints: TableOptions | undefined,
): TableMeta {
  validateTableName(name);
  const existing = handle.getTable(name);
  if (existing !== undefined) {
    if (!isPhysicalTable(existing)) {
      throw invalidArguments(`Table ${name} is not a metric engine physical table`);
    }
    return existing;
  }
  const created = optionsForCreate("physical", hints);
  const options: TableOptions = { physical_metric_table: "true" };
  for (const k of ["ttl", "skip_wal"]) if (created[k] !== undefined) options[k] = created[k];
  return createPhysicalTable(handle, name, baseColumns(), METRIC_TIME_INDEX, options);
}

function createLogical(
  handle: DatabaseHandle,
  w: MetricWrite,
  opts: MetricWriteOptions,
): TableMeta {
  if (!autoCreateAllowed(opts)) {
    throw invalidArguments(
      `Table \`${w.metric}\` does not exist, and \`auto_create_table\` hint is disabled`,
    );
  }
  const physical = ensurePhysical(
    handle,
    w.physicalTable ?? opts.hints?.physical_table ?? DEFAULT_PHYSICAL_TABLE,
    opts.hints,
  );
  const options = optionsForCreate("logical", opts.hints, w.options);
  delete options.skip_wal;
  delete options.physical_table;
  options.on_physical_table = physical.name;
  // named as its physical table's (those SQL created name their own), as all its tables' samples are
  return saveLogicalTable(handle, physical, {
    name: w.metric,
    columns: sortColumns(baseColumns(physical.timeIndex, metricValueColumn(physical))),
    timeIndex: physical.timeIndex,
    primaryKey: [],
    options,
  });
}

/** Whether columns are in name order, as a logical table a write created keeps them. */
function nameOrdered(cols: ColumnMeta[]): boolean {
  return cols.every((c, i) => i === 0 || cols[i - 1].name < c.name);
}

/** Adds label columns new to the logical (and physical) table; returns the updated metadata. */
function addLabels(
  handle: DatabaseHandle,
  physical: TableMeta,
  logical: TableMeta,
  labels: Set<string>,
): { physical: TableMeta; logical: TableMeta } {
  const have = new Set(logical.columns.map((c) => c.name));
  const added = [...labels].filter((l) => !have.has(l)).sort();
  if (added.length === 0) return { physical, logical };
  checkLabels(physical, logical.name, added);
  physical = addPhysicalLabels(handle, physical, added);
  const grown = [...logical.columns, ...labelColumns(added)];
  // a table a write created keeps GreptimeDB's name order; one SQL created keeps its own, grown at the end
  logical = nameOrdered(logical.columns)
    ? { ...logical, columns: sortColumns(grown), primaryKey: [...logical.primaryKey, ...added].sort() }
    : { ...logical, columns: grown, primaryKey: [...logical.primaryKey, ...added] };
  for (const sql of logicalViewSql(physical, logical)) handle.conn.exec(sql);
  handle.saveMeta(logical);
  return { physical, logical };
}

/** Labels without empty values (Prometheus treats an empty label as an absent one). */
function presentLabels(labels: Record<string, string>): Record<string, string> {
  for (const k in labels) {
    if (labels[k] === "") {
      const out: Record<string, string> = {};
      for (const j in labels) if (labels[j] !== "") out[j] = labels[j];
      return out;
    }
  }
  return labels;
}

/**
 * Series keys of frozen label sets (remote write's, the same objects from request to request): a
 * known series is then looked up without building its key again.
 */
const keys = new WeakMap<Record<string, string>, string>();

/** The series key of labels (empty values left out). */
function keyOf(labels: Record<string, string>): string {
  if (!Object.isFrozen(labels)) return seriesKey(presentLabels(labels));
  let key = keys.get(labels);
  if (key === undefined) keys.set(labels, key = seriesKey(presentLabels(labels)));
  return key;
}

function insertSeries(
  handle: DatabaseHandle,
  physical: TableMeta,
  index: SeriesIndex,
  tableId: number,
  labels: Record<string, string>,
  key: string,
): number {
  const names = Object.keys(labels).sort();
  const stmtKey = `metric:series:${physical.id}:${names.join("\u0000")}`;
  const stmt = handle.statements.obtain(physical.name, stmtKey, "metric", () => {
    const cols = ["id", "table_id", "key", ...names.map(labelColumn)];
    return handle.conn.prepare(
      `INSERT INTO ${seriesTable(physical)} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    );
  });
  const id = index.nextId;
  stmt.run(id, tableId, key, ...names.map((n) => storedText(labels[n])));
  const sorted: Record<string, string> = {};
  for (const n of names) sorted[n] = labels[n];
  addEntry(index, { id, tableId, labels: sorted }, key);
  return id;
}

/**
 * Series keyed for one logical table, the write's series then its points: `ids[i]` is -1 for a
 * series new to it, whose labels are then set.
 */
interface KeyedSeries {
  keys: string[];
  ids: number[];
  labels: Array<Record<string, string> | undefined>;
  /** The label names of the new series: only they can add (or collide with) columns. */
  names: Set<string>;
  /** How many series are new. */
  fresh: number;
}

function keySeries(
  series: MetricSeriesInput[],
  points: MetricPoints | null,
  known: Map<string, number>,
): KeyedSeries {
  const n = series.length + (points?.length ?? 0);
  const out: KeyedSeries = {
    keys: new Array(n),
    ids: new Array(n),
    labels: new Array(n),
    names: new Set(),
    fresh: 0,
  };
  for (let i = 0; i < series.length; i++) {
    const key = keyOf(series[i].labels);
    out.keys[i] = key;
    const id = known.get(key);
    if (id !== undefined) out.ids[i] = id;
    else {
      out.ids[i] = -1;
      out.fresh++;
      const l = out.labels[i] = presentLabels(series[i].labels);
      for (const k in l) out.names.add(k);
    }
  }
  if (points !== null) keyPoints(points, known, series.length, out);
  return out;
}

/** Keys the points into `out` from `at` on: a label object only for a series new to the table. */
function keyPoints(points: MetricPoints, known: Map<string, number>, at: number, out: KeyedSeries): void {
  const keys = points.keys;
  for (let i = 0; i < points.length; i++) {
    const key = keys[i];
    out.keys[at + i] = key;
    const id = known.get(key);
    if (id !== undefined) out.ids[at + i] = id;
    else {
      out.ids[at + i] = -1;
      out.fresh++;
      const l = out.labels[at + i] = labelsOfKey(key);
      for (const k in l) out.names.add(k);
    }
  }
}

function writeMetric(
  handle: DatabaseHandle,
  w: MetricWrite,
  opts: MetricWriteOptions,
  pending: Map<number, PhysicalSamples>,
): number {
  validateTableName(w.metric);
  let logical = handle.getTable(w.metric);
  if (logical !== undefined && !isLogicalTable(logical)) {
    throw invalidArguments(`Table ${w.metric} is not a metric engine logical table`);
  }
  const series: MetricSeriesInput[] = [];
  for (const s of w.series) if (s.samples.length > 0) series.push(s);
  const points = w.points !== undefined && w.points.length > 0 ? w.points : null;
  if (series.length === 0 && points === null) return 0;
  logical ??= createLogical(handle, w, opts);
  let physical = physicalOf(handle, logical);
  const index = seriesIndex(handle, physical);
  const known = tableKeys(index, logical.id);
  const keyed = keySeries(series, points, known);
  for (const reserved of [logical.timeIndex, metricValueColumn(logical)]) {
    if (keyed.names.has(reserved)) {
      throw invalidArguments(
        `Label ${reserved} of metric ${w.metric} collides with the column of the same name`,
      );
    }
  }
  if (keyed.fresh > 0) {
    ({ physical, logical } = addLabels(handle, physical, logical, keyed.names));
    for (let i = 0; i < keyed.ids.length; i++) {
      if (keyed.ids[i] !== -1) continue;
      // A series new to the table may come twice in one write: inserted once, found the second time.
      keyed.ids[i] = known.get(keyed.keys[i]) ??
        insertSeries(handle, physical, index, logical.id, keyed.labels[i]!, keyed.keys[i]);
    }
  }
  let p = pending.get(physical.id);
  if (p === undefined) pending.set(physical.id, p = { physical, ts: [], ids: [], values: [] });
  p.physical = physical;
  const before = p.ts.length;
  appendSampleColumns(w.metric, series, keyed.ids, p);
  if (points !== null) appendPointColumns(w.metric, points, keyed.ids, series.length, p);
  const n = p.ts.length - before;
  if (ttlMs(logical) === 0 || ttlMs(physical) === 0) {
    // accepted, not stored
    p.ts.length = p.ids.length = p.values.length = before;
    return n;
  }
  const late = opts.late?.get(logical.name.toLowerCase());
  if (late !== undefined && n > 0) {
    // marked in this write's transaction, as the samples are (flushed per physical table below)
    const ts = p.ts.slice(before);
    markLate(handle, physical.schema, late, n, (i) => ts[i], oldest(ts));
  }
  return n;
}
