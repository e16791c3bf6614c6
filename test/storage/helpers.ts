/** Shared fixtures for storage tests. */
import type { ColumnSchema, Value } from "../../src/common/rows.ts";
import { Storage } from "../../src/storage/mod.ts";

/** host TAG, ts ms TIMESTAMP, v Float64 FIELD. */
export const CPU: ColumnSchema[] = [
  { name: "host", type: "String", semantic: "TAG" },
  { name: "ts", type: "TimestampMillisecond", semantic: "TIMESTAMP" },
  { name: "v", type: "Float64", semantic: "FIELD" },
];

/** All rows of a table straight from SQLite, ordered by key, with null tags mapped back. */
export function dump(storage: Storage, db: string, table: string, order = "1, 2"): Value[][] {
  const h = storage.database(db);
  const t = h.requireTable(table);
  const stmt = h.conn.prepare(`SELECT * FROM "${t.schema}"."${t.name}" ORDER BY ${order}`);
  (stmt as unknown as { setReturnArrays(b: boolean): void }).setReturnArrays(true);
  stmt.setReadBigInts(true);
  return (stmt.all() as unknown as Value[][]).map((r) =>
    r.map((v) =>
      v instanceof Uint8Array && v.length === 0
        ? null
        : typeof v === "bigint" && v <= BigInt(Number.MAX_SAFE_INTEGER) &&
            v >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(v)
        : v
    )
  );
}

/** Rows in a canonical order, for comparisons that ignore storage order. */
export function canonical(rows: Value[][]): string[] {
  return rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))).sort();
}

/** Runs `fn` on a fresh in-memory storage, closed afterwards. */
export function withMemoryStorage(fn: (s: Storage) => void): void {
  const s = Storage.open({ dataHome: ":memory:" });
  try {
    fn(s);
  } finally {
    s.close();
  }
}
