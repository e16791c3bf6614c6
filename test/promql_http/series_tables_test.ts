/**
 * Prometheus `/series` and `/label/{name}/values` over ordinary (non-metric) tables: each distinct
 * tag tuple in the time range once, null tags absent, a table without tags one series when it has
 * rows in range, and matchers on labels a table lacks read as "" (so `{job="x"}` rules out a table
 * without `job` and `{job=""}` keeps it). Pins what SQLite's DISTINCT and the unread-table shortcut
 * must keep.
 */
import assert from "node:assert/strict";
import { withServer } from "../protocols_http/util.ts";

const T = 1_700_000_000_000;
const API = "/v1/prometheus/api/v1";

async function sql(base: string, q: string): Promise<void> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(q)}`);
  assert.equal(r.status, 200, await r.text());
}

async function get(base: string, path: string, params: Record<string, string>): Promise<unknown> {
  const r = await fetch(`${base}${API}/${path}?${new URLSearchParams(params)}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.data;
}

const range = (fromMs: number, toMs: number) => ({ start: String(fromMs / 1000), end: String(toMs / 1000) });
const L = (app: string, pod?: string): Record<string, string> =>
  pod ? { __name__: "applog", app, pod } : { __name__: "applog", app };

/** [match[], time range, the series expected] */
const CASES: [string, Record<string, string>, Record<string, string>[]][] = [
  ["applog", range(T, T + 10_000), [L("a"), L("a", "p1"), L("a", "p2"), L("b", "p1")]],
  ["applog", range(T + 5_000, T + 10_000), [L("b", "p1")]],
  ['applog{pod="p1"}', range(T, T + 10_000), [L("a", "p1"), L("b", "p1")]],
  ['applog{pod=""}', range(T, T + 10_000), [L("a")]],
  ['applog{pod!="p1"}', range(T, T + 10_000), [L("a"), L("a", "p2")]],
  ['{app="a",pod=~"p.*"}', range(T, T + 10_000), [L("a", "p1"), L("a", "p2")]],
  ['{job="x"}', range(T, T + 10_000), []],
  ['{__name__=~"applog|notag",job=""}', range(T, T + 10_000), [
    L("a"),
    L("a", "p1"),
    L("a", "p2"),
    L("b", "p1"),
    { __name__: "notag" },
  ]],
  ['{__name__=~".+",job=~"x|"}', range(T, T + 1_000), [L("a"), L("a", "p1"), L("a", "p2"), {
    __name__: "notag",
  }]],
  ["notag", range(T, T + 10_000), [{ __name__: "notag" }]],
  ["notag", range(T + 5_000, T + 10_000), []],
  ['notag{job!="x"}', range(T, T + 10_000), [{ __name__: "notag" }]],
];

Deno.test("Prometheus /series and label values over ordinary tables", async () => {
  await withServer(async (s) => {
    await sql(
      s.url,
      "CREATE TABLE applog (app STRING, pod STRING, line STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY(app, pod)) " +
        "WITH (append_mode = 'true')",
    );
    const rows: string[] = [];
    // many rows per tag tuple: each must come back once
    for (let i = 0; i < 300; i++) {
      const [app, pod] = [["'a'", "'p1'"], ["'a'", "'p2'"], ["'a'", "NULL"]][i % 3];
      rows.push(`(${app}, ${pod}, 'line ${i}', ${T + i})`);
    }
    rows.push(`('b', 'p1', 'late', ${T + 6_000})`);
    await sql(s.url, `INSERT INTO applog (app, pod, line, ts) VALUES ${rows.join(", ")}`);
    await sql(s.url, "CREATE TABLE notag (v DOUBLE, ts TIMESTAMP TIME INDEX)");
    await sql(s.url, `INSERT INTO notag VALUES (1, ${T}), (2, ${T + 1}), (3, ${T + 2})`);
    for (const [match, r, want] of CASES) {
      assert.deepEqual(await get(s.url, "series", { "match[]": match, ...r }), want, match);
    }
    assert.deepEqual(await get(s.url, "label/pod/values", range(T, T + 10_000)), ["p1", "p2"]);
    assert.deepEqual(await get(s.url, "label/pod/values", range(T + 5_000, T + 10_000)), ["p1"]);
    assert.deepEqual(await get(s.url, "label/app/values", { "match[]": 'applog{pod="p2"}' }), ["a"]);
  });
});

// A nanosecond time index holds integers past 2^53, where node:sqlite's row iterator stopped
// without an error unless it read bigints: the table read as having no rows.
Deno.test("Prometheus /series finds a table without tags whose time index is in nanoseconds", async () => {
  await withServer(async (s) => {
    await sql(s.url, "CREATE TABLE nsnotag (v DOUBLE, ts TIMESTAMP(9) TIME INDEX)");
    await sql(s.url, `INSERT INTO nsnotag VALUES (1, ${T}000000)`);
    assert.deepEqual(await get(s.url, "series", { "match[]": "nsnotag", ...range(T, T + 1_000) }), [{
      __name__: "nsnotag",
    }]);
    assert.deepEqual(
      await get(s.url, "series", { "match[]": "nsnotag", ...range(T + 1_000, T + 2_000) }),
      [],
    );
  });
});
