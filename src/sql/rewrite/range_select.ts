/**
 * Renders a GreptimeDB range query (see `range_parse.ts`) as one SQLite query, so SQLite aggregates
 * and every aggregate function (Petrel's own too) works inside a RANGE:
 *
 * 1. per distinct RANGE, the filtered rows are joined with a small counter `k` that puts each row
 *    into every align slot `to + n*align` with `slot <= ts < slot + range`, grouped by (BY keys, slot);
 * 2. several ranges are merged on (BY keys, slot); with any FILL, the slots a key misses between
 *    its first and last are generated (a recursive grid);
 * 3. FILL PREV/LINEAR/constant are window expressions over each key's slots;
 * 4. the select list, ORDER BY and LIMIT run over that result, the aggregates read as columns.
 */
import { invalidArguments, PetrelError, StatusCode } from "../../common/errors.ts";
import type { DataType, ResultType } from "../../common/rows.ts";
import { nsToUnit, timestampType, type TimeUnit, unitOf } from "../../common/time_unit.ts";
import { isIntegerType } from "../../storage/datatypes.ts";
import { quoteIdent } from "../../storage/table.ts";
import { isOp, type Token } from "../lexer.ts";
import { itemHint, type OutputContext, outputName } from "../output_columns.ts";
import { RESULT_TYPES } from "../call_types.ts";
import { originalText } from "../query_tokens.ts";
import { INTERVAL_TYPE, intervalNs } from "./interval_arith.ts";

import type { RewriteEnv } from "./context.ts";
import type { Emitter } from "./emit.ts";
import { type Fill, type Interval, itemExprEnd, type RangeAgg, type RangeQuery } from "./range_parse.ts";
import { itemName } from "./range_names.ts";
import { alignOrigin } from "./range_align_to.ts";

/** What rendering a range query needs from the rewrite of its statement. */
export interface RangeRender {
  env: RewriteEnv;
  emitter: Emitter;
  /** The emitter's replacements: the outer select reads the aggregates through them. */
  replacements: Map<number, { end: number; text: string }>;
  outCtx: OutputContext;
  /** What the range query reads, and its relation name (alias, table or CTE name). */
  table: RangeTable;
  relation: string;
  /** An alias the FROM clause needs (a derived table without one). */
  fromAlias?: string;
}

/** The columns a range query's source has, and which of them place rows in slots and group them. */
export interface RangeTable {
  timeIndex: string;
  /** The default BY: the tags (a table's primary key). */
  primaryKey: string[];
  columns: ReadonlyArray<{ name: string; type: DataType }>;
}

/** One BY key: its SQL, and the column name it has in the aggregated rows. */
interface ByKey {
  sql: string;
  name: string;
  /** Tokens of a BY expression that is not a plain column (the select list may repeat it). */
  tokens?: Token[];
  type?: DataType;
}

const qi = quoteIdent;
const aggCol = (j: number) => qi(`__petrel_a${j}`);

