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
 * When the WHERE names no time and the series are few, they are read by their chunks instead
 * (`storage/metric_series_rows.ts`): same rows, same order, without a scan of every sample.
 */
import type { Storage, TableMeta } from "../../storage/mod.ts";
import { isLogicalTable, ttlCutoff } from "../../storage/mod.ts";
import { labelColumn, logicalSeriesRowsSql } from "../../storage/metric_layout.ts";
import { fewSeries, logicalChunkRowsSql } from "../../storage/metric_series_rows.ts";
import { metricHead } from "../../storage/metric_head.ts";
import { quoteIdent } from "../../storage/table.ts";
import type { QueryTokens } from "../query_tokens.ts";
import { registerSqlFunctions } from "../functions/registry.ts";
import { literalConjuncts, type RelationRef, whereNames } from "./where_conjuncts.ts";

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
      text: `(${rowsSql(storage, physical, t, labelsWhere, whereNames(q, found[0].where))}${ttl})${
        ref.alias ? "" : ` AS ${quoteIdent(t.name)}`
      }`,
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
 * The rows of the chosen series: by their chunks when the WHERE names no time (so nothing bounds the
 * read but the series) and they are few, else by a scan of the samples table, whose time-first key a
 * time condition bounds (decoding every chunk of the series would cost more than a short range).
 */
function rowsSql(
  storage: Storage,
  physical: TableMeta,
  t: TableMeta,
  labelsWhere: string,
  names: ReadonlySet<string>,
): string {
  if (names.has(t.timeIndex.toLowerCase())) return logicalSeriesRowsSql(physical, t, labelsWhere);
  const handle = storage.database(t.db);
  registerSqlFunctions(handle.conn); // the label test may be a regex
  if (fewSeries(handle, physical, t, labelsWhere, CHUNK_SHARE) !== true) {
    return logicalSeriesRowsSql(physical, t, labelsWhere);
  }
  metricHead(handle, physical); // creates the chunk tables of a table older than them
  return logicalChunkRowsSql(physical, t, labelsWhere);
}
