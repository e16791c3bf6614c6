/**
 * `information_schema.process_list`: the SQL requests running now. `executeSqlAsync` registers each
 * request for as long as it runs (a map entry: cheap), so a query of the table sees itself too.
 * `KILL '<id>'` cancels one of them, as GreptimeDB's process manager does.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { DataType, QueryOutput, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { Cursor } from "./cursor.ts";
import { type InfoTable, strings } from "./info_table.ts";
import { serverFacts } from "./info_server.ts";
import { isKeyword, type Token } from "./lexer.ts";

interface Running {
  id: number;
  db: string;
  query: string;
  startedAt: number;
  cancel: AbortController;
}

const running = new WeakMap<Storage, Map<number, Running>>();
let nextId = 1;

/** A running SQL request: `signal` aborts when it is killed; call `done` when it ends. */
export interface TrackedQuery {
  signal: AbortSignal;
  done: () => void;
}

/** Registers a running SQL request. */
export function trackQuery(storage: Storage, db: string, query: string): TrackedQuery {
  let map = running.get(storage);
  if (map === undefined) running.set(storage, map = new Map());
  const id = nextId++;
  const cancel = new AbortController();
  map.set(id, { id, db, query, startedAt: Date.now(), cancel });
  return { signal: cancel.signal, done: () => map.delete(id) };
}

/** Whether a statement is `KILL …`. */
export function isKillStatement(tokens: Token[]): boolean {
  return isKeyword(tokens[0], "KILL");
}

/**
 * `KILL '<frontend>/<n>'` (an id of `process_list`): cancels that request, which then fails with
 * 1005 Cancelled. One affected row when it was running, none when not (as GreptimeDB answers).
 */
export function executeKill(storage: Storage, tokens: Token[], sql: string): QueryOutput {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("KILL");
  const arg = cur.peek();
  if (arg?.kind !== "string") {
    throw cur.error(
      `Expected: a process id string such as '<frontend>/<n>' from SHOW PROCESSLIST, found: ${cur.describe()}`,
    );
  }
  cur.next();
  cur.expectEnd();
  const slash = arg.value.lastIndexOf("/");
  const n = arg.value.slice(slash + 1);
  if (slash <= 0 || !/^\d+$/.test(n)) {
    throw invalidArguments(`Invalid process id: ${arg.value}`);
  }
  const own = arg.value.slice(0, slash) === (serverFacts(storage)?.addr ?? "");
  const target = own ? running.get(storage)?.get(Number(n)) : undefined;
  if (target !== undefined) {
    running.get(storage)!.delete(target.id);
    target.cancel.abort(new PetrelError(StatusCode.Cancelled, "Query was cancelled"));
  }
  return { kind: "affected", rows: target === undefined ? 0 : 1 };
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
