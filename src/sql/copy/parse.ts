/**
 * GreptimeDB's COPY statements, parsed:
 *
 * ```sql
 * COPY [db.]table TO '<file>' WITH (FORMAT = 'csv', START_TIME = '…', END_TIME = '…')
 * COPY (<query>) TO '<file>' WITH (FORMAT = 'json')
 * COPY [db.]table FROM '<file or dir/>' WITH (FORMAT = 'parquet', PATTERN = '<regex>')
 * COPY DATABASE db TO '<dir/>' WITH (…)  |  COPY DATABASE db FROM '<dir/>' WITH (…)
 * ```
 *
 * FORMAT defaults to parquet (as GreptimeDB's); `CONNECTION (…)` (object stores) is refused.
 */
import { invalidArguments, unsupported } from "../../common/errors.ts";
import { compileRegExp, regExpErrorReason } from "../../common/regexp.ts";
import { rustRegexToJs } from "../../common/rust_regex.ts";
import { Cursor } from "../cursor.ts";
import { parseOptions, type Session, tableName } from "../ddl.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";

/** The file formats COPY reads and writes. */
export type CopyFormat = "csv" | "json" | "parquet";

/** The file extension GreptimeDB gives each format (COPY DATABASE's `<table>.<ext>`). */
export const EXTENSIONS: Readonly<Record<CopyFormat, string>> = {
  csv: "csv",
  json: "json",
  parquet: "parquet",
};

/** The statement's `WITH (…)` options, checked. */
export interface CopyOptions {
  format: CopyFormat;
  /** START_TIME / END_TIME as given (parsed against the time index's unit later). */
  startTime?: string;
  endTime?: string;
  pattern?: RegExp;
}

/** One parsed COPY statement. */
export type CopyStatement =
  | { kind: "table_to"; db: string; table: string; path: string; options: CopyOptions }
  | { kind: "query_to"; query: Token[]; path: string; options: CopyOptions }
  | { kind: "table_from"; db: string; table: string; path: string; options: CopyOptions }
  | { kind: "database_to"; db: string; path: string; options: CopyOptions }
  | { kind: "database_from"; db: string; path: string; options: CopyOptions };

/** Whether a statement is `COPY …`. */
export function isCopyStatement(tokens: Token[]): boolean {
  return isKeyword(tokens[0], "COPY");
}

const TO_OPTIONS = ["format", "start_time", "end_time"];
const FROM_OPTIONS = ["format", "pattern"];

function checkOptions(raw: Record<string, string>, allowed: string[], what: string): CopyOptions {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) {
      throw invalidArguments(`Unknown option '${key}' for ${what} (expected one of: ${allowed.join(", ")})`);
    }
  }
  const format = (raw.format ?? "parquet").toLowerCase();
  if (format !== "csv" && format !== "json" && format !== "parquet") {
    throw invalidArguments(`Unsupported format '${raw.format}' for COPY: expected csv, json or parquet`);
  }
  const options: CopyOptions = { format };
  if (raw.start_time !== undefined) options.startTime = raw.start_time;
  if (raw.end_time !== undefined) options.endTime = raw.end_time;
  if (raw.pattern !== undefined) {
    try {
      // GreptimeDB compiles PATTERN with Rust's regex crate
      const { source, flags } = rustRegexToJs(raw.pattern);
      options.pattern = compileRegExp(source, flags);
    } catch (e) {
      throw invalidArguments(`Invalid PATTERN regular expression: ${raw.pattern}: ${regExpErrorReason(e)}`);
    }
  }
  return options;
}

/** The query's tokens between the parentheses of `COPY ( … ) TO`. */
function parenthesized(cur: Cursor): Token[] {
  const start = cur.i;
  let depth = 0;
  for (; cur.i < cur.tokens.length; cur.i++) {
    const t = cur.tokens[cur.i];
    if (isOp(t, "(")) depth++;
    else if (isOp(t, ")") && --depth === 0) {
      cur.i++;
      const inner = cur.tokens.slice(start + 1, cur.i - 1);
      if (inner.length === 0) throw cur.error("Expected: a query inside COPY ( … )");
      return inner;
    }
  }
  throw cur.error("Expected: ) closing the COPY query, found: EOF");
}

function pathLiteral(cur: Cursor): string {
  const t = cur.next();
  if (t.kind !== "string") throw cur.error(`Expected: a quoted file path, found: ${t.text}`);
  if (t.value.trim() === "") throw invalidArguments("COPY needs a non-empty file path");
  return t.value;
}

/** `WITH (…)` (optional) then an optional `CONNECTION (…)`, which Petrel refuses. */
function tail(cur: Cursor, allowed: string[], what: string): CopyOptions {
  const raw = cur.acceptKw("WITH") ? parseOptions(cur) : {};
  if (cur.acceptKw("CONNECTION")) {
    throw unsupported(
      "COPY with CONNECTION (object storage) is not supported: Petrel copies server-local files only",
    );
  }
  if (cur.acceptKw("LIMIT")) throw unsupported("COPY … LIMIT is not supported");
  cur.expectEnd();
  return checkOptions(raw, allowed, what);
}

/** Parses a COPY statement. */
export function parseCopy(tokens: Token[], sql: string, session: Session): CopyStatement {
  const cur = new Cursor(tokens, sql);
  cur.expectKw("COPY");
  if (cur.acceptKw("DATABASE")) {
    const db = cur.ident("a database name");
    if (cur.acceptKw("TO")) {
      const path = pathLiteral(cur);
      return { kind: "database_to", db, path, options: tail(cur, TO_OPTIONS, "COPY DATABASE TO") };
    }
    cur.expectKw("FROM");
    const path = pathLiteral(cur);
    return { kind: "database_from", db, path, options: tail(cur, FROM_OPTIONS, "COPY DATABASE FROM") };
  }
  if (isOp(cur.peek(), "(")) {
    const query = parenthesized(cur);
    cur.expectKw("TO");
    const path = pathLiteral(cur);
    const options = tail(cur, ["format"], "COPY (query) TO");
    return { kind: "query_to", query, path, options };
  }
  const { db, table } = tableName(cur.objectName(), session);
  if (cur.acceptKw("TO")) {
    const path = pathLiteral(cur);
    return { kind: "table_to", db, table, path, options: tail(cur, TO_OPTIONS, "COPY TO") };
  }
  if (!cur.acceptKw("FROM")) throw cur.error(`Expected: TO or FROM, found: ${cur.describe()}`);
  const path = pathLiteral(cur);
  return { kind: "table_from", db, table, path, options: tail(cur, FROM_OPTIONS, "COPY FROM") };
}
