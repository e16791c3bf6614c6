/**
 * INSERT (through the storage writer, so SQL rows dedup like every protocol's) and DELETE.
 */
import { invalidArguments, PetrelError, StatusCode } from "../common/errors.ts";
import type { Storage } from "../storage/mod.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import { getView } from "../storage/views.ts";
import { isLogicalTable, isPhysicalTable } from "../storage/metric_layout.ts";
import { deleteMetricRows } from "../storage/metric_tables.ts";
import { markDeleted } from "../storage/late_marks.ts";
import { forgetTracesBeforeOldest } from "../storage/trace_map.ts";
import { keyColumns, nullTagColumns, qualifiedName, quoteIdent } from "../storage/table.ts";
import type { ColumnMeta, TableMeta } from "../storage/table.ts";
import type { ColumnSchema, QueryOutput, Value } from "../common/rows.ts";
import { fromSqliteInteger, INTEGER_RANGES, isTimestampType } from "../storage/datatypes.ts";
import { isTextType } from "../storage/nul_text.ts";
import { registerSqlFunctions, takeFunctionError } from "./functions/registry.ts";
import { Cursor } from "./cursor.ts";
import { isKeyword, isOp, tokenize } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { tableName } from "./ddl.ts";
import type { Session } from "./ddl.ts";
import { rewriteQuery } from "./rewrite.ts";
import { mapSqliteError, runQuery } from "./results.ts";
import { parseTimestampIn } from "./time.ts";
import { NS_PER_UNIT, type TimeUnit, unitOf, unitOfType } from "../common/time_unit.ts";
import { decimalSpec, isDecimalType, toScaled } from "../common/decimal.ts";
import { parseFloatText } from "./cast_values.ts";
import { vectorDim, vectorValueFor } from "../common/vector.ts";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The table a write names; a view is refused by name (it has no rows of its own). */
function requireWritable(handle: DatabaseHandle, name: string): TableMeta {
  if (!handle.getTable(name) && getView(handle, name)) {
    throw invalidArguments(
      `Cannot write into view greptime.${handle.name}.${name}: a view has no rows of its own`,
    );
  }
  return handle.requireTable(name);
}

function fail(v: Value, col: ColumnMeta): PetrelError {
  const shown = typeof v === "string" ? `'${v}'` : String(v);
  return invalidArguments(`Failed to insert value ${shown} into column ${col.name} of type ${col.type}`);
}

function toInteger(v: Value, col: ColumnMeta): number | bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw fail(v, col);
    return Math.trunc(v);
  }
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) {
    const b = BigInt(v.trim());
    return b <= MAX_SAFE && b >= -MAX_SAFE ? Number(b) : b;
  }
  throw fail(v, col);
}

/** Converts a SQL literal to the value a column stores. */
export function coerceValue(v: Value, col: ColumnMeta, timezone?: string): Value {
  if (v === null) return null;
  const t = col.type;
  if (isTimestampType(t)) {
    if (typeof v === "string") {
      const parsed = parseTimestampIn(v, unitOf(t), timezone);
      if (parsed !== undefined) return parsed <= MAX_SAFE && parsed >= -MAX_SAFE ? Number(parsed) : parsed;
    }
    return toInteger(v, col);
  }
  if (t === "Date") {
    if (typeof v === "string") {
      const ms = parseTimestampIn(v, "ms", timezone);
      if (ms !== undefined) return Math.floor(Number(ms) / 86_400_000);
    }
    return toInteger(v, col);
  }
  const range = INTEGER_RANGES[t];
  if (range) {
    // SQLite keeps any 64-bit integer: 300 for a UInt8 column is refused here, as DataFusion's cast would
    const n = toInteger(v, col);
    if (n < range[0] || n > range[1]) throw fail(v, col);
    return n;
  }
  if (t === "Float64" || t === "Float32") {
    if (typeof v === "number") return v;
    if (typeof v === "bigint") return Number(v);
    const f = typeof v === "string" ? parseFloatText(v) : undefined;
    if (f !== undefined) return f;
    throw fail(v, col);
  }
  const dec = decimalSpec(t);
  if (dec) {
    if (v instanceof Uint8Array) throw fail(v, col);
    return fromSqliteInteger(toScaled(v, dec));
  }
  if (t === "Boolean") {
    if (typeof v === "boolean") return v;
    if (typeof v === "number" || typeof v === "bigint") return Number(v) !== 0;
    if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
    throw fail(v, col);
  }
  if (t === "Binary") return typeof v === "string" ? new TextEncoder().encode(v) : v;
  const dim = vectorDim(t);
  if (dim !== undefined) {
    if (typeof v === "string" || v instanceof Uint8Array) return vectorValueFor(v, dim, col.name);
    throw fail(v, col);
  }
  if (t === "Json" && typeof v === "string") {
    try {
      JSON.parse(v);
    } catch {
      throw invalidArguments(`Invalid JSON value for column ${col.name}: ${v}`);
    }
    return v;
  }
  if (typeof v === "boolean") return String(v);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  return String(v);
}

