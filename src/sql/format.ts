/**
 * `/v1/sql/format`: statements re-printed the way GreptimeDB's parser (sqlparser-rs `Display`) prints
 * them: keywords upper case, one space between tokens, none inside brackets or before commas,
 * `!=` as `<>`, `INNER JOIN` as `JOIN`, `;` after each statement, one statement per line.
 * Petrel has no AST for GreptimeDB's dialect, so this works on tokens: identifiers, literals and the
 * order of everything are kept as written (sqlparser would also add `AS` before bare aliases).
 * A TQL statement keeps its PromQL exactly as written (it is not SQL).
 */
import { invalidSyntax } from "../common/errors.ts";
import { isKeyword, lineColumn, splitStatements, type StatementText, type Token } from "./lexer.ts";
import { checkStatementSyntax } from "./format_check.ts";
import { formatTql, isTql, parseTql } from "./tql/statement.ts";

const STATEMENTS = new Set(
  ("SELECT WITH VALUES INSERT REPLACE CREATE DROP ALTER SHOW DESC DESCRIBE DELETE TRUNCATE EXPLAIN USE SET " +
    "TQL COPY ADMIN UPDATE KILL COMMENT").split(" "),
);

/** Words sqlparser prints in upper case (keywords and the data types of GreptimeDB's dialect). */
const KEYWORDS = new Set(
  ("SELECT DISTINCT FROM WHERE GROUP BY HAVING ORDER ASC DESC NULLS FIRST LAST LIMIT OFFSET UNION ALL " +
    "INTERSECT EXCEPT WITH RECURSIVE AS AND OR NOT IN IS NULL LIKE ILIKE BETWEEN EXISTS CASE WHEN THEN ELSE " +
    "END CAST JOIN INNER LEFT RIGHT FULL OUTER CROSS ON USING INSERT INTO VALUES REPLACE CREATE TABLE " +
    "DATABASE SCHEMA IF DROP ALTER ADD COLUMN MODIFY RENAME TO SHOW TABLES DATABASES COLUMNS FULL " +
    "DESCRIBE DELETE TRUNCATE EXPLAIN ANALYZE VERBOSE FORMAT USE SET PRIMARY KEY TIME INDEX ENGINE " +
    "PARTITION PARTITIONS DEFAULT COMMENT UNSET OVER WINDOW RANGE ROWS PRECEDING FOLLOWING UNBOUNDED " +
    "CURRENT ROW FILL ALIGN INTERVAL TQL EVAL EVALUATE COPY ADMIN VIEW FLOW SINK EXPIRE AFTER OR SINGLE " +
    "INVERTED SKIPPING FULLTEXT LOCAL EXTRACT SIMILAR ESCAPE TRUE FALSE WITHIN " +
    "INT INTEGER BIGINT SMALLINT TINYINT INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 UINT64 FLOAT FLOAT32 " +
    "FLOAT64 DOUBLE REAL DECIMAL BOOLEAN BOOL STRING TEXT VARCHAR CHAR BINARY VARBINARY TIMESTAMP " +
    "TIMESTAMP_S TIMESTAMP_MS TIMESTAMP_US TIMESTAMP_NS DATE DATETIME JSON VECTOR UNSIGNED").split(" "),
);

/** Whether `t` is a word sqlparser knows as a keyword or a data type (printed in upper case). */
export function isSqlKeyword(t: Token | undefined): boolean {
  return t?.kind === "ident" && KEYWORDS.has(t.text.toUpperCase());
}

/** Keywords that name a function when a `(` follows (`left(s, 2)`, `date(ts)`). */
const FUNCTION_KEYWORDS = new Set(["LEFT", "RIGHT", "REPLACE", "DATE", "FORMAT", "JSON"]);

/** Keywords a `(` follows without a space (`CAST(x AS INT)`, `TIMESTAMP(3)`); others keep it (`IN (1)`). */
const CALLED_KEYWORDS = new Set([
  "CAST",
  "EXTRACT",
  "TIMESTAMP",
  "VARCHAR",
  "CHAR",
  "DECIMAL",
  "FLOAT",
  "VECTOR",
]);

/**
 * Formats every statement of `sql`; a statement that does not begin like one, or fails the syntax
 * check of `format_check.ts`, fails as GreptimeDB's parser does.
 */
export function formatSql(sql: string): string {
  return splitStatements(sql).map((s) => {
    checkSyntax(sql, s);
    if (isTql(s.tokens)) return formatTql(parseTql(s.tokens, sql)) + ";";
    return formatStatement(s.tokens) + ";";
  }).join("\n");
}

/**
 * GreptimeDB's parser error for one statement of `sql` (`/v1/sql/format` and `/v1/sql` both check
 * every statement before printing or running any): a start no statement has, or a failure of the
 * syntax check of `format_check.ts`. PromQL is no SQL: the TQL of a statement or of a flow
 * (`CREATE FLOW … AS TQL EVAL (…) <promql>`) is checked when it is parsed.
 */
