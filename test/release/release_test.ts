/**
 * The release file (`deno task release`): built, copied alone into an empty directory and started
 * there with `sh petrel.js start` (Deno from `npx -y deno@…`, as a user would run it), it serves a
 * line-protocol write big enough for the parse worker, an SQL read (query worker, also with the
 * function groups it loads on first use), the dashboard, lazily loaded routes (PromQL; a VRL
 * pipeline dry run), and stops cleanly — every worker starting from its extracted copy, none
 * falling back. The program is extracted into `$XDG_CACHE_HOME/petrel/<hash>` (a temp directory
 * here), never the working directory.
 */
import assert from "node:assert/strict";
import { buildRelease } from "../../scripts/release/build.ts";
import { spawnListening } from "../helpers/server.ts";

function onPath(cmd: string): boolean {
  try {
    return new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** Starts `sh petrel.js start` in `cwd`; resolves once it is listening. */
function startRelease(cwd: string, env: Record<string, string>) {
  return spawnListening("sh", ["petrel.js", "start", "--http-addr", "127.0.0.1:0", "--data-home", "data"], {
    cwd,
    env,
  });
}

const SCHEMA = new URL("../vrl/fixtures/json-schema_definition.json", import.meta.url).pathname;

// parse_user_agent and validate_json_schema run npm libraries the engine imports ahead: they must be in
// the release's chunks (require() at first call could not find them there). reverse_dns runs on the
// VRL network worker, which must start from its extracted copy.
const VRL_PIPELINE = `processors:
  - vrl:
      source: |
        .browser = parse_user_agent!(.ua).browser.family
        .valid = validate_json_schema!(encode_json({"productUser": .user}), "${SCHEMA}", false)
        .peer = reverse_dns!("127.0.0.1")
        .
transform:
  - field: browser
    type: string
  - field: valid
    type: boolean
  - field: peer
    type: string
  - field: ts
    type: epoch, ms
    index: timestamp
`;

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

/** Routes whose modules (and npm libraries) load on first use: chunks of their own in the release. */
async function checkLazyRoutes(url: string) {
  const promql = await fetch(`${url}/v1/prometheus/api/v1/query?query=1%2B1&time=1700000000`);
  const result = await promql.json();
  assert.equal(promql.status, 200, JSON.stringify(result));
  assert.deepEqual(result.data, { resultType: "scalar", result: [1700000000, "2"] });
  const dry = await fetch(`${url}/v1/pipelines/_dryrun`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      pipeline: VRL_PIPELINE,
      data: JSON.stringify({ ua: FIREFOX, user: "a@b.org", ts: 5 }),
    }),
  });
  const tables = await dry.json();
  assert.equal(dry.status, 200, JSON.stringify(tables));
  const row = tables[0].rows[0].map((c: { key: string; value: unknown }) => [c.key, c.value]);
  assert.deepEqual(row, [["browser", "Firefox"], ["valid", true], ["peer", "localhost"], ["ts", 5]]);
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

Deno.test("release file runs from an empty directory: write, read, dashboard, lazy routes, clean stop", async () => {
  const build = await Deno.makeTempDir({ prefix: "petrel_release_build_" });
  const empty = await Deno.makeTempDir({ prefix: "petrel_release_run_" });
  const cache = await Deno.makeTempDir({ prefix: "petrel_release_cache_" });
  try {
    await buildRelease(`${build}/petrel.js`);
    await Deno.copyFile(`${build}/petrel.js`, `${empty}/petrel.js`);
    // The way users run it: Deno fetched by npx. Without npx, the Deno running this test stands in.
    const env: Record<string, string> = { XDG_CACHE_HOME: cache };
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
      // the query worker loads these function groups on first use: their chunks must be in the release
      const lazy = await fetch(`${server.url}/v1/sql?sql=${
        encodeURIComponent(
          "SELECT md5('abc'), regexp_like('abc', '^a'), h3_cell_resolution(h3_latlng_to_cell(1.0, 2.0, 7)) FROM cpu LIMIT 1",
        )
      }`);
      const lazyJson = await lazy.json();
      assert.equal(lazy.status, 200, JSON.stringify(lazyJson));
      assert.deepEqual(lazyJson.output[0].records.rows, [["900150983cd24fb0d6963f7d28e17f72", true, 7]]);
      const dash = await fetch(`${server.url}/dashboard/`);
      assert.equal(dash.status, 200);
      const html = await dash.text();
      assert.ok(html.includes("<html"), html);
      await checkLazyRoutes(server.url);
      // COPY loads on first use with the Parquet libraries: they must be chunks of the release too
      const copy = await fetch(`${server.url}/v1/sql`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ sql: `COPY cpu TO '${build}/cpu.parquet' WITH (FORMAT = 'parquet')` }),
      });
      assert.equal(copy.status, 200, await copy.text());
      assert.ok(Deno.statSync(`${build}/cpu.parquet`).size > 0);
      // reads request.signal: without deno.json's unstable flag Deno warns of "legacy behavior"
      const prof = await fetch(`${server.url}/debug/prof/cpu?seconds=1&output=text`, { method: "POST" });
      assert.equal(prof.status, 200, await prof.text());
      const status = await server.stop();
      stopped = true;
      assert.equal(status.code, 0, server.stderr());
      assert.ok(server.stderr().includes("Petrel stopped"), server.stderr());
      assert.ok(!server.stderr().includes("Uncaught"), server.stderr());
      assert.ok(!server.stderr().includes("legacy behavior"), server.stderr());
      for (const line of server.stderr().split("\n").filter((l) => l.startsWith("{"))) {
        assert.match(JSON.parse(line).level, /^(info|debug)$/, `unexpected log line: ${line}`);
      }
      const files = [...Deno.readDirSync(empty)].map((e) => e.name).sort();
      assert.deepEqual(files, ["data", "petrel.js"]);
      const extracted = [...Deno.readDirSync(`${cache}/petrel`)].map((e) => e.name);
      assert.equal(extracted.length, 1, `one program directory: ${extracted}`);
      assert.match(extracted[0], /^[0-9a-f]{24}$/);
    } finally {
      if (!stopped) await server.stop();
    }
  } finally {
    await Deno.remove(build, { recursive: true });
    await Deno.remove(empty, { recursive: true });
    await Deno.remove(cache, { recursive: true });
  }
});
