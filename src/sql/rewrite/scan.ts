/** Query-wide checks and facts read before rewriting: CTE names, LIMIT, placeholders. */
import { invalidArguments } from "../../common/errors.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { errorAt, type QueryTokens } from "../query_tokens.ts";

/** The names a WITH clause defines (they are not tables). */
export function cteNames(q: QueryTokens): Set<string> {
  const { toks, match, parent, lower } = q;
  const ctes = new Set<string>();
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind !== "ident" && t.kind !== "qident") continue;
    const prev = toks[i - 1];
    if (!(isKeyword(prev, "WITH", "RECURSIVE") || (isOp(prev, ",") && parent[i] === -1))) continue;
    let j = i + 1;
    if (isOp(toks[j], "(")) j = match[j] + 1;
    if (isKeyword(toks[j], "AS") && isOp(toks[j + 1], "(")) ctes.add(lower(t));
  }
  return ctes;
}

/** Rejects negative LIMIT/OFFSET and placeholders; returns the (last) literal LIMIT. */
export function scanLimitAndPlaceholders(q: QueryTokens): number | undefined {
  const { toks, cursor } = q;
  let limit: number | undefined;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (isKeyword(t, "LIMIT", "OFFSET") && isOp(toks[i + 1], "-")) {
      throw invalidArguments(`${t.text.toUpperCase()} must not be negative`);
    }
    if (isKeyword(t, "LIMIT") && toks[i + 1]?.kind === "number") limit = Number(toks[i + 1].text);
    // SQLite would bind placeholders to NULL; a SQL request has no values to bind
    const next = toks[i + 1];
    if (
      t.kind === "param" ||
      (isOp(t, ":", "@", "$") && next && next.pos === t.pos + 1 &&
        (next.kind === "ident" || next.kind === "number"))
    ) {
      throw errorAt(
        cursor,
        t,
        `Placeholders are not supported, found: ${t.text}${isOp(t, ":", "@", "$") ? next!.text : ""}`,
      );
    }
  }
  return limit;
}
