import assert from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { defaultConfig, loadConfig, redactUserProvider } from "../../src/config/config.ts";
import { formatDuration, formatSize, parseDuration, parseSize } from "../../src/common/humantime.ts";
import { runMain, spawnServer } from "../helpers/server.ts";

Deno.test("durations and sizes parse human strings", () => {
  const durations: [string, number | null][] = [
    ["30s", 30_000],
    ["1h30m", 5_400_000],
    ["1h 30m", 5_400_000],
    ["100ms", 100],
    ["7d", 604_800_000],
    ["2days", 172_800_000],
    ["0s", 0],
    ["1.5s", 1500],
    ["", null],
    ["30", null],
    ["5 parsecs", null],
  ];
  for (const [text, ms] of durations) assert.equal(parseDuration(text), ms, text);
  const sizes: [string, number | null][] = [
    ["64MiB", 64 * 2 ** 20],
    ["64MB", 64 * 2 ** 20],
    ["1GB", 2 ** 30],
    ["512KiB", 512 * 1024],
    ["1024", 1024],
    ["12 bananas", null],
    ["-1MB", null],
  ];
  for (const [text, bytes] of sizes) assert.equal(parseSize(text), bytes, text);
  assert.equal(formatDuration(5_400_000), "1h 30m");
  assert.equal(formatSize(64 * 2 ** 20), "64MiB");
});

Deno.test("defaults: 127.0.0.1:4000 and ./petrel_data", () => {
  const c = defaultConfig();
  assert.equal(c.http.addr, "127.0.0.1:4000");
  assert.equal(c.storage.data_home, "./petrel_data");
  assert.equal(c.http.body_limit, 64 * 2 ** 20);
  assert.equal(c.http.timeout, 30_000);
});

