/**
 * DataFusion's `unnest(array)`, one row per element, rebuilt as SQL text before the usual rewrite
 * reads it (as `grouping_sets.ts` does): SQLite's `json_each` walks an array held as JSON text.
 *
 * - In a FROM clause, `unnest(a)` becomes the derived table `(SELECT unnest(a))`.
 * - In a select list, the SELECT joins `json_each(a) AS "__petrel_unnest"` (after its own FROM
 *   items, so `a` may read their columns) and each `unnest(a)` reads its `value`. A row whose array
 *   is NULL or empty makes no row, as in DataFusion.
 */
import { unsupported } from "../../common/errors.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isKeyword, isOp, type Token, tokenize } from "../lexer.ts";
import { Cursor } from "../cursor.ts";
import { QueryTokens } from "../query_tokens.ts";
import { expandArrayBrackets } from "../array_brackets.ts";
import { arrayExprType } from "../array_types.ts";
import { arrayOutputName } from "../display_name.ts";
import { RESULT_TYPES } from "../call_types.ts";
import {
  brackets,
  clauseEnd,
  exprKey,
  type Hole,
  selectBefore,
  type SelectParts,
  selectParts,
  sourceText,
  spliceText,
} from "./select_parts.ts";

const ALIAS = "__petrel_unnest";

/** SQL cast targets that give an unnested element its array's element type. */
const ELEMENT_CASTS: Record<string, string> = {
  Int64: "BIGINT",
  Float64: "DOUBLE",
  String: "STRING",
  Boolean: "BOOLEAN",
  UInt64: "BIGINT UNSIGNED",
};

/** The query with its first `unnest(…)` use rebuilt; undefined when it has none. */
export function rebuildUnnest(toks: Token[], sql: string): string | undefined {
  const calls = toks.flatMap((t, i) => (isKeyword(t, "UNNEST") && isOp(toks[i + 1], "(") ? [i] : []));
  if (calls.length === 0) return undefined;
  // array brackets nest like parentheses (same position and width, so source text is unchanged)
  const shaped = toks.map((t) => isOp(t, "[") ? { ...t, text: "(" } : isOp(t, "]") ? { ...t, text: ")" } : t);
  const b = brackets(shaped);
  if (!b) return undefined;
  for (const i of calls) {
    if (isKeyword(toks[i - 1], "FROM", "JOIN", "LATERAL") || (isOp(toks[i - 1], ",") && inFrom(b, i))) {
      const close = b.match[i + 1];
      return `${sourceText(sql, toks, 0, i)} (SELECT ${sourceText(sql, toks, i, close + 1)}) ${
        sourceText(sql, toks, close + 1, toks.length)
      }`;
    }
  }
  const sel = selectBefore(b, calls[0]);
  const p = sel < 0 ? undefined : selectParts(b, sel);
  // elsewhere (WHERE, ORDER BY, an argument of unnest) it has no rows to make
  if (!p || !p.items.some((item) => item.s <= calls[0] && calls[0] < item.exprEnd)) {
    throw unsupported("unnest is supported in a select list or as a FROM item");
  }
  return unnestSelect(b, sql, p, calls.filter((i) => selectBefore(b, i) === sel));
}

/** Whether token `i` is in the FROM clause of its SELECT. */
function inFrom(b: ReturnType<typeof brackets> & object, i: number): boolean {
  const sel = selectBefore(b, i);
  if (sel < 0) return false;
  const p = selectParts(b, sel);
  const from = p.clauses.get("FROM");
  return from !== undefined && from < i && i < clauseEnd(p, from);
}

/** The SELECT `p` joined with `json_each` of the array its `unnest` calls (at `calls`) read. */
function unnestSelect(
  b: ReturnType<typeof brackets> & object,
  sql: string,
  p: SelectParts,
  calls: number[],
): string {
  const { toks, match } = b;
  const arg = (i: number): [number, number] => [i + 2, match[i + 1]];
  const key = exprKey(toks, ...arg(calls[0]));
  if (calls.some((i) => exprKey(toks, ...arg(i)) !== key)) {
    throw unsupported("Petrel unnests one array per SELECT: unnest the others in a subquery");
  }
  if (p.clauses.has("GROUP") || /\barray_agg\s*\(/i.test(key)) {
    throw unsupported(
      "unnest of an aggregated array is not supported here: aggregate in a subquery, unnest outside",
    );
  }
  const from = p.clauses.get("FROM");
  const relations = from !== undefined && clauseEnd(p, from) - from === 2 && toks[from + 1].kind !== "op"
    ? [toks[from + 1].value]
    : [];
  const holes: Hole[] = [];
  for (const item of p.items) {
    const inside = calls.filter((i) => item.s <= i && i < item.exprEnd);
    if (inside.length === 0) continue;
    const name = item.alias === undefined ? itemName(sql, toks, item.s, item.exprEnd, relations) : undefined;
    const whole = inside.length === 1 && inside[0] === item.s && match[item.s + 1] === item.exprEnd - 1;
    if (whole) {
      const cast = ELEMENT_CASTS[elementType(sourceText(sql, toks, item.s, item.exprEnd)) ?? ""];
      const value = cast ? `CAST(${quoteIdent(ALIAS)}.value AS ${cast})` : `${quoteIdent(ALIAS)}.value`;
      holes.push({ s: item.s, e: item.exprEnd, text: value + (name ? ` AS ${quoteIdent(name)}` : "") });
      continue;
    }
    const text = spliceText(
      sql,
      toks,
      item.s,
      item.exprEnd,
      inside.map((i) => ({ s: i, e: match[i + 1] + 1, text: `${quoteIdent(ALIAS)}.value` })),
    );
    holes.push({ s: item.s, e: item.exprEnd, text: text + (name ? ` AS ${quoteIdent(name)}` : "") });
  }
  const source = `json_each(${sourceText(sql, toks, ...arg(calls[0]))}) AS ${quoteIdent(ALIAS)}`;
  const at = from === undefined ? p.itemsEnd : clauseEnd(p, from);
  holes.push({ s: at, e: at, text: from === undefined ? `FROM ${source}` : `, ${source}` });
  holes.sort((x, y) => x.s - y.s);
  return spliceText(sql, toks, 0, toks.length, holes);
}

/** The item's tokens on their own, array brackets expanded. */
function itemTokens(text: string): QueryTokens {
  const toks = tokenize(`SELECT ${text}`);
  const cursor = new Cursor(toks, text);
  return new QueryTokens(expandArrayBrackets(toks, cursor), cursor);
}

/** DataFusion's column name of an unaliased item holding unnest (its text when it cannot be printed). */
function itemName(sql: string, toks: Token[], s: number, e: number, relations: string[]): string {
  const text = sourceText(sql, toks, s, e);
  const q = itemTokens(text);
  return arrayOutputName({ q, colTypes: new Map(), relations }, 1, q.toks.length) ?? text;
}

/** The element type of `unnest(array)`, when literals or a list function's fixed result type tell it. */
function elementType(text: string): string | undefined {
  const q = itemTokens(text);
  const fixed = (s: number, e: number) => {
    const name = q.toks[s]?.kind === "ident" && isOp(q.toks[s + 1], "(") && q.match[s + 1] === e - 1
      ? q.toks[s].text.toLowerCase()
      : "";
    return Object.hasOwn(RESULT_TYPES, name) ? RESULT_TYPES[name] : undefined;
  };
  return arrayExprType({ q, colTypes: new Map(), relations: [] }, 1, q.toks.length, fixed);
}
