/**
 * `/v1/sql/parse`: GreptimeDB answers with its parser's AST as JSON (serde of its `Statement`
 * enum over sqlparser-rs nodes). Petrel rewrites tokens and has no such AST, so it renders the node
 * shapes of the statements whose AST is small and stable — `DESC[RIBE] [TABLE] name` — and refuses
 * others by name (501) rather than inventing a tree a client would then misread.
 */
import { invalidSyntax, PetrelError, StatusCode } from "../common/errors.ts";
import { isKeyword, lineColumn, splitStatements, type Token } from "./lexer.ts";
import { checkStatementStart } from "./format.ts";
import { checkStatementSyntax, trailingToken } from "./format_check.ts";
import { isTql } from "./tql/statement.ts";

/** sqlparser's `Location` (1-based; 0/0 for identifiers the parser made itself). */
interface Location {
  line: number;
  column: number;
}

/** sqlparser's `Ident` as serde writes it. */
interface IdentNode {
  value: string;
  quote_style: string | null;
  span: { start: Location; end: Location };
}

/** One statement of GreptimeDB's AST, externally tagged as serde writes enums. */
export type StatementNode = { DescribeTable: { name: Array<{ Identifier: IdentNode }> } };

const NO_LOCATION: Location = { line: 0, column: 0 };

/** The AST of every statement of `sql`, as GreptimeDB's `/v1/sql/parse` shows it. */
export function parseAst(sql: string): StatementNode[] {
  return splitStatements(sql).map(({ tokens, offset }) => {
    // a statement no parser would take is GreptimeDB's syntax error, not a missing AST
    checkStatementStart(sql, tokens[0], "", offset);
    if (!isTql(tokens)) checkStatementSyntax(sql, tokens, "");
    const first = tokens[0];
    if (isKeyword(first, "DESC", "DESCRIBE")) return describeTable(sql, tokens);
    throw new PetrelError(
      StatusCode.Unsupported,
      // `(SELECT …)` is a query, as sqlparser reads it
      `The AST of ${
        first.kind === "ident" ? first.text.toUpperCase() : "SELECT"
      } statements is not available in Petrel: ` +
        "/v1/sql/parse renders DESCRIBE TABLE only (see README, Compatibility)",
      { reason: "not_implemented" },
    );
  });
}

function describeTable(sql: string, tokens: Token[]): StatementNode {
  let i = isKeyword(tokens[1], "TABLE") ? 2 : 1;
  const name: Array<{ Identifier: IdentNode }> = [];
  for (;;) {
    const t = tokens[i];
    if (t === undefined) fail(sql, undefined, "identifier");
    if (t.kind !== "ident" && t.kind !== "qident") fail(sql, t, "identifier");
    name.push({ Identifier: ident(sql, t) });
    i++;
    if (tokens[i]?.kind !== "op" || tokens[i].text !== ".") break;
    i++;
  }
  if (i < tokens.length) throw trailingToken(tokens[i]);
  return { DescribeTable: { name } };
}

/**
 * An identifier as GreptimeDB's parser leaves it: a bare one is lower-cased into a new `Ident` (so
 * its span is empty), a quoted one keeps its text, quote and place.
 */
function ident(sql: string, t: Token): IdentNode {
  if (t.kind === "ident") {
    return {
      value: t.value.toLowerCase(),
      quote_style: null,
      span: { start: NO_LOCATION, end: NO_LOCATION },
    };
  }
  return {
    value: t.value,
    quote_style: t.text[0],
    span: { start: lineColumn(sql, t.pos), end: lineColumn(sql, t.pos + t.text.length) },
  };
}

function fail(sql: string, t: Token | undefined, expected: string): never {
  if (t === undefined) throw invalidSyntax(`sql parser error: Expected: ${expected}, found: EOF`);
  const { line, column } = lineColumn(sql, t.pos);
  throw invalidSyntax(
    `sql parser error: Expected: ${expected}, found: ${t.text} at Line: ${line}, Column: ${column}`,
  );
}
