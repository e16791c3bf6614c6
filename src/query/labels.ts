/**
 * Label names, label values and series for Prometheus' metadata endpoints (`/labels`,
 * `/label/{name}/values`, `/series`). A metric-engine table's series come from its series index,
 * kept when they hold samples in the time range (at hour granularity for compacted data, no sample
 * decoded); an ordinary table's series are its distinct tag tuples in the time range, with
 * `__name__` = the table.
 */
import { DATABASE_LABELS, FIELD_LABEL } from "../common/labels.ts";
import { type LabelMatcher, matchLabel, matchLabels } from "../common/label_matcher.ts";
import { sortSeries } from "../common/series.ts";
import { msToUnit, type TimeUnit, unitOf } from "../common/time_unit.ts";
import { isLogicalTable, type Storage, type TableMeta } from "../storage/mod.ts";
import { metricTables, resolveMetrics } from "./promql_queryable.ts";

/** What a metadata request asks about. */
export interface LabelsQuery {
  db: string;
  /** `match[]` selectors; a series matching any of them counts. Empty: every series. */
  matchSets: LabelMatcher[][];
  startMs: number;
  endMs: number;
}

type LabelSet = Record<string, string>;

const NUMERIC = /^(Float|Int|UInt)/;

const I64_MIN = -(2n ** 63n), I64_MAX = 2n ** 63n - 1n;
const clamp = (v: bigint) => v < I64_MIN ? I64_MIN : v > I64_MAX ? I64_MAX : v;

/**
 * Inclusive bounds of [startMs, endMs] in a unit, within int64 (Prometheus' default bounds are
 * its min and max times); a finer unit's end covers its whole millisecond.
 */
function unitRange(startMs: number, endMs: number, unit: TimeUnit): [bigint, bigint] {
  if (unit === "s") {
    return [BigInt(Math.ceil(startMs / 1000)), BigInt(Math.floor(endMs / 1000))].map(clamp) as [
      bigint,
      bigint,
    ];
  }
  return [clamp(msToUnit(Math.ceil(startMs), unit)), clamp(msToUnit(Math.floor(endMs) + 1, unit) - 1n)];
}

function tagsOf(table: TableMeta): string[] {
  return table.columns.filter((c) => c.semantic === "TAG").map((c) => c.name);
}

/** One table's label sets matching the matchers (which hold no `__name__` or database label). */
function tableSeries(
  storage: Storage,
  db: string,
  table: TableMeta,
  matchers: LabelMatcher[],
  q: LabelsQuery,
) {
  const labelMatchers = matchers.filter((m) => m.name !== FIELD_LABEL);
  if (isLogicalTable(table)) {
    return storage.listSeries(db, table.name, labelMatchers, { startMs: q.startMs, endMs: q.endMs }) ?? [];
  }
  const tags = tagsOf(table);
  // a label the table lacks reads as "" on every row: a matcher refusing "" rules the table out unread
  if (labelMatchers.some((m) => m.name !== "__name__" && !tags.includes(m.name) && !matchLabel(m, ""))) {
    return [];
  }
  const unit = unitOf(table.columns.find((c) => c.name === table.timeIndex)?.type ?? "");
  const scan = { timeRange: unitRange(q.startMs, q.endMs, unit) };
  if (tags.length === 0) {
    // one series, there when any row is in the range: the first row found answers
    const rows = storage.iterateTable(db, table.name, { ...scan, columns: [table.timeIndex] });
    const any = !rows.next().done;
    rows.return(undefined); // ends the statement (and its read of the file) now
    return any && matchLabels(labelMatchers, { __name__: table.name }) ? [{ __name__: table.name }] : [];
  }
  // SQLite keeps each distinct tag tuple once, so the rows of the range never reach JS
  const rows = storage.scanTable(db, table.name, { ...scan, columns: tags, distinct: true });
  const seen = new Set<string>(), out: LabelSet[] = [];
  for (const row of rows) {
    const labels: LabelSet = { __name__: table.name };
    for (let i = 0; i < tags.length; i++) {
      const v = row[i];
      if (v !== null && v !== "") labels[tags[i]] = String(v);
    }
    // NULL and "" (and a NUL-holding BLOB and its text) can still be distinct rows of one label set
    const key = JSON.stringify(row);
    if (seen.has(key)) continue;
    seen.add(key);
    if (matchLabels(labelMatchers, labels)) out.push(labels);
  }
  return out;
}

/** The label sets of every series matching any of the match sets, sorted, each once. */
export function findSeries(storage: Storage, q: LabelsQuery): LabelSet[] {
  const sets = q.matchSets.length > 0 ? q.matchSets : [[]];
  const seen = new Set<string>(), out: LabelSet[] = [];
  for (const matchers of sets) {
    const sel = resolveMetrics(storage, q.db, matchers);
    for (const table of sel.tables) {
      for (const labels of tableSeries(storage, sel.db, table, sel.matchers, q)) {
        const key = JSON.stringify(Object.entries(labels).sort());
        if (!seen.has(key)) seen.add(key), out.push(labels);
      }
    }
  }
  return sortSeries(out.map((labels) => ({ labels }))).map((s) => s.labels);
}

/** Label names: of the matching series, else every tag column of the database's tables and `__name__`. */
export function labelNames(storage: Storage, q: LabelsQuery): string[] {
  const names = new Set<string>();
  if (q.matchSets.length > 0) {
    for (const s of findSeries(storage, q)) for (const k of Object.keys(s)) names.add(k);
  } else {
    for (const t of metricTables(storage, q.db)) {
      names.add("__name__");
      for (const tag of tagsOf(t)) names.add(tag);
    }
  }
  return [...names].sort();
}

/**
 * Values of a label: metric names for `__name__`, numeric field columns for `__field__`, database
 * names for the database labels; any other label's values among the matching series (without
 * `match[]`, among the series of every table that has that tag).
 */
export function labelValues(storage: Storage, name: string, q: LabelsQuery): string[] {
  if (DATABASE_LABELS.includes(name)) return storage.listDatabases();
  const values = new Set<string>();
  const tables = () =>
    q.matchSets.length > 0
      ? q.matchSets.flatMap((ms) => resolveMetrics(storage, q.db, ms).tables)
      : metricTables(storage, q.db);
  if (name === FIELD_LABEL) {
    for (const t of tables()) {
      for (const c of t.columns) if (c.semantic === "FIELD" && NUMERIC.test(c.type)) values.add(c.name);
    }
  } else if (name === "__name__" && q.matchSets.length === 0) {
    for (const t of metricTables(storage, q.db)) values.add(t.name);
  } else {
    const matchSets = q.matchSets.length > 0
      ? q.matchSets
      : metricTables(storage, q.db).filter((t) => tagsOf(t).includes(name)).map((t) => [
        { type: "EQ" as const, name: "__name__", value: t.name },
      ]);
    if (matchSets.length === 0) return [];
    for (const s of findSeries(storage, { ...q, matchSets })) {
      if (Object.hasOwn(s, name)) values.add(s[name]);
    }
  }
  return [...values].sort();
}
