/**
 * The query worker starts without the function groups few queries use (h3-js, re2js, node:crypto
 * cost ~100 ms of its start) and without node:net (~20-70 ms): they are out of its static module graph, their names are the ones
 * their modules define, and a query naming one loads it in the worker, also on a connection the
 * worker opened before, with the same answers as always.
 */
import assert from "node:assert/strict";
import { LAZY_GROUPS } from "../../src/sql/functions/registry.ts";
import { startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRows } from "../http/fixtures/sql_client.ts";

const ROOT = new URL("../../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: Array<{ specifier: string; code?: { specifier: string }; isDynamic?: boolean }>;
}

/** The modules a worker loads before it runs: the static imports from `entry`, transitively. */
async function staticGraph(entry: string): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(out.success, "deno info failed");
  const modules: InfoModule[] = JSON.parse(new TextDecoder().decode(out.stdout)).modules;
  const bySpecifier = new Map(modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (spec: string) => {
    if (seen.has(spec)) return;
    seen.add(spec);
    for (const d of bySpecifier.get(spec)?.dependencies ?? []) {
      if (!d.isDynamic && d.code) visit(d.code.specifier);
    }
  };
  visit(new URL(entry, ROOT).href);
  return seen;
}

Deno.test("the query worker's static module graph holds no lazy group", async () => {
  const graph = [...await staticGraph("src/sql/query_worker.ts")];
  for (
    const heavy of [
      "npm:/h3-js",
      "npm:/re2js",
      "node:crypto",
      "node:net",
      "functions/h3.ts",
      "functions/regex.ts",
    ]
  ) {
    assert.deepEqual(graph.filter((s) => s.includes(heavy)), [], `${heavy} loads at the worker's start`);
  }
});

Deno.test("each lazy group's names are its module's functions", async () => {
  for (const [group, g] of Object.entries(LAZY_GROUPS)) {
    assert.deepEqual([...g.names].sort(), Object.keys(await g.load()).sort(), group);
  }
});

Deno.test("a query worker loads a lazy group when a query names it, on an open connection too", async () => {
  const server = await startTestServer();
  try {
    const q = (sql: string) => sqlRows(server.url, sql);
    await sqlOk(
      server.url,
      "CREATE TABLE t (ts TIMESTAMP TIME INDEX, s STRING PRIMARY KEY, lat DOUBLE, lng DOUBLE)",
    );
    await sqlOk(server.url, "INSERT INTO t VALUES (1, 'abc', 37.3615593, -122.0553238)");
    // opens the worker's connection before any lazy group is loaded
    assert.deepEqual(await q("SELECT count(*) FROM t"), [[1]]);
    assert.deepEqual(await q("SELECT md5(s), encode(sha256(s), 'hex') FROM t"), [[
      "900150983cd24fb0d6963f7d28e17f72",
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    ]]);
    assert.deepEqual(await q("SELECT regexp_like(s, '^a.c$'), s ~ 'B', s ~* 'B' FROM t"), [[
      true,
      false,
      true,
    ]]);
    assert.deepEqual(await q("SELECT h3_cell_to_string(h3_latlng_to_cell(lat, lng, 7)) FROM t"), [[
      "87283472bffffff",
    ]]);
  } finally {
    await server.stop();
  }
});
