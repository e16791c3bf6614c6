/**
 * What a `CREATE FLOW` compiles to: the parsed statement (`FlowSpec`, from `src/sql/flow_parse.ts`)
 * and the sink layout a downsampling rule writes for it (`FlowSink`). Types only: the SQL layer and
 * the downsampler share them without importing each other at run time.
 */
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
  /** The window length (ms). */
  interval: number;
  groupTags: string[];
  /** The source column the window key bins (checked to be its time index). */
  timeIndex: string;
  timeColumn: string;
  columns: FlowColumn[];
  /** The WHERE, or absent (every row of the source). */
  where?: FlowPredicate;
  /** `EXPIRE AFTER` (ms), or null. */
  expireAfter: number | null;
  comment: string;
  /** The `AS` query's text, as written. */
  query: string;
}
