/**
 * The storage speed targets, measured side by side in one run (called from `scripts/bench.ts`):
 * writer inserts vs a raw prepared-statement insert of the same rows into the same layout, a
 * GROUP BY and a time-range + tag query through `executeSql` vs the same query issued directly to
 * SQLite, and the writer on line-protocol-shaped batches (the HTTP target's storage share).
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Storage } from "../src/storage/mod.ts";
import type { ColumnSchema, Value, WriteBatch } from "../src/common/rows.ts";
import { executeSql } from "../src/sql/mod.ts";
import { enableGroupCommit, flushGroupCommit } from "../src/storage/group_commit.ts";

/** Results of {@link benchStorage}. */
export interface StorageBench {
  writerRowsPerSec: number;
  rawRowsPerSec: number;
  /** writer / raw; the target is ≥ 0.7. */
  ratio: number;
  groupByMs: number;
  rawGroupByMs: number;
  /** skip_wal table (group commit) vs normal table, many 20-row writes (rows/s). */
  skipWalRowsPerSec?: number;
  walRowsPerSec?: number;
  /** One host over a 10 % time range of the GROUP BY table: via executeSql and directly (ms). */
  rangeTagMs?: number;
  rawRangeTagMs?: number;
  /** Writer rows/s on 5000-row batches of 10k series × (3 tags, 4 fields, ns time), last_non_null. */
  lineShapedRowsPerSec?: number;
}

const COLUMNS: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  { name: "v", type: "Float64", semantic: "FIELD" },
];

/** Time-major rows: every host at each timestamp, as real ingestion interleaves them. */
function makeRows(count: number, hosts = 100, t0 = Date.now() - 86_400_000): Value[][] {
  const rows: Value[][] = new Array(count);
  for (let i = 0; i < count; i++) {
    rows[i] = [`host-${i % hosts}`, t0 + Math.floor(i / hosts) * 1000, (i % 997) / 7];
  }
  return rows;
}

const LINE_COLUMNS: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "region", type: "String", semantic: "TAG" },
  { name: "dc", type: "String", semantic: "TAG" },
  { name: "usage_user", type: "Float64", semantic: "FIELD" },
  { name: "usage_system", type: "Float64", semantic: "FIELD" },
  { name: "usage_idle", type: "Float64", semantic: "FIELD" },
  { name: "procs", type: "Int64", semantic: "FIELD" },
  { name: "greptime_timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
];

