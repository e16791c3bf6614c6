/**
 * Malformed ingest bodies (issue 12): a seeded, bounded round of the structure-aware body fuzzer
 * over every ingest endpoint (no 5xx, crash or hang; a 4xx in the endpoint's error shape that wrote
 * nothing; `/health` within a second), and the bodies it found that broke the contract.
 * `scripts/fuzz.ts --body` runs longer rounds.
 */
import assert from "node:assert/strict";
import { startFuzzTarget } from "./fuzz.ts";
import { type Finding, replayFindings } from "./findings.ts";
import { bodyFuzzRound } from "./fuzz_body.ts";
import { errorShapeViolation } from "./fuzz_response.ts";
import { encodeRemoteWriteV1 } from "../../src/protocols/remote_write/encoder.ts";

/** A test shares the machine with others running in parallel: a stall, not a busy core, must fail it. */
const TEST_HEALTH_MS = 5000;
const BODY_LIMIT = 1 << 20;
const TS = 1_700_000_000_000;

Deno.test("body fuzz: spoiled ingest bodies answer 2xx or a 4xx in shape that wrote nothing", async () => {
  const target = await startFuzzTarget(BODY_LIMIT, TEST_HEALTH_MS);
  try {
    const r = await bodyFuzzRound(target, 12, 8);
    assert.deepEqual(r.failures, []);
    assert.ok(r.requests > 200, `${r.requests} requests`);
  } finally {
    await target.stop();
  }
});

const wide = (n: number, item: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => item(i)).join(",");
const deep = (d: number) => "[".repeat(d) + "1" + "]".repeat(d);

/**
 * Every JSON ingest body nested 300 000 deep (`json_deep`): each held the server's one thread for
 * 100–600 ms (JSON.parse of it, then walks overflowing the stack; `/health` past a second on a busy
 * machine), and a Loki one was accepted. serde_json refuses the 128th level, and so does Petrel now,
 * before parsing.
 */
function deepJsonFindings(): Finding[] {
  const json = { "content-type": "application/json" };
  const d = deep(300_000);
  const cases: Array<[string, string, Record<string, string>?]> = [
    ["/v1/ingest?table=found_deep&pipeline_name=fz_pipe", `[{"ts":${TS},"msg":"x","nested":${d}}]`],
    ["/v1/ingest?table=found_deep&pipeline_name=greptime_identity", `{"a":1,"d":${d}}\n`, {
      "content-type": "application/x-ndjson",
    }],
    ["/v1/otlp/v1/logs", `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":${d}}]}]}]}`],
    ["/v1/telemetry/v1/metrics", `{"resourceMetrics":${d}}`],
    ["/v1/loki/api/v1/push", `{"streams":[{"stream":{"a":"b"},"values":[["${TS}000000","x",${d}]]}]}`],
    ["/v1/opentsdb/api/put", `[{"metric":"m","timestamp":1700000000,"value":1,"tags":{"h":${d}}}]`],
    ["/v1/splunk/services/collector", `{"event":${d}}`],
  ];
  return cases.map(([path, body, headers]) => ({
    name: `${path}: a JSON body nested 300 000 deep`,
    path,
    headers: headers ?? json,
    body,
    error: /recursion limit exceeded at line 1 column \d+/,
  }));
}

/** Bodies the body fuzzer found; each answered 500 (or an error out of its endpoint's shape) before its fix. */
const FOUND: Array<
  Finding & {
    /** What a 2xx stored, read back over SQL. */
    stored?: { sql: string; rows: unknown[][] };
  }
