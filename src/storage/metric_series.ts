/**
 * The in-memory series index of a physical metric table: label set → series id, and per logical
 * table its series, so a write of known series touches only the samples table and matchers are
 * resolved without SQL. Loaded from the series table on first use; dropped when a transaction fails.
 */
import type { DatabaseHandle } from "./database.ts";
import type { TableMeta } from "./table.ts";
import { seriesTable } from "./metric_layout.ts";

/** One series of a logical table. */
export interface SeriesEntry {
  id: number;
  tableId: number;
  /** Labels without `__name__`, sorted by name. */
  labels: Record<string, string>;
}

/** A series with its full label set (`__name__` included); the labels are shared, never to be mutated. */
export interface LabelledSeries {
  entry: SeriesEntry;
  labels: Record<string, string>;
}

/** The series of one physical table. */
export interface SeriesIndex {
  /** Per logical table, label key ({@link seriesKey}) → series id. */
  byKey: Map<number, Map<string, number>>;
  byId: Map<number, SeriesEntry>;
  byTable: Map<number, SeriesEntry[]>;
  /** Per logical table, its series with full label sets in Prometheus' order (built on first read). */
  sorted: Map<number, LabelledSeries[]>;
  nextId: number;
  /** The catalog opening this index was loaded from (a recreated database has other rows). */
  instance: number;
}

const indexes = new WeakMap<DatabaseHandle, Map<number, SeriesIndex>>();

/** The canonical key of a label set (labels sorted by name) within a logical table. */
export function seriesKey(labels: Record<string, string>): string {
  const names = Object.keys(labels);
  // Insertion sort: label sets are small, and this beats `sort()` (same code-unit order) on the
  // write path, where every series of every request is keyed.
  for (let i = 1; i < names.length; i++) {
    const n = names[i];
    let j = i - 1;
    while (j >= 0 && names[j] > n) {
      names[j + 1] = names[j];
      j--;
    }
    names[j + 1] = n;
  }
  const parts: string[] = new Array(names.length * 2);
  for (let i = 0; i < names.length; i++) {
    parts[2 * i] = names[i];
    parts[2 * i + 1] = labels[names[i]];
  }
  return JSON.stringify(parts);
}

/** The labels a {@link seriesKey} spells, sorted by name. */
export function labelsOfKey(key: string): Record<string, string> {
  const parts = JSON.parse(key) as string[];
  const labels: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) labels[parts[i]] = parts[i + 1];
  return labels;
}

/** The series index of a physical table, loaded from SQLite when not cached. */
export function seriesIndex(handle: DatabaseHandle, physical: TableMeta): SeriesIndex {
  let perDb = indexes.get(handle);
  if (perDb === undefined) indexes.set(handle, perDb = new Map());
  const cached = perDb.get(physical.id);
  if (cached !== undefined && cached.instance === handle.instance) {
    if (!handle.readOnly) return cached;
    // Another thread adds series: a reader takes the rows added since it last looked.
    const rows = handle.conn.prepare(`SELECT table_id, id, key FROM ${seriesTable(physical)} WHERE id >= ?`)
      .all(cached.nextId) as Array<{ table_id: number; id: number; key: string }>;
    for (const r of rows) {
      addEntry(cached, { id: r.id, tableId: r.table_id, labels: labelsOfKey(r.key) }, r.key);
    }
    return cached;
  }
  const index: SeriesIndex = {
    byKey: new Map(),
    byId: new Map(),
    byTable: new Map(),
    sorted: new Map(),
    nextId: 1,
    instance: handle.instance,
  };
  const rows = handle.conn.prepare(`SELECT table_id, id, key FROM ${seriesTable(physical)}`).all() as Array<
    { table_id: number; id: number; key: string }
  >;
  for (const r of rows) addEntry(index, { id: r.id, tableId: r.table_id, labels: labelsOfKey(r.key) }, r.key);
  perDb.set(physical.id, index);
  return index;
}

/** The series ids of one logical table by label key (created empty when missing). */
export function tableKeys(index: SeriesIndex, tableId: number): Map<string, number> {
  let keys = index.byKey.get(tableId);
  if (keys === undefined) index.byKey.set(tableId, keys = new Map());
  return keys;
}

/** Records a series in the index under its label key. */
export function addEntry(index: SeriesIndex, entry: SeriesEntry, key: string): void {
  tableKeys(index, entry.tableId).set(key, entry.id);
  index.byId.set(entry.id, entry);
  let list = index.byTable.get(entry.tableId);
  if (list === undefined) index.byTable.set(entry.tableId, list = []);
  list.push(entry);
  index.sorted.delete(entry.tableId);
  if (entry.id >= index.nextId) index.nextId = entry.id + 1;
}

/** Forgets every cached index of a database (after a rollback or a drop). */
export function forgetSeries(handle: DatabaseHandle): void {
  indexes.delete(handle);
  handle.seriesResets++;
}