/** A literal token run as a value; undefined when it is an expression SQLite must evaluate. */
function literalValue(toks: Token[]): Value | undefined {
  if (toks.length === 1) {
    const t = toks[0];
    if (t.kind === "string") return t.value;
    // GreptimeDB reads a quoted identifier in VALUES as a string: its docs write `VALUES ("host1", …)`
    if (t.kind === "qident") return t.value;
    if (t.kind === "number") {
      if (/^\d+$/.test(t.text)) {
        const b = BigInt(t.text);
        return b <= MAX_SAFE ? Number(b) : b;
      }
      return Number(t.text);
    }
    if (isKeyword(t, "NULL")) return null;
    if (isKeyword(t, "TRUE")) return true;
    if (isKeyword(t, "FALSE")) return false;
  }
  if (toks.length === 2 && isOp(toks[0], "-", "+") && toks[1].kind === "number") {
    const v = literalValue([toks[1]]);
    if (isOp(toks[0], "+")) return v;
    return typeof v === "bigint" ? -v : -(v as number);
  }
  return undefined;
}

/** A number literal (with its sign) as its exact text. */
function decimalLiteral(toks: Token[]): string | undefined {
  const last = toks[toks.length - 1];
  if (last?.kind !== "number" || toks.length > 2) return undefined;
  if (toks.length === 1) return last.text;
  return isOp(toks[0], "-") ? `-${last.text}` : isOp(toks[0], "+") ? last.text : undefined;
}

function tableColumns(table: TableMeta, names: string[] | undefined): ColumnMeta[] {
  if (!names) return table.columns;
  return names.map((n) => {
    const c = table.columns.find((c) => c.name === n) ??
      table.columns.find((c) => c.name.toLowerCase() === n.toLowerCase());
    if (!c) {
      throw new PetrelError(StatusCode.TableColumnNotFound, `Column ${n} not exists in table ${table.name}`);
    }
    return c;
  });
}

function writeRows(
  storage: Storage,
  db: string,
  table: TableMeta,
  cols: ColumnMeta[],
  rows: Value[][],
): number {
  if (
    !cols.some((c) => c.name === table.timeIndex) &&
    !table.columns.find((c) => c.name === table.timeIndex)?.default
  ) {
    throw invalidArguments(`Missing time index column ${table.timeIndex} in INSERT into ${table.name}`);
  }
  const columns: ColumnSchema[] = cols.map((c) => ({ name: c.name, type: c.type, semantic: c.semantic }));
  return storage.write(db, [{ table: table.name, columns, rows }], { hints: { auto_create_table: "false" } });
}

