/**
 * Disk full and a read-only data home (issue 14), on a small tmpfs mounted for the test (root only;
 * otherwise skipped with the reason printed): a write that does not fit is a 507, on a read-only file
 * system a 503, both with nothing stored; reads keep working; no file is damaged (`petrel check`);
 * and writes resume, without a restart, once space (or write access) returns.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMain, startTestServer, type TestServer } from "../helpers/server.ts";
import { ensureDebianBinary } from "../helpers/debian.ts";

async function sh(...args: string[]): Promise<{ ok: boolean; err: string }> {
  const out = await new Deno.Command(args[0], { args: args.slice(1), stderr: "piped", stdout: "null" })
    .output();
  return { ok: out.success, err: new TextDecoder().decode(out.stderr) };
}

/** Mounts a tmpfs of `size` at a fresh dir; null (with the reason) when this process cannot. */
async function smallFileSystem(size: string): Promise<{ dir: string; unmount(): Promise<void> } | string> {
  if (Deno.build.os !== "linux") return "not Linux";
  if (Deno.uid() !== 0) return "not root (a tmpfs mount needs it)";
  const dir = await Deno.makeTempDir({ prefix: "petrel_disk_" });
  const m = await sh("mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir);
  if (!m.ok) {
    await Deno.remove(dir);
    return `mount -t tmpfs failed: ${m.err.trim()}`;
  }
  return {
    dir,
    unmount: async () => {
      await sh("umount", "-l", dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

const lines = (tag: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `disk,batch=${tag} seq=${i}i,pad="${"x".repeat(200)}" ${from + i}`)
    .join("\n");

async function write(
  s: TestServer,
  tag: string,
  n: number,
): Promise<{ status: number; text: string; retry: string | null }> {
  const r = await fetch(`${s.url}/v1/influxdb/write?precision=ms`, { method: "POST", body: lines(tag, n) });
  return { status: r.status, text: await r.text(), retry: r.headers.get("retry-after") };
}

async function counts(s: TestServer): Promise<Record<string, number>> {
  const q = "SELECT batch, count(*) FROM disk GROUP BY batch ORDER BY batch";
  const r = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent(q)}`);
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return Object.fromEntries(body.output[0].records.rows.map((row: [string, number]) => [row[0], row[1]]));
}

/** Fills the file system to the last byte; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const path = join(dir, "filler");
  const f = await Deno.open(path, { write: true, create: true });
  try {
    // Halve the chunk on every failure, down to one byte: the file system ends up full to the byte.
    for (let size = 1 << 20; size >= 1;) {
      try {
        await f.write(new Uint8Array(size));
      } catch {
        size >>= 1;
      }
    }
  } finally {
    f.close();
  }
  return path;
}

Deno.test("disk full: 507, nothing stored, reads work, no damage, writes resume when space returns", async (t) => {
  const fs = await smallFileSystem("16m");
  if (typeof fs === "string") {
    console.log(`skipped: ${fs}`);
    await t.step({ name: "needs a tmpfs mount", ignore: true, fn: () => {} });
    return;
  }
  const dataHome = join(fs.dir, "petrel");
  const s = await startTestServer({ storage: { data_home: dataHome } });
  try {
    assert.equal((await write(s, "a", 1000)).status, 204);
    const filler = await fill(fs.dir);
    const big = await write(s, "full20000", 20000);
    assert.equal(big.status, 507, big.text);
    assert.equal(big.retry, "1");
    assert.match(big.text, /Storage is full \(database or disk is full\)/);
    // A small write may still fit: once the checkpointer has reset the WAL, SQLite overwrites the WAL
    // file's existing pages, which needs no new space. Either way nothing is half-stored.
    const small = await write(s, "full100", 100);
    const stored: Record<string, number> = { a: 1000 };
    if (small.status === 204) stored.full100 = 100;
    else {
      assert.equal(small.status, 507, small.text);
      assert.match(small.text, /Storage is full/);
    }
    assert.deepEqual(await counts(s), stored);
    await Deno.remove(filler);
    const again = await write(s, "b", 1000);
    assert.equal(again.status, 204, again.text);
    assert.deepEqual(await counts(s), { ...stored, b: 1000 });
  } finally {
    await s.stop();
  }
  try {
    const check = await runMain(["check", "--data-home", dataHome]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  } finally {
    await fs.unmount();
  }
});

/** A loop-mounted ext4 image with `errors=remount-ro`, which the test can turn read-only under open files. */
async function ext4Image(): Promise<
  { dir: string; device: string; remount(): Promise<void>; unmount(): Promise<void> } | string
> {
  if (Deno.build.os !== "linux") return "not Linux";
  if (Deno.uid() !== 0) return "not root (a loop mount needs it)";
  if ((await ensureDebianBinary("mkfs.ext4", "e2fsprogs")) === null) return "no mkfs.ext4 (e2fsprogs)";
  const image = await Deno.makeTempFile({ prefix: "petrel_ext4_", suffix: ".img" });
  const dir = await Deno.makeTempDir({ prefix: "petrel_ro_" });
  const cleanup = async () => {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(image).catch(() => {});
  };
  await Deno.truncate(image, 32 * 1024 * 1024);
  for (
    const cmd of [["mkfs.ext4", "-q", "-F", image], ["mount", "-o", "loop,errors=remount-ro", image, dir]]
  ) {
    const r = await sh(...cmd);
    if (!r.ok) {
      await cleanup();
      return `${cmd[0]} failed: ${r.err.trim()}`;
    }
  }
  const src = new TextDecoder().decode(
    (await new Deno.Command("findmnt", { args: ["-n", "-o", "SOURCE", dir], stdout: "piped" }).output())
      .stdout,
  ).trim();
  const device = src.split("/").pop()!;
  return {
    dir,
    device,
    // An emergency read-only file system stays so until it is checked and mounted again.
    remount: async () => {
      // a worker thread of the stopped server may hold a file a moment longer
      for (let i = 0; i < 50 && !(await sh("umount", dir)).ok; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await sh("umount", "-l", dir);
      await sh("e2fsck", "-fy", image);
      const m = await sh("mount", "-o", "loop", image, dir);
      assert.ok(m.ok, m.err);
    },
    unmount: async () => {
      await sh("umount", dir);
      await cleanup();
    },
  };
}

Deno.test("a data home gone read-only: 503, nothing stored, reads work, no damage after fsck and restart", async (t) => {
  const fs = await ext4Image();
  const trigger = typeof fs === "string" ? "" : `/sys/fs/ext4/${fs.device}/trigger_fs_error`;
  if (typeof fs === "string" || !(await Deno.stat(trigger).catch(() => null))) {
    if (typeof fs !== "string") await fs.unmount();
    console.log(
      `skipped: ${typeof fs === "string" ? fs : `no ${trigger} to make the file system read-only`}`,
    );
    await t.step({ name: "needs a loop-mounted ext4", ignore: true, fn: () => {} });
    return;
  }
  const dataHome = join(fs.dir, "petrel");
  try {
    const s = await startTestServer({ storage: { data_home: dataHome } });
    try {
      assert.equal((await write(s, "a", 100)).status, 204);
      // On disk first: synchronous=NORMAL leaves the last commits to the OS until a checkpoint, and a
      // file system failing under them loses them as a power cut would (README "Durability").
      await sh("sync");
      // What the kernel does on an I/O error with errors=remount-ro, under the open database files.
      await Deno.writeTextFile(trigger, "petrel test");
      for (const tag of ["ro1", "ro2"]) {
        const r = await write(s, tag, 100);
        assert.equal(r.status, 503, r.text);
        assert.equal(r.retry, "1");
        assert.match(r.text, /Storage is (read-only|unavailable)/);
      }
      assert.deepEqual(await counts(s), { a: 100 });
    } finally {
      await s.stop();
    }
    await fs.remount();
    const check = await runMain(["check", "--data-home", dataHome]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    const again = await startTestServer({ storage: { data_home: dataHome } });
    try {
      assert.deepEqual(await counts(again), { a: 100 });
      assert.equal((await write(again, "b", 100)).status, 204);
    } finally {
      await again.stop();
    }
  } finally {
    await fs.unmount();
  }
});
