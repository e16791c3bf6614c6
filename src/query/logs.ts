/**
 * GreptimeDB's JSON log query (`/v1/logs`, reference §6.4): a `LogQuery` (table, time filter, column
 * filters, columns, limit) becomes one SELECT over the table, run by the SQL engine. Every name is
 * a quoted identifier and every value a quoted literal, so a query cannot inject SQL.
 */
import { invalidArguments, tableNotFound } from "../common/errors.ts";
import { parseDuration } from "../common/humantime.ts";
import type { QueryOutput } from "../common/rows.ts";
import type { Storage, TableMeta } from "../storage/mod.ts";
import { executeSqlAsync } from "../sql/async.ts";

/** GreptimeDB's default `limit.fetch`. */
export const DEFAULT_LOG_LIMIT = 1000;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function text(v: unknown, what: string): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw invalidArguments(`Invalid log query: ${what} must be a string`);
}

const NUMERIC = /^(Int|UInt|Float)/;

/** Builds SQL conditions for one table's columns. */
class FilterSql {
  constructor(private table: TableMeta) {}

  /** A value compared with a column: a number for numeric columns, else a string literal. */
  private value(column: string, v: unknown): string {
    const s = text(v, `the value compared with ${column}`);
    const type = this.table.columns.find((c) => c.name === column)?.type ?? "";
    if (NUMERIC.test(type) && s.trim() !== "" && Number.isFinite(Number(s))) return String(Number(s));
    return literal(s);
  }

  column(expr: unknown): string {
    const name = typeof expr === "string"
      ? expr
      : isObject(expr)
      ? expr.NamedIdent ?? expr.column_name
      : undefined;
    if (typeof name !== "string") throw invalidArguments(`Invalid log query: unsupported column expression`);
    if (!this.table.columns.some((c) => c.name === name)) {
      throw invalidArguments(`Invalid log query: column ${name} not found in table ${this.table.name}`);
    }
    return name;
  }

  /** One `ContentFilter` on a column. */
  content(col: string, f: unknown): string {
    const c = ident(col);
    if (f === "Exist") return `${c} IS NOT NULL`;
    if (f === "IsTrue") return `${c} = true`;
    if (f === "IsFalse") return `${c} = false`;
    if (!isObject(f) || Object.keys(f).length !== 1) {
      throw invalidArguments(`Invalid log query: bad filter ${JSON.stringify(f)}`);
    }
    const [kind, arg] = Object.entries(f)[0];
    const a = isObject(arg) ? arg : {};
    switch (kind) {
      case "Exact":
        return `${c} = ${this.value(col, arg)}`;
      case "Prefix":
        return `starts_with(${c}, ${literal(text(arg, "Prefix"))})`;
      case "Postfix":
        return `ends_with(${c}, ${literal(text(arg, "Postfix"))})`;
      case "Contains":
        // instr is SQLite's own: no call into JS per row (strpos is a JS function)
        return `instr(${c}, ${literal(text(arg, "Contains"))}) > 0`;
      case "Regex":
        return `regexp_like(${c}, ${literal(text(arg, "Regex"))})`;
      case "Between":
        return `${c} >${a.start_inclusive === false ? "" : "="} ${this.value(col, a.start)} AND ${c} <${
          a.end_inclusive === false ? "" : "="
        } ${this.value(col, a.end)}`;
      case "GreatThan":
        return `${c} >${a.inclusive === true ? "=" : ""} ${this.value(col, a.value)}`;
      case "LessThan":
        return `${c} <${a.inclusive === true ? "=" : ""} ${this.value(col, a.value)}`;
      case "In":
        if (!Array.isArray(arg) || arg.length === 0) return "false";
        return `${c} IN (${arg.map((v) => this.value(col, v)).join(", ")})`;
      case "Compound": {
        if (!Array.isArray(arg) || !Array.isArray(arg[0])) {
          throw invalidArguments("Invalid log query: bad Compound filter");
        }
        const op = String(arg[1] ?? "And").toLowerCase() === "or" ? " OR " : " AND ";
        return `(${(arg[0] as unknown[]).map((x) => `(${this.content(col, x)})`).join(op) || "true"})`;
      }
      default:
        throw invalidArguments(`Invalid log query: unsupported filter ${kind}`);
    }
  }

