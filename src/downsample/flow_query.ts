/**
 * A flow in its general form (`sql/flow_general.ts`): its own SELECT run by Petrel's SQL engine over
 * the source rows of a stretch of windows, the stretch's time range added as a condition on the
 * time index, its rows written into the sink. Each window is computed from all its rows, so the
 * downsampler schedules these flows as the others: closed windows, late writes recomputing their
 * window, `ADMIN FLUSH_FLOW`, `EXPIRE AFTER`.
 *
 * The sink is GreptimeDB's: the SELECT's outputs in order, typed as the query types them, the GROUP
 * BY items besides the window its primary key, the window its time index, then `update_at`. A
 * query without a window key runs whole (`whole.ts`); its sink ends with the constant time index
 * `__ts_placeholder`, its keys (GROUP BY or DISTINCT items) the primary key.
 */
import { invalidArguments, unsupported } from "../common/errors.ts";
import type { ColumnSchema, DataType, QueryOutput, Value } from "../common/rows.ts";
import { rescaleTime, toEpochMs, unitOf, UNITS_PER_SECOND } from "../common/time_unit.ts";
import { executeSql } from "../sql/mod.ts";
import { isTimestampType } from "../storage/datatypes.ts";
import { firstTimeFrom } from "../storage/window_aggregate.ts";
import { quoteIdent, type TableMeta } from "../storage/table.ts";
import type { Storage } from "../storage/mod.ts";
import { WHOLE_TIME_INDEX } from "../sql/flow_general.ts";
import type { FlowQuery, FlowQueryText } from "./flow_spec.ts";

/** One sink row and the window it belongs to. */
export interface FlowRow {
  windowMs: number;
  /** The SELECT's outputs in order (`update_at` is added when written). */
  values: Value[];
}

const iso = (ms: number) => `'${new Date(ms).toISOString()}'`;

/** The SELECT of `q` over the source rows of `[fromMs, toMs)`. */
export function windowSql(q: FlowQueryText, fromMs: number, toMs: number): string {
  const ts = `${quoteIdent(q.qualifier)}.${quoteIdent(q.timeIndex!)}`;
  return querySql(q, `${ts} >= ${iso(fromMs)} AND ${ts} < ${iso(toMs)}`);
}

/** The SELECT of `q` with `condition` added to its WHERE (none: as written). */
function querySql(q: FlowQueryText, condition?: string): string {
  const conds = [condition, q.where === undefined ? undefined : `(${q.where})`].filter((c) =>
    c !== undefined
  );
  return `${q.head}${conds.length === 0 ? "" : ` WHERE ${conds.join(" AND ")}`} ${q.tail}`;
}

function runSql(storage: Storage, q: FlowQueryText, text: string): QueryOutput & { kind: "records" } {
  const [out] = executeSql(storage, text, { db: q.database });
  if (out?.kind !== "records") throw invalidArguments("CREATE FLOW: the query returns no rows");
  return out;
}

/** Whether `q` has no window key: computed whole at each run. */
export function isWholeQuery(q: FlowQueryText): boolean {
  return q.window === undefined;
}

/**
 * Types the sink of `q` over `source` (whose time index a window key must bin): by the SQL
 * engine's output types, read from no rows, or, for an output only values type, from the source's
 * first window (the whole query, without a window key; Float64 when there are no rows). The
 * query's errors (an unknown column, a type mismatch) surface here, at CREATE FLOW. `untyped`
 * names the outputs typed Float64 for want of rows.
 */
