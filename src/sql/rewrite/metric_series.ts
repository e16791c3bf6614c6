/**
 * Series filters for SQL on metric-engine logical tables. A logical table is a view joining the
 * time-first samples table to the series table (`storage/metric_layout.ts`), and SQLite reads it by
 * scanning every sample and looking its series up, whatever the WHERE says of the labels. When the
 * WHERE has a tag conjunct that `where_conjuncts.ts` can rely on (`host = 'h7'`, `host IN (…)`,
 * `host != …`, `host ~ …`, `host !~ …` with a literal), the reference reads the samples of the
 * matching series ids instead, listed first from the series table: the same rows in the same order
 * (the plan is still a scan of the samples, in key order), each tested against the id list rather
 * than joined to its series, and a regex runs once per series rather than once per sample. The
 * WHERE still tests every row as written, so the filter only has to keep every row it would keep.
 * When the series are few, they are read by their chunks instead (`storage/metric_series_rows.ts`):
 * same rows, same order, without a scan of every sample; over the range a time bound in the WHERE
 * gives (`time_bounds.ts`), when decoding the chunks there costs less than scanning the range.
 */
import type { Storage, TableMeta } from "../../storage/mod.ts";
import { isLogicalTable, ttlCutoff } from "../../storage/mod.ts";
import { labelColumn, logicalSeriesRowsSql } from "../../storage/metric_layout.ts";
import {
  chunkedShare,
  fewSeries,
  logicalChunkRowsSql,
  type TimeRange,
} from "../../storage/metric_series_rows.ts";
import { metricHead } from "../../storage/metric_head.ts";
import { quoteIdent } from "../../storage/table.ts";
import type { QueryTokens } from "../query_tokens.ts";
import { registerSqlFunctions } from "../functions/registry.ts";
import { literalConjuncts, type RelationRef, whereNames } from "./where_conjuncts.ts";
import { whereTimeRange } from "./time_bounds.ts";

/** A reference to a metric-engine logical table, up to token `end` (its alias after). */
export interface MetricRef extends RelationRef {
  table: TableMeta;
  end: number;
  alias?: string;
}

/** The most literals of an IN list turned into a series filter. */
const MAX_VALUES = 256;

/** Operators a label test takes besides equality and IN, as SQLite writes them. */
const LABEL_OPS = new Map([["!=", "<>"], ["<>", "<>"], ["~", "REGEXP"], ["!~", "NOT REGEXP"]]);

/** Whether a resolved table is one whose references may take a series filter. */
export function isMetricRef(t: TableMeta): boolean {
  return isLogicalTable(t);
}

/** The tag columns of a table by lowercased name, leaving out names two tags share. */
function tagsByName(t: TableMeta): Map<string, string> {
  const out = new Map<string, string>(), shared = new Set<string>();
  for (const c of t.columns) {
    if (c.semantic !== "TAG") continue;
    const k = c.name.toLowerCase();
    if (out.has(k)) shared.add(k);
    out.set(k, c.name);
  }
  for (const k of shared) out.delete(k);
  return out;
}

/**
 * The replacements of metric table references that read only the series their WHERE picks by tag,
 * keyed by the reference's first token; `emit` renders a literal as the rest of the query does.
 */
