/**
 * TQL flows (`CREATE FLOW … EVAL INTERVAL '1m' AS TQL EVAL (now() - '1m'::interval, now(), '5s')
 * <promql>`, GreptimeDB ≥ 0.15): every `EVAL INTERVAL` (or at `ADMIN FLUSH_FLOW`) the statement is
 * evaluated as `/v1/sql`'s `TQL EVAL` evaluates it (`sql/tql/flow_eval.ts`, handed in by the server
 * as a {@link TqlFlowRunner}) and its rows are written into the sink, whose columns are TQL EVAL's:
 * the time index, the value, then the labels as the primary key. Rows of the same labels and time
 * replace each other, so overlapping runs write a point once. `CREATE FLOW` runs the statement
 * once: a bad query is refused there, and the sink is made from its columns (labels that appear
 * later are added to the sink as they are written, as ingestion adds tags).
 */
import { invalidArguments, PetrelError, unsupported } from "../common/errors.ts";
import type { ColumnSchema, QueryOutput, WriteBatch } from "../common/rows.ts";
import type { DownsampleRule } from "../config/downsample.ts";
import type { Storage } from "../storage/mod.ts";
import type { TableMeta } from "../storage/table.ts";
import type { FlowSink, FlowSpec, FlowTql } from "./flow_spec.ts";
import { readWatermark, writeWatermark } from "./watermark.ts";

/** Evaluates `TQL EVAL …` text in a database: TQL EVAL's records. */
export type TqlFlowRunner = (db: string, statement: string) => Promise<QueryOutput>;

/** How often a TQL flow without `EVAL INTERVAL` runs (the other flows' `delay`). */
const DEFAULT_EVAL_MS = 60_000;

/** Whether a rule is a TQL flow. */
export function isTqlFlow(rule: DownsampleRule): boolean {
  return rule.sink?.tql !== undefined;
}

async function evaluate(run: TqlFlowRunner | undefined, db: string, statement: string, where: string) {
  if (run === undefined) throw unsupported("TQL flows are not available here: they need the PromQL engine");
  let out;
  try {
    out = await run(db, statement);
  } catch (e) {
    // the statement's own error (a PromQL syntax error, an unknown metric), said to be the flow's
    if (e instanceof PetrelError) throw new PetrelError(e.code, `${where}: invalid TQL: ${e.message}`);
    throw e;
  }
  if (out.kind !== "records") throw invalidArguments(`${where}: the TQL query returns no rows`);
  return out;
}

/** TQL EVAL's columns as sink columns: the first its time index, the second its value, the rest tags. */
function sinkColumns(out: QueryOutput & { kind: "records" }): ColumnSchema[] {
  const [time, value, ...labels] = out.columns;
  return [
    { name: time.name, type: "TimestampMillisecond", semantic: "TIMESTAMP" },
    { name: value.name, type: value.data_type === "String" ? "String" : "Float64", semantic: "FIELD" },
    ...labels.map((c): ColumnSchema => ({ name: c.name, type: "String", semantic: "TAG" })),
  ];
}

/**
 * Checks a TQL flow by running its statement once, and compiles the rule that runs it every
 * `EVAL INTERVAL`; a sink made before it must have TQL EVAL's time index and value column.
 */
export async function compileTqlFlow(
  storage: Storage,
  spec: FlowSpec,
  flowId: number,
  run: TqlFlowRunner | undefined,
): Promise<{ spec: FlowSpec; rule: DownsampleRule }> {
  const columns = sinkColumns(await evaluate(run, spec.database, spec.query, "CREATE FLOW"));
  const existing = storage.hasDatabase(spec.sinkDatabase)
    ? storage.getTable(spec.sinkDatabase, spec.sink)
    : undefined;
  if (existing !== undefined) checkTqlSink(existing, columns);
  const tql: FlowTql = { database: spec.database, statement: spec.query, columns };
  const sink: FlowSink = {
    flow: spec.name,
    flowId,
    groupTags: [],
    timeColumn: columns[0].name,
    columns: [],
    tql,
  };
  const every = spec.evalInterval ?? DEFAULT_EVAL_MS;
  const rule: DownsampleRule = {
    source: "",
    database: spec.database,
    interval: every,
    aggregates: [],
    target: spec.sink,
    target_database: spec.sinkDatabase,
    ttl: "",
    delay: every,
    max_lateness: 0,
    sink,
  };
  return { spec: { ...spec, timeColumn: columns[0].name }, rule };
}

/** A sink made beforehand holds TQL EVAL's rows: its time index and value column are TQL EVAL's. */
function checkTqlSink(sink: TableMeta, columns: ColumnSchema[]): void {
  const fail = (what: string) => invalidArguments(`CREATE FLOW: sink table ${sink.name} ${what}`);
  const [time, value] = columns;
  if (sink.timeIndex.toLowerCase() !== time.name.toLowerCase()) {
    throw fail(`has time index ${sink.timeIndex}, but TQL EVAL names its time index ${time.name}`);
  }
  const have = sink.columns.find((c) => c.name.toLowerCase() === value.name.toLowerCase());
  if (have === undefined) throw fail(`has no column ${value.name} (TQL EVAL's value column)`);
  if (have.type !== "String" && !/^(U?Int|Float|Decimal)/.test(have.type)) {
    throw fail(`has column ${have.name} of type ${have.type}, which cannot hold TQL EVAL's values`);
  }
  for (const label of columns.slice(2)) {
    const c = sink.columns.find((c) => c.name.toLowerCase() === label.name.toLowerCase());
    if (c !== undefined && c.type !== "String") {
      throw fail(`has column ${c.name} of type ${c.type}, which cannot hold the label ${label.name}`);
    }
  }
}

/**
 * Runs a TQL flow when its last run is `EVAL INTERVAL` old (or never ran, or its sink was dropped);
 * `now` (a flush) runs it regardless. Returns the rows written.
 */
export async function runTqlFlow(
  storage: Storage,
  rule: DownsampleRule,
  key: string,
  run: TqlFlowRunner | undefined,
  nowMs: number,
  now: boolean,
): Promise<number> {
  const tql = rule.sink!.tql!;
  if (!storage.hasDatabase(tql.database)) return 0;
  storage.createDatabase(rule.target_database, true);
  const target = storage.database(rule.target_database);
  const last = target.getTable(rule.target) === undefined ? null : readWatermark(target, key);
  if (!now && last !== null && nowMs - last < rule.interval) return 0;
  const out = await evaluate(run, tql.database, tql.statement, `Flow ${rule.sink!.flow}`);
  const batch: WriteBatch = { table: rule.target, columns: sinkColumns(out), rows: out.rows };
  target.transaction(() => {
    if (batch.rows.length > 0) storage.write(rule.target_database, [batch]);
    writeWatermark(target, key, nowMs);
  });
  return batch.rows.length;
}
