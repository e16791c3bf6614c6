/**
 * `information_schema.process_list`: the SQL requests running now. `executeSqlAsync` registers each
 * request for as long as it runs (a map entry: cheap), so a query of the table sees itself too.
 */
import type { DataType, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { type InfoTable, strings } from "./info_table.ts";
import { serverFacts } from "./info_server.ts";

interface Running {
  id: number;
  db: string;
  query: string;
  startedAt: number;
}

const running = new WeakMap<Storage, Map<number, Running>>();
let nextId = 1;

/** Registers a running SQL request; call the returned function when it ends. */
export function trackQuery(storage: Storage, db: string, query: string): () => void {
  let map = running.get(storage);
  if (map === undefined) running.set(storage, map = new Map());
  const id = nextId++;
  map.set(id, { id, db, query, startedAt: Date.now() });
  return () => map.delete(id);
}

const processList: InfoTable = {
  columns: [
    ...strings("id", "catalog", "schemas", "query", "client", "frontend"),
    ["start_timestamp", "TimestampMillisecond"],
    // GreptimeDB: DurationMillisecond, which Petrel has no type for: the same milliseconds as Int64
    ["elapsed_time", "Int64"],
  ] as Array<[string, DataType]>,
  rows: (storage) => {
    const frontend = serverFacts(storage)?.addr ?? "";
    const now = Date.now();
    return [...(running.get(storage)?.values() ?? [])].map((r): Value[] => [
      `${frontend}/${r.id}`,
      "greptime",
      r.db,
      r.query,
      "http",
      frontend,
      r.startedAt,
      now - r.startedAt,
    ]);
  },
};

/** The process table, by name. */
export const PROCESS_INFO_TABLES: Record<string, InfoTable> = { process_list: processList };