export function compileFlowQuery(
  storage: Storage,
  q: FlowQueryText,
  source: TableMeta,
): { query: FlowQuery; untyped: string[] } {
  const whole = isWholeQuery(q);
  if (!whole && q.timeIndex!.toLowerCase() !== source.timeIndex.toLowerCase()) {
    const exists = source.columns.some((c) => c.name.toLowerCase() === q.timeIndex!.toLowerCase());
    throw invalidArguments(
      `CREATE FLOW: column ${q.timeIndex} of ${source.name} ${
        exists ? "is not the time index" : "does not exist"
      }`,
    );
  }
  let out = runSql(storage, q, querySql(q, "false"));
  if (whole && q.keys.length === 0 && runSql(storage, q, `${q.head} WHERE false`).rows.length !== 1) {
    throw unsupported(
      "Unsupported in CREATE FLOW: a query without a window key, GROUP BY, DISTINCT or aggregate " +
        "(its rows have no key to be kept by)",
    );
  }
  if (out.columns.some((c) => c.data_type === "Null")) {
    if (whole) out = runSql(storage, q, querySql(q));
    else {
      const first = firstTimeFrom(storage.database(source.db), source, null);
      if (first !== null) out = runSql(storage, q, windowSql(q, first, first + 1));
    }
  }
  if (!whole && !isTimestampType(out.columns[q.window!]?.data_type ?? "Null")) {
    throw unsupported("Unsupported in CREATE FLOW: a window key that is not a timestamp");
  }
  const untyped = out.columns.filter((c) => c.data_type === "Null").map((c) => c.name);
  const columns = out.columns.map((c, i): ColumnSchema => {
    const type = c.data_type === "Null" ? "Float64" : c.data_type;
    if (/^(Interval|List<)/.test(type)) {
      throw unsupported(`Unsupported in CREATE FLOW: the column ${c.name} of type ${type} in a sink`);
    }
    const semantic = i === q.window ? "TIMESTAMP" : q.keys.includes(i) ? "TAG" : "FIELD";
    return { name: c.name, type: type as DataType, semantic };
  });
  columns.push({ name: "update_at", type: "TimestampMillisecond", semantic: "FIELD" });
  if (whole) columns.push({ name: WHOLE_TIME_INDEX, type: "TimestampMillisecond", semantic: "TIMESTAMP" });
  const names = columns.map((c) => c.name.toLowerCase());
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw invalidArguments(`CREATE FLOW: column ${dup} appears twice in the sink`);
  return { query: { ...q, columns }, untyped };
}

/**
 * The rows of a query without a window key as of `nowMs`, over all of its source (but what its
 * `EXPIRE AFTER` leaves out); `update_at` is not added.
 */
export function wholeQueryRows(storage: Storage, q: FlowQuery, nowMs: number): Value[][] {
  if (q.expireAfter === undefined) return runSql(storage, q, querySql(q)).rows;
  const ts = `${quoteIdent(q.qualifier)}.${quoteIdent(q.timeIndex!)}`;
  return runSql(storage, q, querySql(q, `${ts} >= ${iso(nowMs - q.expireAfter)}`)).rows;
}

/** The sink rows of `[fromMs, toMs)`. */
export function flowQueryRows(storage: Storage, q: FlowQuery, fromMs: number, toMs: number): FlowRow[] {
  const unit = unitOf(q.columns[q.window!].type);
  return runSql(storage, q, windowSql(q, fromMs, toMs)).rows.map((values) => {
    const at = values[q.window!];
    const windowMs = typeof at === "number" || typeof at === "bigint" ? toEpochMs(at, unit) : NaN;
    return { windowMs, values };
  }).filter((r) => Number.isFinite(r.windowMs));
}

/**
 * The rows of `q` as `sink` declares its columns, when it exists (made before the flow, as
 * GreptimeDB's docs do, or by an earlier flow): each column takes the sink's type, a time rescaled
 * to the sink's unit, a value of a string column as text; a column the sink lacks keeps its own.
 */
export function fitToSink(q: FlowQuery, sink: TableMeta | undefined, rows: Value[][]): FitRows {
  if (sink === undefined) return { columns: q.columns, rows };
  const converts = q.columns.flatMap((c, i) => {
    const have = sink.columns.find((s) => s.name.toLowerCase() === c.name.toLowerCase());
    // a time index the sink lacks (`__ts_placeholder`) is not added: the sink has its own
    if (have === undefined && c.semantic === "TIMESTAMP") return [];
    const column: ColumnSchema = have === undefined
      ? c
      : { name: have.name, type: have.type, semantic: have.semantic };
    return [{ i, column, convert: converter(c.type, column.type) }];
  });
  return {
    columns: converts.map((c) => c.column),
    rows: rows.map((row) => converts.map((c) => c.convert(row[c.i]))),
  };
}

/** Columns and rows for a write. */
export interface FitRows {
  columns: ColumnSchema[];
  rows: Value[][];
}

function converter(from: DataType, to: DataType): (v: Value) => Value {
  if (from === to) return (v) => v;
  if (isTimestampType(from) && isTimestampType(to)) {
    const a = BigInt(UNITS_PER_SECOND[unitOf(from)]), b = BigInt(UNITS_PER_SECOND[unitOf(to)]);
    return (v) => typeof v === "number" || typeof v === "bigint" ? rescaleTime(v, a, b) : v;
  }
  if (to === "String") return (v) => v === null || typeof v === "string" ? v : String(v);
  return (v) => v;
}