/** The SQLite query of a range query and the output types SQLite cannot see. */
export function renderRangeQuery(
  rq: RangeQuery,
  r: RangeRender,
): { sql: string; hints: Array<ResultType | undefined> } {
  const { emitter, table, outCtx } = r;
  const { toks } = outCtx.q;
  const emit = (a: number, b: number) => emitter.emit(a, b).trim();
  refuseWrappedAggregates(rq, r);
  const tsColumn = table.columns.find((c) => c.name === table.timeIndex)!;
  const unit = unitOf(tsColumn.type);
  const align = inUnit(rq.every, unit, "align");
  const to = alignOrigin(rq.to, unit, r.env.timezone, align);
  const rel = qi(r.relation);
  const tsRef = `${rel}.${qi(table.timeIndex)}`;
  const tsName = qi(table.timeIndex);

  // the inner parts render before the replacements below change how the select list emits
  const keys = byKeys(rq, r, rel);
  const fromSql = emit(rq.from + 1, rq.where ?? rq.align) + (r.fromAlias ? ` AS ${qi(r.fromAlias)}` : "");
  const userCtes = rq.ctes ? `${emit(...rq.ctes)}, ` : "";
  const whereSql = rq.where === undefined ? undefined : emit(rq.where + 1, rq.align);
  const aggSql = rq.aggs.map((a) => emit(a.start, a.callEnd));
  const fills = rq.aggs.map((a) => a.fill ?? rq.fill);

  const ctes: string[] = [];
  const byRange = new Map<bigint, number[]>();
  rq.aggs.forEach((a, j) => {
    const range = inUnit(a.range, unit, "range");
    byRange.set(range, [...(byRange.get(range) ?? []), j]);
  });
  const keyCols = keys.map((k) => qi(k.name));
  const groupCols = [...keyCols, tsName];
  const aggCols = rq.aggs.map((_, j) => aggCol(j));
  const counters = new Set<bigint>();
  const rangeCtes: string[] = [];
  for (const [range, js] of byRange) {
    const n = (range + align - 1n) / align;
    if (n > 1n) counters.add(n);
    const k = n > 1n ? ` - ${qi(`__petrel_k${n}`)}."__petrel_k" * ${align}` : "";
    const slot = `(${tsRef} - ((${tsRef} - ${to}) % ${align} + ${align}) % ${align}${k})`;
    const select = [
      ...keys.map((key) => `${key.sql} AS ${qi(key.name)}`),
      `${slot} AS ${tsName}`,
      ...js.map((j) => `${aggSql[j]} AS ${aggCol(j)}`),
    ];
    const name = qi(`__petrel_r${rangeCtes.length}`);
    rangeCtes.push(name);
    ctes.push(
      `${name} AS (SELECT ${select.join(", ")} FROM ${fromSql}${
        n > 1n ? ` CROSS JOIN ${qi(`__petrel_k${n}`)}` : ""
      } WHERE ${whereSql === undefined ? "" : `(${whereSql}) AND `}${slot} + ${range} > ${tsRef} GROUP BY ${
        select.slice(0, keys.length + 1).map((_, i) => i + 1).join(", ")
      })`,
    );
  }
  for (const n of counters) {
    const name = qi(`__petrel_k${n}`);
    const k = '"__petrel_k"';
    ctes.unshift(`${name}(${k}) AS (SELECT 0 UNION ALL SELECT ${k} + 1 FROM ${name} WHERE ${k} + 1 < ${n})`);
  }

  let source = rangeCtes[0];
  const anyFill = fills.some((f) => f !== undefined);
  if (byRange.size > 1 || anyFill) {
    const ranges = [...byRange.values()];
    const parts = ranges.map((js, g) =>
      `SELECT ${
        [...groupCols, ...aggCols.map((c, j) => `${js.includes(j) ? c : "NULL"} AS ${c}`)].join(", ")
      } FROM ${rangeCtes[g]}`
    );
    ctes.push(`"__petrel_d" AS (${parts.join(" UNION ALL ")})`);
    let all = `SELECT * FROM "__petrel_d"`;
    if (anyFill) {
      ctes.push(
        `"__petrel_bounds" AS (SELECT ${
          [...keyCols, `min(${tsName}) AS "__petrel_lo"`, `max(${tsName}) AS "__petrel_hi"`].join(", ")
        } FROM "__petrel_d"${keyCols.length ? ` GROUP BY ${keyCols.join(", ")}` : ""})`,
        `"__petrel_grid"(${[...groupCols, '"__petrel_hi"'].join(", ")}) AS (SELECT ${
          [...keyCols, '"__petrel_lo"', '"__petrel_hi"'].join(", ")
        } FROM "__petrel_bounds" WHERE "__petrel_lo" IS NOT NULL AND ${fillGuard(align)} UNION ALL SELECT ${
          [...keyCols, `${tsName} + ${align}`, '"__petrel_hi"'].join(", ")
        } FROM "__petrel_grid" WHERE ${tsName} + ${align} <= "__petrel_hi")`,
      );
      all += ` UNION ALL SELECT ${
        [...groupCols, ...aggCols.map(() => "NULL")].join(", ")
      } FROM "__petrel_grid"`;
    }
    // each slot has one value per aggregate at most: max() picks it; an empty count is 0 as in GreptimeDB
    const merged = rq.aggs.map((a, j) =>
      toks[a.start].text.toLowerCase() === "count"
        ? `coalesce(max(${aggCol(j)}), 0) AS ${aggCol(j)}`
        : `max(${aggCol(j)}) AS ${aggCol(j)}`
    );
    ctes.push(
      `"__petrel_m" AS (SELECT ${[...groupCols, ...merged].join(", ")} FROM (${all}) GROUP BY ${
        groupCols.join(", ")
      })`,
    );
    source = `"__petrel_m"`;
    if (fills.some((f) => f && f.kind !== "null")) {
      ctes.push(...fillCtes(fills, keyCols, tsName));
      source = `"__petrel_f"`;
    }
  }

  // the outer select reads each aggregate (and each BY expression it repeats) as a column
  rq.aggs.forEach((a, j) => r.replacements.set(a.start, { end: a.end, text: aggCol(j) }));
  for (const { agg, of } of rq.repeats) r.replacements.set(agg.start, { end: agg.end, text: aggCol(of) });
  for (const [a, b] of rq.clauses) r.replacements.set(a, { end: b, text: "" });
  markByExpressions(rq, keys, toks, r.replacements);
  const hints: Array<ResultType | undefined> = [];
  const items = rq.items.map(([s, e], idx) => {
    if (isOp(toks[e - 1], "*")) {
      throw invalidArguments("Range Query: SELECT * is not supported in a range query; name the columns");
    }
    const { exprEnd, hasAlias } = itemExprEnd(rq, toks, s, e);
    const spans = rq.aggs.filter((a) => a.start >= s && a.end <= exprEnd);
    const name = hasAlias || isPlainColumn(toks, s, exprEnd) ? undefined : itemName(r, s, exprEnd, spans, rq);
    hints[idx] = outputHint(r, rq, keys, unit, s, exprEnd, spans, fills);
    const item = hints[idx] === INTERVAL_TYPE
      ? ` ${intervalNs(r.outCtx.q, s, exprEnd)}${emit(exprEnd, e)}`
      : emit(s, e);
    return item + (name === undefined ? "" : ` AS ${qi(name)}`);
  });
  const sql = `WITH RECURSIVE ${userCtes}${ctes.join(", ")} SELECT ${
    items.join(", ")
  } FROM ${source} AS ${rel}${emitter.emit(rq.tail, toks.length)}`;
  return { sql, hints };
}

