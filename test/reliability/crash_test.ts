/**
 * Crash safety (issue 14): SIGKILL during sustained ingest from concurrent writers loses no
 * acknowledged row and leaves no partial batch; skip_wal writes lose at most their group-commit
 * window. Three trials of `crash.ts`; `deno run -A scripts/crash.ts` runs twenty.
 */
import assert from "node:assert/strict";
import { crashTrial, seededRandom } from "./crash.ts";

/** Acknowledged skip_wal writes may be lost if they were acknowledged this recently before the kill. */
const SKIP_WAL_BOUND_MS = 1000;

Deno.test("SIGKILL mid-stream loses no acknowledged row and leaves no partial batch", async () => {
  const random = seededRandom(14);
  for (let trial = 0; trial < 3; trial++) {
    const r = await crashTrial({ random, runMs: 300 + Math.floor(random() * 700) });
    const what = `trial ${trial}: ${JSON.stringify({ ...r, lostBatches: r.lostBatches.length })}`;
    assert.ok(r.ackedBatches > 0, `${what}: nothing was acknowledged before the kill`);
    assert.deepEqual(r.lostBatches, [], `${what}: acknowledged batches lost`);
    assert.deepEqual(r.partialBatches, [], `${what}: partial batches stored`);
    assert.ok(
      r.skipWalLostWindowMs <= SKIP_WAL_BOUND_MS,
      `${what}: a skip_wal batch acknowledged ${r.skipWalLostWindowMs} ms before the kill was lost`,
    );
    console.log(what);
  }
});
