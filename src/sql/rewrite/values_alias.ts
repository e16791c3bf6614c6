/**
 * `(VALUES (…), …) AS t(a, b)`: SQLite takes no column list after a derived table's alias, and names
 * a VALUES list's columns `column1`, `column2`, …; the list becomes a SELECT renaming them.
 */
import { invalidArguments } from "../../common/errors.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isKeyword, isOp } from "../lexer.ts";
import type { QueryTokens } from "../query_tokens.ts";

/** Replacements turning each aliased VALUES list with a column list into a renaming SELECT. */
export function valuesColumnAliases(q: QueryTokens): Map<number, { end: number; text: string }> {
  const out = new Map<number, { end: number; text: string }>();
  const { toks, match } = q;
  for (let open = 0; open < toks.length; open++) {
    if (!isOp(toks[open], "(") || !isKeyword(toks[open + 1], "VALUES")) continue;
    const close = match[open];
    let alias = close + 1;
    if (isKeyword(toks[alias], "AS")) alias++;
    const name = toks[alias];
    const list = alias + 1;
    if ((name?.kind !== "ident" && name?.kind !== "qident") || !isOp(toks[list], "(")) continue;
    const listClose = match[list];
    const columns: string[] = [];
    for (let k = list + 1; k < listClose; k++) {
      const t = toks[k];
      if (t.kind === "ident" || t.kind === "qident") columns.push(q.lower(t));
      else if (!isOp(t, ",")) {
        columns.length = 0;
        break;
      }
    }
    if (columns.length === 0) continue;
    const row = open + 2;
    if (isOp(toks[row], "(")) {
      let width = 1;
      for (let k = row + 1; k < match[row]; k++) if (isOp(toks[k], ",") && q.parent[k] === row) width++;
      if (width !== columns.length) {
        throw invalidArguments(
          `Source table contains ${width} columns but ${columns.length} names given (alias ${name.text})`,
        );
      }
    }
    const renamed = columns.map((c, i) => `column${i + 1} AS ${quoteIdent(c)}`).join(", ");
    out.set(open, { end: open + 1, text: `(SELECT ${renamed} FROM (` });
    out.set(close, { end: close + 1, text: "))" });
    out.set(list, { end: listClose + 1, text: "" });
    open = close;
  }
  return out;
}
