/**
 * What a `CREATE FLOW` compiles to: the parsed statement (`FlowSpec`, from `src/sql/flow_parse.ts`)
 * and the sink layout a downsampling rule writes for it (`FlowSink`). Types only: the SQL layer and
 * the downsampler share them without importing each other at run time.
 */
import type { ColumnSchema } from "../common/rows.ts";
import type { Aggregate } from "../config/downsample.ts";

/** One aggregate column of a flow's SELECT: `<aggregate>(<field>) AS <name>`. */
export interface FlowColumn {
  /** The sink column (the SELECT alias). */
  name: string;
  /** The source field aggregated. */
  field: string;
  aggregate: Aggregate;
}

/** A literal of a flow's WHERE, as written (a number keeps its text: no precision lost in JSON). */
export type FlowLiteral =
  | { type: "string"; value: string }
  | { type: "number"; text: string }
  | { type: "boolean"; value: boolean };

/** A comparison operator of a flow's WHERE (`<>` is kept as `!=`). */
export type FlowComparison = "=" | "!=" | "<" | "<=" | ">" | ">=";

/**
 * A flow's WHERE over its source's columns, each test a column against literals. Stored as JSON
 * with the flow and turned into SQL at each read (`flow_filter.ts`), so it follows the source's
 * current layout (its time unit, its null-tag stand-in).
 */
export type FlowPredicate =
  | { op: "and" | "or"; args: FlowPredicate[] }
  | { op: "not"; arg: FlowPredicate }
  | { op: "compare"; column: string; cmp: FlowComparison; value: FlowLiteral }
  | { op: "in"; column: string; values: FlowLiteral[]; negated: boolean }
  | { op: "between"; column: string; low: FlowLiteral; high: FlowLiteral; negated: boolean }
  | { op: "null"; column: string; negated: boolean }
  | { op: "like"; column: string; pattern: string; negated: boolean };

/** How a rule compiled from a flow writes its sink table (instead of `<field>_<aggregate>` columns). */
export interface FlowSink {
  /** The flow's name and id: the rule's watermark key. */
  flow: string;
  flowId: number;
  /** The source tags grouped by (the sink's tags, in this order). */
  groupTags: string[];
  /** The sink's time index: the window key's alias. */
  timeColumn: string;
  columns: FlowColumn[];
  /** The rows aggregated (the flow's WHERE, columns resolved to the source's); absent: all. */
  where?: FlowPredicate;
  /** Set when the flow runs its own SELECT per stretch of windows (then `groupTags`, `columns` are empty). */
  query?: FlowQuery;
  /** Set when the flow evaluates a TQL statement every `EVAL INTERVAL` (`flow_tql.ts`). */
  tql?: FlowTql;
}

/** A TQL flow's statement and the sink columns made from its output. */
export interface FlowTql {
  /** The database the statement runs in. */
  database: string;
  /** `TQL EVAL (…) <promql>`, as written. */
  statement: string;
  /** TQL EVAL's output columns at `CREATE FLOW`: its time index, its value, then its labels (tags). */
  columns: ColumnSchema[];
}

/**
 * A flow's SELECT as written, cut where the engine adds the time range it computes: the shapes the
 * per-field aggregates cannot compute (`count(*)`, aggregates of expressions, GROUP BY any column).
 */
export interface FlowQueryText {
  /** The database the statement ran in (the SELECT's names resolve against it). */
  database: string;
  /** `SELECT … FROM <source> [alias]`. */
  head: string;
  /** The source's name or alias, qualifying its time index in the added range. */
  qualifier: string;
  /** The WHERE's condition, or absent. */
  where?: string;
  /** `GROUP BY …` (or a lone HAVING) to the end, HAVING included; "" when there is neither. */
  tail: string;
  /** The source's time index, as the window key names it; absent without a window key. */
  timeIndex?: string;
  /**
   * The SELECT item (0-based) that is the window key; absent for a query without one, computed
   * whole at each run (`whole.ts`).
   */
  window?: number;
  /** The SELECT items grouped by besides the window (the sink's tags). */
  keys: number[];
}

/**
 * A compiled `FlowQueryText`: its sink's columns, the SELECT's outputs in order then `update_at`
 * (and, without a window key, the constant time index `__ts_placeholder`).
 */
export interface FlowQuery extends FlowQueryText {
  columns: ColumnSchema[];
  /** Without a window key: `EXPIRE AFTER` (ms), the source rows older than it at a run left out. */
  expireAfter?: number;
}

/** A parsed `CREATE FLOW` statement. */
export interface FlowSpec {
  name: string;
  /** The database the statement ran in (source and sink resolve against it). */
  database: string;
  sourceDatabase: string;
  source: string;
  sinkDatabase: string;
  sink: string;
  /** The window length (ms); 0 for a flow without a window key. */
  interval: number;
  groupTags: string[];
  /** The source column the window key bins (checked to be its time index); "" without a window. */
  timeIndex: string;
  timeColumn: string;
  columns: FlowColumn[];
  /** The WHERE, or absent (every row of the source). */
  where?: FlowPredicate;
  /** `EXPIRE AFTER` (ms), or null. */
  expireAfter: number | null;
  /** `EVAL INTERVAL` (ms), absent when not written. */
  evalInterval?: number;
  /** Set when the query is `TQL EVAL …` (then `query` is its text; `source` is ""). */
  tql?: boolean;
  comment: string;
  /** The `AS` query's text, as written. */
  query: string;
  /** The SELECT cut for running it per window, when it has that shape (absent: not). */
  general?: FlowQueryText;
}
