/**
 * A metric write call takes one forwarding seq per physical table, whatever the number of metrics
 * in it (their samples go in with one sorted insert): seqs stay strictly increasing per table across
 * calls, each call's samples share theirs, and the (seq, ts, series) cursor walks every sample once.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { readAfter, SEQ_START, type SeqCursor } from "../../src/storage/forward_seq.ts";

Deno.test("forward seq: one per call and physical table, across the call's metrics", () => {
  const storage = Storage.open({ dataHome: ":memory:" });
  storage.forwarding = { gate() {}, journal: false };
  try {
    const t0 = Date.now() - 60_000;
    const write = (call: number) =>
      storage.writeMetrics(
        "public",
        ["a", "b", "c"].map((metric, m) => ({
          metric,
          // "c" goes on a second physical table: it gets its own seq
          physicalTable: metric === "c" ? "other_physical" : undefined,
          series: [1, 2].map((h) => ({
            labels: { host: `h${h}` },
            samples: [{ timestampMs: t0 + call * 1000 - m, value: call * 10 + m }],
          })),
        })),
      );
    for (let call = 0; call < 3; call++) write(call);
    const h = storage.database("public");
    for (const [table, perCall] of [["greptime_physical_table", 4], ["other_physical", 2]] as const) {
      const physical = h.getTable(table)!;
      const rows = readAfter(h, physical, SEQ_START, 1000);
      assert.equal(rows.length, 3 * perCall, `${table}: every sample once`);
      const seqs = [...new Set(rows.map((r) => r.seq))];
      assert.equal(seqs.length, 3, `${table}: one seq per call`);
      assert.ok(seqs[0] < seqs[1] && seqs[1] < seqs[2], `${table}: seqs increase`);
      // the cursor resumes inside a call's seq without skipping or repeating a sample
      let after: SeqCursor = SEQ_START, walked = 0;
      for (
        let page = readAfter(h, physical, after, 1);
        page.length > 0;
        page = readAfter(h, physical, after, 1)
      ) {
        after = page[0];
        walked++;
      }
      assert.equal(walked, rows.length);
    }
  } finally {
    storage.close();
  }
});
