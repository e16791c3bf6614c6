/**
 * COPY … TO over a real server replaces its target only when the export is complete: a query that
 * fails on a later row leaves an existing file byte for byte and no temporary file behind, and a
 * successful export still writes CSV, JSON lines and Parquet. The temporary file stays inside
 * `storage.copy_dir`, and COPY DATABASE's per-table files do too.
 */
import assert from "node:assert/strict";
import { parquetReadObjects } from "hyparquet";
import { startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest } from "../http/fixtures/sql_client.ts";

const SETUP = `CREATE TABLE t (k STRING PRIMARY KEY, s STRING, ts TIMESTAMP TIME INDEX);
  INSERT INTO t (k, s, ts) VALUES ('a', '1', 1000), ('b', '2', 2000), ('c', 'oops', 3000)`;

/** Rows 'a' and 'b' cast; 'c' fails, after the query has produced two rows. */
const FAILING = "SELECT k, CAST(s AS INT) AS n, ts FROM t ORDER BY ts";

async function withServer(
  fn: (url: string, dir: string) => Promise<void>,
  copyDir?: (dir: string) => string,
): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "petrel_copy_atomic_" }));
  const server = await startTestServer(copyDir ? { storage: { copy_dir: copyDir(dir) } } : {});
  try {
    await sqlOk(server.url, SETUP);
    await fn(server.url, dir);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

async function failsWith4xx(url: string, sql: string): Promise<string> {
  const reply = await sqlRequest(url, sql);
  assert.ok(reply.status >= 400 && reply.status < 500, `${sql} → ${reply.status} ${reply.text}`);
  return String(JSON.parse(reply.text).error);
}

for (const format of ["csv", "json", "parquet"]) {
  Deno.test(`COPY ${format}: a failed export keeps the old file; a good one replaces it`, async () => {
    await withServer(async (url, dir) => {
      const file = `${dir}/out.${format}`;
      const old = new Uint8Array([0x6f, 0x6c, 0x64, 0x0a, 0x00, 0xff]);
      await Deno.writeFile(file, old, { mode: 0o640 });
      await Deno.chmod(file, 0o640);

      const error = await failsWith4xx(url, `COPY (${FAILING}) TO '${file}' WITH (FORMAT = '${format}')`);
      assert.match(error, /oops/);
      assert.deepEqual(await Deno.readFile(file), old, "the old file is untouched");
      assert.deepEqual(listing(dir), [`out.${format}`], "no temporary file is left");

      assert.deepEqual(
        await sqlOk(url, `COPY (SELECT k, ts FROM t ORDER BY ts) TO '${file}' WITH (FORMAT = '${format}')`),
        [{ affectedrows: 3 }],
      );
      assert.deepEqual(listing(dir), [`out.${format}`]);
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o640, "the file keeps its permissions");
      const bytes = await Deno.readFile(file);
      if (format === "parquet") {
        const rows = await parquetReadObjects({ file: bytes.buffer as ArrayBuffer });
        assert.deepEqual(rows.map((r) => r.k), ["a", "b", "c"]);
      } else {
        const text = new TextDecoder().decode(bytes);
        assert.equal(
          text,
          format === "csv"
            ? "k,ts\na,1970-01-01T00:00:01\nb,1970-01-01T00:00:02\nc,1970-01-01T00:00:03\n"
            : ["a", "b", "c"].map((k, i) => `{"k":"${k}","ts":"1970-01-01T00:00:0${i + 1}"}\n`).join(""),
        );
      }
      // a table export to a new file in a new directory
      assert.deepEqual(await sqlOk(url, `COPY t TO '${dir}/new/t.${format}' WITH (FORMAT = '${format}')`), [
        { affectedrows: 3 },
      ]);
      assert.deepEqual(listing(`${dir}/new`), [`t.${format}`]);
    });
  });
}

Deno.test("COPY TO a symlinked file writes through the link", async () => {
  await withServer(async (url, dir) => {
    await Deno.mkdir(`${dir}/real`);
    await Deno.writeTextFile(`${dir}/real/t.csv`, "old\n");
    await Deno.symlink(`${dir}/real/t.csv`, `${dir}/link.csv`);
    await failsWith4xx(url, `COPY (${FAILING}) TO '${dir}/link.csv' WITH (FORMAT = 'csv')`);
    assert.equal(await Deno.readTextFile(`${dir}/real/t.csv`), "old\n");
    await sqlOk(url, `COPY (SELECT k FROM t ORDER BY k) TO '${dir}/link.csv' WITH (FORMAT = 'csv')`);
    assert.ok((await Deno.lstat(`${dir}/link.csv`)).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/real/t.csv`), "k\na\nb\nc\n");
    assert.deepEqual(listing(dir), ["link.csv", "real"]);
    assert.deepEqual(listing(`${dir}/real`), ["t.csv"]);
  });
});

/**
 * A null device to export into: root makes one in `dir` (a bug renaming over the device must not
 * replace the machine's /dev/null); anyone else uses /dev/null, whose directory they cannot write.
 */
async function nullDevice(dir: string): Promise<string> {
  if (Deno.uid() !== 0) return "/dev/null";
  const made = await new Deno.Command("mknod", { args: [`${dir}/null`, "c", "1", "3"] }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
  return `${dir}/null`;
}

Deno.test("COPY TO a device writes into it in place (no rename over it)", async () => {
  await withServer(async (url, dir) => {
    const device = await nullDevice(dir);
    assert.deepEqual(await sqlOk(url, `COPY t TO '${device}' WITH (FORMAT = 'csv')`), [{ affectedrows: 3 }]);
    assert.ok((await Deno.stat(device)).isCharDevice);
    assert.deepEqual(listing(dir), device === "/dev/null" ? [] : ["null"]);
  });
});

Deno.test("copy_dir: a failed export inside leaves no temporary file, inside or out", async () => {
  await withServer(async (url, dir) => {
    await Deno.writeTextFile(`${dir}/box/q.json`, "old\n");
    await failsWith4xx(url, `COPY (${FAILING}) TO 'q.json' WITH (FORMAT = 'json')`);
    assert.equal(await Deno.readTextFile(`${dir}/box/q.json`), "old\n");
    assert.deepEqual(listing(`${dir}/box`), ["q.json"]);
    assert.deepEqual(listing(dir), ["box"]);
  }, (dir) => (Deno.mkdirSync(`${dir}/box`), `${dir}/box`));
});

Deno.test("copy_dir: the COPY directory itself is no file to write (its temp file would be outside)", async () => {
  await withServer(async (url, dir) => {
    // copy_dir does not exist yet: `.` names it, and a file there would sit in its parent
    for (const path of [".", "sub/.."]) {
      const error = await failsWith4xx(url, `COPY t TO '${path}' WITH (FORMAT = 'csv')`);
      assert.match(error, /is the COPY directory itself/);
    }
    assert.deepEqual(listing(dir), []);
  }, (dir) => `${dir}/box`);
});

Deno.test("COPY DATABASE TO: a table name cannot lead its file out of the directory", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `CREATE TABLE "../../escape" (k STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX)`);
    const error = await failsWith4xx(url, "COPY DATABASE public TO 'db/' WITH (FORMAT = 'csv')");
    assert.match(error, /escape/);
    assert.deepEqual(listing(dir), ["box"]);
    assert.deepEqual(listing(`${dir}/box`), ["db"]);
    assert.deepEqual(listing(`${dir}/box/db`), []);
  }, (dir) => (Deno.mkdirSync(`${dir}/box`), `${dir}/box`));
});
