/**
 * Deno Deploy mode: with `DENO_DEPLOY` (or Deploy's own `DENO_DEPLOYMENT_ID`) set, the real server,
 * started in an empty directory, keeps its data in memory, says so on `/status`, serves a write and
 * a read, and leaves the directory empty; a data home given explicitly is used, without a lock file.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../src/config/config.ts";
import { spawnListening, startTestServer } from "../helpers/server.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Starts `main.ts` with `args` in `cwd` (a spawned process: the deploy variables are its own). */
function spawnIn(cwd: string, args: string[], env: Record<string, string>) {
  return spawnListening(Deno.execPath(), ["run", "-A", MAIN, ...args], { cwd, env });
}

async function writeAndRead(url: string): Promise<void> {
  const write = await fetch(`${url}/v1/influxdb/write?db=public`, {
    method: "POST",
    body: "cpu,host=a usage=1.5 1700000000000000000\ncpu,host=b usage=2.5 1700000000000000000\n",
  });
  assert.equal(write.status, 204, await write.text());
  const read = await fetch(
    `${url}/v1/sql?sql=${encodeURIComponent("SELECT host, usage FROM cpu ORDER BY host")}`,
  );
  const json = await read.json();
  assert.equal(read.status, 200, JSON.stringify(json));
  assert.deepEqual(json.output[0].records.rows, [["a", 1.5], ["b", 2.5]]);
}

const CASES: { name: string; env: Record<string, string>; dataHome: boolean }[] = [
  { name: "DENO_DEPLOY, no data home: :memory:", env: { DENO_DEPLOY: "1" }, dataHome: false },
  {
    name: "DENO_DEPLOYMENT_ID, no data home: :memory:",
    env: { DENO_DEPLOYMENT_ID: "abc123" },
    dataHome: false,
  },
  {
    name: "DENO_DEPLOY with --data-home: that directory, no lock",
    env: { DENO_DEPLOY: "1" },
    dataHome: true,
  },
];

for (const c of CASES) {
  Deno.test(`Deno Deploy mode (${c.name}): ephemeral on /status, write and read, no stray files`, async () => {
    const cwd = await Deno.makeTempDir({ prefix: "petrel_deploy_" });
    const home = await Deno.makeTempDir({ prefix: "petrel_deploy_home_" });
    const args = ["start", "--http-addr", "127.0.0.1:0", ...(c.dataHome ? ["--data-home", home] : [])];
    const server = await spawnIn(cwd, args, c.env);
    try {
      const status = await (await fetch(`${server.url}/status`)).json();
      assert.deepEqual(status.storage, {
        data_home: c.dataHome ? home : ":memory:",
        ephemeral: true,
        deno_deploy: true,
      });
      await writeAndRead(server.url);
    } finally {
      const exit = await server.stop();
      assert.equal(exit.code, 0, server.stderr());
    }
    assert.ok(server.stderr().includes("storage is ephemeral"), server.stderr());
    assert.deepEqual([...Deno.readDirSync(cwd)], [], "nothing written to the working directory");
    const homeFiles = [...Deno.readDirSync(home)].map((e) => e.name);
    assert.ok(!homeFiles.includes("petrel.lock"), `no data-home lock: ${homeFiles}`);
    if (c.dataHome) assert.ok(homeFiles.includes("data"), `data kept in the given home: ${homeFiles}`);
    await Deno.remove(cwd, { recursive: true });
    await Deno.remove(home, { recursive: true });
  });
}

Deno.test("Deploy defaults: :memory: and 0.0.0.0:$PORT, each overridden by what is given", async () => {
  const deploy = await loadConfig({}, { DENO_DEPLOY: "1", PORT: "9123" });
  assert.equal(deploy.storage.data_home, ":memory:");
  assert.equal(deploy.http.addr, "0.0.0.0:9123");
  const given = await loadConfig({ httpAddr: "127.0.0.1:5000" }, {
    DENO_DEPLOYMENT_ID: "x",
    PETREL__STORAGE__DATA_HOME: "/tmp/petrel",
  });
  assert.equal(given.storage.data_home, "/tmp/petrel");
  assert.equal(given.http.addr, "127.0.0.1:5000");
  const plain = await loadConfig({}, { DENO_DEPLOY: "" });
  assert.equal(plain.storage.data_home, "./petrel_data");
});

Deno.test("off Deploy, /status reports durable storage for a data home", async () => {
  const s = await startTestServer();
  try {
    const status = await (await fetch(`${s.url}/status`)).json();
    assert.deepEqual(status.storage, { data_home: s.dataHome, ephemeral: false, deno_deploy: false });
  } finally {
    await s.stop();
    await Deno.remove(s.dataHome, { recursive: true });
  }
});
