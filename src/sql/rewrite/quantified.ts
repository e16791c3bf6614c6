/**
 * Quantified comparisons with a subquery: `x = ANY (SELECT …)`, `x <> ALL (SELECT …)`, `x > SOME (…)`.
 * SQLite has none, so `= ANY` becomes `IN` and `<> ALL` becomes `NOT IN` (the same three-valued
 * answers), and every other operator an aggregate over the subquery that keeps SQL's NULL rules:
 * ANY is true when some comparison is, NULL when none is but one is unknown, false otherwise (and
 * on no rows); ALL is false when some comparison is, NULL when none is but one is unknown, true
 * otherwise (and on no rows).
 *
 * DataFusion's `= ANY (array)` (array_has) is answered over an array literal as an IN list; other
 * operators over an array are refused, as DataFusion does.
 */
import { PetrelError, StatusCode, unsupported } from "../../common/errors.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { CMP_OPS } from "../query_tokens.ts";
import { aliasOf, selectList } from "../select_list.ts";
import type { OperatorRewrite } from "./at_time_zone.ts";
import type { RewriteCtx, TokenRewrite } from "./context.ts";

/** Keywords that end the left operand of a comparison, reading backwards. */
const LEFT_BOUNDARY = [
  "AND",
  "OR",
  "NOT",
  "WHERE",
  "ON",
  "HAVING",
  "WHEN",
  "THEN",
  "ELSE",
  "SELECT",
  "CASE",
  "BY",
  "IS",
  "LIKE",
  "ILIKE",
  "BETWEEN",
  "IN",
  "EXISTS",
  "DISTINCT",
  "RETURNING",
];

/** The quantifier of the comparison operator at `i` (`ANY`, `SOME` or `ALL` before a bracket). */
function quantifierAt(c: RewriteCtx, i: number): "ANY" | "ALL" | undefined {
  const { toks } = c;
  if (!isOp(toks[i], ...CMP_OPS) || !isOp(toks[i + 2], "(")) return undefined;
  if (isKeyword(toks[i + 1], "ANY", "SOME")) return "ANY";
  return isKeyword(toks[i + 1], "ALL") ? "ALL" : undefined;
}

/** The subquery's bracket after the quantifier at `i + 1`; a bracket holding no query is refused. */
function subqueryOpen(c: RewriteCtx, i: number): number {
  const open = i + 2;
  if (!isKeyword(c.toks[open + 1], "SELECT")) {
    throw unsupported(
      `${c.toks[i + 1].text.toUpperCase()} takes a subquery (SELECT …) or, after =, an array ` +
        "([…], ARRAY[…], make_array(…))",
    );
  }
  return open;
}

/** The elements of an array literal filling the bracket at `open`: `[…]`, `ARRAY[…]`, `make_array(…)`. */
function arrayElements(c: RewriteCtx, open: number): [number, number] | undefined {
  const { toks, q } = c;
  const close = q.match[open];
  const first = open + 1, last = close - 1;
  if (isOp(toks[first], "[") && isOp(toks[last], "]")) return [first + 1, last];
  if (isKeyword(toks[first], "ARRAY") && isOp(toks[first + 1], "[") && isOp(toks[last], "]")) {
    return [first + 2, last];
  }
  if (isKeyword(toks[first], "MAKE_ARRAY") && isOp(toks[first + 1], "(") && q.match[first + 1] === last) {
    return [first + 2, last];
  }
  return undefined;
}

/**
 * `= ANY (…)` as `IN (…)` and `<> ALL (…)` as `NOT IN (…)`, rewritten at the operator; `= ANY (array)`
 * (DataFusion's array_has) as `IN (elements)`.
 */
export function quantifiedAsIn(c: RewriteCtx, i: number): TokenRewrite | undefined {
  const quantifier = quantifierAt(c, i);
  if (!quantifier) return undefined;
  const op = c.toks[i].text;
  const equals = op === "=" || op === "==";
  const elements = arrayElements(c, i + 2);
  if (elements) {
    if (quantifier === "ANY" && equals) {
      return { text: `IN (${c.emit(...elements).trim()})`, next: c.q.match[i + 2] + 1 };
    }
    if (quantifier === "ALL") throw unsupported("ALL over an array is not supported: only = ANY (array) is");
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: Error during planning: Unsupported AnyOp: '${op}', only '=' is supported`,
    );
  }
  subqueryOpen(c, i);
  if (quantifier === "ANY" && equals) return { text: "IN", next: i + 2 };
  if (quantifier === "ALL" && (op === "<>" || op === "!=")) return { text: "NOT IN", next: i + 2 };
  return undefined;
}

/** The other quantified comparisons, each from its left operand to the subquery's closing bracket. */
export function quantifiedComparisons(c: RewriteCtx): OperatorRewrite[] {
  const { toks, q } = c;
  const out: OperatorRewrite[] = [];
  for (let i = 1; i < toks.length; i++) {
    const quantifier = quantifierAt(c, i);
    if (!quantifier || quantifiedAsIn(c, i)) continue;
    const open = subqueryOpen(c, i), close = q.match[open];
    const start = leftStart(c, i);
    if (start === i) continue;
    const op = toks[i].text === "!=" ? "<>" : toks[i].text;
    out.push({
      start,
      end: close + 1,
      render: () => {
        const cmp = `(${c.emit(start, i).trim()}) ${op} __petrel_v`;
        const from = aliasedSubquery(c, open + 1, close);
        return quantifier === "ANY"
          ? `(SELECT CASE WHEN max(${cmp}) THEN 1 WHEN max((${cmp}) IS NULL) THEN NULL ELSE 0 END FROM (${from}))`
          : `(SELECT CASE WHEN min(${cmp}) = 0 THEN 0 WHEN max((${cmp}) IS NULL) THEN NULL ELSE 1 END FROM (${from}))`;
      },
    });
  }
  return out;
}

/** The left operand's first token of the comparison at `i`: back to the previous boundary. */
function leftStart(c: RewriteCtx, i: number): number {
  const { toks, q } = c;
  let start = i;
  for (let j = i - 1; j >= 0; j--) {
    const t = toks[j];
    if (isOp(t, ")")) {
      j = q.match[j];
      start = j;
      continue;
    }
    if (isOp(t, "(", ",", ...CMP_OPS) || isKeyword(t, ...LEFT_BOUNDARY)) break;
    start = j;
  }
  return start;
}

/** The subquery `[s, e)` (from its SELECT) with its one column named `__petrel_v`. */
function aliasedSubquery(c: RewriteCtx, s: number, e: number): string {
  const items = selectList(c.toks, c.q.match, s)?.items ?? [];
  if (items.length !== 1) {
    throw new PetrelError(
      StatusCode.PlanQuery,
      `Failed to plan SQL: Error during planning: a subquery of ANY or ALL should return only one column, ` +
        `but found ${items.length}`,
    );
  }
  const [a, b] = items[0];
  if (isOp(c.toks[b - 1], "*")) throw unsupported("The subquery of ANY or ALL must name its column, not *");
  const { exprEnd } = aliasOf(c.toks, a, b);
  return `${c.emit(s, a)}${c.emit(a, exprEnd)} AS __petrel_v${c.emit(b, e)}`;
}
