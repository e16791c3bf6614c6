/**
 * The one writer every ingestion path uses: resolves or creates the table, evolves its schema,
 * and inserts each batch with cached multi-row statements, all in one transaction per call (left
 * open for group commit when the call wrote only skip_wal tables, see `group_commit.ts`).
 */
import type { ColumnSchema, CreateType, DataType, TableOptions, Value, WriteBatch } from "../common/rows.ts";
import { columnsOf, rowCountOf } from "../common/rows.ts";
import {
  columnarSource,
  type ColumnPlan,
  type ColumnSource,
  convertColumn,
  kindOf,
  rowSource,
} from "./writer_values.ts";
import { invalidArguments } from "../common/errors.ts";
import { isTimestampType } from "./datatypes.ts";
import type { DatabaseHandle } from "./database.ts";
import { optionsForCreate } from "./options.ts";
import type { ColumnMeta, TableMeta } from "./table.ts";
import { addColumns, changeColumnTypes } from "./ddl.ts";
import { insertAll, type InsertVerb } from "./writer_insert.ts";
import { runGroupedWrite } from "./group_commit.ts";
import {
  CURRENT_LAYOUT,
  isAppendMode,
  keyColumns,
  mergeMode,
  ttlMs,
  usesNullTag,
  validateTableName,
} from "./table.ts";
import { unitOf, UNITS_PER_SECOND } from "../common/time_unit.ts";
import { journalWrite, rowidBefore, timeRangeOf } from "./forward_journal.ts";
import { type LateWatch, markLateRows } from "./late_marks.ts";
import { hasTraceMap, recordTraces } from "./trace_map.ts";

/** Options of one write call. */
export interface WriteOptions {
  /** Request hints (`x-greptime-hints`, pipeline variables): applied when a table is created. */
  hints?: TableOptions;
  /**
   * GreptimeDB's `accommodate_existing_schema` (Influx, Prometheus, OpenTSDB): when the table exists,
   * the batch's timestamp column is renamed to the table's time index and its values are converted
   * to the table's unit (floored toward the past).
   */
  accommodateExistingSchema?: boolean;
  /**
   * The batches carry one value field (Prometheus, OpenTSDB): with `accommodateExistingSchema`, a
   * value field the table lacks takes the name of the table's only field.
   */
  singleValue?: boolean;
  /**
   * GreptimeDB's trace tables: a Float64 value for an Int64 field widens the column to Float64
   * (the table is rebuilt) instead of failing.
   */
  widenIntToFloat?: boolean;
  /**
   * The batches hold the client's values (a pipeline's JSON: /v1/ingest, ES bulk, Splunk, Loki; OTLP
   * logs), not the stored form SQL INSERT and internal copies pass: a number for a Decimal(p, s)
   * column is scaled by 10^s as SQL INSERT does; a negative one for an unsigned column, one past a
   * narrower integer column's range and a value of the wrong kind (a string for an integer column)
   * are GreptimeDB's datatype mismatch.
   */
  clientNumbers?: boolean;
}

/** Storage-wide settings the writer needs. */
export interface WriterSettings {
  autoCreateTable: boolean;
  /** Record each write in the forwarding journal (`forward_journal.ts`). */
  journal?: boolean;
  /** The database's tables that downsampling rules watch for late writes (`late_marks.ts`). */
  late?: ReadonlyMap<string, LateWatch[]>;
}

const MAX_VARIABLES = 32766;
const MAX_ROWS_PER_STATEMENT = 512;

function autoCreateAllowed(settings: WriterSettings, hints: TableOptions | undefined): boolean {
  const hint = hints?.auto_create_table;
  if (hint === undefined) return settings.autoCreateTable;
  const v = String(hint).trim().toLowerCase();
  if (v !== "true" && v !== "false") throw invalidArguments("`auto_create_table` hint must be a boolean");
  // either switch turns creation off (reference §7.0): a client's hint cannot undo the server's `false`
  return settings.autoCreateTable && v === "true";
}

