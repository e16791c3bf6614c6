/**
 * The query worker starts without the function groups few queries use (h3-js, re2js, node:crypto
 * cost ~100 ms of its start) and without node:net (~20-70 ms): they are out of its static module graph, their names are the ones
 * their modules define, and a query naming one loads it in the worker, also on a connection the
 * worker opened before, with the same answers as always. The server's main thread starts without
 * them too (h3-js is resident memory of an idle server) and loads a group when a statement names one
 * of its functions, or reaches one through a view or a flow, also after a restart.
 */
import assert from "node:assert/strict";
import { LAZY_GROUPS } from "../../src/sql/functions/registry.ts";
import { spawnServer, startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

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

Deno.test("the server's static module graph holds no SQL function group loaded on use", async () => {
  const graph = [...await staticGraph("main.ts")];
  for (const lazy of ["npm:/h3-js", "functions/h3.ts", "functions/regex.ts", "functions/hashes.ts"]) {
    assert.deepEqual(graph.filter((s) => s.includes(lazy)), [], `${lazy} loads at the server's start`);
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

const CELL = "87283472bffffff";
const CELL_SQL = "h3_cell_to_string(h3_latlng_to_cell(lat, lng, 7))";

/** A 4xx naming the unknown function, as before the groups were lazy (errors_test.ts has its text). */
async function assertUnknownFunction(url: string, sql: string): Promise<void> {
  const r = await sqlRequest(url, sql);
  assert.equal(r.status, 400, r.text);
  const body = JSON.parse(r.text);
  assert.equal(body.code, 3000, r.text);
  assert.match(body.error, /Invalid function 'nofunc'/);
}

async function waitForRows(url: string, sql: string, want: unknown[][]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await sqlRows(url, sql);
    if (JSON.stringify(rows) === JSON.stringify(want) || Date.now() > deadline) {
      assert.deepEqual(rows, want, sql);
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

Deno.test("the main thread loads a group for the statements it runs, in memory too", async () => {
  // a process of its own: this one may have loaded every group already
  const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", ":memory:"]);
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE t (ts TIMESTAMP TIME INDEX, s STRING PRIMARY KEY, lat DOUBLE, lng DOUBLE)",
    );
    await sqlOk(server.url, "INSERT INTO t VALUES (1, 'abc', 37.3615593, -122.0553238)");
    // in memory, queries run on the main thread
    assert.deepEqual(await sqlRows(server.url, `SELECT ${CELL_SQL}, md5(s), s ~ 'B' FROM t`), [[
      CELL,
      "900150983cd24fb0d6963f7d28e17f72",
      false,
    ]]);
    await assertUnknownFunction(server.url, "SELECT nofunc(1)");
  } finally {
    await server.stop();
  }
});

Deno.test("h3 through INSERT … SELECT, a view over a view and a flow, before and after a restart", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_lazy_" });
  const start = () => spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
  let server = await start();
  try {
    await sqlOk(
      server.url,
      "CREATE TABLE t (ts TIMESTAMP TIME INDEX, s STRING PRIMARY KEY, lat DOUBLE, lng DOUBLE)",
    );
    await sqlOk(
      server.url,
      "CREATE TABLE cells (ts TIMESTAMP TIME INDEX, s STRING PRIMARY KEY, cell STRING)",
    );
    await sqlOk(server.url, "INSERT INTO t VALUES (1, 'abc', 37.3615593, -122.0553238)");
    // INSERT … SELECT runs its query on the main thread
    await sqlOk(server.url, `INSERT INTO cells SELECT ts, s, ${CELL_SQL} FROM t`);
    assert.deepEqual(await sqlRows(server.url, "SELECT cell FROM cells"), [[CELL]]);
    await sqlOk(server.url, `CREATE VIEW located AS SELECT s, ${CELL_SQL} AS cell FROM t`);
    await sqlOk(server.url, "CREATE VIEW named AS SELECT cell FROM located");
    await sqlOk(
      server.url,
      `CREATE FLOW per_cell SINK TO cell_counts EVAL INTERVAL '1s' AS SELECT ${CELL_SQL} AS cell, count(*) AS n FROM t GROUP BY cell`,
    );
    await waitForRows(server.url, "SELECT cell, n FROM cell_counts", [[CELL, 1]]);
    await server.stop();

    // a new process: nothing names an h3 function before the flow runs and the view is read
    server = await start();
    await sqlOk(server.url, "INSERT INTO t VALUES (2, 'def', 37.3615593, -122.0553238)");
    await waitForRows(server.url, "SELECT cell, n FROM cell_counts", [[CELL, 2]]);
    await server.stop();

    server = await start();
    assert.deepEqual(await sqlRows(server.url, "SELECT cell FROM named"), [[CELL], [CELL]]);
    await assertUnknownFunction(server.url, "SELECT nofunc(1) FROM named");
  } finally {
    await server.stop();
    await Deno.remove(dataHome, { recursive: true });
  }
});
