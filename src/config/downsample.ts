/**
 * `[[downsample]]` rules of the configuration file, validated at start-up so a bad rule stops
 * Petrel with a message naming the rule and the key:
 *
 * ```toml
 * [[downsample]]
 * source = "cpu_usage"          # a metric (metric-engine table) or an ordinary table
 * database = "public"           # the source's database (default public)
 * interval = "5m"               # the window length
 * aggregates = ["avg", "max"]   # any of avg, min, max, sum, count, last (default all six)
 * target = "cpu_usage_5m"       # a metric source gives metrics target_avg, target_max, …
 * target_database = "public"    # default: the source's database
 * ttl = "90d"                   # the ttl of created target tables (default: none)
 * delay = "1m"                  # a window is computed this long after it ends (default 1m)
 * max_lateness = "7d"           # late writes this old or newer recompute their window (default 7d; "0s": never)
 * ```
 */
import { parseDuration } from "../common/humantime.ts";
import type { FlowSink } from "../downsample/flow_spec.ts";

/** The aggregates a rule may compute. */
export const AGGREGATES = ["avg", "min", "max", "sum", "count", "last"] as const;
/** One aggregate. */
export type Aggregate = typeof AGGREGATES[number];

/** A validated rule; durations in ms. */
export interface DownsampleRule {
  source: string;
  database: string;
  interval: number;
  aggregates: Aggregate[];
  target: string;
  target_database: string;
  /** The ttl text for created target tables, or "" for none. */
  ttl: string;
  delay: number;
  /**
   * How old (ms before now) a write into a window already computed may be and still have the window
   * recomputed; 0 never recomputes.
   */
  max_lateness: number;
  /** Set on rules compiled from `CREATE FLOW`: the sink's layout (never from the TOML). */
  sink?: FlowSink;
}

/** The default `max_lateness`: a week covers an agent offline over a long weekend, and bounds a backfill's recomputation. */
export const DEFAULT_MAX_LATENESS = "7d";

const KEYS = new Set([
  "source",
  "database",
  "interval",
  "aggregates",
  "target",
  "target_database",
  "ttl",
  "delay",
  "max_lateness",
]);
const TABLE_NAME = /^[A-Za-z_:][A-Za-z0-9_:\-.]*$/;
const DB_NAME = /^[A-Za-z_][A-Za-z0-9_\-]*$/;

/** Parses the `downsample` array of tables; throws an Error naming the rule and key. */
export function parseDownsampleRules(raw: unknown): DownsampleRule[] {
  if (!Array.isArray(raw)) throw new Error("'downsample' must be an array of tables ([[downsample]])");
  const rules = raw.map((entry, i) => parseRule(entry, `[[downsample]] #${i + 1}`));
  const seen = new Map<string, number>();
  rules.forEach((r, i) => {
    const key = `${r.target_database}.${r.target}`;
    const other = seen.get(key);
    if (other !== undefined) {
      throw new Error(`[[downsample]] #${i + 1}: target ${key} is already the target of rule #${other + 1}`);
    }
    seen.set(key, i);
  });
  return rules;
}

function parseRule(entry: unknown, where: string): DownsampleRule {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new Error(`${where}: expected a table`);
  }
  const e = entry as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (!KEYS.has(k)) throw new Error(`${where}: unknown key '${k}' (known: ${[...KEYS].join(", ")})`);
  }
  const text = (key: string, def?: string): string => {
    const v = e[key] ?? def;
    if (v === undefined) throw new Error(`${where}: '${key}' is required`);
    if (typeof v !== "string" || v.trim() === "") {
      throw new Error(`${where}: '${key}' must be a non-empty string`);
    }
    return v.trim();
  };
  const name = (key: string, pattern: RegExp, def?: string): string => {
    const v = text(key, def);
    if (!pattern.test(v)) throw new Error(`${where}: '${key}' is not a valid name: ${JSON.stringify(v)}`);
    return v;
  };
  const duration = (key: string, def?: string, min = 1): number => {
    const v = text(key, def);
    const ms = parseDuration(v);
    if (ms === null || ms < min) {
      throw new Error(`${where}: '${key}' must be a duration like "5m", got ${JSON.stringify(v)}`);
    }
    return ms;
  };
  const source = name("source", TABLE_NAME);
  const database = name("database", DB_NAME, "public");
  const interval = duration("interval");
  if (interval < 1000 || interval % 1000 !== 0) {
    throw new Error(`${where}: 'interval' must be a whole number of seconds, at least 1s`);
  }
  const target = name("target", TABLE_NAME);
  const targetDatabase = name("target_database", DB_NAME, database);
  if (target === source && targetDatabase === database) {
    throw new Error(`${where}: 'target' must differ from 'source'`);
  }
  const ttl = e.ttl === undefined ? "" : text("ttl");
  if (ttl !== "" && ttl !== "forever" && parseDuration(ttl) === null) {
    throw new Error(`${where}: 'ttl' must be a duration like "90d" or "forever", got ${JSON.stringify(ttl)}`);
  }
  return {
    source,
    database,
    interval,
    aggregates: parseAggregates(e.aggregates, where),
    target,
    target_database: targetDatabase,
    ttl,
    delay: duration("delay", "1m", 0),
    max_lateness: duration("max_lateness", DEFAULT_MAX_LATENESS, 0),
  };
}

function parseAggregates(raw: unknown, where: string): Aggregate[] {
  if (raw === undefined) return [...AGGREGATES];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new Error(`${where}: 'aggregates' must be a non-empty list of ${AGGREGATES.join(", ")}`);
  }
  const out: Aggregate[] = [];
  for (const a of raw) {
    const v = typeof a === "string" ? a.trim().toLowerCase() : "";
    if (!(AGGREGATES as readonly string[]).includes(v)) {
      throw new Error(`${where}: unknown aggregate ${JSON.stringify(a)} (known: ${AGGREGATES.join(", ")})`);
    }
    if (!out.includes(v as Aggregate)) out.push(v as Aggregate);
  }
  return out;
}

/** A rule as TOML (for `GET /config`). */
export function renderDownsampleRule(r: DownsampleRule): string[] {
  const lines = [
    "[[downsample]]",
    `source = ${JSON.stringify(r.source)}`,
    `database = ${JSON.stringify(r.database)}`,
    `interval = ${JSON.stringify(`${r.interval / 1000}s`)}`,
    `aggregates = [${r.aggregates.map((a) => JSON.stringify(a)).join(", ")}]`,
    `target = ${JSON.stringify(r.target)}`,
    `target_database = ${JSON.stringify(r.target_database)}`,
  ];
  if (r.ttl !== "") lines.push(`ttl = ${JSON.stringify(r.ttl)}`);
  lines.push(`delay = ${JSON.stringify(`${r.delay}ms`)}`);
  lines.push(`max_lateness = ${JSON.stringify(`${r.max_lateness}ms`)}`);
  return lines;
}
