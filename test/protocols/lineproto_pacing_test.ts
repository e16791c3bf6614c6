/**
 * Write pacing (`src/protocols/lineproto_pacing.ts`): a lone sequential writer starts at once; with
 * concurrent writers and an idle parse worker a write waits, until the next body reaches the worker
 * (or a few ms); a busy worker means no wait.
 */
import assert from "node:assert/strict";
import { enterWrite, paceWrite } from "../../src/protocols/lineproto/stream/pacing.ts";
import {
  lineProtocolWorkerReady,
  parseLineProtocolBody,
  setLineProtocolWorkerMinBytes,
  stopLineProtocolWorker,
} from "../../src/protocols/lineproto/stream/pool.ts";

const LARGE = 1 << 20;

Deno.test("line protocol pacing: a lone writer is never delayed", () => {
  for (let i = 0; i < 3; i++) {
    const leave = enterWrite(LARGE);
    assert.equal(paceWrite(LARGE), undefined);
    leave();
  }
});

Deno.test("line protocol pacing: concurrent writers wait for the next body to reach an idle worker", async () => {
  const old = setLineProtocolWorkerMinBytes(1000);
  try {
    assert.ok(await lineProtocolWorkerReady(), "worker did not start");
    const first = enterWrite(LARGE), second = enterWrite(LARGE);
    first();
    // Bodies parsed inline (small ones) never wait: there is nothing to overlap.
    assert.equal(paceWrite(100), undefined);
    // Writers were concurrent just now and the worker is idle: the write waits…
    const waiting = paceWrite(LARGE);
    assert.ok(waiting instanceof Promise);
    let woke = false;
    waiting.then(() => woke = true);
    // …and a body handed to the worker ends the wait (it would end after a few ms anyway).
    const parsed = parseLineProtocolBody(new TextEncoder().encode("m f=1 1\n".repeat(200)), undefined, 0n);
    await Promise.resolve();
    assert.ok(woke, "queuing a body did not end the wait");
    // While the worker holds that body, a write starts at once.
    assert.equal(paceWrite(LARGE), undefined);
    await parsed;
    second();
    await new Promise((r) => setTimeout(r, 10));
  } finally {
    setLineProtocolWorkerMinBytes(old);
    stopLineProtocolWorker();
  }
});
