/**
 * `storage.copy_dir` over a real server: COPY's relative paths land inside it, and nothing outside
 * it (absolute paths, `..`, symlinks inside pointing out, dangling ones) is written or read, for
 * TO and FROM, tables, queries and databases. Unset, COPY goes anywhere, as GreptimeDB's does.
 */
import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { loadConfig } from "../../src/config/config.ts";
import { startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

const TABLE = "CREATE TABLE t (k STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX)";
const ROWS = "INSERT INTO t (k, v, ts) VALUES ('a', 1.5, 1000), ('b', 2.5, 2000)";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A server confined to `<tmp>/box`, and `<tmp>/out` beside it (outside). */
async function withConfined(fn: (url: string, box: string, out: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "petrel_copy_dir_" }));
  const box = `${tmp}/box`, out = `${tmp}/out`;
  await Deno.mkdir(box);
  await Deno.mkdir(out);
  const server = await startTestServer({ storage: { copy_dir: box } });
  try {
    await sqlOk(server.url, `${TABLE}; ${ROWS}`);
    await fn(server.url, box, out);
  } finally {
    await server.stop();
    await Deno.remove(tmp, { recursive: true });
  }
}

async function refused(url: string, sql: string, box: string, path: string): Promise<string> {
  const reply = await sqlRequest(url, sql);
  assert.equal(reply.status, 400, `${sql} → ${reply.text}`);
  const body = JSON.parse(reply.text);
  assert.equal(body.code, 1004);
  assert.ok(String(body.error).includes(`${path} is outside the COPY directory ${box}`), reply.text);
  return String(body.error);
}

Deno.test("copy_dir: relative paths land inside; absolute paths inside work too", async () => {
  await withConfined(async (url, box) => {
    assert.deepEqual(await sqlOk(url, "COPY t TO 'sub/t.csv' WITH (FORMAT = 'csv')"), [{ affectedrows: 2 }]);
    assert.match(await Deno.readTextFile(`${box}/sub/t.csv`), /^k,v,ts\na,1\.5,/);
    await sqlOk(url, "COPY (SELECT k, v, ts FROM t WHERE k = 'b') TO 'q.json' WITH (FORMAT = 'json')");
    assert.ok(await exists(`${box}/q.json`));
    await sqlOk(url, "COPY DATABASE public TO 'backup/' WITH (FORMAT = 'parquet')");
    assert.ok(await exists(`${box}/backup/t.parquet`));
    // `..` that stays inside is fine
    await sqlOk(url, `CREATE TABLE t2 (k STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX)`);
    await sqlOk(url, `COPY t2 FROM '${box}/sub/../sub/t.csv' WITH (FORMAT = 'csv')`);
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM t2"), [[2]]);
  });
});

Deno.test("copy_dir: FROM a directory inside with PATTERN, and COPY DATABASE FROM", async () => {
  await withConfined(async (url, box, out) => {
    await Deno.mkdir(`${box}/in`);
    await Deno.writeTextFile(`${out}/a_9.csv`, "k,ts\nroot:x,1000\n");
    await Deno.symlink(`${out}/a_9.csv`, `${box}/in/a_9.csv`); // a listing reads regular files only
    await Deno.writeTextFile(`${box}/in/a_1.csv`, "k,ts\nc,3000\n");
    await Deno.writeTextFile(`${box}/in/a_2.csv`, "k,ts\nd,4000\n");
    await Deno.writeTextFile(`${box}/in/b_1.csv`, "k,ts\ne,5000\n");
    const sql = "COPY t FROM 'in/' WITH (FORMAT = 'csv', PATTERN = 'a_[0-9]+\\.csv')";
    assert.deepEqual(await sqlOk(url, sql), [{ affectedrows: 2 }]);
    assert.deepEqual(await sqlRows(url, "SELECT k FROM t ORDER BY k"), [["a"], ["b"], ["c"], ["d"]]);
    await sqlOk(url, "COPY DATABASE public TO 'db/' WITH (FORMAT = 'csv')");
    await sqlOk(
      url,
      `CREATE DATABASE other; CREATE TABLE other.t (k STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX)`,
    );
    await sqlOk(url, "COPY DATABASE other FROM 'db/' WITH (FORMAT = 'csv')");
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM other.t"), [[4]]);
  });
});

