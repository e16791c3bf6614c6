/**
 * The backlog of a large queue is counted exactly up to a cap and extrapolated past it (a count walks
 * every row, and the lag is measured every second): the estimate stays close to the truth, and
 * drop_oldest by age seeks past old writes without counting them.
 */
import assert from "node:assert/strict";
import { Storage } from "../../src/storage/mod.ts";
import { backlog, SEQ_START, skipAhead } from "../../src/storage/forward_seq.ts";
import { backoff } from "../../src/forward/sender.ts";

Deno.test("forward backlog: exact below the cap, estimated above it; drop_oldest keeps exactly the newest rows", () => {
  const storage = Storage.open({ dataHome: ":memory:" });
  storage.forwarding = { gate() {}, journal: false };
  try {
    const t0 = Date.now() - 3_600_000;
    for (let w = 0; w < 30; w++) {
      const series = Array.from({ length: 100 }, (_, s) => ({
        labels: { host: `h${s}` },
        samples: Array.from(
          { length: 100 },
          (_, i) => ({ timestampMs: t0 + w * 100_000 + i * 1000, value: i }),
        ),
      }));
      storage.writeMetrics("public", [{ metric: "m", series }]);
    }
    const h = storage.database("public");
    const physical = h.getTable("greptime_physical_table")!;
    const all = backlog(h, physical, SEQ_START);
    // seq is write time: the estimate assumes writes spread evenly over it
    assert.ok(all.rows >= 200_000 && all.rows <= 600_000, `estimated ${all.rows} of 300000`);
    const { cursor, skipped } = skipAhead(h, physical, SEQ_START, 0, 1000);
    assert.ok(skipped > 200_000, `skipped ${skipped}`);
    assert.equal(backlog(h, physical, cursor).rows, 1000, "small backlogs are exact");
    const none = skipAhead(h, physical, cursor, Date.now() * 1000 + 1, Infinity);
    assert.equal(backlog(h, physical, none.cursor).rows, 0, "every write is older than the age limit");
  } finally {
    storage.close();
  }
});

Deno.test("forward backoff: doubles from min_backoff up to max_backoff, jittered in the upper half", () => {
  const cases: Array<[attempt: number, random: number, want: number]> = [
    [0, 0, 250],
    [0, 1, 500],
    [1, 1, 1000],
    [3, 0.5, 3000],
    [10, 1, 30_000],
    [60, 0, 15_000],
  ];
  for (const [attempt, random, want] of cases) {
    assert.equal(backoff(attempt, 500, 30_000, () => random), want, `attempt ${attempt}, random ${random}`);
  }
});