/** `INSERT INTO t [(cols)] VALUES (…), … | SELECT …`. */
export function executeInsert(storage: Storage, tokens: Token[], sql: string, session: Session): QueryOutput {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("INSERT");
  cur.expectKw("INTO");
  // `INSERT INTO TABLE t …`, as sqlparser reads it (GreptimeDB's range query examples write it)
  const named = cur.peek(1);
  if (isKeyword(cur.peek(), "TABLE") && (named?.kind === "ident" || named?.kind === "qident")) {
    if (!isKeyword(named, "VALUES", "SELECT", "WITH")) cur.next();
  }
  const { db, table: name } = tableName(cur.objectName(), session);
  const handle = storage.database(db);
  const table = requireWritable(handle, name);
  let names: string[] | undefined;
  if (isOp(cur.peek(), "(") && !isKeyword(cur.peek(1), "SELECT")) {
    names = [];
    cur.expectOp("(");
    do names.push(cur.ident("a column name")); while (cur.acceptOp(","));
    cur.expectOp(")");
  }
  const cols = tableColumns(table, names);
  if (isKeyword(cur.peek(), "SELECT", "WITH") || isOp(cur.peek(), "(")) {
    const q = rewriteQuery(tokens.slice(cur.i), { storage, db: session.db, sql, timezone: session.timezone });
    const source = storage.database(q.database);
    registerSqlFunctions(source.conn);
    let out;
    try {
      out = runQuery(source.conn, q.sql, q.hints, q.nameTypes);
    } catch (e) {
      throw mapSqliteError(e, q.database);
    }
    if (out.kind !== "records") return out;
    if (out.columns.length !== cols.length) {
      throw invalidArguments(
        `INSERT has ${cols.length} target columns but the query returns ${out.columns.length}`,
      );
    }
    // a timestamp goes in as the instant it is: a query's ns value into an ms column is rescaled
    const units = out.columns.map((c, j) => {
      const from = unitOfType(String(c.data_type)), to = unitOfType(cols[j].type);
      return from !== undefined && to !== undefined && from !== to ? { from, to } : undefined;
    });
    const rows = out.rows.map((r) =>
      r.map((v, j) =>
        coerceValue(units[j] ? retimed(v, units[j].from, units[j].to) : v, cols[j], session.timezone)
      )
    );
    return { kind: "affected", rows: rows.length === 0 ? 0 : writeRows(storage, db, table, cols, rows) };
  }
  cur.expectKw("VALUES");
  const rows: Value[][] = [];
  do {
    cur.expectOp("(");
    const row: Value[] = [];
    for (;;) {
      // a plain scan: large INSERTs spend most of their parse time here
      const start = cur.i;
      let depth = 0;
      let k = start;
      for (; k < tokens.length; k++) {
        const t = tokens[k];
        if (t.kind !== "op") continue;
        if (depth === 0 && (t.text === "," || t.text === ")")) break;
        if (t.text === "(") depth++;
        else if (t.text === ")") depth--;
      }
      cur.i = k;
      if (k === start) throw cur.error(`Expected: an expression, found: ${cur.describe()}`);
      const col = cols[row.length];
      if (!col) throw invalidArguments(`Column count doesn't match value count at row ${rows.length + 1}`);
      let expr = k - start === 1 ? [tokens[start]] : tokens.slice(start, k);
      // `DEFAULT` stands for the column's default expression (NULL when it has none), as in GreptimeDB
      if (expr.length === 1 && isKeyword(expr[0], "DEFAULT")) expr = tokenize(col.default ?? "NULL");
      // a decimal keeps the literal's exact digits (a JS number would round past 15 of them)
      let v = isDecimalType(col.type) ? decimalLiteral(expr) ?? literalValue(expr) : literalValue(expr);
      if (v === undefined) v = evaluate(storage, db, handle, expr, sql, session, col);
      row.push(coerceValue(v, col, session.timezone));
      if (cur.acceptOp(")")) break;
      cur.expectOp(",");
    }
    if (row.length !== cols.length) {
      throw invalidArguments(`Column count doesn't match value count at row ${rows.length + 1}`);
    }
    rows.push(row);
  } while (cur.acceptOp(","));
  cur.expectEnd();
  return { kind: "affected", rows: writeRows(storage, db, table, cols, rows) };
}

function evaluate(
  storage: Storage,
  db: string,
  handle: ReturnType<Storage["database"]>,
  expr: Token[],
  sql: string,
  session: Session,
  col: ColumnMeta,
): Value {
  registerSqlFunctions(handle.conn);
  const select: Token = { kind: "ident", text: "SELECT", value: "SELECT", pos: -1 };
  const q = rewriteQuery([select, ...expr], {
    storage,
    db,
    sql,
    timezone: session.timezone,
    defaultUnit: isTimestampType(col.type) ? unitOf(col.type) : "ms",
  });
  const conn = storage.database(q.database).conn;
  registerSqlFunctions(conn);
  // node:sqlite reads text only up to a NUL: a text result comes as its bytes (storage/nul_text.ts)
  const text = isTextType(col.type);
  const query = text
    ? `WITH __petrel_v(v) AS (${q.sql}) SELECT CASE WHEN typeof(v) = 'text' THEN CAST(v AS BLOB) ELSE v END FROM __petrel_v`
    : q.sql;
  try {
    const out = runQuery(conn, query);
    const v = out.kind === "records" ? out.rows[0]?.[0] ?? null : null;
    return text && v instanceof Uint8Array ? new TextDecoder().decode(v) : v;
  } catch (e) {
    throw mapSqliteError(e, db);
  }
}

