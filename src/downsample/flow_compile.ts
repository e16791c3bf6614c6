/**
 * A parsed flow checked against its source and turned into the downsampling rule that computes it:
 * the rule's windows are the flow's `date_bin`/`date_trunc` windows, grouped by the flow's tags, and
 * its sink mapping names the columns by the SELECT's aliases, and it reads the rows its WHERE keeps.
 * A flow those aggregates cannot compute runs its own SELECT per window instead (`flow_query.ts`),
 * or whole when it has no window key (`whole.ts`).
 */
import { invalidArguments, tableNotFound, unsupported } from "../common/errors.ts";
import { type Aggregate, DEFAULT_MAX_LATENESS, type DownsampleRule } from "../config/downsample.ts";
import { parseDuration } from "../common/humantime.ts";
import { isPhysicalTable, type Storage } from "../storage/mod.ts";
import { sourceShape } from "../storage/window_aggregate.ts";
import { filterSql, mapColumns } from "./flow_filter.ts";
import type { TableMeta } from "../storage/table.ts";
import { compileFlowQuery, isWholeQuery } from "./flow_query.ts";
import { checkSinkFits } from "./flow_sink_fit.ts";
import { flowSinkColumns } from "./target.ts";
import { isTimestampType } from "../storage/datatypes.ts";
import type { ColumnSchema } from "../common/rows.ts";
import { WHOLE_TIME_INDEX } from "../sql/flow_general.ts";
import type { FlowSink, FlowSpec } from "./flow_spec.ts";

/** How long after its end a flow's window is computed (the TOML rules' default `delay`). */
export const FLOW_DELAY_MS = 60_000;

/** Checks a flow against its source (column names resolved to the source's) and compiles its rule. */
export function compileFlow(
  storage: Storage,
  spec: FlowSpec,
  flowId: number,
): { spec: FlowSpec; rule: DownsampleRule } {
  const t = storage.hasDatabase(spec.sourceDatabase)
    ? storage.getTable(spec.sourceDatabase, spec.source)
    : undefined;
  if (t === undefined) throw tableNotFound(`greptime.${spec.sourceDatabase}.${spec.source}`);
  if (isPhysicalTable(t)) {
    throw unsupported(
      `Unsupported in CREATE FLOW: ${t.name} is a metric engine's physical table (name a metric)`,
    );
  }
  const shape = sourceShape(t);
  if (spec.sinkDatabase === spec.sourceDatabase && spec.sink.toLowerCase() === t.name.toLowerCase()) {
    throw invalidArguments("CREATE FLOW: the sink table must differ from the source table");
  }
  const resolve = (name: string, among: string[], what: string): string => {
    const found = among.find((c) => c === name) ?? among.find((c) => c.toLowerCase() === name.toLowerCase());
    if (found !== undefined) return found;
    const kind = t.columns.some((c) => c.name.toLowerCase() === name.toLowerCase())
      ? `is not ${what}`
      : "does not exist";
    throw invalidArguments(`CREATE FLOW: column ${name} of ${t.name} ${kind}`);
  };
  if (spec.general !== undefined && !fitsAggregates(t, spec)) return compileGeneral(storage, spec, t, flowId);
  resolve(spec.timeIndex, [shape.timeIndex], "the time index");
  const groupTags = spec.groupTags.map((n) => resolve(n, shape.tags, "a tag (GROUP BY takes tags)"));
  const columns = spec.columns.map((c) => ({
    ...c,
    field: resolve(c.field, shape.fields, "a numeric field"),
  }));
  const allColumns = t.columns.map((c) => c.name);
  const where = spec.where === undefined
    ? undefined
    : mapColumns(spec.where, (n) => resolve(n, allColumns, "a column"));
  // the SQL is made at each read (it follows the source's layout); made once now, it checks the literals
  if (where !== undefined) filterSql(t, where);
  const resolved: FlowSpec = { ...spec, groupTags, columns, where, source: t.name };
  const aggregates = [...new Set(columns.map((c) => c.aggregate))] as Aggregate[];
  const sink = { flow: spec.name, flowId, groupTags, timeColumn: spec.timeColumn, columns, where };
  // the tags are written in the source's types, whatever the sink's columns say
  checkSink(storage, spec, flowSinkColumns(sink), new Set(groupTags), [spec.timeColumn]);
  return { spec: resolved, rule: flowRule(spec, t, aggregates, sink) };
}

