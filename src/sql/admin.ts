/**
 * `ADMIN <function>(<args>)`: GreptimeDB's administration functions that mean something on one
 * host. `flush_flow` computes a flow's due windows now; `flush_table` makes what the table's database
 * holds durable in its file (pending group commits committed, the WAL checkpointed), as GreptimeDB
 * flushes memtables to SST files; `compact_table` compacts a metric table's closed windows now. The
 * answer is one UInt64 named after the statement, as GreptimeDB's.
 */
import { tableNotFound, unsupported } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import { flushGroupCommit } from "../storage/group_commit.ts";
import { compactNow } from "../storage/metric_compaction.ts";
import { isLogicalTable, isPhysicalTable, type Storage } from "../storage/mod.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import type { TableMeta } from "../storage/table.ts";
import { quoteIdent } from "../storage/table.ts";
import { Cursor } from "./cursor.ts";
import type { Session } from "./ddl.ts";
import type { FlowCatalog } from "./flow.ts";
import { isKeyword, type Token } from "./lexer.ts";

/** Whether a statement is `ADMIN …`. */
export function isAdminStatement(tokens: Token[]): boolean {
  return isKeyword(tokens[0], "ADMIN");
}

const FUNCTIONS = ["flush_flow", "flush_table", "compact_table"];

/** Runs an `ADMIN` statement; `need` hands out the server's flows (for `flush_flow`). */
export async function executeAdmin(
  storage: Storage,
  tokens: Token[],
  sql: string,
  session: Session,
  need: () => FlowCatalog,
): Promise<QueryOutput> {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("ADMIN");
  const fn = cur.ident("an admin function").toLowerCase();
  if (!FUNCTIONS.includes(fn)) {
    const why = /_region$/.test(fn)
      ? "Petrel has no regions; use the table function"
      : `Petrel has ${FUNCTIONS}`;
    throw unsupported(`Unsupported ADMIN function: ${fn} (${why})`);
  }
  cur.expectOp("(");
  const args: string[] = [];
  if (!cur.acceptOp(")")) {
    do {
      const arg = cur.next();
      if (arg.kind !== "string") throw cur.error(`Expected: a string argument of ${fn}, found: ${arg.text}`);
      args.push(arg.value);
    } while (cur.acceptOp(","));
    cur.expectOp(")");
  }
  cur.expectEnd();
  const most = fn === "compact_table" ? 3 : 1;
  if (args.length < 1 || args.length > most) {
    throw cur.error(`${fn} takes ${most === 1 ? "one string argument" : "one to three string arguments"}`);
  }
  const last = tokens[tokens.length - 1];
  const name = sql.slice(tokens[0].pos, last.pos + last.text.length);
  let value = 0;
  if (fn === "flush_flow") value = await need().flush(args[0]);
  else {
    const [handle, table] = resolveTable(storage, args[0], session.db);
    if (fn === "flush_table") flushTable(handle, table);
    else compactTable(handle, table);
  }
  return { kind: "records", columns: [{ name, data_type: "UInt64" }], rows: [[value]] };
}

/** A table named `t`, `db.t` or `catalog.db.t`. */
function resolveTable(storage: Storage, name: string, db: string): [DatabaseHandle, TableMeta] {
  const parts = name.split(".");
  const [schema, table] = parts.length === 1 ? [db, parts[0]] : parts.slice(-2);
  const t = storage.hasDatabase(schema) ? storage.getTable(schema, table) : undefined;
  if (t === undefined) throw tableNotFound(`greptime.${schema}.${table}`);
  return [storage.database(schema), t];
}

function flushTable(handle: DatabaseHandle, t: TableMeta): void {
  flushGroupCommit(handle);
  if (handle.conn.isTransaction) return;
  handle.conn.exec(`PRAGMA ${quoteIdent(t.schema)}.wal_checkpoint(PASSIVE)`);
}

function compactTable(handle: DatabaseHandle, t: TableMeta): void {
  const physical = isPhysicalTable(t)
    ? t
    : isLogicalTable(t)
    ? handle.getTable(t.options.on_physical_table!)
    : undefined;
  if (physical !== undefined) compactNow(handle, physical);
}