/**
 * The DELETE statement for a WHERE clause. A table that stores null tags as X'' is filtered through
 * a view that reads them back as NULL (as every query sees them), matching rows by their stored key,
 * so `WHERE host IS NULL` deletes exactly what `SELECT … WHERE host IS NULL` shows.
 */
function deleteSql(table: TableMeta, where: string): string {
  const nullTags = nullTagColumns(table);
  if (where === "" || nullTags.length === 0) return `DELETE FROM ${qualifiedName(table)}${where}`;
  const key = keyColumns(table);
  const keyAlias = (i: number) => quoteIdent(`__petrel_key_${i}`);
  const view = [
    ...key.map((k, i) => `${quoteIdent(k)} AS ${keyAlias(i)}`),
    ...table.columns.map((c) =>
      nullTags.includes(c)
        ? `NULLIF(${quoteIdent(c.name)}, X'') AS ${quoteIdent(c.name)}`
        : quoteIdent(c.name)
    ),
  ].join(", ");
  return `DELETE FROM ${qualifiedName(table)} WHERE (${key.map(quoteIdent).join(", ")}) IN (SELECT ${
    key.map((_, i) => keyAlias(i)).join(", ")
  } FROM (SELECT ${view} FROM ${qualifiedName(table)}) AS ${quoteIdent(table.name)}${where})`;
}

/** The rows of a table as every query sees them (null tags as NULL), as `FROM …`. */
function rowsRelation(table: TableMeta): string {
  const nullTags = nullTagColumns(table);
  if (nullTags.length === 0) return `FROM ${qualifiedName(table)}`;
  const cols = table.columns.map((c) =>
    nullTags.includes(c) ? `NULLIF(${quoteIdent(c.name)}, X'') AS ${quoteIdent(c.name)}` : quoteIdent(c.name)
  );
  return `FROM (SELECT ${cols.join(", ")} FROM ${qualifiedName(table)}) AS ${quoteIdent(table.name)}`;
}

/**
 * `DELETE FROM t [WHERE …]`: returns the rows deleted. When the table is a downsampling rule's
 * source, the windows of the rows deleted are marked for recomputation first, in the same transaction.
 */
export function executeDelete(storage: Storage, tokens: Token[], sql: string, session: Session): QueryOutput {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("DELETE");
  cur.expectKw("FROM");
  const { db, table: name } = tableName(cur.objectName(), session);
  const handle = storage.database(db);
  const table = requireWritable(handle, name);
  if (isPhysicalTable(table)) {
    throw invalidArguments(
      `DELETE is not supported on metric engine physical table ${table.name} ` +
        `(delete from its logical tables, or use TRUNCATE or DROP)`,
    );
  }
  let where = "", cond = "";
  if (cur.acceptKw("WHERE")) {
    registerSqlFunctions(handle.conn);
    const q = rewriteQuery(tokens.slice(cur.i), {
      storage,
      db,
      sql,
      timezone: session.timezone,
      extraTables: [table],
    });
    cond = q.sql;
    where = ` WHERE ${cond}`;
  } else if (!cur.atEnd) throw cur.error(`Expected: WHERE, found: ${cur.describe()}`);
  try {
    takeFunctionError();
    const watches = storage.lateWatches.of(db)?.get(table.name.toLowerCase());
    const r = handle.transaction(() => {
      if (watches !== undefined) markDeleted(handle, table, watches, rowsRelation(table), cond);
      const res = isLogicalTable(table)
        ? { changes: deleteMetricRows(handle, table, cond) }
        : handle.conn.prepare(deleteSql(table, where)).run();
      const failed = takeFunctionError();
      if (failed !== undefined) {
        throw invalidArguments(
          `Failed to execute DELETE: ${failed instanceof Error ? failed.message : failed}`,
        );
      }
      forgetTracesBeforeOldest(handle, table);
      return res;
    });
    return { kind: "affected", rows: Number(r.changes) };
  } catch (e) {
    throw mapSqliteError(e, db);
  }
}

/** A time integer from one unit to another, as arrow's cast makes it (divided, truncated toward zero). */
function retimed(v: Value, from: TimeUnit, to: TimeUnit): Value {
  if (typeof v !== "bigint" && !(typeof v === "number" && Number.isInteger(v))) return v;
  const x = (BigInt(v) * NS_PER_UNIT[from]) / NS_PER_UNIT[to];
  return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
}