function validateBatchColumns(batch: WriteBatch): void {
  const seen = new Set<string>();
  for (const c of batch.columns) {
    if (typeof c.name !== "string" || c.name.length === 0) {
      throw invalidArguments(`Column name must not be empty in table ${batch.table}`);
    }
    if (c.name.toLowerCase().startsWith("__petrel")) throw invalidArguments(`Invalid column name: ${c.name}`);
    const key = c.name.toLowerCase();
    if (seen.has(key)) throw invalidArguments(`Duplicate column name: ${c.name} in table ${batch.table}`);
    seen.add(key);
  }
}

function createTableMeta(handle: DatabaseHandle, batch: WriteBatch, options: TableOptions): TableMeta {
  const timeCols = batch.columns.filter((c) => c.semantic === "TIMESTAMP");
  if (timeCols.length !== 1) {
    throw invalidArguments(
      `Table ${batch.table} needs exactly one time index column, got ${timeCols.length}`,
    );
  }
  if (!isTimestampType(timeCols[0].type)) {
    throw invalidArguments(
      `Time index column ${timeCols[0].name} must be a timestamp, got ${timeCols[0].type}`,
    );
  }
  const columns: ColumnMeta[] = batch.columns.map((c) => ({
    name: c.name,
    type: c.type,
    semantic: c.semantic,
    nullable: c.semantic !== "TIMESTAMP",
    ...(c.index ? { index: c.index } : {}),
  }));
  return {
    db: handle.name,
    name: batch.table,
    id: handle.allocateId(),
    columns,
    timeIndex: timeCols[0].name,
    primaryKey: batch.columns.filter((c) => c.semantic === "TAG").map((c) => c.name),
    options,
    engine: "mito",
    createdAt: Date.now(),
    schema: options.skip_wal === "true" ? "nowal" : "main",
    layout: CURRENT_LAYOUT,
  };
}

function findColumn(t: TableMeta, name: string): ColumnMeta | undefined {
  return t.columns.find((c) => c.name === name) ??
    t.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
}

/** How the batch's columns map onto the (evolved) table. */
interface ColumnMapping {
  table: TableMeta;
  /** Table column name for each batch column. */
  names: string[];
  /** Units per second of the batch's and the table's time index, when they differ. */
  timeConversion?: { from: bigint; to: bigint };
  /** `WriteOptions.clientNumbers`. */
  clientNumbers?: boolean;
}

/** Adds the batch's missing columns to the table (a new tag rebuilds a keyed table); maps the columns. */
function evolveSchema(
  handle: DatabaseHandle,
  table: TableMeta,
  batch: WriteBatch,
  opts: WriteOptions,
): ColumnMapping {
  const names: string[] = [];
  const added: ColumnMeta[] = [];
  let timeConversion: ColumnMapping["timeConversion"];
  const accommodate = opts.accommodateExistingSchema === true;
  const singleField = accommodate && opts.singleValue ? singleFieldTarget(table, batch) : undefined;
  const widened = new Map<string, DataType>();
  for (const c of batch.columns) {
    let existing = findColumn(table, c.name);
    if (!existing && c.semantic === "TIMESTAMP") {
      if (accommodate && !batch.columns.some((o) => o.name === table.timeIndex)) {
        existing = findColumn(table, table.timeIndex);
      } else {
        throw invalidArguments(
          `Timestamp column ${c.name} does not match the time index ${table.timeIndex} of table ${table.name}`,
        );
      }
    }
    if (!existing && singleField && c.semantic === "FIELD") existing = singleField;
    if (existing) {
      if (
        opts.widenIntToFloat && existing.type === "Int64" && c.type === "Float64" &&
        existing.semantic === "FIELD"
      ) {
        widened.set(existing.name, "Float64");
      } else if (existing.type !== c.type) {
        const convertible = accommodate && c.semantic === "TIMESTAMP" && existing.name === table.timeIndex &&
          isTimestampType(c.type) && isTimestampType(existing.type);
        if (!convertible) {
          throw invalidArguments(
            `Column datatype mismatch. For column: ${existing.name}, expected datatype: ${existing.type}, actual datatype: ${c.type}`,
          );
        }
        timeConversion = {
          from: BigInt(UNITS_PER_SECOND[unitOf(c.type)]),
          to: BigInt(UNITS_PER_SECOND[unitOf(existing.type)]),
        };
      }
      if (c.semantic === "TIMESTAMP" && existing.name !== table.timeIndex) {
        throw invalidArguments(`Column ${existing.name} of table ${table.name} is not its time index`);
      }
      names.push(existing.name);
      continue;
    }
    const col: ColumnMeta = { name: c.name, type: c.type, semantic: c.semantic, nullable: true };
    if (c.index) col.index = c.index;
    added.push(col);
    names.push(c.name);
  }
  if (widened.size > 0) table = changeColumnTypes(handle, table, widened);
  if (added.length === 0) return { table, names, timeConversion };
  return { table: addColumns(handle, table, added), names, timeConversion };
}

