/**
 * The unit time values take in each expression segment: a segment (a comparison's side, a select
 * item, a function argument list…) works in the unit of the first time column it names (or of the
 * scalar subquery it holds, `(SELECT max(ts) …) - INTERVAL '1 minute'`), so literals and time
 * functions meeting that column become integers in its unit. The two sides of a comparison are two
 * segments, each in its own unit (`a.ts > b.ts - INTERVAL '1 minute'`, milliseconds and
 * nanoseconds: the interval is b's nanoseconds), as are BETWEEN's three operands, and so is a call
 * (`date_trunc('minute', b.ts)` is b's nanoseconds inside an expression over milliseconds). A segment
 * naming no time takes the unit of the one it is linked to (the other side, the call's surroundings).
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
  scalarUnit?: (open: number) => TimeUnit | undefined,
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
  // read for most tokens more than once (segments, comparisons' operands): each is resolved once
  const tsUnits = new Map<number, TimeUnit | undefined>();
  const isTsColumn = (i: number): TimeUnit | undefined => {
    if (!tsUnits.has(i)) tsUnits.set(i, resolveTsColumn(i));
    return tsUnits.get(i);
  };
  const resolveTsColumn = (i: number): TimeUnit | undefined => {
    const t = toks[i];
    if (t.kind !== "ident" && t.kind !== "qident") return undefined;
    if (isOp(toks[i + 1], "(") || isOp(toks[i + 1], ".") || isKeyword(toks[i - 1], "AS")) return undefined;
    const type = scoped(i);
    if (type !== undefined) return isTimestampType(type) ? unitOf(type) : undefined;
    return tsCols.get(lower(t));
  };
  const { segOf, betweenAnd, links } = segments(toks);
  // resolved on first use: a scalar subquery's type reads the scope's column types (and units)
  let resolved: Map<number, TimeUnit> | undefined;
  const segUnits = (): Map<number, TimeUnit> => {
    if (resolved) return resolved;
    const segUnit = resolved = new Map<number, TimeUnit>();
    const claim = (i: number, u: TimeUnit | undefined) =>
      u && !segUnit.has(segOf[i]) && segUnit.set(segOf[i], u);
    for (let i = 0; i < toks.length; i++) claim(i, isTsColumn(i));
    for (let i = 0; i < toks.length; i++) {
      const scalar = isOp(toks[i], "(") && isKeyword(toks[i + 1], "SELECT", "WITH") &&
        !isKeyword(toks[i - 1], "IN", "EXISTS", "ANY", "ALL", "SOME");
      if (scalar && !segUnit.has(segOf[i])) claim(i, scalarUnit?.(i));
    }
    // until no segment is left that a linked one can give its unit
    const shareAcross = () => {
      for (let changed = true; changed;) {
        changed = false;
        for (const [l, r] of links) {
          const u = segUnit.get(l) ?? segUnit.get(r);
          if (!u || (segUnit.has(l) && segUnit.has(r))) continue;
          segUnit.set(l, u).set(r, u);
          changed = true;
        }
      }
    };
    shareAcross();
    // a segment whose time comes from a function (`now() - INTERVAL '1 day' > '2020-01-01'`) works in
    // the default unit, so its time literals are read as times too (text would compare above any number)
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i];
      if (segUnit.has(segOf[i]) || t.kind !== "ident" || !TIME_RESULT_FUNCS.has(lower(t))) continue;
      if (isOp(toks[i + 1], "(") || NOW_NAMES.has(lower(t))) segUnit.set(segOf[i], env.defaultUnit ?? "ms");
    }
    shareAcross();
    return segUnit;
  };
  return {
    colTypes,
    columnTypeAt: (i) => scoped(i) ?? colTypes.get(lower(toks[i])),
    isTsColumn,
    hasTimeColumn: (i) => segUnits().has(segOf[i]),
    unitAt: (i) => segUnits().get(segOf[i]) ?? env.defaultUnit ?? "ms",
    isTimeComparison: (i) => {
      if (!segUnits().has(segOf[i])) return false;
      const prev = toks[i - 1], next = toks[i + 1];
      if (isOp(prev, ...CMP_OPS) || isOp(next, ...CMP_OPS) || isKeyword(prev, "BETWEEN")) return true;
      if (isKeyword(prev, "FROM") && isKeyword(toks[i - 2], "DISTINCT")) return true;
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
 * Keywords a bracket may follow without being called (`AND (level = 'error')` is no call: taken for
 * one, its segment was linked to the time comparison before it, and 'error' read as a time).
 */
