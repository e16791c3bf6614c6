/**
 * Creating metric-engine tables and their label columns: physical tables (created on demand by a
 * write, or by `CREATE TABLE … ENGINE=metric WITH ("physical_metric_table" = …)`) and logical tables
 * created by `CREATE TABLE … ENGINE=metric WITH ("on_physical_table" = …)`, validated as GreptimeDB
 * does. Logical tables a write creates are made by the engine (`metric_engine.ts`) with these helpers.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { TableOptions } from "../common/rows.ts";
import type { DatabaseHandle } from "./database.ts";
import {
  addLabelSql,
  createPhysicalSql,
  isLogicalTable,
  isPhysicalTable,
  labelColumns,
  logicalViewSql,
  metricValueColumn,
  physicalViewSql,
  VIEW_JOIN,
} from "./metric_layout.ts";
import { checkColumnCount, type ColumnMeta, MAX_TABLE_COLUMNS, quoteIdent, type TableMeta } from "./table.ts";

/** A metric table as CREATE TABLE describes it, its columns already given their semantic types. */
export interface MetricTableSpec {
  name: string;
  columns: ColumnMeta[];
  timeIndex: string;
  primaryKey: string[];
  options: TableOptions;
}

/**
 * Any non-empty label name becomes a column (quoteIdent refuses NUL and overlong names): OTLP's
 * `NoTranslation` and `NoUTF8EscapingWithSuffixes` strategies keep dotted attribute names such as
 * `service.name`, and GreptimeDB's metric engine stores them as they are.
 */
const isLabelName = (l: string): boolean => l.length > 0 && !l.includes("\u0000");

/** Refuses label names a table of `physical` cannot store as columns (400 naming the label). */
export function checkLabels(physical: TableMeta, table: string, labels: Iterable<string>): void {
  const physLower = new Map(physical.columns.map((c) => [c.name.toLowerCase(), c.name]));
  for (const l of labels) {
    if (!isLabelName(l)) throw invalidArguments(`Invalid label name: \`${l}\``);
    if (l.toLowerCase().startsWith("__petrel")) throw invalidArguments(`Invalid column name: ${l}`);
    const same = physLower.get(l.toLowerCase());
    // SQL column names ignore case, Prometheus label names do not
    if (same !== undefined && same !== l) {
      throw invalidArguments(
        `Label ${l} of metric ${table} differs only in case from column ${same} of ${physical.name}`,
      );
    }
  }
}

/** Adds the labels the physical table lacks as series-table columns; returns its updated metadata. */
export function addPhysicalLabels(handle: DatabaseHandle, physical: TableMeta, labels: string[]): TableMeta {
  const have = new Set(physical.columns.map((c) => c.name));
  const added = [...new Set(labels)].filter((l) => !have.has(l)).sort();
  if (added.length === 0) return physical;
  // the series table holds id, table_id and key besides a column per label of every metric on it
  checkColumnCount(
    physical.name,
    physical.primaryKey.length + added.length,
    MAX_TABLE_COLUMNS - 3,
    "labels (over all its metrics)",
  );
  for (const l of added) handle.conn.exec(addLabelSql(physical, l));
  const next = {
    ...physical,
    columns: [...physical.columns, ...labelColumns(added)],
    primaryKey: [...physical.primaryKey, ...added],
  };
  for (const sql of physicalViewSql(next)) handle.conn.exec(sql);
  handle.saveMeta(next);
  return next;
}

/**
 * Creates a physical table: its series and samples tables, its view, and a label column per tag.
 * `columns` are its time index (`timeIndex`), its value column and any tags.
 */
export function createPhysicalTable(
  handle: DatabaseHandle,
  name: string,
  columns: ColumnMeta[],
  timeIndex: string,
  options: TableOptions,
): TableMeta {
  if (options.skip_wal === "true") handle.attachNowal();
  const base = columns.filter((c) => c.semantic !== "TAG");
  const physical: TableMeta = {
    db: handle.name,
    name,
    id: handle.allocateId(),
    columns: base,
    timeIndex,
    primaryKey: [],
    options,
    engine: "metric",
    createdAt: Date.now(),
    schema: options.skip_wal === "true" ? "nowal" : "main",
  };
  for (const sql of createPhysicalSql(physical)) handle.conn.exec(sql);
  for (const sql of physicalViewSql(physical)) handle.conn.exec(sql);
  handle.saveMeta(physical);
  const tags = columns.filter((c) => c.semantic === "TAG").map((c) => c.name);
  return addPhysicalLabels(handle, physical, tags);
}

/**
 * The columns of a metric table created by SQL, checked as GreptimeDB's metric engine checks them:
 * a millisecond time index, exactly one Float64 field (the value) and String tags (the labels).
 */
function checkMetricColumns(spec: MetricTableSpec): ColumnMeta {
  const ts = spec.columns.find((c) => c.name === spec.timeIndex)!;
  if (ts.type !== "TimestampMillisecond") {
    throw invalidArguments(
      `Metric engine table ${spec.name} needs a millisecond time index, ${ts.name} is ${ts.type}`,
    );
  }
  const fields = spec.columns.filter((c) => c.semantic === "FIELD");
  if (fields.length !== 1) {
    throw invalidArguments(
      `Metric engine table ${spec.name} needs exactly one field column (the value), found ${fields.length}` +
        (fields.length > 0 ? `: ${fields.map((f) => f.name).join(", ")}` : ""),
    );
  }
  if (fields[0].type !== "Float64") {
    throw invalidArguments(
      `The field of metric engine table ${spec.name} must be Float64 (DOUBLE), ${fields[0].name} is ${
        fields[0].type
      }`,
    );
  }
  for (const c of spec.columns) {
    if (c.semantic === "TAG" && c.type !== "String") {
      throw invalidArguments(
        `Tag ${c.name} of metric engine table ${spec.name} must be a String, got ${c.type}`,
      );
    }
  }
  return fields[0];
}

