/**
 * Write pacing (`src/protocols/lineproto_pacing.ts`): a lone sequential writer starts at once; with
 * concurrent writers and an idle parse worker a write waits, until the next body reaches the worker
 * (or a few ms); a busy worker means no wait.
 */
import assert from "node:assert/strict";
import { enterWrite, paceWrite } from "../../src/protocols/lineproto_pacing.ts";
import {
  lineProtocolWorkerReady,
  parseLineProtocolBody,
  setLineProtocolWorkerMinBytes,
  stopLineProtocolWorker,
} from "../../src/protocols/lineproto_pool.ts";

Deno.test("line protocol pacing: a lone writer is never delayed", () => {
  for (let i = 0; i < 3; i++) {
    const leave = enterWrite();
    assert.equal(paceWrite(), undefined);
    leave();
  }
});

Deno.test("line protocol pacing: concurrent writers wait for the next body to reach an idle worker", async () => {
  const old = setLineProtocolWorkerMinBytes(0);
  try {
    assert.ok(await lineProtocolWorkerReady(), "worker did not start");
    const first = enterWrite(), second = enterWrite();
    first();
    // Writers were concurrent just now and the worker is idle: the write waits…
    const waiting = paceWrite();
    assert.ok(waiting instanceof Promise);
    let woke = false;
    waiting.then(() => woke = true);
    // …and a body handed to the worker ends the wait (it would end after a few ms anyway).
    const parsed = parseLineProtocolBody(new TextEncoder().encode("m f=1 1\n"), undefined, 0n);
    await Promise.resolve();
    assert.ok(woke, "queuing a body did not end the wait");
    // While the worker holds that body, a write starts at once.
    assert.equal(paceWrite(), undefined);
    await parsed;
    second();
    await new Promise((r) => setTimeout(r, 10));
  } finally {
    setLineProtocolWorkerMinBytes(old);
    stopLineProtocolWorker();
  }
});