const BRACKETING_KEYWORDS = ["NOT", "WHEN", "THEN", "ELSE", "CASE", "AS", "USING", "JOIN", "OVER", "FILTER"];

/**
 * The segment number of each token (separator keywords, comparison operators, subqueries, calls and
 * top-level or subquery commas start a new one; the tokens after a subquery or a call continue the
 * segment before it), which ANDs belong to a BETWEEN (they start none), and the pairs of segments
 * linked (a comparison's sides, BETWEEN's operands, a call and its surroundings).
 */
function segments(
  toks: Token[],
): { segOf: number[]; betweenAnd: boolean[]; links: Array<[number, number]> } {
  const n = toks.length;
  const segOf = new Array<number>(n).fill(0);
  const betweenAnd = new Array<boolean>(n).fill(false);
  const links: Array<[number, number]> = [];
  let seg = 0, count = 0;
  const kinds: Array<{ sub: boolean; resume: number }> = [];
  let betweenDepth = -1;
  // the segment around the call whose name was the last token
  let callOf: number | undefined;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (isOp(t, "(")) {
      const sub = isKeyword(toks[i + 1], "SELECT", "WITH", "VALUES");
      // a subquery's or call's segment ends with its bracket (a plain bracket's goes on)
      kinds.push({ sub, resume: sub || callOf !== undefined ? callOf ?? seg : -1 });
      if (!sub) segOf[i] = seg;
      else {
        segOf[i] = callOf ?? seg;
        seg = ++count;
      }
      callOf = undefined;
      continue;
    } else if (isOp(t, ")")) {
      const resume = kinds.pop()?.resume ?? -1;
      if (resume >= 0) seg = resume;
    } else if (
      t.kind === "ident" && isOp(toks[i + 1], "(") && !isKeyword(toks[i + 2], "SELECT", "WITH", "VALUES") &&
      !SEPARATORS.has(t.text.toUpperCase()) && !isKeyword(t, ...BRACKETING_KEYWORDS)
    ) {
      // a call is a segment of its own (`greatest(a.ts, date_trunc('minute', b.ts))`: the ns column's
      // date_trunc is nanoseconds); one naming no time column takes the unit around it
      callOf = seg;
      seg = ++count;
      links.push([callOf, seg]);
    } else if (t.kind === "ident" && SEPARATORS.has(t.text.toUpperCase())) {
      // the FROM of `extract(epoch FROM ts)`, `substring(s FROM 2)`, `trim(x FROM s)` is an argument's
      if (isKeyword(t, "FROM") && kinds.length > 0 && !kinds[kinds.length - 1].sub) {
        segOf[i] = seg;
        continue;
      }
      // `x IS [NOT] DISTINCT FROM y` compares: its sides are linked as a comparison's
      if (isKeyword(t, "FROM") && isKeyword(toks[i - 1], "DISTINCT") && isKeyword(toks[i - 2], "IS", "NOT")) {
        links.push([seg, ++count]);
        seg = count;
        segOf[i] = seg;
        continue;
      }
      if (isKeyword(t, "AND") && betweenDepth === kinds.length) {
        betweenAnd[i] = true;
        betweenDepth = -1;
        links.push([seg, ++count]);
        seg = count;
      } else seg = ++count;
    } else if (isKeyword(t, "BETWEEN")) {
      betweenDepth = kinds.length;
      links.push([seg, ++count]);
      seg = count;
    } else if (isOp(t, ",") && (kinds.length === 0 || kinds[kinds.length - 1].sub)) seg = ++count;
    else if (isOp(t, ...CMP_OPS)) {
      const left = seg;
      seg = ++count;
      links.push([left, seg]);
    }
    segOf[i] = seg;
  }
  return { segOf, betweenAnd, links };
}
