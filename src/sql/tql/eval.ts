/**
 * Runs a TQL statement's PromQL on the PromQL engine and answers GreptimeDB's record set: one row per
 * (series, step), the time index column named after the table the query reads (`greptime_timestamp`,
 * `ts`), its value column (the field read, or the statement's `AS` alias), then the label columns.
 * A query over no table (`1 + 1`, `vector(1)`) answers GreptimeDB's `time` and `value` columns.
 * Storage reaches the engine through a {@link PromQLBackend} the caller supplies, as the SQL layer
 * does not read series itself.
 */
import { invalidSyntax, tableNotFound } from "../../common/errors.ts";
import type { LabelMatcher } from "../../common/label_matcher.ts";
import type { QueryOutput } from "../../common/rows.ts";
import type { ColumnarSeries } from "../../common/series.ts";
import {
  type Expr,
  type MatrixResult,
  ParseError,
  parseExpr,
  type PlannedSelect,
  planSelects,
  PromQLEngine,
  type Queryable,
  type RecordColumns,
  resultRecords,
  type SelectRequest,
} from "../../promql/mod.ts";
import type { TqlFrame } from "./params.ts";
import type { TqlStatement } from "./statement.ts";

/** What TQL needs of storage: series for the engine and the tables a selector names. */
export interface PromQLBackend {
  /** A queryable over `db` for one query (it counts the query's samples against the limit). */
  queryable(db: string): Queryable;
  /** The tables a selector's matchers pick, and their database (`__database__` may name another). */
  tables(db: string, matchers: LabelMatcher[]): { db: string; tables: SelectedTable[] };
  /** Most samples one query may load. */
  maxSamples: number;
  /**
   * Evaluates a range query somewhere else (a PromQL worker) with the same answer; null when it
   * must be evaluated here. Without it, every query is evaluated on the caller's thread.
   */
  evaluate?(db: string, query: string, frame: TqlFrame, opts: TqlRunOptions): Promise<MatrixResult | null>;
}

/** A table a selector reads: its time index and the value columns the selector reads of it. */
export interface SelectedTable {
  name: string;
  timeIndex: string;
  fields: string[];
}

/** One storage read of a run, as measured. */
export interface SelectRecord {
  req: SelectRequest;
  series: number;
  samples: number;
  ns: number;
}

/** A selector of the query with the tables it resolves to. */
export interface ResolvedSelect {
  planned: PlannedSelect;
  db: string;
  tables: SelectedTable[];
}

/** A statement ready to run: the parsed query, its frame, its reads and its output columns. */
export interface PreparedTql {
  stmt: TqlStatement;
  frame: TqlFrame;
  expr: Expr;
  selects: ResolvedSelect[];
  columns: RecordColumns;
  /** Parsing and resolving, ns. */
  planNs: number;
}

/** A finished run. */
export interface TqlRun {
  output: QueryOutput;
  reads: SelectRecord[];
  /** Evaluation alone, and everything from the start of planning, ns. */
  evalNs: number;
  elapsedNs: number;
}

/** Parses the PromQL (a parse error is the statement's syntax error) and resolves its selectors. */
export function prepareTql(
  backend: PromQLBackend,
  db: string,
  stmt: TqlStatement,
  frame: TqlFrame,
  started: number,
): PreparedTql {
  let expr: Expr;
  try {
    expr = parseExpr(stmt.query);
  } catch (e) {
    throw e instanceof ParseError ? invalidSyntax(e.message) : e;
  }
  const lookbackMs = frame.lookbackMs ?? 300_000;
  const selects = planSelects(expr, { ...frame, lookbackMs }).map((planned): ResolvedSelect => {
    const { matchers } = planned.selector;
    const resolved = backend.tables(db, matchers);
    const named = matchers.find((m) => m.name === "__name__" && m.type === "EQ");
    // GreptimeDB plans a selector against its table, so naming a table that is not there fails
    if (named && resolved.tables.length === 0) throw tableNotFound(`greptime.${resolved.db}.${named.value}`);
    return { planned, ...resolved };
  });
  const columns = outputColumns(selects, stmt.alias);
  return { stmt, frame, expr, selects, columns, planNs: Math.round((performance.now() - started) * 1e6) };
}

/**
 * The time index of the first table read and the field read of it; `time`/`value` without one, and
 * `value` when the selector reads several fields (GreptimeDB answers a column per field).
 */
function outputColumns(selects: ResolvedSelect[], alias: string | null): RecordColumns {
  const table = selects.find((s) => s.tables.length > 0)?.tables[0];
  if (!table) return { time: "time", value: alias ?? "value" };
  return { time: table.timeIndex, value: alias ?? (table.fields.length === 1 ? table.fields[0] : "value") };
}

/** Counts what every storage read returns. */
class RecordingQueryable implements Queryable {
  readonly reads: SelectRecord[] = [];
  constructor(private readonly inner: Queryable) {}

  async select(req: SelectRequest, signal?: AbortSignal): Promise<ColumnarSeries[]> {
    const t = performance.now();
    // recorded in call order (the plan's order), whatever order the reads finish in
    const read: SelectRecord = { req, series: 0, samples: 0, ns: 0 };
    this.reads.push(read);
    const out = await this.inner.select(req, signal);
    read.series = out.length;
    read.samples = out.reduce((n, s) => n + s.timestamps.length, 0);
    read.ns = Math.round((performance.now() - t) * 1e6);
    return out;
  }
}

/** Options of {@link runTql}. */
export interface TqlRunOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Evaluates a prepared statement as a range query over its frame. */
export async function runTql(
  backend: PromQLBackend,
  db: string,
  p: PreparedTql,
  started: number,
  opts: TqlRunOptions = {},
): Promise<TqlRun> {
  const queryable = new RecordingQueryable(backend.queryable(db));
  const engine = new PromQLEngine(queryable, { maxSamples: backend.maxSamples });
  const t = performance.now();
  const { startMs, endMs, stepMs, lookbackMs } = p.frame;
  // TQL ANALYZE shows each read's numbers: only this thread's run records them
  const elsewhere = p.stmt.mode === "analyze" || backend.evaluate === undefined
    ? null
    : await backend.evaluate(db, p.stmt.query, p.frame, opts);
  const result = elsewhere ?? await engine.rangeQuery(p.expr, startMs, endMs, stepMs, {
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(lookbackMs !== null ? { lookbackDeltaMs: lookbackMs } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  const output = resultRecords(result, p.columns);
  const now = performance.now();
  return {
    output,
    reads: queryable.reads,
    evalNs: Math.round((now - t) * 1e6),
    elapsedNs: Math.round((now - started) * 1e6),
  };
}