/**
 * Whether the per-field aggregates compute the flow: its GROUP BY names tags and its aggregates
 * numeric fields (a name the source lacks stays theirs, for their error naming it).
 */
function fitsAggregates(t: TableMeta, spec: FlowSpec): boolean {
  if (spec.columns.length === 0) return false;
  const shape = sourceShape(t);
  const has = (among: string[], name: string) => among.some((c) => c.toLowerCase() === name.toLowerCase());
  const exists = (name: string) => has(t.columns.map((c) => c.name), name);
  return spec.groupTags.every((n) => has(shape.tags, n) || !exists(n)) &&
    spec.columns.every((c) => has(shape.fields, c.field) || !exists(c.field));
}

/** A flow in its general form: its SELECT typed into the sink's columns (`flow_query.ts`). */
function compileGeneral(
  storage: Storage,
  spec: FlowSpec,
  t: TableMeta,
  flowId: number,
): { spec: FlowSpec; rule: DownsampleRule } {
  const compiled = compileFlowQuery(storage, spec.general!, t);
  const whole = isWholeQuery(compiled.query);
  const { untyped } = compiled;
  // without a window key, `EXPIRE AFTER` leaves out the source rows older than it (by its time index)
  const query = whole && spec.expireAfter !== null
    ? { ...compiled.query, timeIndex: t.timeIndex, expireAfter: spec.expireAfter }
    : compiled.query;
  // without a window key, a sink made beforehand may stamp its rows with `update_at` or an output
  const times = whole
    ? query.columns.filter((c) => isTimestampType(c.type) && c.semantic !== "TAG").map((c) => c.name)
    : [query.columns[query.window!].name];
  const existing = checkSink(storage, spec, query.columns, new Set(untyped), times);
  const timeColumn = whole ? existing?.timeIndex ?? WHOLE_TIME_INDEX : times[0];
  const groupTags = query.keys.map((k) => query.columns[k].name);
  const resolved: FlowSpec = {
    ...spec,
    source: t.name,
    timeColumn,
    groupTags,
    columns: [],
    where: undefined,
  };
  const sink = { flow: spec.name, flowId, groupTags: [], timeColumn, columns: [], query };
  return { spec: resolved, rule: flowRule(spec, t, [], sink) };
}

/** An existing sink must hold what the flow writes (`flow_sink_fit.ts`); returns it, if any. */
function checkSink(
  storage: Storage,
  spec: FlowSpec,
  columns: ColumnSchema[],
  untyped: ReadonlySet<string>,
  timeColumns: string[],
): TableMeta | undefined {
  const sink = storage.hasDatabase(spec.sinkDatabase)
    ? storage.getTable(spec.sinkDatabase, spec.sink)
    : undefined;
  if (sink !== undefined) checkSinkFits(sink, { columns, untyped, timeColumns });
  return sink;
}

function flowRule(spec: FlowSpec, t: TableMeta, aggregates: Aggregate[], sink: FlowSink): DownsampleRule {
  return {
    source: t.name,
    database: spec.sourceDatabase,
    // a flow without a window key runs whole, checked for changes at its EVAL INTERVAL (or the flows' delay)
    interval: spec.interval === 0 ? spec.evalInterval ?? FLOW_DELAY_MS : spec.interval,
    aggregates,
    target: spec.sink,
    target_database: spec.sinkDatabase,
    ttl: "",
    // a windowed flow computes a window once it closed, whatever its EVAL INTERVAL
    delay: spec.interval === 0 ? spec.evalInterval ?? FLOW_DELAY_MS : FLOW_DELAY_MS,
    max_lateness: spec.expireAfter ?? parseDuration(DEFAULT_MAX_LATENESS)!,
    sink,
  };
}
