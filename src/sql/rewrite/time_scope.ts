/**
 * The unit time values take in each expression segment: a segment (a comparison, a select item, a
 * function argument list…) works in the unit of the first time column it names, so literals and
 * time functions meeting that column become integers in its unit.
 */
import type { DataType } from "../../common/rows.ts";
import type { TimeUnit } from "../../common/time_unit.ts";
import { unitOf } from "../../common/time_unit.ts";
import { isTimestampType } from "../../storage/datatypes.ts";
import type { Relation } from "./tables.ts";
import type { ScopedColumnType } from "./column_scope.ts";
import type { Token } from "../lexer.ts";
import { isKeyword, isOp } from "../lexer.ts";
import { CMP_OPS, NOW_NAMES, type QueryTokens, SEPARATORS, TIME_RESULT_FUNCS } from "../query_tokens.ts";
import { parseTimestampIn } from "../time.ts";
import type { RewriteEnv, TimeScope } from "./context.ts";

/**
 * Builds the time scope of a query over the tables it names: a column's type is read through the
 * FROM clauses around it (`scoped`), else by its name alone (the first table with it).
 */
export function timeScope(
  q: QueryTokens,
  env: RewriteEnv,
  tables: readonly Relation[],
  colTypes: Map<string, DataType>,
  scoped: ScopedColumnType,
): TimeScope {
  const { toks, parent, lower } = q;
  const tsCols = new Map<string, TimeUnit>();
  for (const t of tables) {
    for (const c of t.columns) {
      if (isTimestampType(c.type) && !tsCols.has(c.name.toLowerCase())) {
        tsCols.set(c.name.toLowerCase(), unitOf(c.type));
      }
    }
  }
  const isTsColumn = (i: number): TimeUnit | undefined => {
    const t = toks[i];
    if (t.kind !== "ident" && t.kind !== "qident") return undefined;
    if (isOp(toks[i + 1], "(") || isOp(toks[i + 1], ".") || isKeyword(toks[i - 1], "AS")) return undefined;
    const type = scoped(i);
    if (type !== undefined) return isTimestampType(type) ? unitOf(type) : undefined;
    return tsCols.get(lower(t));
  };
  const { segOf, betweenAnd } = segments(toks);
  const segUnit = new Map<number, TimeUnit>();
  for (let i = 0; i < toks.length; i++) {
    const u = isTsColumn(i);
    if (u && !segUnit.has(segOf[i])) segUnit.set(segOf[i], u);
  }
  // a segment whose time comes from a function (`now() - INTERVAL '1 day' > '2020-01-01'`) works in
  // the default unit, so its time literals are read as times too (text would compare above any number)
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (segUnit.has(segOf[i]) || t.kind !== "ident" || !TIME_RESULT_FUNCS.has(lower(t))) continue;
    if (isOp(toks[i + 1], "(") || NOW_NAMES.has(lower(t))) segUnit.set(segOf[i], env.defaultUnit ?? "ms");
  }
  return {
    colTypes,
    columnTypeAt: (i) => scoped(i) ?? colTypes.get(lower(toks[i])),
    isTsColumn,
    hasTimeColumn: (i) => segUnit.has(segOf[i]),
    unitAt: (i) => segUnit.get(segOf[i]) ?? env.defaultUnit ?? "ms",
    isTimeComparison: (i) => {
      if (!segUnit.has(segOf[i])) return false;
      const prev = toks[i - 1], next = toks[i + 1];
      if (isOp(prev, ...CMP_OPS) || isOp(next, ...CMP_OPS) || isKeyword(prev, "BETWEEN")) return true;
      if (isKeyword(prev, "AND") && betweenAnd[i - 1]) return true;
      const p = parent[i];
      return (isOp(prev, "(") || isOp(prev, ",")) && p > 0 && isKeyword(toks[p - 1], "IN");
    },
    timeLiteral: (i, unit) => {
      const t = toks[i];
      if (t.kind !== "string") return undefined;
      const v = parseTimestampIn(t.value, unit, env.timezone);
      return v === undefined ? undefined : v.toString();
    },
  };
}

/**
 * The segment number of each token (separator keywords, subqueries and top-level or subquery
 * commas start a new one), and which ANDs belong to a BETWEEN (they start none).
 */
function segments(toks: Token[]): { segOf: number[]; betweenAnd: boolean[] } {
  const n = toks.length;
  const segOf = new Array<number>(n).fill(0);
  const betweenAnd = new Array<boolean>(n).fill(false);
  let seg = 0;
  const kinds: boolean[] = [];
  let betweenDepth = -1;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (isOp(t, "(")) {
      const sub = isKeyword(toks[i + 1], "SELECT", "WITH", "VALUES");
      kinds.push(sub);
      if (sub) seg++;
    } else if (isOp(t, ")")) {
      if (kinds.pop()) seg++;
    } else if (t.kind === "ident" && SEPARATORS.has(t.text.toUpperCase())) {
      // the FROM of `extract(epoch FROM ts)`, `substring(s FROM 2)`, `trim(x FROM s)` is an argument's
      if (isKeyword(t, "FROM") && kinds.length > 0 && !kinds[kinds.length - 1]) {
        segOf[i] = seg;
        continue;
      }
      if (isKeyword(t, "AND") && betweenDepth === kinds.length) {
        betweenAnd[i] = true;
        betweenDepth = -1;
      } else seg++;
    } else if (isKeyword(t, "BETWEEN")) betweenDepth = kinds.length;
    else if (isOp(t, ",") && (kinds.length === 0 || kinds[kinds.length - 1])) seg++;
    segOf[i] = seg;
  }
  return { segOf, betweenAnd };
}