/** The table's only field, when the batch's only field is missing from the table (single-value protocols). */
function singleFieldTarget(table: TableMeta, batch: WriteBatch): ColumnMeta | undefined {
  const fields = batch.columns.filter((c) => c.semantic === "FIELD");
  const tableFields = table.columns.filter((c) => c.semantic === "FIELD");
  if (fields.length !== 1 || tableFields.length !== 1 || findColumn(table, fields[0].name)) return undefined;
  return tableFields[0];
}

/** Marks tag columns that now hold the null-tag stand-in, so readers map it back to NULL. */
function recordNullTags(handle: DatabaseHandle, table: TableMeta, names: Set<string>): TableMeta {
  if (!usesNullTag(table)) return table;
  const fresh = table.columns.filter((c) => names.has(c.name) && !c.nullTags);
  if (fresh.length === 0) return table;
  const next = {
    ...table,
    columns: table.columns.map((c) => (names.has(c.name) ? { ...c, nullTags: true } : c)),
  };
  handle.saveMeta(next);
  return next;
}

function insertVerb(table: TableMeta, names: string[], sawNull: Set<string>): InsertVerb {
  if (isAppendMode(table)) return "append";
  if (mergeMode(table) === "last_row") return "replace";
  // last_non_null with every column written and no null field is a plain replace, which SQLite
  // does ~8 % faster than the upsert (one conflict check instead of a check plus an update)
  const complete = names.length === table.columns.length &&
    !names.some((n) => sawNull.has(n) && !table.primaryKey.includes(n));
  return complete ? "replace" : "merge";
}

/**
 * Converts the values column by column and inserts them (`writer_insert.ts`); returns the time
 * range written when `wantRange`.
 */
function insertRows(
  handle: DatabaseHandle,
  mapping: ColumnMapping,
  source: ColumnSource,
  wantRange = false,
  late?: readonly LateWatch[],
): [number | bigint, number | bigint] | null {
  const { table, names } = mapping;
  for (const c of table.columns) {
    if (!c.nullable && c.default === undefined && c.name !== table.timeIndex && !names.includes(c.name)) {
      throw invalidArguments(
        `Column ${c.name} is NOT NULL and has no default, but the write does not set it`,
      );
    }
  }
  const width = names.length, n = source.n;
  const sawNull = new Set<string>();
  const keyed = usesNullTag(table);
  const columns = names.map((name, j) => {
    const col = findColumn(table, name)!;
    const isTime = col.name === table.timeIndex;
    const plan: ColumnPlan = {
      col,
      kind: kindOf(col.type),
      isTime,
      isTag: keyed && table.primaryKey.includes(col.name),
      timeConversion: isTime ? mapping.timeConversion : undefined,
      clientNumbers: mapping.clientNumbers,
    };
    return convertColumn(plan, source, j, sawNull);
  });
  const verb = insertVerb(table, names, sawNull);
  const perStatement = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_VARIABLES / width)));
  insertAll(handle, table, names, verb, columns, n, perStatement);
  const times = columns[names.indexOf(table.timeIndex)] as ArrayLike<number | bigint> | undefined;
  const traceAt = hasTraceMap(table) ? names.indexOf("trace_id") : -1;
  if (traceAt >= 0 && times) recordTraces(handle, table, columns[traceAt], times, n);
  const sawNullTag = new Set(table.primaryKey.filter((k) => !names.includes(k) || sawNull.has(k)));
  recordNullTags(handle, table, sawNullTag);
  if (late !== undefined && times) markLateRows(handle, table, late, times, n);
  return wantRange && times ? timeRangeOf(times, n) : null;
}

