/**
 * The offline policies while the upstream is down: `drop_oldest` moves the cursor past the oldest
 * rows (counted as dropped) so only the newest `max_lag_bytes` worth is sent when the upstream comes
 * back; `block_ingest` answers 429 to writes into forwarded tables while over the limit, and takes
 * them again once the backlog drained. And `[[forward]]` mistakes stop start-up with a clear message.
 */
import assert from "node:assert/strict";
import { applyToml, ConfigError, defaultConfig, renderConfigToml } from "../../src/config/config.ts";
import { waitFor } from "../helpers/debian.ts";
import { runMain } from "../helpers/server.ts";
import {
  forwardStatus,
  petrelUpstream,
  remoteWrite,
  samples,
  sqlRows,
  startEdge,
  waitDrained,
  waitForStatus,
} from "./upstreams.ts";

const ROW_BYTES = 24;

Deno.test("forward drop_oldest: over max_lag_bytes the oldest rows are skipped and counted", async () => {
  const up = petrelUpstream(); // not started yet: the edge is offline
  const edge = await startEdge({
    name: "drop",
    url: `${up.base}/v1/prometheus/write`,
    protocol: "remote_write",
    max_lag_bytes: 100 * ROW_BYTES,
    policy: "drop_oldest",
  });
  try {
    const t0 = Date.now() - 30 * 60_000;
    for (let i = 0; i < 10; i++) {
      assert.equal(
        await remoteWrite(edge.url, [samples("fwd_drop", { host: "a" }, t0 + i * 100_000, 100)]),
        204,
      );
    }
    const st = await waitForStatus(edge.url, (s) => s.dropped_rows === 900, 20_000);
    assert.ok(st, JSON.stringify(await forwardStatus(edge.url)));
    assert.equal(st.queue_rows, 100);
    assert.equal(st.queue_bytes, 100 * ROW_BYTES);
    const metrics = await (await fetch(`${edge.url}/metrics`)).text();
    assert.match(metrics, /petrel_forward_dropped_rows_total\{destination="drop"\} 900/);
    await up.start();
    await waitDrained(edge.url);
    const rows = await sqlRows(
      up.base,
      "SELECT min(greptime_timestamp), max(greptime_timestamp), count(*) FROM fwd_drop",
    );
    assert.deepEqual(rows, [[t0 + 900_000, t0 + 900_000 + 99_000, 100]], "only the newest 100 rows went up");
  } finally {
    await edge.stop();
    await up.kill();
  }
});

Deno.test("forward drop_oldest: over max_lag (age) every older write is skipped", async () => {
  const up = petrelUpstream();
  const edge = await startEdge({
    name: "age",
    url: `${up.base}/v1/prometheus/write`,
    protocol: "remote_write",
    max_lag: "300ms",
    policy: "drop_oldest",
  });
  try {
    assert.equal(await remoteWrite(edge.url, [samples("fwd_age", { host: "a" }, Date.now(), 50)]), 204);
    const st = await waitForStatus(edge.url, (s) => s.dropped_rows === 50 && s.queue_rows === 0, 20_000);
    assert.ok(st, JSON.stringify(await forwardStatus(edge.url)));
  } finally {
    await edge.stop();
  }
});