Deno.test("precedence: defaults < TOML file < env PETREL__SECTION__KEY < flags", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/petrel.toml`;
  await Deno.writeTextFile(
    file,
    `init_regions_parallelism = 8\n[http]\naddr = "127.0.0.1:1111"\ntimeout = "10s"\nbody_limit = "1MiB"\n[logging]\nlevel = "warn"\n`,
  );
  const c = await loadConfig(
    { configFile: file, httpAddr: "127.0.0.1:3333" },
    {
      PETREL__HTTP__ADDR: "127.0.0.1:2222",
      PETREL__HTTP__TIMEOUT: "1h30m",
      PETREL__ENABLE_TELEMETRY: "false",
      HOME: "/x",
    },
  );
  assert.equal(c.http.addr, "127.0.0.1:3333", "flag beats env and file");
  assert.equal(c.http.timeout, 5_400_000, "env beats file");
  assert.equal(c.http.body_limit, 2 ** 20, "file beats default");
  assert.equal(c.init_regions_parallelism, 8);
  assert.equal(c.enable_telemetry, false, "top-level env key");
  assert.equal(c.logging.level, "warn");
  assert.equal(c.http.is_strict_mode, false, "untouched default");
});

Deno.test("a bad value or unknown key stops start-up naming the key and the file", async () => {
  const dir = await Deno.makeTempDir();
  const cases: [string, RegExp][] = [
    [`[http]\ntimeout = "soon"\n`, /Invalid value for 'http\.timeout' in .*bad\.toml: expected a duration/],
    [`[http]\nbody_limit = "lots"\n`, /Invalid value for 'http\.body_limit' in .*bad\.toml/],
    [`[http]\nfrobnicate = 1\n`, /Unknown configuration key 'http\.frobnicate' in .*bad\.toml/],
    [`mystery = true\n`, /Unknown configuration key 'mystery' in .*bad\.toml/],
    [`enable_telemetry = "maybe"\n`, /Invalid value for 'enable_telemetry'.*expected a boolean/],
    [`[http\n`, /Invalid TOML in .*bad\.toml/],
  ];
  for (const [toml, message] of cases) {
    await Deno.writeTextFile(`${dir}/bad.toml`, toml);
    await assert.rejects(loadConfig({ configFile: `${dir}/bad.toml` }, {}), message);
  }
  await assert.rejects(
    loadConfig({}, { PETREL__HTTP__NOPE: "1" }),
    /Unknown configuration key 'http\.nope' in environment variable PETREL__HTTP__NOPE/,
  );
  await assert.rejects(
    loadConfig({ httpAddr: "localhost" }, {}),
    /Invalid value for 'http\.addr' in flag --http-addr/,
  );

  await Deno.writeTextFile(`${dir}/bad.toml`, `[http]\ntimeout = "soon"\n`);
  const run = await runMain(["start", "--config-file", `${dir}/bad.toml`, "--http-addr", "127.0.0.1:0"]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /error: Invalid value for 'http\.timeout' in .*bad\.toml/);
  const unknownEnv = await runMain(["start"], { GREPTIMEDB_STANDALONE__WAL__DIR: "/w" });
  assert.equal(unknownEnv.code, 1);
  assert.match(
    unknownEnv.stderr,
    /Unknown configuration key 'wal\.dir' in environment variable GREPTIMEDB_STANDALONE__WAL__DIR/,
  );
  for (const help of ["--help", "-h"]) {
    const run = await runMain(["start", "--http-addr", "127.0.0.1:0", help]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /petrel start \[--http-addr HOST:PORT\]/);
    assert.match(run.stdout, /GREPTIMEDB_STANDALONE__SECTION__KEY/);
  }
  // GreptimeDB's docs start it with its other listeners' addresses: named as such, not "unknown"
  const mysql = await runMain(["start", "--http-addr", "127.0.0.1:0", "--mysql-addr", "0.0.0.0:4002"]);
  assert.equal(mysql.code, 1);
  assert.match(
    mysql.stderr,
    /Option '--mysql-addr' of 'greptime standalone start' has no meaning here: .* no MySQL listener/,
  );
  const unknownFlag = await runMain(["start", "--colour", "blue"]);
  assert.equal(unknownFlag.code, 1);
  assert.match(unknownFlag.stderr, /Unknown option '--colour'/);
  const badProvider = await runMain(["start", "--user-provider", "static_user_provider:cmd:bob:admin=x"]);
  assert.equal(badProvider.code, 1);
  assert.match(badProvider.stderr, /invalid permission "admin"/);
});

Deno.test("the real binary honours file, env and flags; /config shows the effective values", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/petrel.toml`, `[http]\nbody_limit = "2MiB"\ntimeout = "10s"\n`);
  const server = await spawnServer(
    ["-c", `${dir}/petrel.toml`, "--http-addr=127.0.0.1:0", "--data-home", `${dir}/data`],
    {
      PETREL__HTTP__TIMEOUT: "45s",
      PETREL__HTTP__IS_STRICT_MODE: "true",
      // GreptimeDB standalone's variables work too; Petrel's win where both name a key
      GREPTIMEDB_STANDALONE__HTTP__TIMEOUT: "5s",
      GREPTIMEDB_STANDALONE__LOGGING__LEVEL: "warn",
      GREPTIMEDB_STANDALONE__DEFAULT_TIMEZONE: "Asia/Shanghai",
    },
  );
  try {
    const doc = parseToml(await (await fetch(server.url + "/config")).text()) as Record<
      string,
      Record<string, unknown>
    >;
    assert.equal(doc.http.body_limit, "2MiB");
    assert.equal(doc.http.timeout, "45s");
    assert.equal(doc.http.is_strict_mode, true);
    assert.equal(doc.http.addr, "127.0.0.1:0");
    assert.equal(doc.logging.level, "warn");
    assert.equal((doc as Record<string, unknown>).default_timezone, "Asia/Shanghai");
    assert.equal(doc.storage.data_home, `${dir}/data`);
    assert.ok((await Deno.stat(`${dir}/data`)).isDirectory);
  } finally {
    await server.stop();
  }
});

Deno.test("--data-home :memory: creates no files", async () => {
  const dir = await Deno.makeTempDir();
  const child = await spawnServer(["--http-addr", "127.0.0.1:0", "--data-home", ":memory:"], {});
  try {
    const res = await fetch(child.url + "/health");
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await child.stop();
  }
  const entries = [...Deno.readDirSync(dir)];
  assert.deepEqual(entries, []);
  assert.throws(() => Deno.statSync(":memory:"), Deno.errors.NotFound);
});

Deno.test("credentials in an inline provider are redacted", () => {
  assert.equal(
    redactUserProvider("static_user_provider:cmd:a=p1,b:ro=p2"),
    "static_user_provider:cmd:a=********,b:ro=********",
  );
  assert.equal(
    redactUserProvider("static_user_provider:file:/etc/users"),
    "static_user_provider:file:/etc/users",
  );
});