export function metricSeriesFilters(
  q: QueryTokens,
  refs: readonly MetricRef[],
  storage: Storage,
  emit: (a: number, b: number) => string,
): Map<number, { end: number; text: string }> {
  const out = new Map<number, { end: number; text: string }>();
  for (const ref of refs) {
    const t = ref.table;
    const tags = tagsByName(t);
    const found = literalConjuncts(q, ref, new Set(tags.keys()), MAX_VALUES, new Set(LABEL_OPS.keys()));
    const physical = storage.getTable(t.db, t.options.on_physical_table);
    if (found.length === 0 || physical === undefined) continue;
    const labelsWhere = found.map((c) => {
      const values = c.lits.map((i) => emit(i, i + 1).trim());
      const col = labelColumn(tags.get(c.column)!);
      if (c.op === "IN") return `${col} IN (${values.join(", ")})`;
      return `${col} ${LABEL_OPS.get(c.op) ?? "="} ${values[0]}`;
    }).join(" AND ");
    const cutoff = ttlCutoff(t);
    // expired samples hidden as any reference to the table hides them (catalog_view's tableRefSql)
    const ttl = cutoff === undefined ? "" : ` AND s.ts >= ${cutoff}`;
    out.set(ref.start, {
      end: ref.end,
      text: `(${
        rowsSql(storage, physical, t, labelsWhere, { q, ref, emit, where: found[0].where, cutoff })
      }${ttl})${ref.alias ? "" : ` AS ${quoteIdent(t.name)}`}`,
    });
  }
  return out;
}

/**
 * A chunk read costs ~25× a scanned sample per sample it returns (decoding, then JSON to rows, since
 * node:sqlite has no table functions), measured on 2k series × 1 day: the chosen series' chunks are
 * read only when they are at most this share of the physical table's series (so of its samples).
 */
const CHUNK_SHARE = 1 / 32;

/**
 * The same limit for a read bounded in time, before `chunkedShare` scales it: measured on 5k series
 * × 1 day at 1 min (`deno task bench reads` data, 2026-11-28, a loaded 2-core machine), 50/100/150
 * series over 24 h and 6 h: `count(*), sum(…)` by chunks was ~2× faster at 100 series (1/56) and
 * about even at 150 (1/37), `SELECT *` (whose rows cost the same either way) ~10% slower from 50 on.
 */
const RANGE_CHUNK_SHARE = 1 / 48;

/** Where the reference's WHERE is, for reading the time it names. */
interface WhereOf {
  q: QueryTokens;
  ref: MetricRef;
  emit: (a: number, b: number) => string;
  where: number;
  /** The ttl's cutoff the reference applies, if any. */
  cutoff: bigint | undefined;
}

/**
 * The rows of the chosen series: by their chunks when they are few and the WHERE names no time (so
 * nothing bounds the read but the series) or bounds it to a range over which decoding their chunks
 * costs less than scanning every series' samples (`chunkedShare`); else by a scan of the samples
 * table, which the time-first key bounds to the WHERE's range.
 */
function rowsSql(
  storage: Storage,
  physical: TableMeta,
  t: TableMeta,
  labelsWhere: string,
  w: WhereOf,
): string {
  const handle = storage.database(t.db);
  registerSqlFunctions(handle.conn); // the label test may be a regex, a bound may call now()
  const time = t.timeIndex.toLowerCase();
  let range: TimeRange | undefined, share = CHUNK_SHARE;
  if (whereNames(w.q, w.where).has(time)) {
    range = whereTimeRange(w.q, w.ref, time, w.emit, (sql) => {
      try {
        const stmt = handle.conn.prepare(sql);
        stmt.setReadBigInts(true);
        return Object.values(stmt.get() ?? {})[0];
      } catch {
        return undefined;
      }
    });
    if (range === undefined) return logicalSeriesRowsSql(physical, t, labelsWhere);
    const cutoff = w.cutoff;
    // expired samples are never read: a ttl bounds the range as the WHERE does
    if (cutoff !== undefined && (range.lo === null || cutoff > range.lo)) range = { ...range, lo: cutoff };
    metricHead(handle, physical);
    share = RANGE_CHUNK_SHARE * chunkedShare(handle, physical, range);
  }
  if (share <= 0 || fewSeries(handle, physical, t, labelsWhere, share) !== true) {
    return logicalSeriesRowsSql(physical, t, labelsWhere);
  }
  metricHead(handle, physical); // creates the chunk tables of a table older than them
  return logicalChunkRowsSql(physical, t, labelsWhere, range);
}
