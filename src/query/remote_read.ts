/**
 * What a remote-read query reads (reference §6.9): exactly one `__name__` equality picks the metric,
 * database matchers pick the database, the other matchers filter its series.
 */
import { databaseNotFound, invalidArguments } from "../common/errors.ts";
import { DATABASE_LABELS } from "../common/labels.ts";
import type { LabelMatcher } from "../common/label_matcher.ts";
import type { Series } from "../common/series.ts";
import type { ReadQuery } from "../protocols/remote_read/request.ts";
import type { Storage } from "../storage/mod.ts";
import { selectSeries } from "./series.ts";

/** What one query reads, with the special matchers taken out (reference §6.9). */
export interface ReadTarget {
  metric: string;
  /** From an equality matcher on `__schema__`, `__database__` or `x_greptime_database`. */
  database?: string;
  /** The remaining matchers, to filter series by. */
  matchers: LabelMatcher[];
}

/** Splits a query's matchers into metric, database and filters; needs exactly one `__name__` equality. */
export function readQueryTarget(query: ReadQuery): ReadTarget {
  const names = query.matchers.filter((m) => m.name === "__name__");
  if (names.length === 0) {
    throw invalidArguments("Invalid prometheus remote request, msg: missing '__name__' label in timeseries");
  }
  const eq = names.filter((m) => m.type === "EQ" && m.value !== "");
  if (eq.length !== 1 || names.length !== 1) {
    throw invalidArguments(
      "Invalid prometheus remote request, msg: expected exactly one non-empty equality matcher for '__name__'",
    );
  }
  const target: ReadTarget = { metric: eq[0].value, matchers: [] };
  for (const m of query.matchers) {
    if (m.name === "__name__") continue;
    if (m.type === "EQ" && DATABASE_LABELS.includes(m.name)) {
      if (target.database === undefined || m.name === "__schema__") target.database = m.value;
      continue;
    }
    target.matchers.push(m);
  }
  return target;
}

/**
 * The series answering one remote-read query. A metric with no table yields no series, as Prometheus'
 * own remote-read server answers for an unknown metric: a 400 would turn into a warning on every
 * query a Prometheus with a local copy of other metrics sends (the database must exist, though).
 */
export function readRemoteQuery(storage: Storage, defaultDb: string, query: ReadQuery): Series[] {
  const target = readQueryTarget(query);
  const db = target.database ?? defaultDb;
  if (!storage.hasDatabase(db)) throw databaseNotFound(db);
  const { startMs, endMs } = query;
  return selectSeries(storage, { db, metric: target.metric, matchers: target.matchers, startMs, endMs });
}
