/**
 * VictoriaMetrics' vmagent (Debian's victoria-metrics package) as a remote-write sender: it takes
 * line protocol on its own `/write` and forwards it to Petrel as remote write. Skipped with a printed
 * reason when the package cannot be had.
 */
import assert from "node:assert/strict";
import { ensureDebianBinary, freePort, waitFor } from "../helpers/debian.ts";
import { startTestServer } from "../helpers/server.ts";
import { sqlRows } from "./util.ts";

const VMAGENT = await ensureDebianBinary("vmagent", "victoria-metrics");

Deno.test({
  name: "vmagent forwards line protocol to Petrel as remote write; SQL sees it",
  ignore: VMAGENT === null,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const petrel = await startTestServer();
    const dir = await Deno.makeTempDir({ prefix: "petrel_vmagent_" });
    const port = freePort();
    const child = new Deno.Command(VMAGENT!, {
      args: [
        `-httpListenAddr=127.0.0.1:${port}`,
        `-remoteWrite.url=${petrel.url}/v1/prometheus/write?db=public`,
        `-remoteWrite.tmpDataPath=${dir}/tmp`,
        "-remoteWrite.flushInterval=200ms",
        "-loggerLevel=ERROR",
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let log = "";
    const logDone = (async () => {
      for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) log += chunk;
    })();
    try {
      const vm = `http://127.0.0.1:${port}`;
      assert.ok(
        await waitFor(
          async () => (await fetch(`${vm}/health`).then((r) => r.text())) === "OK" || null,
          30_000,
        ),
      );
      const now = Date.now();
      const body = `vmcpu,host=a usage=1.5,idle=90 ${now}\nvmcpu,host=b usage=2.5,idle=80 ${now}\n`;
      const w = await fetch(`${vm}/write?precision=ms`, { method: "POST", body });
      assert.equal(w.status, 204, await w.text());
      // vmagent names metrics <measurement>_<field>; each becomes a table.
      const rows = await waitFor(
        async () => {
          const got = await sqlRows(petrel.url, "SELECT host, greptime_value FROM vmcpu_usage ORDER BY host");
          return got.length === 2 ? got : null;
        },
        30_000,
        200,
      );
      assert.deepEqual(rows, [["a", 1.5], ["b", 2.5]]);
      assert.deepEqual(
        await sqlRows(petrel.url, "SELECT host, greptime_value FROM vmcpu_idle ORDER BY host"),
        [
          ["a", 90],
          ["b", 80],
        ],
      );
    } catch (e) {
      console.error(log.slice(-3000));
      throw e;
    } finally {
      try {
        child.kill("SIGTERM");
      } catch { /* gone */ }
      await child.status;
      await logDone.catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await petrel.stop();
    }
  },
});