Deno.test("copy_dir: writes outside are refused with 400 and nothing is written", async () => {
  await withConfined(async (url, box, out) => {
    const parent = box.slice(0, box.lastIndexOf("/"));
    await refused(url, "COPY t TO '../escape.csv' WITH (FORMAT = 'csv')", box, "../escape.csv");
    assert.equal(await exists(`${parent}/escape.csv`), false);
    await refused(url, "COPY t TO 'sub/../../escape.csv'", box, "sub/../../escape.csv");
    assert.equal(await exists(`${parent}/escape.csv`), false);
    await refused(url, `COPY t TO '${out}/abs.csv'`, box, `${out}/abs.csv`);
    await refused(url, `COPY (SELECT * FROM t) TO '${out}/q.csv'`, box, `${out}/q.csv`);
    await refused(url, `COPY DATABASE public TO '${out}/db/'`, box, `${out}/db/`);
    // a directory symlinked out of the box, and a dangling link whose target would be created
    await Deno.symlink(out, `${box}/link`);
    await refused(url, "COPY t TO 'link/x.csv'", box, "link/x.csv");
    await refused(url, "COPY DATABASE public TO 'link/'", box, "link/");
    await Deno.symlink(`${out}/new.csv`, `${box}/dangling.csv`);
    await refused(url, "COPY t TO 'dangling.csv'", box, "dangling.csv");
    assert.deepEqual([...Deno.readDirSync(out)], [], "nothing written outside");
  });
});

Deno.test("copy_dir: reads outside are refused with 400 and nothing is read or leaked", async () => {
  await withConfined(async (url, box, out) => {
    await Deno.writeTextFile(`${out}/secret.csv`, "k,ts\nroot:x:0:0,1000\n");
    await Deno.mkdir(`${out}/dir`);
    await Deno.writeTextFile(`${out}/dir/t.csv`, "k,ts\nroot:y,1000\n");
    const errors = [
      await refused(url, `COPY t FROM '${out}/secret.csv'`, box, `${out}/secret.csv`),
      await refused(url, "COPY t FROM '../out/secret.csv'", box, "../out/secret.csv"),
      await refused(url, `COPY t FROM '${out}/secret.csv/x'`, box, `${out}/secret.csv/x`),
      await refused(url, `COPY t FROM '${out}/dir/' WITH (PATTERN = '.*')`, box, `${out}/dir/`),
      await refused(url, `COPY DATABASE public FROM '${out}/dir/'`, box, `${out}/dir/`),
    ];
    await Deno.symlink(`${out}/secret.csv`, `${box}/secret.csv`);
    errors.push(await refused(url, "COPY t FROM 'secret.csv'", box, "secret.csv"));
    await Deno.symlink(`${out}/dir`, `${box}/dir`);
    errors.push(await refused(url, "COPY t FROM 'dir/' WITH (PATTERN = 't')", box, "dir/"));
    for (const e of errors) assert.doesNotMatch(e, /root:/);
    assert.deepEqual(await sqlRows(url, "SELECT k FROM t ORDER BY k"), [["a"], ["b"]]);
  });
});

Deno.test("copy_dir unset: COPY reads and writes any absolute path, as GreptimeDB", async () => {
  const server = await startTestServer();
  const dir = await Deno.makeTempDir({ prefix: "petrel_copy_anywhere_" });
  try {
    await sqlOk(server.url, `${TABLE}; ${ROWS}`);
    await sqlOk(server.url, `COPY t TO '${dir}/t.csv' WITH (FORMAT = 'csv')`);
    assert.deepEqual(await sqlOk(server.url, `COPY t FROM '${dir}/t.csv' WITH (FORMAT = 'csv')`), [{
      affectedrows: 2,
    }]);
    const doc = parseToml(await (await fetch(`${server.url}/config`)).text()) as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(doc.storage.copy_dir, "");
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copy_dir config: a string from TOML or PETREL__STORAGE__COPY_DIR, shown by /config", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bad.toml`, "[storage]\ncopy_dir = 5\n");
    await assert.rejects(
      loadConfig({ configFile: `${dir}/bad.toml` }, {}),
      /Invalid value for 'storage\.copy_dir' in .*bad\.toml: expected a string, got 5/,
    );
    await Deno.writeTextFile(`${dir}/ok.toml`, `[storage]\ncopy_dir = "/srv/a"\n`);
    assert.equal((await loadConfig({ configFile: `${dir}/ok.toml` }, {})).storage.copy_dir, "/srv/a");
    const env = await loadConfig({ configFile: `${dir}/ok.toml` }, { PETREL__STORAGE__COPY_DIR: "/srv/b" });
    assert.equal(env.storage.copy_dir, "/srv/b");
    assert.equal((await loadConfig({}, {})).storage.copy_dir, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const server = await startTestServer({ storage: { copy_dir: "/srv/copy" } });
  try {
    const doc = parseToml(await (await fetch(`${server.url}/config`)).text()) as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(doc.storage.copy_dir, "/srv/copy");
  } finally {
    await server.stop();
  }
});