/** The writer alone on what the line-protocol parser hands it (same series and values as its bench). */
function lineShapedWrites(storage: Storage, rows = 1_000_000, series = 10_000, batchRows = 5000): number {
  const base = 1700000000000000000n;
  const batches: WriteBatch[] = [];
  for (let b = 0; b < rows; b += batchRows) {
    const out: Value[][] = [];
    for (let i = b; i < Math.min(rows, b + batchRows); i++) {
      const h = i % series, ts = base + BigInt(Math.floor(i / series)) * 10000000000n;
      out.push([
        `host_${h}`,
        `r${h % 10}`,
        `dc${h % 3}`,
        (i % 997) / 10,
        (i % 113) / 7,
        (i % 71) * 1.25,
        i % 300,
        ts,
      ]);
    }
    batches.push({ table: "cpu", columns: LINE_COLUMNS, rows: out, createType: "last_non_null" });
  }
  const t = performance.now();
  for (const b of batches) storage.write("public", [b]);
  return rows / ((performance.now() - t) / 1000);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Rows/s of single-row prepared inserts straight to SQLite, in the writer's layout (time-first key). */
function rawInserts(dir: string, rows: Value[][], batchRows: number): number {
  const raw = new DatabaseSync(join(dir, "raw.sqlite"));
  raw.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  raw.exec(
    "CREATE TABLE t (host TEXT NOT NULL, ts INTEGER NOT NULL, v REAL, PRIMARY KEY (ts, host)) WITHOUT ROWID",
  );
  const ins = raw.prepare("INSERT OR REPLACE INTO t (host, ts, v) VALUES (?, ?, ?)");
  const t = performance.now();
  for (let b = 0; b < rows.length; b += batchRows) {
    raw.exec("BEGIN");
    const end = Math.min(rows.length, b + batchRows);
    for (let i = b; i < end; i++) {
      const r = rows[i];
      ins.run(r[0] as string, r[1] as number, r[2] as number);
    }
    raw.exec("COMMIT");
  }
  raw.close();
  return rows.length / ((performance.now() - t) / 1000);
}

/** Median ms of a SQL query through executeSql and of the same SQL straight to SQLite. */
function timeQuery(storage: Storage, ours: string, direct: string, rounds: number): [number, number] {
  const stmt = storage.database("public").conn.prepare(direct);
  (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  const o: number[] = [], d: number[] = [];
  for (let k = 0; k < rounds; k++) {
    let t = performance.now();
    stmt.all();
    d.push(performance.now() - t);
    t = performance.now();
    executeSql(storage, ours, { db: "public" });
    o.push(performance.now() - t);
  }
  return [median(o), median(d)];
}

/** skip_wal vs normal rows/s over many small writes, medians of interleaved rounds on fresh tables. */
function smallWrites(storage: Storage): [wal: number, skipWal: number] {
  const small = makeRows(20_000);
  enableGroupCommit(storage);
  // each committed (wal) or group-committed (skip_wal); the clock stops after the last group commits
  const timeSmall = (table: string, hints: Record<string, string>) => {
    const start = performance.now();
    for (let b = 0; b < small.length; b += 20) {
      storage.write("public", [{ table, columns: COLUMNS, rows: small.slice(b, b + 20) }], { hints });
    }
    flushGroupCommit(storage.database("public"));
    return small.length / ((performance.now() - start) / 1000);
  };
  // one round swings with the load of the machine
  const wal: number[] = [], skipWal: number[] = [];
  for (let k = 0; k < 3; k++) {
    wal.push(timeSmall(`wal_t${k}`, {}));
    skipWal.push(timeSmall(`nowal_t${k}`, { skip_wal: "true" }));
  }
  return [median(wal), median(skipWal)];
}

/** Measures both speed targets; `rows` sizes the insert test, `groupRows` the GROUP BY table. */
export function benchStorage(
  opts: { rows?: number; groupRows?: number; batchRows?: number } = {},
): StorageBench {
  const rowsN = opts.rows ?? 200_000;
  const groupN = opts.groupRows ?? 1_000_000;
  const batchRows = opts.batchRows ?? 5_000;
  const dir = Deno.makeTempDirSync({ prefix: "petrel-bench-" });
  try {
    const rows = makeRows(rowsN);
    const rawRowsPerSec = rawInserts(dir, rows, batchRows);
    const storage = Storage.open({ dataHome: dir });
    const t = performance.now();
    for (let b = 0; b < rows.length; b += batchRows) {
      const batch: WriteBatch = { table: "bench", columns: COLUMNS, rows: rows.slice(b, b + batchRows) };
      storage.write("public", [batch]);
    }
    const writerRowsPerSec = rowsN / ((performance.now() - t) / 1000);
    const more = makeRows(groupN, 100, Date.now() - 40 * 86_400_000);
    for (let b = 0; b < more.length; b += 50_000) {
      storage.write("public", [{ table: "grp", columns: COLUMNS, rows: more.slice(b, b + 50_000) }]);
    }
    const [groupByMs, rawGroupByMs] = timeQuery(
      storage,
      "SELECT host, avg(v) FROM grp GROUP BY host",
      `SELECT host, avg(v) FROM "grp" GROUP BY host`,
      3,
    );
    // one host over a tenth of the time range
    const [lo, hi] = [more[0][1] as number, more[more.length - 1][1] as number];
    const from = Math.floor(lo + (hi - lo) * 0.45), to = Math.floor(lo + (hi - lo) * 0.55);
    const where = `WHERE host = 'host-7' AND ts >= ${from} AND ts < ${to}`;
    const [rangeTagMs, rawRangeTagMs] = timeQuery(
      storage,
      `SELECT count(*), avg(v) FROM grp ${where}`,
      `SELECT count(*), avg(v) FROM "grp" ${where}`,
      5,
    );
    const lineShapedRowsPerSec = lineShapedWrites(storage);
    const [walRowsPerSec, skipWalRowsPerSec] = smallWrites(storage);
    storage.close();
    return {
      writerRowsPerSec,
      rawRowsPerSec,
      ratio: writerRowsPerSec / rawRowsPerSec,
      groupByMs,
      rawGroupByMs,
      walRowsPerSec,
      skipWalRowsPerSec,
      rangeTagMs,
      rawRangeTagMs,
      lineShapedRowsPerSec,
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const r = benchStorage();
  console.log(
    `writer ${Math.round(r.writerRowsPerSec)} rows/s, raw ${Math.round(r.rawRowsPerSec)} rows/s, ratio ${
      r.ratio.toFixed(2)
    }\n` +
      `GROUP BY: ${r.groupByMs.toFixed(1)} ms via executeSql, ${r.rawGroupByMs.toFixed(1)} ms direct (×${
        (r.groupByMs / r.rawGroupByMs).toFixed(2)
      })\n` +
      `small writes: wal ${Math.round(r.walRowsPerSec ?? 0)} rows/s, skip_wal ${
        Math.round(r.skipWalRowsPerSec ?? 0)
      } rows/s\n` +
      `one host, 10 % time range: ${r.rangeTagMs?.toFixed(2)} ms via executeSql, ${
        r.rawRangeTagMs?.toFixed(2)
      } ms direct\n` +
      `line-protocol-shaped batches: writer ${Math.round(r.lineShapedRowsPerSec ?? 0)} rows/s`,
  );
}
