/**
 * The flows created by `CREATE FLOW`, kept in `greptime_private.flows` (as pipelines and dashboards
 * keep theirs): one row per flow with its parsed statement and the rule it compiled to, so a
 * restart runs the same rule without parsing or checking the source again. A flow's row has a fixed
 * time index, so writing it again replaces it.
 */
import type { ColumnSchema } from "../common/rows.ts";
import type { DownsampleRule } from "../config/downsample.ts";
import { qualifiedName, type Storage } from "../storage/mod.ts";
import type { FlowSpec } from "./flow_spec.ts";

const DB = "greptime_private";
const TABLE = "flows";
const COLUMNS: ColumnSchema[] = [
  { name: "flow_name", type: "String", semantic: "TAG" },
  { name: "flow_id", type: "Int64", semantic: "FIELD" },
  { name: "spec", type: "String", semantic: "FIELD" },
  { name: "rule", type: "String", semantic: "FIELD" },
  { name: "created_time", type: "TimestampMillisecond", semantic: "FIELD" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
];

/** One stored flow. */
export interface StoredFlow {
  id: number;
  spec: FlowSpec;
  rule: DownsampleRule;
  /** When it was created (ms). */
  createdMs: number;
}

/** Every stored flow, by name. */
export function listFlows(storage: Storage): StoredFlow[] {
  const t = storage.getTable(DB, TABLE);
  if (t === undefined) return [];
  const rows = storage.database(DB).conn.prepare(
    `SELECT flow_id, spec, rule, created_time FROM ${qualifiedName(t)} ORDER BY flow_name`,
  ).all() as Array<{ flow_id: number; spec: string; rule: string; created_time: number }>;
  return rows.map((r) => ({
    id: Number(r.flow_id),
    spec: JSON.parse(r.spec) as FlowSpec,
    rule: JSON.parse(r.rule) as DownsampleRule,
    createdMs: Number(r.created_time),
  }));
}

/** The next flow id: one past the highest stored (GreptimeDB numbers its flows from 1024). */
export function nextFlowId(storage: Storage): number {
  const t = storage.getTable(DB, TABLE);
  if (t === undefined) return 1024;
  const row = storage.database(DB).conn.prepare(`SELECT max(flow_id) AS id FROM ${qualifiedName(t)}`).get() as
    | { id: number | null }
    | undefined;
  return row?.id === null || row?.id === undefined ? 1024 : Number(row.id) + 1;
}

/** Saves a flow; durable when it returns. */
export function saveFlow(storage: Storage, flow: StoredFlow): void {
  storage.write(DB, [{
    table: TABLE,
    columns: COLUMNS,
    rows: [[
      flow.spec.name,
      flow.id,
      JSON.stringify(flow.spec),
      JSON.stringify(flow.rule),
      flow.createdMs,
      0,
    ]],
    createType: "physical",
    options: { ttl: "forever" },
  }]);
}

/** Deletes a flow's row. */
export function deleteFlow(storage: Storage, name: string): void {
  const t = storage.getTable(DB, TABLE);
  if (t === undefined) return;
  const handle = storage.database(DB);
  handle.transaction(() => {
    handle.conn.prepare(`DELETE FROM ${qualifiedName(t)} WHERE flow_name = ?`).run(name);
  });
}
