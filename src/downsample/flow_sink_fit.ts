/**
 * Whether a sink table made before its flow (as GreptimeDB's docs make theirs) can hold what the
 * flow writes, checked at `CREATE FLOW` so a misfit is a 400 naming the column rather than a run
 * failing later: the flow's keys (GROUP BY or DISTINCT items) are the sink's primary key, no more
 * and no less (else groups would overwrite each other or rows miss a key), its time index is a
 * timestamp the flow writes, and each column it shares with the flow takes the flow's values.
 */
import { invalidArguments } from "../common/errors.ts";
import type { ColumnSchema, DataType } from "../common/rows.ts";
import type { TableMeta } from "../storage/table.ts";

/** What a flow writes into its sink: its columns (keys as TAG) and which to leave untyped. */
export interface FlowOutput {
  columns: ColumnSchema[];
  /** Columns whose type is not known (an output typed for want of rows, a tag of any type). */
  untyped: ReadonlySet<string>;
  /** The time indexes the flow can stamp its rows with (the window key; `update_at`, …). */
  timeColumns: string[];
}

/** Refuses (400, naming the column) a sink `sink` that cannot hold `out`. */
export function checkSinkFits(sink: TableMeta, out: FlowOutput): void {
  const fail = (what: string) => invalidArguments(`CREATE FLOW: sink table ${sink.name} ${what}`);
  const find = (name: string) => sink.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  const mine = (name: string) => out.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!out.timeColumns.some((n) => n.toLowerCase() === sink.timeIndex.toLowerCase())) {
    throw fail(
      `has time index ${sink.timeIndex}, which the flow does not write (use ${out.timeColumns.join(" or ")})`,
    );
  }
  for (const key of out.columns.filter((c) => c.semantic === "TAG")) {
    const have = find(key.name);
    if (have === undefined) throw fail(`has no column ${key.name} (a GROUP BY key of the flow)`);
    if (have.semantic !== "TAG") {
      throw fail(`has column ${have.name} outside its primary key (a GROUP BY key keeps one row per group)`);
    }
  }
  for (const c of sink.columns.filter((c) => c.semantic === "TAG")) {
    if (mine(c.name)?.semantic !== "TAG") {
      throw fail(`has primary key column ${c.name}, which is not a GROUP BY key of the flow`);
    }
  }
  for (const c of out.columns) {
    const have = find(c.name);
    if (have === undefined || out.untyped.has(c.name) || fits(c.type, have.type)) continue;
    throw fail(`has column ${have.name} of type ${have.type}, which cannot hold the flow's ${c.type}`);
  }
}

/** Whether a value of type `from` can be written into a column of type `to`. */
function fits(from: DataType, to: DataType): boolean {
  return to === "String" || kind(from) === kind(to);
}

function kind(t: DataType): string {
  if (/^(U?Int|Float|Decimal)/.test(t)) return "number";
  if (t.startsWith("Timestamp")) return "timestamp";
  return t.replace(/\(.*$/, "");
}
