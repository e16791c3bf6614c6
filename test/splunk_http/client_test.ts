/**
 * Splunk's own Node HEC client, `splunk-logging`, against a real server: single events and a batch
 * (concatenated JSON objects in one body) to `/services/collector/event/1.0` with its
 * `Authorization: Splunk <token>` header, read back by SQL.
 */
import assert from "node:assert/strict";
// @ts-types="npm:@types/splunk-logging@0.11.8"
import { Logger } from "splunk-logging";
import { sqlRows, withServer } from "../protocols_http/util.ts";

type Sent = { err: unknown; status: number | undefined; body: unknown };

/** Sends through the client and waits for its callback (a batching logger calls it on flush only). */

function send(logger: Logger, payload: Parameters<Logger["send"]>[0]): Promise<Sent> {
  return new Promise((resolve) => {
    logger.send(payload, (err, resp, body) => resolve({ err, status: resp?.statusCode, body }));
  });
}

Deno.test("splunk-logging: events and a batch stored with their metadata", async () => {
  await withServer(async (s) => {
    const port = Number(new URL(s.url).port);
    const config = {
      token: "admin:adm1n",
      url: `http://127.0.0.1:${port}`,
      path: "/v1/splunk/services/collector/event/1.0",
    };
    const logger = new Logger(config);
    const one = await send(logger, {
      message: { action: "login", user: "u1" },
      severity: "info",
      metadata: { host: "node-1", source: "auth", sourcetype: "_json", time: 1700000000.25 },
    });
    assert.equal(one.err, null);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { text: "Success", code: 0 });

    // Two events in one body: the second send flushes the queue and gets the answer.
    const batching = new Logger({ ...config, maxBatchCount: 2 });
    batching.send({ message: "first ✓", metadata: { host: "node-2", index: "batch_logs" } });
    const batch = await send(batching, {
      message: "second",
      metadata: { host: "node-2", index: "batch_logs" },
    });
    assert.equal(batch.status, 200);
    assert.deepEqual(batch.body, { text: "Success", code: 0 });

    const rows = await sqlRows(
      s.url,
      `SELECT CAST(CAST(greptime_timestamp AS BIGINT) AS STRING), host, source, sourcetype, "event.message.action",
       "event.message.user", "event.severity" FROM splunk_logs`,
    );
    assert.deepEqual(rows, [["1700000000250000000", "node-1", "auth", "_json", "login", "u1", "info"]]);
    assert.deepEqual(
      await sqlRows(
        s.url,
        `SELECT host, "event.message", "event.severity" FROM batch_logs ORDER BY "event.message"`,
      ),
      [["node-2", "first ✓", "info"], ["node-2", "second", "info"]],
    );
  });
});
