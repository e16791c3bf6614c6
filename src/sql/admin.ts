/**
 * `ADMIN <function>(<args>)`: GreptimeDB's administration functions that mean something on one
 * host. `flush_flow` computes a flow's due windows now; `flush_table` makes what the table's database
 * holds durable in its file (pending group commits committed, the WAL checkpointed), as GreptimeDB
 * flushes memtables to SST files; `compact_table` compacts a metric table's closed windows now.
 * `flush_region`/`compact_region` take the region id information_schema shows (`region_peers`,
 * `region_statistics`) and do the same to the table in that region. The answer is one UInt64 named after
 * the statement, as GreptimeDB's.
 */
import { invalidArguments, PetrelError, StatusCode, tableNotFound, unsupported } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import { flushGroupCommit } from "../storage/group_commit.ts";
import { compactNow } from "../storage/metric_compaction.ts";
import { isLogicalTable, isPhysicalTable, type Storage } from "../storage/mod.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import type { TableMeta } from "../storage/table.ts";
import { quoteIdent } from "../storage/table.ts";
import { Cursor } from "./cursor.ts";
import { regionId } from "./info_regions.ts";
import { userTables } from "./info_table.ts";
import type { Session } from "./ddl.ts";
import type { FlowCatalog } from "./flow.ts";
import { isKeyword, type Token } from "./lexer.ts";

/** Whether a statement is `ADMIN …`. */
export function isAdminStatement(tokens: Token[]): boolean {
  return isKeyword(tokens[0], "ADMIN");
}

const FUNCTIONS = ["flush_flow", "flush_table", "compact_table", "flush_region", "compact_region"];
const REGION_FUNCTIONS = ["flush_region", "compact_region"];

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
    // a standalone GreptimeDB has no metasrv to move regions with
    if (fn === "migrate_region") throw unsupported("Unsupported operation migrate_region");
    throw unsupported(`Unsupported ADMIN function: ${fn} (Petrel has ${FUNCTIONS.join(", ")})`);
  }
  const region = REGION_FUNCTIONS.includes(fn);
  cur.expectOp("(");
  const args: string[] = [];
  if (!cur.acceptOp(")")) {
    do {
      const arg = cur.next();
      const want = region ? "region id" : "string";
      const fits = region ? arg.kind === "number" && /^\d+$/.test(arg.text) : arg.kind === "string";
      if (!fits) throw cur.error(`Expected: a ${want} argument of ${fn}, found: ${arg.text}`);
      args.push(region ? arg.text : arg.value);
    } while (cur.acceptOp(","));
    cur.expectOp(")");
  }
  cur.expectEnd();
  const most = fn === "compact_table" ? 3 : 1;
  if (args.length < 1 || args.length > most) {
    const what = region
      ? "one region id"
      : most === 1
      ? "one string argument"
      : "one to three string arguments";
    throw cur.error(`${fn} takes ${what}`);
  }
  if (fn === "compact_table") checkCompactOptions(args[1] ?? "regular", args[2] ?? "");
  const last = tokens[tokens.length - 1];
  const name = sql.slice(tokens[0].pos, last.pos + last.text.length);
  let value = 0;
  if (fn === "flush_flow") value = await need().flush(args[0]);
  else {
    const [handle, table] = region
      ? resolveRegion(storage, args[0])
      : resolveTable(storage, args[0], session.db);
    if (fn.startsWith("flush_")) flushTable(handle, table);
    else compactTable(handle, table);
  }
  return { kind: "records", columns: [{ name, data_type: "UInt64" }], rows: [[value]] };
}

/**
 * `compact_table`'s options as GreptimeDB reads them (Petrel compacts the same way whatever they say,
 * but a typo must not pass silently): strict window (`swcs`) takes a window in seconds or
 * `window=N,parallelism=N`; any other type `parallelism=N`.
 */
function checkCompactOptions(type: string, options: string): void {
  const strict = ["strict_window", "swcs"].includes(type.toLowerCase());
  const bad = (why: string) => invalidArguments(`Invalid function args: ${why}`);
  if (strict && /^[+-]?\d+$/.test(options.trim())) return;
  for (const raw of options.split(",")) {
    const opt = raw.trim();
    if (opt === "") continue;
    const eq = opt.indexOf("=");
    if (eq < 0) throw bad(`Invalid option format: ${opt}. Expected format: key=value`);
    const [key, value] = [opt.slice(0, eq).trim(), opt.slice(eq + 1).trim()];
    if (key === "parallelism") {
      if (!/^\d+$/.test(value) || Number(value) > 0xffffffff) {
        throw bad(`Invalid value for parallelism: ${value}`);
      }
    } else if (strict && (key === "window" || key === "window_seconds")) {
      if (!/^[+-]?\d+$/.test(value)) throw bad(`Invalid value for window: ${value}`);
    } else throw bad(`Unknown option: ${key}`);
  }
}

/** A table named `t`, `db.t` or `catalog.db.t`. */
function resolveTable(storage: Storage, name: string, db: string): [DatabaseHandle, TableMeta] {
  const parts = name.split(".");
  const [schema, table] = parts.length === 1 ? [db, parts[0]] : parts.slice(-2);
  const t = storage.hasDatabase(schema) ? storage.getTable(schema, table) : undefined;
  if (t === undefined) throw tableNotFound(`greptime.${schema}.${table}`);
  return [storage.database(schema), t];
}

/** The table whose one region has id `id` (a metric's logical tables share their physical table's). */
function resolveRegion(storage: Storage, id: string): [DatabaseHandle, TableMeta] {
  const t = userTables(storage).find((t) => !isLogicalTable(t) && String(regionId(t)) === id);
  if (t !== undefined) return [storage.database(t.db), t];
  // GreptimeDB's RegionId display: `<u64>(<table id>, <region number>)`
  const n = BigInt(id);
  const where = `${n}(${n >> 32n}, ${n & 0xffffffffn})`;
  throw new PetrelError(StatusCode.RegionNotFound, `Region ${where} not found`);
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
