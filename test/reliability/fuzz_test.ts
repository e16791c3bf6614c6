/**
 * Hostile input (issue 14): a seeded, bounded fuzz round over every endpoint family (never a 5xx, a
 * crash or a hang; a rejected request writes nothing), a slow-loris body, and the inputs the fuzzer
 * found that used to answer 500 or stall the server. `scripts/fuzz.ts` runs longer rounds.
 */
import assert from "node:assert/strict";
import { fuzzRound, slowLoris, startFuzzTarget } from "./fuzz.ts";
import { type Finding, replayFindings } from "./findings.ts";

/** A test shares the machine with others running in parallel: a stall, not a busy core, must fail it. */
const TEST_HEALTH_MS = 5000;
const BODY_LIMIT = 256 * 1024;

Deno.test("fuzz: spoiled bodies on every endpoint family: no 5xx, crash or hang; rejections write nothing", async () => {
  const target = await startFuzzTarget(BODY_LIMIT, TEST_HEALTH_MS);
  try {
    const r = await fuzzRound(target, 14, 30, BODY_LIMIT);
    assert.deepEqual(r.failures, []);
    assert.ok(r.requests > 400, `${r.requests} requests`);
    const families = new Set([...r.statuses.keys()].map((k) => k.split(" ")[0]));
    for (const f of families) {
      assert.ok(r.statuses.has(`${f} 413`), `${f}: the bombs and the oversized body were refused with 413`);
    }
  } finally {
    await target.stop();
  }
});

Deno.test("fuzz: a slow-loris body is answered at its timeout while other requests are served", async () => {
  const target = await startFuzzTarget(BODY_LIMIT, TEST_HEALTH_MS);
  try {
    const loris = slowLoris(`${target.url}/v1/influxdb/write`, "1s");
    const health = await fetch(`${target.url}/health`);
    await health.body?.cancel();
    assert.equal(health.status, 200);
    const [status] = await loris;
    assert.equal(status, 504, "a write path's timeout is 504, which shippers retry");
  } finally {
    await target.stop();
  }
});

/** Inputs the fuzzer found; each answered 500 (or stalled the event loop) before its fix. */
const FOUND: Finding[] = [
  {
    name: "a NUL in a line-protocol field key (SQLite cannot hold it in a name)",
    path: "/v1/influxdb/write?precision=s",
    body: "found_nul,t=1 f\u0000=1i 1700000000\n",
    status: 400,
  },
  {
    name: "a NUL in a measurement name",
    path: "/v1/influxdb/write?precision=s",
    body: "\u0000found_nul2,t=1 f=1i 1700000000\n",
    status: 400,
  },
  {
    name: "a 100 000-character field key (each query of the table would carry it)",
    path: "/v1/influxdb/write?precision=s",
    body: `found_long,t=1 ${"k".repeat(100_000)}=1i 1700000000\n`,
    status: 400,
  },
  {
    name: "SQL quoting a 200 KB token in its error (the error header was too large for any client)",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: `SELECT 1 + ${"[".repeat(200_000)}`,
    status: 400,
  },
  {
    name: "a Loki push whose timestamp is beyond 64 bits (SQLite cannot bind it)",
    path: "/v1/loki/api/v1/push",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ streams: [{ stream: { app: "x" }, values: [["1" + "9".repeat(70), "line"]] }] }),
    status: 400,
  },
  {
    name: "a PromQL expression nested past the parser's stack",
    path: "/v1/prometheus/api/v1/query",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `query=${"-".repeat(60_000)}1&time=1700000000`,
    status: 400,
  },
  {
    name: "a pipeline upload as multipart/form-data without a boundary",
    path: "/v1/pipelines/found_multipart",
    headers: { "content-type": "multipart/form-data" },
    body: "processors: []\n",
    status: 400,
  },
  {
    // each name looked through all of one SELECT's 5500 relations, and each relation scanned the
    // statement back to its start for a UNION: 10 s of the server's thread, then under 1 s
    name: "a 240 KB statement naming the same table 5500 times in one SELECT (column lookups were quadratic)",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: Array(5500).fill("SELECT number FROM numbers WHERE number > 0").join(" "),
    status: 400,
    within: 5_000,
  },
  {
    name: "SQL joining 25 000 tables by commas (reading the list recursed once per table: out of stack)",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: `SELECT number FROM numbers${", numbers".repeat(25_000)}`,
    status: 400,
    error: /too many FROM clause terms/,
  },
  {
    name: "SQL abs of the smallest int64 (node:sqlite hangs on a function result past 64 bits)",
    path: "/v1/sql",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `sql=${encodeURIComponent("SELECT abs(-9223372036854775808)")}`,
    status: 400,
  },
  {
    // each was planned on its own, all its inner ones again (quadratic): 7 s of the server's thread
    name: "SQL nesting subqueries 400 deep (a 12 KB statement), refused as sqlparser's recursion limit",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: `SELECT * FROM ${"(SELECT * FROM ".repeat(400)}numbers${") AS x".repeat(400)}`,
    status: 400,
    error: /"code":2000,"error":"Invalid SQL syntax: sql parser error: recursion limit exceeded"/,
    within: 2_000,
  },
  {
    name: "the analyze stream's subqueries nested 200 deep (it skipped the syntax check: 4 s, then 200)",
    path: "/v1/sql/analyze/stream",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `sql=${
      encodeURIComponent(
        `EXPLAIN ANALYZE VERBOSE SELECT * FROM ${"(SELECT * FROM ".repeat(200)}numbers${
          ") AS x".repeat(200)
        }`,
      )
    }`,
    status: 400,
    error: /sql parser error: recursion limit exceeded/,
  },
  {
    name: "SQL brackets 100 000 deep (4 s, then the stack overflow as 'Failed to execute query')",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: `SELECT ${"(".repeat(100_000)}1${")".repeat(100_000)}`,
    status: 400,
    error: /Invalid SQL syntax: sql parser error: recursion limit exceeded/,
  },
  {
    name: "SQL 1 + 1 + … of 20 000 terms: the rewrite's stack overflow is the client's 400, not code 3000",
    path: "/v1/sql",
    headers: { "content-type": "text/plain" },
    body: `SELECT 1${" + 1".repeat(20_000)}`,
    status: 400,
    error: /"code":1004,"error":"The request is nested too deeply to process"/,
  },
];

Deno.test("fuzz findings: 400, and nothing written", async (t) => {
  await replayFindings(t, FOUND, { bodyLimit: BODY_LIMIT, healthMs: TEST_HEALTH_MS }, (_, a) => {
    for (const [name, value] of a.response.headers) {
      assert.ok(value.length <= 8192, `header ${name}: ${value.length} bytes`);
    }
  });
});
