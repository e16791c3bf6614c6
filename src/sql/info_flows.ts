/** `information_schema.flows`: GreptimeDB's columns, filled from the stored flows. */
import type { DataType, Value } from "../common/rows.ts";
import { listFlows } from "../downsample/flow_store.ts";
import type { Storage } from "../storage/mod.ts";

/** The columns, in GreptimeDB's order. */
export const FLOW_COLUMNS = [
  "flow_name",
  "flow_id",
  "state_size",
  "table_catalog",
  "flow_definition",
  "comment",
  "expire_after",
  "source_table_ids",
  "sink_table_name",
  "flownode_ids",
  "options",
  "created_time",
  "updated_time",
  "last_execution_time",
  "source_table_names",
];

/** The non-String columns' types. */
export const FLOW_TYPES: Record<string, DataType> = {
  flow_id: "UInt32",
  state_size: "UInt64",
  expire_after: "Int64",
  created_time: "TimestampMillisecond",
  updated_time: "TimestampMillisecond",
  last_execution_time: "TimestampMillisecond",
};

/**
 * One row per flow. Petrel keeps no streaming state (`state_size` null) and has no flownodes; the
 * source ids are those of `information_schema.tables`; `options` shows the rule the flow runs as.
 */
export function flowRows(storage: Storage): Value[][] {
  return listFlows(storage).map((f) => {
    const { spec, rule } = f;
    // a TQL flow reads the metrics its PromQL selects, resolved at each run
    const source = spec.tql ? undefined : storage.getTable(spec.sourceDatabase, spec.source);
    return [
      spec.name,
      f.id,
      null,
      "greptime",
      spec.query,
      spec.comment,
      spec.expireAfter === null ? null : Math.floor(spec.expireAfter / 1000),
      JSON.stringify(source === undefined ? [] : [source.id + 1023]),
      `greptime.${spec.sinkDatabase}.${spec.sink}`,
      null,
      JSON.stringify({ interval: `${rule.interval / 1000}s`, delay: `${rule.delay / 1000}s` }),
      f.createdMs,
      f.createdMs,
      null,
      JSON.stringify(spec.tql ? [] : [`greptime.${spec.sourceDatabase}.${spec.source}`]),
    ];
  });
}
