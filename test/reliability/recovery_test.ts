/**
 * Start-up on a data home left by a crash recovers by itself (a torn WAL tail, a leftover lock file
 * and shared-memory index), a live data home is never opened twice, and `petrel check` verifies every
 * database file: exit 0 when sound, 1 naming the damaged file.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { runMain, spawnServer } from "../helpers/server.ts";

const lp = (batch: number, rows: number) =>
  Array.from({ length: rows }, (_, i) => `rec,batch=b${batch} seq=${i}i,n=${rows}i ${1_700_000_000_000 + i}`)
    .join("\n");

async function write(base: string, body: string): Promise<void> {
  const r = await fetch(`${base}/v1/influxdb/write?precision=ms`, { method: "POST", body });
  assert.equal(r.status, 204, await r.text());
}

async function sql(base: string, q: string): Promise<unknown[][]> {
  const r = await fetch(`${base}/v1/sql?sql=${encodeURIComponent(q)}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.output[0].records.rows;
}

Deno.test("a second Petrel on a live data home is refused; the lock a killed one left is not stale", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_lock_" });
  const args = ["--http-addr", "127.0.0.1:0", "--data-home", dataHome];
  const first = await spawnServer(args);
  try {
    const second = await runMain(["start", ...args]);
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, /in use by another Petrel process \(pid \d+\)/);
    await write(first.url, lp(1, 3));
  } finally {
    await first.stop("SIGKILL");
  }
  // What a crash leaves: the lock file naming a dead pid.
  await Deno.writeTextFile(join(dataHome, "petrel.lock"), "999999\n");
  const again = await spawnServer(args);
  try {
    assert.deepEqual(await sql(again.url, "SELECT count(*) FROM rec"), [[3]]);
  } finally {
    await again.stop();
  }
  await Deno.remove(dataHome, { recursive: true });
});

Deno.test("a torn WAL tail after SIGKILL: start-up recovers whole batches only, and check passes", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_torn_" });
  const args = ["--http-addr", "127.0.0.1:0", "--data-home", dataHome];
  const s = await spawnServer(args);
  for (let b = 0; b < 40; b++) await write(s.url, lp(b, 50 + b));
  await s.stop("SIGKILL");
  const wal = join(dataHome, "data", "public.sqlite-wal");
  const size = (await Deno.stat(wal)).size;
  assert.ok(size > 4096, `the WAL holds the writes (${size} bytes)`);
  // Tear the last frame in its middle and leave garbage after it, as a crash mid-write can.
  const f = await Deno.open(wal, { write: true });
  await f.truncate(size - 1000);
  await f.seek(0, Deno.SeekMode.End);
  await f.write(crypto.getRandomValues(new Uint8Array(3000)));
  f.close();
  const again = await spawnServer(args);
  try {
    const rows = await sql(again.url, "SELECT batch, count(*), max(n) FROM rec GROUP BY batch");
    assert.ok(rows.length > 0, "earlier batches survive");
    for (const [batch, count, n] of rows) assert.equal(count, n, `batch ${batch} is whole`);
    await write(again.url, lp(100, 7));
    assert.deepEqual(await sql(again.url, "SELECT count(*) FROM rec WHERE batch = 'b100'"), [[7]]);
  } finally {
    await again.stop();
  }
  const check = await runMain(["check", "--data-home", dataHome]);
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /^ok {2}data\/public\.sqlite$/m);
  assert.match(check.stdout, /database files checked in .*, 0 damaged/);
  await Deno.remove(dataHome, { recursive: true });
});

Deno.test("petrel check names a damaged database file and exits 1", async () => {
  const dataHome = await Deno.makeTempDir({ prefix: "petrel_damaged_" });
  const s = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
  for (let b = 0; b < 20; b++) await write(s.url, lp(b, 400));
  await s.stop();
  const file = join(dataHome, "data", "public.sqlite");
  const bytes = await Deno.readFile(file);
  assert.ok(bytes.length >= 5 * 16384, `a few pages of data (${bytes.length} bytes)`);
  // Garbage over the middle of the file: b-tree pages of the table, not the header.
  bytes.set(
    crypto.getRandomValues(new Uint8Array(16384)),
    Math.floor(bytes.length / 2 / 16384) * 16384 + 100,
  );
  await Deno.writeFile(file, bytes);
  await Deno.writeTextFile(
    join(dataHome, "data", "junk.sqlite"),
    "this is not a database, not at all\n".repeat(200),
  );
  const check = await runMain(["check", "--data-home", dataHome]);
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.match(check.stdout, /^DAMAGED {2}data\/public\.sqlite$/m);
  assert.match(check.stdout, /^DAMAGED {2}data\/junk\.sqlite\n {4}file is not a database/m);
  assert.match(check.stdout, /^ok {2}data\/greptime_private\.sqlite$/m);
  assert.match(check.stdout, /, 2 damaged$/m);
  await Deno.remove(dataHome, { recursive: true });
});

Deno.test("petrel check of a data home that does not exist fails instead of checking nothing", async () => {
  const missing = join(await Deno.makeTempDir({ prefix: "petrel_nohome_" }), "typo");
  const check = await runMain(["check", "--data-home", missing]);
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.match(check.stderr, /data home .*typo does not exist/);
  assert.doesNotMatch(check.stdout, /database files checked/);
  await Deno.remove(dirname(missing), { recursive: true });
});