  /** `{column_name|expr, filters:[…]}`, or `{And|Or:[…]}`, `{Not:…}`, `{Single:…}`. */
  filters(f: unknown): string {
    if (Array.isArray(f)) return f.map((x) => `(${this.filters(x)})`).join(" AND ") || "true";
    if (!isObject(f)) throw invalidArguments(`Invalid log query: bad filters ${JSON.stringify(f)}`);
    if (Array.isArray(f.And)) return f.And.map((x) => `(${this.filters(x)})`).join(" AND ") || "true";
    if (Array.isArray(f.Or)) return f.Or.map((x) => `(${this.filters(x)})`).join(" OR ") || "false";
    if ("Not" in f) return `NOT (${this.filters(f.Not)})`;
    if ("Single" in f) return this.filters(f.Single);
    const col = this.column(f.column_name ?? f.expr);
    const list = Array.isArray(f.filters) ? f.filters : [];
    return list.map((x) => `(${this.content(col, x)})`).join(" AND ") || "true";
  }
}

function parseTime(v: unknown, what: string): { ms: number; dateOnly: boolean } | null {
  if (v === null || v === undefined || v === "") return null;
  const s = text(v, what).trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(s);
  const ms = Date.parse(
    dateOnly ? `${s}T00:00:00Z` : /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(" ", "T")}Z`,
  );
  if (Number.isNaN(ms)) throw invalidArguments(`Invalid log query: cannot parse ${what} '${s}'`);
  return { ms, dateOnly };
}

/** `time_filter` → [start, end) in ms, either side open (null). */
export function timeRange(tf: unknown): [number | null, number | null] {
  if (tf === undefined || tf === null) return [null, null];
  if (!isObject(tf)) throw invalidArguments("Invalid log query: time_filter must be an object");
  const start = parseTime(tf.start, "time_filter.start");
  const end = parseTime(tf.end, "time_filter.end");
  const spanText = tf.span === null || tf.span === undefined ? null : text(tf.span, "time_filter.span");
  const span = spanText === null ? null : parseDuration(spanText);
  if (spanText !== null && span === null) throw invalidArguments(`Invalid log query: bad span '${spanText}'`);
  const DAY = 86_400_000;
  let lo = start?.ms ?? null;
  let hi = end === null ? null : end.dateOnly ? end.ms + DAY : end.ms;
  if (hi === null && start !== null) {
    hi = span !== null ? start.ms + span : start.dateOnly ? start.ms + DAY : null;
  }
  if (lo === null && end !== null && span !== null) lo = hi! - span;
  return [lo, hi];
}

/** Runs a log query (the parsed JSON body) against `db` unless the body names a schema. */
export async function queryLogs(
  storage: Storage,
  db: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<QueryOutput[]> {
  if (!isObject(body) || !isObject(body.table)) {
    throw invalidArguments("Invalid log query: table is required");
  }
  const schema = typeof body.table.schema_name === "string" && body.table.schema_name !== ""
    ? body.table.schema_name
    : db;
  const name = text(body.table.table_name, "table.table_name");
  const table = storage.getTable(schema, name);
  if (table === undefined) throw tableNotFound(`${schema}.${name}`);
  const where: string[] = [];
  const [lo, hi] = timeRange(body.time_filter);
  const ts = ident(table.timeIndex);
  if (lo !== null) where.push(`${ts} >= ${literal(new Date(lo).toISOString())}`);
  if (hi !== null) where.push(`${ts} < ${literal(new Date(hi).toISOString())}`);
  if (body.filters !== undefined && body.filters !== null) {
    where.push(`(${new FilterSql(table).filters(body.filters)})`);
  }
  if (Array.isArray(body.exprs) && body.exprs.length > 0) {
    throw invalidArguments("Invalid log query: exprs are not supported");
  }
  const columns = Array.isArray(body.columns) && body.columns.length > 0
    ? body.columns.map((c) => ident(new FilterSql(table).column(text(c, "a column")))).join(", ")
    : "*";
  const limit = isObject(body.limit) ? body.limit : {};
  const fetch = limit.fetch === null || limit.fetch === undefined ? DEFAULT_LOG_LIMIT : Number(limit.fetch);
  const skip = limit.skip === null || limit.skip === undefined ? 0 : Number(limit.skip);
  if (!Number.isSafeInteger(fetch) || fetch < 0 || !Number.isSafeInteger(skip) || skip < 0) {
    throw invalidArguments("Invalid log query: limit.fetch and limit.skip must be non-negative integers");
  }
  const sql =
    `SELECT ${columns} FROM ${ident(table.name)}${where.length ? ` WHERE ${where.join(" AND ")}` : ""}` +
    ` ORDER BY ${ts} LIMIT ${fetch}${skip > 0 ? ` OFFSET ${skip}` : ""}`;
  return await executeSqlAsync(storage, sql, { db: schema }, { signal });
}
