import assert from "node:assert/strict";
import { spawnServer } from "../helpers/server.ts";

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  Deno.test(`${signal}: stops accepting, finishes in-flight requests, exits 0`, async () => {
    const dataHome = await Deno.makeTempDir();
    const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
    const write = await fetch(server.url + "/v1/sql", {
      method: "POST",
      body: new URLSearchParams({
        sql: "CREATE TABLE t (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO t VALUES (1, 2)",
      }),
    });
    assert.equal(write.status, 200, await write.text());
    let release!: () => void;
    const gate = new Promise<void>((r) => release = r);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode("de"));
        else if (sent === 1) {
          await gate;
          controller.enqueue(new TextEncoder().encode("bug"));
        } else controller.close();
        sent++;
      },
    });
    const inFlight = fetch(server.url + "/debug/log_level", {
      method: "POST",
      body,
      // @ts-ignore: streaming request body
      duplex: "half",
    });
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill(signal);
    await new Promise((r) => setTimeout(r, 300));
    release();
    const res = await inFlight;
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.equal(text, "Log Level changed from info to debug");
    const status = await server.child.status;
    assert.equal(status.code, 0);
    await assert.rejects(fetch(server.url + "/health"), "no longer accepting");
    assert.match(server.stderr(), /"msg":"Petrel stopped"/);
    // A clean SQLite close checkpoints the WAL into the database file and removes it.
    const files = [...Deno.readDirSync(`${dataHome}/data`)].map((e) => e.name);
    assert.ok(files.includes("public.sqlite"), files.join(","));
    assert.ok(!files.some((f) => f.endsWith("-wal")), `WAL left behind: ${files.join(",")}`);
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(`${dataHome}/data/public.sqlite`, { readOnly: true });
    assert.equal((db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n, 1);
    db.close();
  });
}
