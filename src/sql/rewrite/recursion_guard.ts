/**
 * A recursive CTE without a bound never ends, and a query worker cannot be stopped inside SQLite:
 * terminating it leaves the thread computing. So every recursive member of a `WITH RECURSIVE` gets
 * `__petrel_alive()` in its WHERE; the function turns false once the query is cancelled (see
 * `functions/registry.ts`), and the recursion stops at its next row.
 */
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";

const GUARD = "__petrel_alive()";
const CLAUSE_AFTER_WHERE = ["GROUP", "ORDER", "LIMIT", "WINDOW", "HAVING"];

/** Replacements (token → text) adding the guard to each recursive member of each recursive CTE. */
export function recursionGuards(q: QueryTokens): Map<number, { end: number; text: string }> {
  const out = new Map<number, { end: number; text: string }>();
  const { toks, match, parent } = q;
  const recursive = toks.findIndex((t, i) => isKeyword(t, "RECURSIVE") && isKeyword(toks[i - 1], "WITH"));
  if (recursive < 0) return out;
  for (let i = recursive + 1; i < toks.length; i++) {
    // `name [(columns)] AS ( body )` at the WITH clause's level
    if (!isKeyword(toks[i], "AS") || !isOp(toks[i + 1], "(") || parent[i] !== parent[recursive]) continue;
    const open = i + 1, close = match[open];
    const at = (k: number) => parent[k] === open;
    const members: Array<[number, number]> = [];
    let start = open + 1;
    for (let k = open + 1; k <= close; k++) {
      if (k === close || (at(k) && isKeyword(toks[k], "UNION", "INTERSECT", "EXCEPT"))) {
        members.push([start, k]);
        start = isKeyword(toks[k + 1], "ALL", "DISTINCT") ? k + 2 : k + 1;
      }
    }
    for (const [s, e] of members.slice(1)) guardMember(q, s, e, at, out);
    i = close;
  }
  return out;
}

function guardMember(
  q: QueryTokens,
  s: number,
  e: number,
  at: (k: number) => boolean,
  out: Map<number, { end: number; text: string }>,
): void {
  const { toks } = q;
  let where = -1, clauseEnd = e;
  for (let k = s; k < e; k++) {
    if (!at(k)) continue;
    if (where < 0 && isKeyword(toks[k], "WHERE")) where = k;
    else if (isKeyword(toks[k], ...CLAUSE_AFTER_WHERE)) {
      clauseEnd = k;
      break;
    }
  }
  if (out.has(clauseEnd) || (where >= 0 && out.has(where))) return;
  const before = (k: number, text: string) => out.set(k, { end: k + 1, text: ` ${text} ${toks[k].text}` });
  if (where >= 0) {
    out.set(where, { end: where + 1, text: `WHERE ${GUARD} AND (` });
    before(clauseEnd, ")");
  } else before(clauseEnd, `WHERE ${GUARD}`);
}
