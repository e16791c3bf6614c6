/**
 * PromQL's view of one database: a selector's `__name__` matchers pick tables (an equality names
 * one; a regex or negation is tried against every table), the special database labels
 * (`__schema__`, `__database__`) pick another database, and each table's series come from
 * `selectColumns`. The samples read are counted against the query's sample limit as they arrive, so
 * a query that would load too many fails before the next table is read.
 */
import { DATABASE_LABELS } from "../common/labels.ts";
import { type LabelMatcher, matchLabel } from "../common/label_matcher.ts";
import { type ColumnarSeries, sortSeries } from "../common/series.ts";
import { checkAbort, tooManySamples } from "../promql/errors.ts";
import type { Queryable, SelectRequest } from "../promql/queryable.ts";
import { INFORMATION_SCHEMA, isPhysicalTable, type TableMeta } from "../storage/mod.ts";
import type { SeriesStore } from "../storage/read_only.ts";
import { selectColumns } from "./series.ts";

/** The tables a selector reads, in which database, and its matchers without `__name__` and database labels. */
export interface MetricSelection {
  db: string;
  tables: TableMeta[];
  matchers: LabelMatcher[];
}

/** Tables of a database that hold metrics (every table but the metric engine's physical ones). */
export function metricTables(storage: SeriesStore, db: string): TableMeta[] {
  if (db === INFORMATION_SCHEMA || !storage.hasDatabase(db)) return [];
  return storage.listTables(db).filter((t) => !isPhysicalTable(t));
}

/**
 * Splits a selector's matchers into the tables they name and the label matchers left to apply.
 * An equality on a database label wins over `defaultDb` (`__schema__` over the others, as remote
 * read does); a database that does not exist has no tables.
 */
export function resolveMetrics(
  storage: SeriesStore,
  defaultDb: string,
  matchers: LabelMatcher[],
): MetricSelection {
  let db = defaultDb, schemaSet = false;
  const names: LabelMatcher[] = [], rest: LabelMatcher[] = [];
  for (const m of matchers) {
    if (m.name === "__name__") names.push(m);
    else if (m.type === "EQ" && DATABASE_LABELS.includes(m.name)) {
      if (!schemaSet) db = m.value;
      schemaSet ||= m.name === "__schema__";
    } else rest.push(m);
  }
  const named = names.find((m) => m.type === "EQ");
  let candidates: TableMeta[];
  if (named !== undefined) {
    const t = db === INFORMATION_SCHEMA || !storage.hasDatabase(db)
      ? undefined
      : storage.getTable(db, named.value);
    candidates = t === undefined || isPhysicalTable(t) ? [] : [t];
  } else candidates = metricTables(storage, db);
  return { db, tables: candidates.filter((t) => names.every((m) => matchLabel(m, t.name))), matchers: rest };
}

/** Options of a {@link StorageQueryable}. */
export interface StorageQueryableOptions {
  /** Most samples the query may load (Prometheus' `--query.max-samples`). */
  maxSamples: number;
}

/**
 * A {@link Queryable} over one database for one query: the sample count accumulates over all of
 * the query's selectors.
 */
export class StorageQueryable implements Queryable {
  private loaded = 0;

  constructor(
    private readonly storage: SeriesStore,
    private readonly db: string,
    private readonly opts: StorageQueryableOptions,
  ) {}

  /** Samples loaded so far. */
  get samplesLoaded(): number {
    return this.loaded;
  }

  select(req: SelectRequest, signal?: AbortSignal): Promise<ColumnarSeries[]> {
    const sel = resolveMetrics(this.storage, this.db, req.matchers);
    const out: ColumnarSeries[] = [];
    for (const table of sel.tables) {
      checkAbort(signal, "query preparation");
      const reserve = (samples: number) => {
        if (this.loaded + samples > this.opts.maxSamples) throw tooManySamples();
      };
      const series = readMetric(
        this.storage,
        sel.db,
        table.name,
        sel.matchers,
        req.startMs,
        req.endMs,
        reserve,
      );
      for (const s of series) this.loaded += s.timestamps.length;
      if (this.loaded > this.opts.maxSamples) throw tooManySamples();
      for (const s of series) out.push(s);
    }
    return Promise.resolve(sel.tables.length > 1 ? sortSeries(out) : out);
  }
}

/** One table's series: the one place that knows the shape storage hands series back in. */
function readMetric(
  storage: SeriesStore,
  db: string,
  metric: string,
  matchers: LabelMatcher[],
  startMs: number,
  endMs: number,
  reserve: (samples: number) => void,
): ColumnarSeries[] {
  return selectColumns(storage, { db, metric, matchers, startMs, endMs }, reserve);
}
