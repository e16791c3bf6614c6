/**
 * A cancelled query must stop computing: a query worker cannot be interrupted inside SQLite, so an
 * unbounded recursive CTE would keep its thread busy forever after the request timed out. The
 * server runs as a child process and its CPU time is read from /proc (Linux only).
 */
import assert from "node:assert/strict";
import { spawnServer } from "../helpers/server.ts";

const onLinux = Deno.build.os === "linux";

/** CPU ticks (user + system, 1/100 s) the process has used. */
function cpuTicks(pid: number): number {
  const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

Deno.test({
  name: "a timed-out unbounded recursive query stops using CPU; bounded ones answer in full",
  ignore: !onLinux,
  fn: async () => {
    const dataHome = await Deno.makeTempDir({ prefix: "petrel_runaway_" });
    const server = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", dataHome]);
    try {
      const sql = (text: string, timeout?: string) =>
        fetch(`${server.url}/v1/sql`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...(timeout ? { "x-greptime-timeout": timeout } : {}),
          },
          body: new URLSearchParams({ sql: text }),
        });
      const bounded = await sql(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100 ORDER BY 1) SELECT sum(n) FROM r",
      );
      const body = await bounded.json();
      assert.equal(bounded.status, 200, JSON.stringify(body));
      assert.deepEqual(body.output[0].records.rows, [[5050]]);

      const runaway = await sql(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
        "1s",
      );
      const err = await runaway.json();
      assert.equal(err.code, 1008, JSON.stringify(err));
      await new Promise((r) => setTimeout(r, 500));
      const before = cpuTicks(server.child.pid);
      await new Promise((r) => setTimeout(r, 2000));
      const used = cpuTicks(server.child.pid) - before;
      // a thread still computing uses ~200 ticks in 2 s; an idle server a handful
      assert.ok(used < 60, `the server kept computing after the timeout: ${used} ticks in 2 s`);
    } finally {
      await server.stop();
      await Deno.remove(dataHome, { recursive: true });
    }
  },
});