Deno.test("forward block_ingest: writes into forwarded tables get 429 while over the limit", async () => {
  const up = petrelUpstream();
  const edge = await startEdge({
    name: "block",
    url: `${up.base}/v1/prometheus/write`,
    protocol: "remote_write",
    tables: ["fwd_blk*"],
    max_lag_bytes: 100 * ROW_BYTES,
    policy: "block_ingest",
  });
  try {
    const t0 = Date.now() - 30 * 60_000;
    assert.equal(await remoteWrite(edge.url, [samples("fwd_blk", { host: "a" }, t0, 200)]), 204);
    const st = await waitForStatus(edge.url, (s) => s.blocking_ingest, 20_000);
    assert.ok(st, JSON.stringify(await forwardStatus(edge.url)));
    const refused = await fetch(`${edge.url}/v1/prometheus/write`, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
      body: (await import("../../src/protocols/remote_write/encoder.ts")).encodeRemoteWriteV1([
        samples("fwd_blk", { host: "a" }, t0 + 500_000, 1),
      ]),
    });
    assert.equal(refused.status, 429);
    assert.match(await refused.text(), /Forwarding to block lags/);
    // a table the destination does not forward is not held back
    assert.equal(await remoteWrite(edge.url, [samples("other", { host: "a" }, t0, 1)]), 204);
    assert.match(
      await (await fetch(`${edge.url}/metrics`)).text(),
      /petrel_forward_blocking_ingest\{destination="block"\} 1/,
    );
    await up.start();
    await waitDrained(edge.url);
    const open = await waitFor(
      async () => (await forwardStatus(edge.url)).blocking_ingest === false || null,
      20_000,
    );
    assert.ok(open);
    assert.equal(await remoteWrite(edge.url, [samples("fwd_blk", { host: "a" }, t0 + 500_000, 1)]), 204);
    // the 200 held back, and the one taken after: nothing refused was stored
    const count = () => sqlRows(up.base, "SELECT count(*) FROM fwd_blk").then((r) => r[0][0]);
    await waitFor(async () => (await count()) === 201 || null, 20_000);
    assert.equal(await count(), 201);
  } finally {
    await edge.stop();
    await up.kill();
  }
});

const BAD_CONFIGS: Array<[string, RegExp]> = [
  [`[[forward]]\nprotocol = "remote_write"`, /Missing 'url' in \[\[forward\]\] #1/],
  [`[[forward]]\nurl = "http://x"`, /Missing 'protocol'/],
  [`[[forward]]\nurl = "ftp://x"\nprotocol = "greptime"`, /only http and https/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "kafka"`, /'protocol'.*one of remote_write, greptime, otlp/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "greptime"\nbatch_size = 0`, /'batch_size'.*at least 1/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "greptime"\npolicy = "drop_oldest"`, /needs 'max_lag'/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "greptime"\nmax_lag = "soon"`, /'max_lag'.*duration/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "greptime"\nretries = 3`, /Unknown key 'retries'/],
  [`[[forward]]\nurl = "http://x"\nprotocol = "greptime"\nbearer_token = "t"\nusername = "u"`, /choose one/],
  [`forward = 1`, /must be an array of tables/],
  [
    `[[forward]]\nurl = "http://x"\nprotocol = "greptime"\n[[forward]]\nurl = "http://y"\nprotocol = "greptime"\nname = "forward_1"`,
    /Two \[\[forward\]\] destinations are named 'forward_1'/,
  ],
];

Deno.test("forward config: each mistake is a ConfigError naming the key", () => {
  for (const [toml, message] of BAD_CONFIGS) {
    assert.throws(() => applyToml(defaultConfig(), toml, "petrel.toml"), (e: unknown) => {
      assert.ok(e instanceof ConfigError, toml);
      assert.match(e.message, message, toml);
      return true;
    });
  }
  const config = defaultConfig();
  applyToml(
    config,
    `[[forward]]\nurl = "http://x/api/v1/write"\nprotocol = "remote_write"\ndatabases = "db*"`,
    "t",
  );
  assert.equal(config.forward[0].name, "forward_1");
  assert.deepEqual(config.forward[0].databases, ["db*"]);
  assert.equal(config.forward[0].batch_size, 2000);
  config.forward[0].username = "u";
  config.forward[0].password = "secret";
  const shown = renderConfigToml(config);
  assert.match(shown, /\[\[forward\]\]\nname = "forward_1"\nurl = "http:\/\/x\/api\/v1\/write"/);
  assert.match(shown, /password = "\*{8}"/);
  assert.doesNotMatch(shown, /secret/);
});

Deno.test("forward config: a bad [[forward]] stops start-up with the message", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/petrel.toml`,
    `[[forward]]\nurl = "http://x"\nprotocol = "greptime"\npolicy = "block_ingest"\n`,
  );
  const out = await runMain(["start", "--config-file", `${dir}/petrel.toml`, "--data-home", dir]);
  assert.notEqual(out.code, 0);
  assert.match(out.stderr + out.stdout, /policy 'block_ingest' needs 'max_lag' or 'max_lag_bytes'/);
});
