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
  /** `EXPIRE AFTER` (ms), or null. */
  expireAfter: number | null;
  comment: string;
  /** The `AS` query's text, as written. */
  query: string;
}