/**
 * GreptimeDB gives a RANGE only to an aggregate call: a scalar call around one (`round(max(v), 2)
 * RANGE '10s'`) is not an aggregate of the plan its range rewriter reads, and is refused naming it
 * as DataFusion does (the RANGE goes inside: `round(max(v) RANGE '10s', 2)`).
 */
function refuseWrappedAggregates(rq: RangeQuery, r: RangeRender): void {
  const a = rq.aggs.find((a) => a.wrapped);
  if (!a) return;
  const original = originalText(r.env.sql, r.outCtx.q.toks, a.start, a.callEnd);
  const name = outputName(r.outCtx, a.start, a.callEnd, original, true) ?? original;
  throw new PetrelError(
    StatusCode.PlanQuery,
    `Error during planning: Illegal argument \`${name}\` in range select query`,
  );
}

/** An interval as a whole number of the time index's unit (at least one). */
function inUnit(iv: Interval, unit: TimeUnit, what: string): bigint {
  const v = nsToUnit(iv.ns, unit);
  if (v <= 0n) {
    throw invalidArguments(
      `Range Query: the ${what} ${iv.text} is shorter than the time index's unit (${unit})`,
    );
  }
  return v;
}

/** The BY keys: the given expressions, or the table's primary key. */
function byKeys(rq: RangeQuery, r: RangeRender, rel: string): ByKey[] {
  const { q, colTypes } = r.outCtx;
  const { toks } = q;
  if (rq.by === undefined) {
    return r.table.primaryKey.map((name) => ({
      sql: `${rel}.${qi(name)}`,
      name,
      type: r.table.columns.find((c) => c.name === name)?.type,
    }));
  }
  return rq.by.map(([s, e], i) => {
    const sql = r.emitter.emit(s, e).trim();
    const last = toks[e - 1];
    if (isPlainColumn(toks, s, e)) {
      const name = q.lower(last);
      const type = r.table.columns.find((c) => c.name === name)?.type ?? colTypes.get(name.toLowerCase());
      return { sql, name, type };
    }
    return { sql, name: `__petrel_b${i}`, tokens: toks.slice(s, e) };
  });
}

/** Whether tokens `[s, e)` name a column (`host`, `m.host`). */
function isPlainColumn(toks: Token[], s: number, e: number): boolean {
  const last = toks[e - 1];
  return (last.kind === "ident" || last.kind === "qident") &&
    (e - s === 1 || (e - s === 3 && isOp(toks[s + 1], ".")));
}

/** Where the select list or ORDER BY repeats a BY expression, it reads the key's column. */
function markByExpressions(
  rq: RangeQuery,
  keys: ByKey[],
  toks: Token[],
  replacements: Map<number, { end: number; text: string }>,
): void {
  const same = (a: Token, b: Token) => a.kind === b.kind && a.text.toLowerCase() === b.text.toLowerCase();
  const ranges = [...rq.items, [rq.tail, toks.length] as [number, number]];
  for (const key of keys) {
    const pat = key.tokens;
    if (!pat) continue;
    for (const [s, e] of ranges) {
      for (let i = s; i + pat.length <= e; i++) {
        if (replacements.has(i) || !pat.every((t, k) => same(t, toks[i + k]))) continue;
        replacements.set(i, { end: i + pat.length, text: qi(key.name) });
        i += pat.length - 1;
      }
    }
  }
}