export function checkSyntax(sql: string, statement: StatementText): void {
  const { tokens } = statement;
  checkStatementStart(sql, tokens[0], "Invalid SQL syntax: ", statement.offset);
  if (isTql(tokens)) return;
  const tql = tokens.findIndex((t, i) => isKeyword(t, "TQL") && isKeyword(tokens[i - 1], "AS"));
  checkStatementSyntax(sql, tql < 0 ? tokens : tokens.slice(0, tql + 1));
}

/**
 * Fails as GreptimeDB's parser does when a statement of `sql` begins with `first`, which no statement
 * does; no `first` is a statement of commas at `offset`, which the lexer dropped as trailing ones.
 */
export function checkStatementStart(sql: string, first: Token | undefined, prefix = "", offset = 0): void {
  if (first === undefined) notAStatement(sql, { kind: "op", text: ",", value: ",", pos: offset }, prefix);
  if (first.kind !== "ident" && !(first.kind === "op" && first.text === "(")) {
    notAStatement(sql, first, prefix);
  }
  if (first.kind === "ident" && !STATEMENTS.has(first.text.toUpperCase())) notAStatement(sql, first, prefix);
}

function notAStatement(sql: string, t: Token, prefix: string): never {
  const { line, column } = lineColumn(sql, t.pos);
  throw invalidSyntax(
    `${prefix}sql parser error: Expected: an SQL statement, found: ${t.text} at Line: ${line}, Column: ${column}`,
  );
}

function formatStatement(tokens: Token[]): string {
  const words = tokens.map((_, i) => printed(tokens, i));
  let out = "";
  for (let i = 0; i < tokens.length; i++) {
    const w = words[i];
    if (w === "") continue;
    if (out !== "" && spaceBefore(tokens, words, i)) out += " ";
    out += w;
  }
  return out;
}

/** A token as printed ("" when sqlparser drops it: `INNER`/`OUTER` of a join). */
function printed(tokens: Token[], i: number): string {
  const t = tokens[i];
  if (t.kind === "op") return t.text === "!=" ? "<>" : t.text;
  if (t.kind !== "ident") return t.text;
  const upper = t.text.toUpperCase();
  const prev = tokens[i - 1], next = tokens[i + 1];
  if (prev?.kind === "op" && prev.text === ".") return t.text;
  if (!KEYWORDS.has(upper)) return t.text;
  if (next?.kind === "op" && next.text === "(" && FUNCTION_KEYWORDS.has(upper)) return t.text;
  if ((upper === "INNER" || upper === "OUTER") && isWord(next, "JOIN")) return "";
  if (upper === "TRUE" || upper === "FALSE") return upper.toLowerCase();
  return upper;
}

function isWord(t: Token | undefined, word: string): boolean {
  return t?.kind === "ident" && t.text.toUpperCase() === word;
}

const NO_SPACE_AFTER = new Set(["(", "[", ".", "::"]);
const NO_SPACE_BEFORE = new Set([")", "]", ",", ".", "::"]);

/** Whether a space separates token `i` from the one printed before it. */
function spaceBefore(tokens: Token[], words: string[], i: number): boolean {
  let p = i - 1;
  while (p >= 0 && words[p] === "") p--;
  const prev = tokens[p], t = tokens[i];
  if (prev.kind === "op" && NO_SPACE_AFTER.has(prev.text)) return false;
  if (t.kind === "op" && NO_SPACE_BEFORE.has(t.text)) return false;
  if (t.kind === "op" && (t.text === "(" || t.text === "[")) return !isCall(tokens, p);
  // A sign: `-1`, `(-x)`, `= -2` (after an operator, a comma, a bracket or a keyword).
  if (prev.kind === "op" && (prev.text === "-" || prev.text === "+")) {
    const before = tokens[p - 1];
    return !(before === undefined || (before.kind === "op" && before.text !== ")" && before.text !== "]") ||
      (before.kind === "ident" && KEYWORDS.has(words[p - 1])));
  }
  return true;
}

/** Whether the token at `p` is called or indexed by the bracket after it. */
function isCall(tokens: Token[], p: number): boolean {
  const t = tokens[p];
  if (t.kind === "op") return t.text === ")" || t.text === "]";
  if (t.kind !== "ident" && t.kind !== "qident") return false;
  const upper = t.text.toUpperCase();
  if (t.kind === "ident" && KEYWORDS.has(upper) && tokens[p - 1]?.text !== ".") {
    return FUNCTION_KEYWORDS.has(upper) || CALLED_KEYWORDS.has(upper);
  }
  // A table's column list: `INSERT INTO t (a)`, `CREATE TABLE t (…)`.
  const before = tokens[p - 1];
  return !(isWord(before, "INTO") || isWord(before, "TABLE") || isWord(before, "EXISTS") ||
    (before?.kind === "op" && before.text === "." &&
      /^(INTO|TABLE|EXISTS)$/i.test(tokens[p - 3]?.text ?? "")));
}
