import { equal as assertEquals } from "node:assert/strict";
import { WorkerPool } from "../../src/common/worker_pool.ts";

const url = new URL("./fixtures/echo_worker.ts", import.meta.url);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pool of two threads counting the threads it stopped. */
function pool(warmMs?: number): { pool: WorkerPool<{ delayMs: number }>; stopped: () => number } {
  let stopped = 0;
  const p = new WorkerPool<{ delayMs: number }>({
    name: "echo",
    url,
    runtime: "web",
    maxThreads: 2,
    perThread: 1,
    idleMs: 40,
    warmMs,
    onStop: () => stopped++,
  });
  return { pool: p, stopped: () => stopped };
}

Deno.test("worker pool: idle threads stop, but the last one stays warm for warmMs", async () => {
  const warm = pool(5_000);
  const cold = pool();
  try {
    // two requests at once start two threads in each pool
    await Promise.all([0, 1].map(() => warm.pool.request({ delayMs: 20 })));
    await Promise.all([0, 1].map(() => cold.pool.request({ delayMs: 20 })));
    await sleep(400);
    assertEquals(cold.stopped(), 2, "without warmMs every idle thread stops");
    assertEquals(warm.stopped(), 1, "the last thread stays warm");
    await warm.pool.request({ delayMs: 0 });
    assertEquals(warm.stopped(), 1, "a request after the idle time reuses the warm thread");
  } finally {
    warm.pool.stop();
    cold.pool.stop();
  }
});
