/**
 * The release file (`deno task release`): built, copied alone into an empty directory and started
 * there with `sh petrel.js start` (Deno from `npx -y deno@…`, as a user would run it), it serves a
 * line-protocol write big enough for the parse worker, an SQL read (query worker), the dashboard,
 * and stops cleanly — every worker starting from its embedded copy, none falling back.
 */
import assert from "node:assert/strict";
import { buildRelease } from "../../scripts/release/build.ts";

function onPath(cmd: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** Starts `sh petrel.js start` in `cwd`; resolves with the URL from its "listening" line. */
async function startRelease(cwd: string, env: Record<string, string>) {
  const child = new Deno.Command("sh", {
    args: ["petrel.js", "start", "--http-addr", "127.0.0.1:0", "--data-home", "data"],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let errText = "";
  const errDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) errText += chunk;
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`release exited before listening:\n${out}\n${errText}`);
    out += value;
    const m = /Petrel listening on (http:\/\/\S+)/.exec(out);
    if (m) {
      const outDone = (async () => {
        while (!(await reader.read()).done) out += "";
      })();
      return {
        url: m[1],
        stderr: () => errText,
        stop: async () => {
          child.kill("SIGTERM");
          const status = await child.status;
          await Promise.all([errDone, outDone]);
          return status;
        },
      };
    }
  }
}

function lineProtocol(rows: number): string {
  let body = "";
  for (let i = 0; i < rows; i++) {
    body += `cpu,host=h${i % 50} usage=${i % 100},n=${i}i ${
      1_700_000_000_000_000_000n + BigInt(i) * 1_000_000n
    }\n`;
  }
  return body;
}

Deno.test("release file runs from an empty directory: write, read, dashboard, clean stop", async () => {
  const build = await Deno.makeTempDir({ prefix: "petrel_release_build_" });
  const empty = await Deno.makeTempDir({ prefix: "petrel_release_run_" });
  try {
    await buildRelease(`${build}/petrel.js`);
    await Deno.copyFile(`${build}/petrel.js`, `${empty}/petrel.js`);
    // The way users run it: Deno fetched by npx. Without npx, the Deno running this test stands in.
    const env: Record<string, string> = {};
    if (!onPath("npx")) {
      console.log("npx not found: starting the release with this test's own deno instead");
      env.DENO = Deno.execPath();
    }
    const server = await startRelease(empty, env);
    let stopped = false;
    try {
      const body = lineProtocol(4000);
      assert.ok(body.length > 64 * 1024, "a body this size goes to the line-protocol worker");
      const write = await fetch(`${server.url}/v1/influxdb/write?db=public`, { method: "POST", body });
      assert.equal(write.status, 204, await write.text());
      const read = await fetch(
        `${server.url}/v1/sql?sql=${encodeURIComponent("SELECT count(*), sum(n) FROM cpu")}`,
      );
      const json = await read.json();
      assert.equal(read.status, 200, JSON.stringify(json));
      assert.deepEqual(json.output[0].records.rows, [[4000, (3999 * 4000) / 2]]);
      const dash = await fetch(`${server.url}/dashboard/`);
      assert.equal(dash.status, 200);
      const html = await dash.text();
      assert.ok(html.includes("<html"), html);
      const status = await server.stop();
      stopped = true;
      assert.equal(status.code, 0, server.stderr());
      assert.ok(server.stderr().includes("Petrel stopped"), server.stderr());
      assert.ok(!server.stderr().includes("Uncaught"), server.stderr());
      for (const line of server.stderr().split("\n").filter((l) => l.startsWith("{"))) {
        assert.match(JSON.parse(line).level, /^(info|debug)$/, `unexpected log line: ${line}`);
      }
      const files = [...Deno.readDirSync(empty)].map((e) => e.name).sort();
      assert.deepEqual(files, ["data", "petrel.js"]);
    } finally {
      if (!stopped) await server.stop();
    }
  } finally {
    await Deno.remove(build, { recursive: true });
    await Deno.remove(empty, { recursive: true });
  }
});