> = [
  {
    name: "a line-protocol line with 2500 fields (SQLite holds 2000 columns: its failure was a 500)",
    path: "/v1/influxdb/write?precision=ms",
    body: () => `found_wide ${wide(2500, (i) => `f${i}=1i`)} ${TS}\n`,
    error: /Too many columns: table found_wide would have 2501, at most 2000/,
  },
  {
    name: "a line adding 2500 tags to a table an earlier line of the body created",
    path: "/v1/influxdb/api/v2/write?bucket=public&precision=ms",
    body: () => `found_wider,t=a f=1 ${TS}\nfound_wider,${wide(2500, (i) => `t${i}=v`)} f=2 ${TS}\n`,
    error: /Too many columns: table found_wider/,
  },
  {
    name: "a remote-write series with 2500 labels (the physical table's series table)",
    path: "/v1/prometheus/write",
    headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    body: () => {
      const labels: Record<string, string> = { __name__: "found_labels" };
      for (let i = 0; i < 2500; i++) labels[`l${i}`] = "v";
      return encodeRemoteWriteV1([{ labels, samples: [{ value: 1, timestampMs: TS }] }]);
    },
    error:
      /Too many labels \(over all its metrics\): table greptime_physical_table would have 2500, at most 1997/,
  },
  {
    name: "a Loki stream with 2500 labels",
    path: "/v1/loki/api/v1/push",
    headers: { "content-type": "application/json" },
    body: () =>
      JSON.stringify({
        streams: [{
          stream: Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`l${i}`, "v"])),
          values: [[`${TS}000000`, "line"]],
        }],
      }),
    error: /Too many columns: table loki_logs/,
  },
  {
    name: "an Elasticsearch bulk document nested 20 000 deep (was a 400 out of the bulk shape)",
    path: "/v1/elasticsearch/_bulk",
    headers: { "content-type": "application/json" },
    body: () =>
      '{"create":{"_index":"found_es"}}\n{"@timestamp":"2024-01-01T00:00:00Z","m":"ok"}\n' +
      `{"create":{"_index":"found_es"}}\n{"@timestamp":"2024-01-01T00:00:00Z","n":${deep(20_000)}}\n`,
    error: /line 4 is not valid JSON: recursion limit exceeded at line 1 column 168/,
  },
  ...deepJsonFindings(),
  {
    name: "an Elasticsearch bulk action line holding an integer past 2^53 (its error message threw: 500)",
    path: "/v1/elasticsearch/_bulk",
    headers: { "content-type": "application/json" },
    body: () => '{"update":{"x":9223372036854775807}}\n{"a":1}\n',
    error: /expected 'create' or 'index' but got \{\\"update\\":\{\\"x\\":9223372036854775807\}\}/,
  },
  {
    name: "an OpenTSDB point whose timestamp is past 2^53 ms (stored rounded, 1e20 as a REAL)",
    path: "/v1/opentsdb/api/put",
    headers: { "content-type": "application/json" },
    body: () =>
      '[{"metric":"found_tsdb","timestamp":1700000000,"value":1,"tags":{"h":"a"}},' +
      '{"metric":"found_tsdb","timestamp":9223372036854775807,"value":1,"tags":{"h":"a"}}]',
    error:
      /point 2: timestamp: invalid value: integer `9223372036854776000`, expected at most ±\(2\^53 - 1\) ms/,
  },
  {
    name: "an OpenTSDB point whose timestamp is 1e20",
    path: "/v1/opentsdb/api/put",
    headers: { "content-type": "application/json" },
    body: () => '{"metric":"found_tsdb","timestamp":1e20,"value":1,"tags":{"h":"a"}}',
    error: /timestamp: invalid value: integer `100000000000000000000`/,
  },
  {
    name: "a HEC event whose time is i64's largest integer (its error message threw on the bigint)",
    path: "/v1/splunk/services/collector",
    body: () => '{"time":9223372036854775807,"event":"x"}',
    error: /'time' must be epoch seconds \(e\.g\. 1700000000\.123\), got 9223372036854775807/,
  },
  {
    name: "a HEC event that is an integer past 2^53, and one in an indexed field's array (were 500s)",
    path: "/v1/splunk/services/collector",
    body: () =>
      '{"event":9223372036854775807}{"event":[9007199254740993]}' +
      '{"event":"x","fields":{"k":[9223372036854775807],"n":9007199254740993}}',
    status: 200,
    stored: {
      sql: 'SELECT event, "fields.k", "fields.n" FROM splunk_logs ORDER BY event',
      rows: [
        ["9223372036854775807", null, null],
        ["[9007199254740993]", null, null],
        ["x", "[9223372036854775807]", "9007199254740993"],
      ],
    },
  },
];

Deno.test("body fuzz findings: a 400 in the endpoint's shape naming the problem, nothing written", async (t) => {
  await replayFindings(t, FOUND, { bodyLimit: BODY_LIMIT, healthMs: TEST_HEALTH_MS }, async (c, a) => {
    const type = a.response.headers.get("content-type") ?? "";
    assert.equal(errorShapeViolation("POST", c.path, a.response.status, type, a.text), null);
    if (c.stored) {
      const body = new URLSearchParams({ sql: c.stored.sql });
      const q = await fetch(`${a.url}/v1/sql`, { method: "POST", body });
      assert.deepEqual((await q.json()).output[0].records.rows, c.stored.rows);
    }
  });
});
