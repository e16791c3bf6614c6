/**
 * The queries of the metric chunk fuzz (`metric_chunk_fuzz.ts`): random SQL over its tables with a
 * tag filter, sometimes bounded in time (bounds on sample times, ±1 ms, across compacted and open
 * hours, now()), and the three forms each runs in.
 */
import { BASE, chance, HOSTS, HOUR, int, pick, TAGS, VALUES } from "./metric_chunk_fuzz_common.ts";

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** A condition on the tags of `table` (alias `a`, or none). */
function tagCond(table: string, a = ""): string {
  const tag = pick(TAGS[table]);
  const col = a + tag, vals = VALUES[tag];
  switch (int(12)) {
    case 0:
    case 1:
    case 2:
      return `${col} = ${q(pick(vals))}`;
    case 3:
      return `${col} != ${q(pick(vals))}`;
    case 4:
      return `${col} IN (${Array.from({ length: 1 + int(3) }, () => q(pick(vals))).join(", ")})`;
    case 5:
      return `${col} ~ ${q(pick(["^h[12]$", "1", "^j", "'", "sd.", "^(h3|east)$", "["]))}`;
    case 6:
      return `${col} !~ ${q(pick(["^h[0-7]$", "j", "."]))}`;
    case 7:
      return `${col} LIKE ${q(pick(["h1%", "%b", "a\\%b", "j_"]))}`;
    case 8:
      return `(${col} = ${q(pick(vals))} OR ${a}host = ${q(pick(HOSTS))})`;
    case 9:
      return `NOT (${col} = ${q(pick(vals))})`;
    case 10:
      return `${col} IS ${pick(["", "NOT "])}NULL`;
    default:
      return `${a}host = ${a}${pick(TAGS[table].filter((t) => t !== "host"))}`;
  }
}

function valueCond(a = ""): string {
  return pick([
    `${a}greptime_value > ${int(400) - 200}`,
    `${a}greptime_value IS NULL`,
    `${a}greptime_value IS NOT NULL`,
    `${a}greptime_value < 0`,
  ]);
}

/** The times of the samples written, by table and by `table/host`, so a bound falls on one (or next to one) often. */
let sampleTimes: ReadonlyMap<string, readonly number[]> = new Map();

/** Gives the queries the times of the samples written, by table and by `table/host`. */
export function setSampleTimes(times: ReadonlyMap<string, readonly number[]>): void {
  sampleTimes = times;
}

/** A time in or near the data of `table` (or `table/host`): often a sample's, or 1 ms off it; before 1970 too. */
function time(table: string): number {
  const times = sampleTimes.get(table) ?? [];
  if (times.length > 0 && chance(0.7)) return pick(times) + pick([0, 0, 0, 1, -1]);
  return chance(0.05) ? -int(5 * HOUR) : BASE - HOUR + int(8 * HOUR);
}

/** A time as a literal: milliseconds, or a timestamp string (exact to the millisecond). */
function timeLit(t: number): string {
  return chance(0.6) ? String(t) : `'${new Date(t).toISOString()}'`;
}

/** A condition bounding the time (one side, both, BETWEEN, swapped sides, now(), a point) near `table`'s data. */
function timeCond(table: string, a = ""): string {
  const ts = `${a}greptime_timestamp`;
  const [x, y] = [time(table), time(table)].sort((m, n) => m - n);
  switch (int(9)) {
    case 0:
      return `${ts} >= ${timeLit(x)}`;
    case 1:
      return `${ts} > ${timeLit(x)}`;
    case 2:
      return `${ts} < ${timeLit(y)}`;
    case 3:
      return `${ts} <= ${timeLit(y)}`;
    case 4:
      return `${ts} BETWEEN ${timeLit(x)} AND ${timeLit(y)}`;
    case 5:
      return `${timeLit(x)} <= ${ts} AND ${timeLit(y)} > ${ts}`;
    case 6:
      return `${ts} > now() - INTERVAL '${1 + int(8)} hours'${chance(0.5) ? ` AND ${ts} < now()` : ""}`;
    case 7:
      return `${ts} >= ${timeLit(x)} AND ${ts} < ${timeLit(y)}`;
    default:
      return `${ts} = ${timeLit(x)}`;
  }
}

/** A WHERE body: usually a selective equality/IN on host and more conjuncts, half bounded in time. */
function where(table: string, a = ""): string {
  const conj: string[] = [];
  const first = int(4), host = pick(HOSTS);
  if (first === 0) conj.push(`${a}host = ${q(host)}`);
  else if (first === 1) conj.push(`${a}host IN (${q(pick(HOSTS))}, ${q(pick(HOSTS))})`);
  else if (first === 2) conj.push(`${a}host ~ ${q(pick(["^h[12]$", "^h3$", "7"]))}`);
  for (let k = int(3); k > 0; k--) conj.push(chance(0.8) ? tagCond(table, a) : valueCond(a));
  if (conj.length === 0) conj.push(tagCond(table, a));
  if (chance(0.5)) {
    conj.splice(int(conj.length + 1), 0, timeCond(first === 0 ? `${table}/${host}` : table, a));
  }
  return conj.join(" AND ");
}

const COLS: Record<string, string[]> = {
  latency: ["greptime_timestamp", "host", "path", "job", "greptime_value"],
  cpu: ["greptime_timestamp", "host", "job", "dc", "greptime_value"],
  disk: ["greptime_timestamp", "host", "dev", "job", "greptime_value"],
};

