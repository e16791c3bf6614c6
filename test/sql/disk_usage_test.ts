/** information_schema.tables reports each table's bytes on disk (data and index), as the dashboard shows them. */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { executeSql } from "../../src/sql/mod.ts";
import type { Value } from "../../src/common/rows.ts";

function rows(s: Storage, sql: string): Value[][] {
  const out = executeSql(s, sql, { db: "public" });
  const last = out[out.length - 1];
  return last.kind === "records" ? last.rows : [];
}

Deno.test("information_schema.tables: data_length and index_length are the tables' bytes on disk", () => {
  const dir = Deno.makeTempDirSync();
  const s = Storage.open({ dataHome: dir });
  try {
    rows(s, "CREATE TABLE cpu (host STRING, usage DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))");
    const values = Array.from(
      { length: 2000 },
      (_, i) => `('host-${i % 50}', ${i}.5, ${1_700_000_000_000 + i})`,
    );
    rows(s, `INSERT INTO cpu VALUES ${values.join(", ")}`);
    s.writeMetrics("public", [{
      metric: "up",
      series: Array.from({ length: 100 }, (_, i) => ({
        labels: { instance: `i-${i}` },
        samples: [{ timestampMs: 1_700_000_000_000, value: 1 }],
      })),
    }]);
    const sizes = Object.fromEntries(
      rows(
        s,
        "SELECT table_name, data_length, index_length FROM information_schema.tables WHERE table_schema = 'public'",
      )
        .map((r) => [String(r[0]), [Number(r[1]), Number(r[2])]]),
    );
    assert.ok(sizes.cpu[0] >= 4096, `cpu data ${sizes.cpu[0]}`);
    assert.ok(sizes.greptime_physical_table[0] >= 2 * 4096, "series and samples of the physical table");
    assert.deepEqual(sizes.up, [0, 0], "a logical table is a view over the physical one");
    assert.deepEqual(sizes.numbers, [0, 0]);
  } finally {
    s.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
