import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import { CPU, dump } from "./helpers.ts";

function rowsOf(s: Storage, sql: string) {
  const [out] = executeSql(s, sql, { db: "public" });
  assert.equal(out.kind, "records");
  return out.kind === "records" ? out.rows : [];
}

Deno.test("ttl: expired rows are hidden from queries before the sweeper runs, then deleted by it", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  const now = Date.now();
  s.write("public", [{
    table: "t",
    columns: CPU,
    rows: [["old", now - 10_000, 1], ["new", now + 60_000, 2]],
  }], {
    hints: { ttl: "2s" },
  });
  assert.equal(dump(s, "public", "t").length, 2, "both rows are stored");
  assert.deepEqual(rowsOf(s, "SELECT host FROM t"), [["new"]]);
  assert.deepEqual(rowsOf(s, "SELECT count(*) FROM t AS x WHERE x.v > 0"), [[1]]);
  assert.equal(s.sweepExpired(), 1);
  assert.deepEqual(dump(s, "public", "t").map((r) => r[0]), ["new"]);
  s.close();
});

Deno.test("ttl: a row written now expires after a short ttl and the background sweeper deletes it", async () => {
  const s = Storage.open({ dataHome: ":memory:" });
  s.write("public", [{ table: "t", columns: CPU, rows: [["a", Date.now(), 1]] }], {
    hints: { ttl: "300ms" },
  });
  assert.equal(rowsOf(s, "SELECT * FROM t").length, 1);
  s.startTtlSweeper(50);
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(rowsOf(s, "SELECT * FROM t").length, 0);
  assert.equal(dump(s, "public", "t").length, 0, "the sweeper deleted it");
  s.close();
});

Deno.test("ttl: instant keeps nothing, forever keeps everything", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  assert.equal(
    s.write("public", [{ table: "i", columns: CPU, rows: [["a", Date.now(), 1]] }], {
      hints: { ttl: "instant" },
    }),
    1,
  );
  assert.equal(dump(s, "public", "i").length, 0);
  assert.equal(rowsOf(s, "SELECT * FROM i").length, 0);
  s.write("public", [{ table: "f", columns: CPU, rows: [["a", 1, 1]] }], { hints: { ttl: "forever" } });
  assert.equal(s.sweepExpired(), 0);
  assert.equal(rowsOf(s, "SELECT * FROM f").length, 1);
  s.close();
});

Deno.test("ttl: nanosecond tables compute the cutoff in their unit", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  const cols = [
    CPU[0],
    { name: "ts", type: "TimestampNanosecond" as const, semantic: "TIMESTAMP" as const },
    CPU[2],
  ];
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  s.write("public", [{
    table: "n",
    columns: cols,
    rows: [["old", nowNs - 3_600_000_000_000n, 1], ["new", nowNs, 2]],
  }], {
    hints: { ttl: "10m" },
  });
  assert.deepEqual(rowsOf(s, "SELECT host FROM n"), [["new"]]);
  s.close();
});

Deno.test("ttl: a table is swept again only after a tenth of its ttl", () => {
  const s = Storage.open({ dataHome: ":memory:" });
  const now = Date.now();
  s.write("public", [{ table: "t", columns: CPU, rows: [["a", now - 7_200_000, 1]] }], {
    hints: { ttl: "1h" },
  });
  assert.equal(s.sweepExpired(now), 1);
  s.write("public", [{ table: "t", columns: CPU, rows: [["b", now - 7_200_000, 1]] }]);
  assert.equal(s.sweepExpired(now + 60_000), 0, "within 6 minutes of the last sweep");
  assert.equal(rowsOf(s, "SELECT * FROM t").length, 0, "still hidden from reads");
  assert.equal(s.sweepExpired(now + 400_000), 1);
  s.close();
});