/** A query with `{w}` where the WHERE body goes, its WHERE body, and whether its order is total. */
export interface Case {
  sql: string;
  where: string;
  ordered: boolean;
}

export function query(): Case {
  const table = pick(["cpu", "disk", "latency"]), other = table === "cpu" ? "disk" : "cpu";
  const w = where(table);
  const all = COLS[table].join(", ");
  const shapes: Array<() => Case> = [
    () => ({ sql: `SELECT * FROM ${table} WHERE {w}`, where: w, ordered: false }),
    () => ({
      sql: `SELECT count(*), count(greptime_value), sum(greptime_value), min(greptime_value), ` +
        `max(greptime_value), min(greptime_timestamp), max(greptime_timestamp) FROM ${table} WHERE {w}`,
      where: w,
      ordered: true,
    }),
    () => {
      const tag = pick(TAGS[table]);
      return {
        sql: `SELECT ${tag}, count(*), avg(greptime_value), max(greptime_timestamp) FROM ${table} ` +
          `WHERE {w} GROUP BY ${tag} ORDER BY ${tag}`,
        where: w,
        ordered: true,
      };
    },
    () => ({
      sql: `SELECT ${all} FROM ${table} WHERE {w} ORDER BY greptime_timestamp ${pick(["", "DESC"])}, ` +
        `${COLS[table].slice(1).join(", ")} LIMIT ${1 + int(30)}`,
      where: w,
      ordered: true,
    }),
    () => ({ sql: `SELECT ${all} FROM ${table} WHERE {w} LIMIT ${1 + int(20)}`, where: w, ordered: true }),
    () => ({
      sql: `SELECT greptime_timestamp, greptime_value * 2, typeof(greptime_value), ` +
        `CAST(greptime_value AS STRING) FROM ${table} WHERE {w}`,
      where: w,
      ordered: false,
    }),
    () => {
      const wa = where(table, "a.");
      return {
        sql: `SELECT a.host, count(*), sum(b.greptime_value) FROM ${table} a JOIN ${other} b ` +
          `ON a.host = b.host AND a.greptime_timestamp = b.greptime_timestamp WHERE {w} GROUP BY a.host`,
        where: wa,
        ordered: false,
      };
    },
    () => {
      const wa = where(table, "a.");
      return {
        sql: `SELECT a.greptime_timestamp, a.host, a.greptime_value, b.greptime_value FROM ${table} a ` +
          `JOIN ${table} b ON a.greptime_timestamp = b.greptime_timestamp AND a.host != b.host WHERE {w}`,
        where: wa,
        ordered: false,
      };
    },
    () => ({
      sql: `WITH x AS (SELECT * FROM ${table} WHERE {w}) SELECT host, count(*), min(greptime_value) FROM x ` +
        `GROUP BY host`,
      where: w,
      ordered: false,
    }),
    () => ({
      sql: `SELECT count(*) FROM (SELECT host, greptime_value FROM ${table} WHERE {w}) t WHERE ` +
        `greptime_value >= 0`,
      where: w,
      ordered: true,
    }),
    () => ({
      sql: `SELECT host, greptime_timestamp FROM ${table} WHERE {w}`,
      where: `${w} AND host IN (SELECT host FROM ${other} WHERE ${where(other)})`,
      ordered: false,
    }),
    () => ({
      sql: `SELECT * FROM v_${table} WHERE {w}`,
      where: w,
      ordered: false,
    }),
    () => ({
      sql: `SELECT date_bin(INTERVAL '1 hour', greptime_timestamp) AS h, count(*), sum(greptime_value) ` +
        `FROM ${table} WHERE {w} GROUP BY h ORDER BY h`,
      where: w,
      ordered: true,
    }),
  ];
  shapes.push(
    () => ({
      sql: `SELECT DISTINCT host, job FROM ${table} WHERE {w} ORDER BY host, job`,
      where: w,
      ordered: true,
    }),
    () => ({
      sql: `SELECT greptime_timestamp, host, lag(greptime_value) OVER (PARTITION BY host, job ` +
        `ORDER BY greptime_timestamp) FROM ${table} WHERE {w}`,
      where: w,
      ordered: false,
    }),
    () => ({
      sql: `SELECT host, count(*) FROM ${table} WHERE {w} GROUP BY host HAVING count(*) > 3 ` +
        `UNION ALL SELECT host, count(*) FROM ${other} WHERE host = ${q(pick(HOSTS))} GROUP BY host`,
      where: w,
      ordered: false,
    }),
    () => ({
      sql: `SELECT host, (SELECT count(*) FROM ${other} o WHERE o.host = ${q(pick(HOSTS))} ` +
        `AND o.greptime_value > t.greptime_value) FROM ${table} t WHERE {w}`,
      where: w,
      ordered: false,
    }),
  );
  return pick(shapes)();
}

/** The three forms of a case: as is, the plain view, the series-filtered scan. */
export function forms(c: Case): [string, string, string] {
  const time = /\ba\./.test(c.where) ? "a.greptime_timestamp" : "greptime_timestamp";
  // (a function: a replacement string would read `$'` in a regex literal as a pattern)
  const put = (w: string) => c.sql.replace("{w}", () => w);
  return [put(c.where), put(`(${c.where}) OR false`), put(`${c.where} AND ${time} IS NOT NULL`)];
}
