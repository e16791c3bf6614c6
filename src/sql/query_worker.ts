/**
 * The worker that runs read-only queries off the event loop, on its own read-only connections to
 * the database files (WAL lets it read while the main thread writes). The main thread rewrites the
 * query against the catalog; this side only executes the SQLite SQL it is given.
 */
/// <reference lib="deno.worker" />
import { DatabaseSync } from "node:sqlite";
import { errorToData, PetrelError } from "../common/errors.ts";
import type { DataType, ResultType } from "../common/rows.ts";
import { loadFunctionsFor, registerSqlFunctions, setCancelFlag } from "./functions/registry.ts";
import { mapSqliteError, type QueryStats, runQuery } from "./results.ts";

/** A query for the worker. */
export interface QueryRequest {
  id: number;
  db: string;
  /** The opening of the database (see DatabaseHandle.instance). */
  instance: number;
  main: string;
  nowal: string;
  sql: string;
  hints: Array<ResultType | undefined>;
  nameTypes: Array<[string, DataType]>;
  /** EXPLAIN ANALYZE: answer what the run measured too (`stats`). */
  analyze?: boolean;
  /** Set to 1 by the caller when the query is cancelled (read by `__petrel_alive()`). */
  cancel?: SharedArrayBuffer;
}

const connections = new Map<string, { instance: number; conn: DatabaseSync }>();

function connection(req: QueryRequest): DatabaseSync {
  const cached = connections.get(req.main);
  // a database dropped and created again has new files under the same name
  if (cached && cached.instance === req.instance) return cached.conn;
  cached?.conn.close();
  const conn = new DatabaseSync(req.main, { readOnly: true });
  conn.exec("PRAGMA busy_timeout=5000");
  conn.prepare("ATTACH DATABASE ? AS nowal").run(req.nowal);
  connections.set(req.main, { instance: req.instance, conn });
  return conn;
}

self.onmessage = async (e: MessageEvent<QueryRequest>) => {
  const req = e.data;
  try {
    // one request at a time per thread (the pool's perThread is 1), so awaiting here interleaves none
    await loadFunctionsFor(req.sql);
    const conn = connection(req);
    registerSqlFunctions(conn);
    const stats: QueryStats | undefined = req.analyze
      ? { prepareNs: 0, executeNs: 0, convertNs: 0, rows: 0 }
      : undefined;
    setCancelFlag(req.cancel === undefined ? undefined : new Int32Array(req.cancel));
    const started = performance.now();
    const out = runQuery(conn, req.sql, req.hints, new Map(req.nameTypes), stats);
    self.postMessage({ id: req.id, output: out, stats, ms: performance.now() - started });
  } catch (err) {
    const p = err instanceof PetrelError ? err : mapSqliteError(err, req.db);
    self.postMessage({ id: req.id, error: errorToData(p) });
  }
};
