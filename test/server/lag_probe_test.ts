/** The event-loop lag probe behind `/metrics` ends with the server that started it. */

import assert from "node:assert/strict";
import { ServerMetrics } from "../../src/http/metrics.ts";

const lagOf = async (m: ServerMetrics) =>
  Number((await m.registry.metrics()).match(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m)?.[1]);

Deno.test("a running probe sees a blocked event loop; a closed one no longer probes", async () => {
  const block = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) { /* hold the event loop */ }
  };
  const running = new ServerMetrics(), closed = new ServerMetrics();
  closed.close();
  try {
    block(800);
    await new Promise((r) => setTimeout(r, 700));
    assert.ok(await lagOf(running) > 0.1, "the running probe recorded the blocked loop");
    assert.equal(await lagOf(closed), 0);
  } finally {
    running.close();
  }
});
