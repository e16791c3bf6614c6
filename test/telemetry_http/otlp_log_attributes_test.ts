/**
 * OTLP log attributes are stored as the JSON GreptimeDB writes (`attributes.ts` quotes keys once
 * and writes plain strings without JSON.stringify): keys and values with quotes, backslashes,
 * control characters, non-ASCII text and lone surrogates read back as sent, record after record.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { post, sqlRows } from "../protocols_http/util.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

const TRICKY = [
  'say "hi"',
  "back\\slash",
  "tab\there\nnew line\u0001\u001f",
  "café ☕ 😀",
  "lone \ud800 surrogate",
  "",
];

Deno.test("OTLP logs: attribute keys and values needing JSON escapes read back as sent", async () => {
  const logRecords = TRICKY.map((text, i) => ({
    timeUnixNano: String(1_700_000_000_000_000_000n + BigInt(i)),
    body: { stringValue: `record ${i}` },
    attributes: [
      { key: text || "empty", value: { stringValue: text } },
      { key: "plain", value: { stringValue: text } },
      { key: "n", value: { intValue: String(i) } },
      { key: "nested", value: { kvlistValue: { values: [{ key: text, value: { boolValue: true } }] } } },
    ],
  }));
  const body = JSON.stringify({
    resourceLogs: [{
      resource: { attributes: [{ key: 'service "name"', value: { stringValue: "svc\\1" } }] },
      scopeLogs: [{ scope: {}, logRecords }],
    }],
  });
  const r = await post(`${base}/v1/otlp/v1/logs`, body, {
    "content-type": "application/json",
    "x-greptime-log-table-name": "tricky_attrs",
  });
  assert.equal(r.status, 200, r.text);
  const rows = await sqlRows(
    base,
    "SELECT log_attributes, resource_attributes FROM tricky_attrs ORDER BY timestamp",
  );
  assert.deepEqual(
    rows,
    TRICKY.map((text, i) => [
      { [text || "empty"]: text, plain: text, n: i, nested: { [text]: true } },
      { 'service "name"': "svc\\1" },
    ]),
  );
});