/** Creates the table a batch's first write creates (inside the caller's transaction). */
function createBatchTableIn(
  handle: DatabaseHandle,
  batch: WriteBatch,
  hints: TableOptions | undefined,
): TableMeta {
  const createType: CreateType = batch.createType ?? "physical";
  // A `physical_table` hint picks a metric engine's physical table; GreptimeDB never copies it onto
  // an ordinary table (reference §8), where it would only make the DDL unreplayable.
  const { physical_table: _physical, ...kept } = batch.createWithHints === false ? {} : hints ?? {};
  const options = optionsForCreate(createType, { comment: "Created on insertion" }, kept, batch.options);
  const table = createTableMeta(handle, batch, options);
  handle.createTable(table);
  return table;
}

/**
 * Creates, without rows, the table a batch's first write would create (same columns, primary key
 * and options), whatever `auto_create_table` says: for statements that make their table up front,
 * as `CREATE FLOW` makes its sink. The table must not exist.
 */
export function createBatchTable(handle: DatabaseHandle, batch: WriteBatch): TableMeta {
  validateTableName(batch.table);
  validateBatchColumns(batch);
  return handle.transaction(() => createBatchTableIn(handle, batch, undefined));
}

/** What one batch did: rows accepted, and whether they went to a table that must commit at once. */
interface BatchResult {
  rows: number;
  durable: boolean;
}

/** Writes one batch inside the caller's transaction. */
function writeBatch(
  handle: DatabaseHandle,
  batch: WriteBatch,
  opts: WriteOptions,
  settings: WriterSettings,
): BatchResult {
  validateTableName(batch.table);
  validateBatchColumns(batch);
  const columnar = columnsOf(batch);
  const rowCount = rowCountOf(batch);
  if (rowCount === 0) return { rows: 0, durable: false };
  let table = handle.getTable(batch.table);
  if (!table) {
    if (!autoCreateAllowed(settings, opts.hints)) {
      throw invalidArguments(
        `Table \`${batch.table}\` does not exist, and \`auto_create_table\` hint is disabled`,
      );
    }
    table = createBatchTableIn(handle, batch, opts.hints);
  }
  const evolved = evolveSchema(handle, table, batch, opts);
  evolved.clientNumbers = opts.clientNumbers;
  table = evolved.table;
  const durable = table.schema !== "nowal";
  if (ttlMs(table) === 0) return { rows: rowCount, durable };
  const keyPositions = isAppendMode(table)
    ? null
    : keyColumns(table).map((k) => evolved.names.indexOf(k)).filter((p) => p >= 0);
  const source = columnar
    ? columnarSource(columnar, keyPositions)
    : rowSource(batch, evolved.names.length, keyPositions);
  const late = settings.late?.get(table.name.toLowerCase());
  if (!settings.journal) {
    insertRows(handle, evolved, source, false, late);
    return { rows: rowCount, durable };
  }
  const before = rowidBefore(handle, table);
  const range = insertRows(handle, evolved, source, true, late);
  if (range !== null) journalWrite(handle, table, before, range, rowCount);
  return { rows: rowCount, durable };
}

/**
 * Writes all batches atomically; returns the number of rows written. Committed before it returns,
 * unless group commit is on and every batch went to a skip_wal table (see `group_commit.ts`).
 */
export function writeBatches(
  handle: DatabaseHandle,
  batches: WriteBatch[],
  opts: WriteOptions,
  settings: WriterSettings,
): number {
  return runGroupedWrite(handle, () => {
    let affected = 0, durable = false;
    for (const b of batches) {
      const r = writeBatch(handle, b, opts, settings);
      affected += r.rows;
      durable ||= r.durable;
    }
    return { value: affected, rows: affected, durable };
  });
}

/** Builds a batch from row objects (keys are column names; missing keys are null). */
export function batchFromRecords(
  table: string,
  columns: ColumnSchema[],
  records: Array<Record<string, Value | undefined>>,
): WriteBatch {
  const rows = records.map((r) => columns.map((c) => r[c.name] ?? null));
  return { table, columns, rows };
}
