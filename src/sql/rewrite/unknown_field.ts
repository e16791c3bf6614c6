/**
 * DataFusion's field-not-found error in full: `Schema error: No field named foo. Valid fields are
 * t.host, t.ts, t.v.` SQLite only names the column; the fields are those of the relations of the
 * innermost SELECT whose FROM is in scope where the name stands, in FROM order, each column in its
 * table's order. Where a relation's columns are not known here (a view, CTE, derived table or
 * information_schema), the message keeps no tail rather than a wrong one.
 */
import { PetrelError, StatusCode } from "../../common/errors.ts";
import type { Storage } from "../../storage/mod.ts";
import { Cursor } from "../cursor.ts";
import { isKeyword, isOp, type Token } from "../lexer.ts";
import { QueryTokens } from "../query_tokens.ts";
import { compoundArms } from "./column_scope.ts";
import { cteNames } from "./scan.ts";
import { resolveTableRefs, type SourceRelation } from "./tables.ts";
import { FIELD_NOT_FOUND, mapSqliteError, withPosition } from "../results.ts";

const PREFIX = FIELD_NOT_FOUND;

/** DataFusion's `quote_identifier`: a name that is not plain lowercase is quoted. */
function quoted(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** What a statement's failure `e` answers: SQLite's error in GreptimeDB's words, its position, the valid fields. */
export function statementError(
  e: unknown,
  storage: Storage,
  db: string,
  tokens: Token[],
  sql: string,
): PetrelError {
  return withValidFields(withPosition(mapSqliteError(e, db), tokens, sql), storage, db, tokens, sql);
}

/**
 * The error of a query whose column SQLite could not find, completed with DataFusion's list of valid
 * fields where the query's tokens tell them; any other error as it is.
 */
export function withValidFields(
  e: PetrelError,
  storage: Storage,
  db: string,
  tokens: Token[],
  sql: string,
): PetrelError {
  if (e.code !== StatusCode.PlanQuery || !e.message.startsWith(PREFIX)) return e;
  const written = e.message.slice(PREFIX.length);
  if (written.includes(".") && written.split(".").length > 2) return e;
  let q: QueryTokens;
  let sources: SourceRelation[];
  try {
    q = new QueryTokens(tokens, new Cursor(tokens, sql));
    sources = resolveTableRefs(q, { storage, db, sql }, cteNames(q), undefined).sources;
  } catch {
    return e;
  }
  const { toks, parent } = q;
  const [qualifier, name] = written.includes(".") ? written.split(".") : [undefined, written];
  const at = toks.findIndex((t, i) =>
    (t.kind === "ident" || t.kind === "qident") && t.value.toLowerCase() === name.toLowerCase() &&
    !isOp(toks[i + 1], "(") && !isOp(toks[i + 1], ".") &&
    (qualifier === undefined
      ? !isOp(toks[i - 1], ".")
      : isOp(toks[i - 1], ".") && toks[i - 2]?.value.toLowerCase() === qualifier.toLowerCase())
  );
  if (at < 0) return e;
  const field = qualifier === undefined
    ? quoted(q.lower(toks[at]))
    : `${quoted(q.lower(toks[at - 2]))}.${quoted(q.lower(toks[at]))}`;
  const arm = compoundArms(q);
  // the innermost SELECT around the name that has a FROM (the relations at its level and arm)
  let relations: SourceRelation[] = [];
  for (let pos = at; pos >= 0 && relations.length === 0; pos = parent[pos]) {
    relations = sources.filter((s) => parent[s.at] === parent[pos] && arm[s.at] === arm[pos]);
  }
  // a query without FROM has no fields at all
  if (sources.length === 0 && !toks.some((t) => isKeyword(t, "FROM"))) {
    return new PetrelError(e.code, `${PREFIX}${field}.`);
  }
  if (relations.length === 0 || relations.some((r) => r.table === undefined || r.name === undefined)) {
    return new PetrelError(e.code, `${PREFIX}${field}`);
  }
  const valid = relations
    .sort((a, b) => a.at - b.at)
    .flatMap((r) => r.table!.columns.map((c) => `${quoted(r.name!)}.${quoted(c.name)}`));
  return new PetrelError(e.code, `${PREFIX}${field}. Valid fields are ${valid.join(", ")}.`);
}