/**
 * `CREATE TABLE … ENGINE=metric`: a physical table when the `physical_metric_table` option is there
 * (any value), else a logical table on the `on_physical_table` one. Runs in one transaction.
 */
export function createMetricTable(handle: DatabaseHandle, spec: MetricTableSpec): TableMeta {
  const physicalKey = spec.options.physical_metric_table !== undefined;
  const on = spec.options.on_physical_table;
  if (physicalKey && on !== undefined) {
    throw invalidArguments(
      `Table ${spec.name} cannot have both physical_metric_table and on_physical_table options`,
    );
  }
  if (!physicalKey && on === undefined) {
    throw invalidArguments(
      `Metric engine table ${spec.name} needs the physical_metric_table option (a physical table) ` +
        `or on_physical_table (a logical table on that physical table)`,
    );
  }
  checkMetricColumns(spec);
  return handle.transaction(() => {
    if (physicalKey) {
      return createPhysicalTable(handle, spec.name, spec.columns, spec.timeIndex, spec.options);
    }
    return createLogicalTable(handle, spec, on!);
  });
}

function createLogicalTable(handle: DatabaseHandle, spec: MetricTableSpec, on: string): TableMeta {
  let physical = handle.getTable(on);
  if (physical === undefined) {
    throw new PetrelError(
      StatusCode.TableNotFound,
      `Physical table ${on} of ${spec.name} not found: create it with ENGINE=metric WITH ("physical_metric_table" = "")`,
    );
  }
  if (!isPhysicalTable(physical)) {
    throw invalidArguments(`Table ${on} is not a metric engine physical table`);
  }
  const value = metricValueColumn(spec);
  const physicalValue = metricValueColumn(physical);
  // the samples of all logical tables of a physical table share its ts and value columns
  if (spec.timeIndex !== physical.timeIndex) {
    throw invalidArguments(
      `Time index ${spec.timeIndex} of ${spec.name} must be named as physical table ${on}'s: ${physical.timeIndex}`,
    );
  }
  if (value !== physicalValue) {
    throw invalidArguments(
      `Field ${value} of ${spec.name} must be named as physical table ${on}'s: ${physicalValue}`,
    );
  }
  const tags = spec.columns.filter((c) => c.semantic === "TAG").map((c) => c.name);
  checkLabels(physical, spec.name, tags);
  physical = addPhysicalLabels(handle, physical, tags);
  const options: TableOptions = { ...spec.options };
  // a logical table's samples live in its physical table's schema
  delete options.skip_wal;
  return saveLogicalTable(handle, physical, {
    name: spec.name,
    columns: spec.columns.map((c) => c.semantic === "TAG" ? { ...c, nullable: true } : c),
    timeIndex: spec.timeIndex,
    primaryKey: spec.primaryKey,
    options,
  });
}

/** Stores a new logical table of `physical` (its catalog entry and the view reading its samples). */
export function saveLogicalTable(
  handle: DatabaseHandle,
  physical: TableMeta,
  t: Pick<TableMeta, "name" | "columns" | "timeIndex" | "primaryKey" | "options">,
): TableMeta {
  const logical: TableMeta = {
    db: handle.name,
    ...t,
    id: handle.allocateId(),
    engine: "metric",
    createdAt: Date.now(),
    schema: physical.schema,
  };
  for (const sql of logicalViewSql(physical, logical)) handle.conn.exec(sql);
  handle.saveMeta(logical);
  return logical;
}

/**
 * Tables an older Petrel created from `CREATE TABLE … ENGINE=metric` as plain SQLite tables (it ignored
 * the engine) become `mito` tables, which is what they are: their rows stay readable and writable, where
 * the metric engine would look for a layout they lack. A metric table's name is a view, never a table.
 */
export function mendPlainMetricTables(handle: DatabaseHandle): void {
  const metric = handle.listTables().filter((t) => t.engine === "metric");
  if (metric.length === 0) return;
  const plain = new Set<string>();
  for (const schema of new Set(metric.map((t) => t.schema))) {
    const rows = handle.conn.prepare(
      `SELECT name FROM ${quoteIdent(schema)}.sqlite_master WHERE type = 'table'`,
    ).all() as Array<{ name: string }>;
    for (const r of rows) plain.add(`${schema}\u0000${r.name}`);
  }
  for (const t of metric) {
    if (plain.has(`${t.schema}\u0000${t.name}`)) handle.saveMeta({ ...t, engine: "mito" });
  }
}

/**
 * Views of metric tables an older Petrel made with a plain JOIN are made again with the layout's
 * (`metric_layout.ts`' viewSource says why), once, when the database opens.
 */
export function mendMetricViews(handle: DatabaseHandle): void {
  const metric = handle.listTables().filter((t) => isPhysicalTable(t) || isLogicalTable(t));
  if (metric.length === 0) return;
  const stale: string[] = [];
  for (const t of metric) {
    const row = handle.conn.prepare(
      `SELECT sql FROM ${quoteIdent(t.schema)}.sqlite_master WHERE type = 'view' AND name = ?`,
    ).get(t.name) as { sql: string } | undefined;
    if (row !== undefined && !row.sql.includes(` ${VIEW_JOIN} `)) {
      if (isPhysicalTable(t)) stale.push(...physicalViewSql(t));
      else {
        const physical = handle.getTable(t.options.on_physical_table);
        if (isPhysicalTable(physical)) stale.push(...logicalViewSql(physical!, t));
      }
    }
  }
  if (stale.length > 0) handle.transaction(() => stale.forEach((sql) => handle.conn.exec(sql)));
}