/** The data type of an output column that SQLite cannot report. */
function outputHint(
  r: RangeRender,
  rq: RangeQuery,
  keys: ByKey[],
  unit: TimeUnit,
  s: number,
  e: number,
  spans: RangeAgg[],
  fills: Array<Fill | undefined>,
): ResultType | undefined {
  const { q } = r.outCtx;
  const { toks } = q;
  if (spans.length === 1 && spans[0].start === s && spans[0].end === e) {
    const a = spans[0];
    const hint = itemHint(r.outCtx, a.start, a.callEnd);
    // FILL LINEAR interpolates integers into floats
    if (
      fills[rq.aggs.indexOf(a)]?.kind === "linear" &&
      (hint === undefined || (hint !== INTERVAL_TYPE && isIntegerType(hint as DataType)))
    ) {
      return "Float64";
    }
    return hint;
  }
  // a call of a fixed result type around range aggregates (`hll_count(hll(v) RANGE '1m')` is UInt64)
  const name = toks[s]?.kind === "ident" ? toks[s].text.toLowerCase() : "";
  if (isOp(toks[s + 1], "(") && q.match[s + 1] === e - 1 && Object.hasOwn(RESULT_TYPES, name)) {
    return RESULT_TYPES[name];
  }
  if (spans.length > 0) return undefined;
  if (isPlainColumn(toks, s, e)) {
    const name = q.lower(toks[e - 1]);
    if (name === r.table.timeIndex) return timestampType(unit);
    const key = keys.find((k) => k.name === name);
    if (key?.type) return key.type;
  }
  return itemHint(r.outCtx, s, e);
}

/** Slots a FILL may generate in one query, over all groups (each becomes an output row). */
export const MAX_FILL_SLOTS = 10_000_000;

/**
 * A condition on the fill grid's seed that fails the query (the function parks its error, see
 * functions/registry.ts) before a FILL over a long span with a small ALIGN generates rows without end.
 */
function fillGuard(align: bigint): string {
  const slots = `sum(("__petrel_hi" - "__petrel_lo") / ${align} + 1)`;
  return `(SELECT __petrel_fill_guard(${slots}, ${MAX_FILL_SLOTS}) FROM "__petrel_bounds") IS NOT NULL`;
}

/** The window CTEs that apply FILL PREV / LINEAR / constant to the merged slots. */
function fillCtes(fills: Array<Fill | undefined>, keyCols: string[], ts: string): string[] {
  const by = (...extra: string[]) => {
    const cols = [...keyCols, ...extra];
    return cols.length ? `PARTITION BY ${cols.join(", ")} ` : "";
  };
  const counts: string[] = [];
  const values = fills.map((f, j) => {
    const a = aggCol(j);
    if (!f || f.kind === "null") return `${a} AS ${a}`;
    if (f.kind === "const") return `coalesce(${a}, ${f.value}) AS ${a}`;
    // rows up to the n-th value (and from it on, walking back) share the n-th value
    const c = qi(`__petrel_c${j}`), d = qi(`__petrel_d${j}`);
    counts.push(`count(${a}) OVER (${by()}ORDER BY ${ts}) AS ${c}`);
    const prev = (col: string) => `first_value(${col}) OVER (${by(c)}ORDER BY ${ts})`;
    if (f.kind === "prev") return `coalesce(${a}, ${prev(a)}) AS ${a}`;
    counts.push(`count(${a}) OVER (${by()}ORDER BY ${ts} DESC) AS ${d}`);
    const next = (col: string) => `first_value(${col}) OVER (${by(d)}ORDER BY ${ts} DESC)`;
    const line = (v1: string, t1: string, v2: string, t2: string) =>
      `(${v1} + (${v2} - ${v1}) * (${ts} - ${t1}) * 1.0 / (${t2} - ${t1}))`;
    // before the first value and after the last, the line through the two nearest values goes on
    const nth = (col: string, n: number, dir: string) =>
      `nth_value(${col}, ${n}) OVER (${by()}ORDER BY ${a} IS NULL, ${ts} ${dir} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`;
    const lead = line(nth(a, 1, "ASC"), nth(ts, 1, "ASC"), nth(a, 2, "ASC"), nth(ts, 2, "ASC"));
    const trail = line(nth(a, 2, "DESC"), nth(ts, 2, "DESC"), nth(a, 1, "DESC"), nth(ts, 1, "DESC"));
    return `coalesce(${a}, ${
      line(prev(a), prev(ts), next(a), next(ts))
    }, CASE WHEN ${c} = 0 THEN ${lead} WHEN ${d} = 0 THEN ${trail} END) AS ${a}`;
  });
  return [
    `"__petrel_w" AS (SELECT *${counts.map((x) => `, ${x}`).join("")} FROM "__petrel_m")`,
    `"__petrel_f" AS (SELECT ${[...keyCols, ts, ...values].join(", ")} FROM "__petrel_w")`,
  ];
}
