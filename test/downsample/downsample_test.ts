/**
 * Downsampling over HTTP: remote-write and line-protocol data downsampled by `[[downsample]]` rules,
 * read back by SQL and PromQL; incremental across a restart with no window written twice; bad
 * rules stop start-up with a clear message. Time is driven by `downsampler.runOnce(now)`.
 */
import assert from "node:assert/strict";
import { parseDownsampleRules } from "../../src/config/downsample.ts";
import type { Series } from "../../src/common/series.ts";
import { runMain, spawnServer, startTestServer } from "../helpers/server.ts";
import { lineWrite, metricValue, queryRange, remoteWrite, sql } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

/** Two series, a sample every 15 s for an hour: sample k of instance i is `k + 1000 i`. */
function cpuSeries(): Series[] {
  return ["a", "b"].map((inst, i) => ({
    labels: { __name__: "cpu", instance: inst },
    samples: Array.from({ length: 240 }, (_, k) => ({ timestampMs: BASE + k * 15_000, value: k + 1000 * i })),
  }));
}

const METRIC_RULES = parseDownsampleRules([{
  source: "cpu",
  interval: "5m",
  target: "cpu_5m",
  ttl: "30d",
  delay: "1m",
}]);

Deno.test("downsample: a metric from remote write, incremental across a restart, read by SQL and PromQL", async () => {
  let server = await startTestServer({ downsample: METRIC_RULES });
  const dataHome = server.dataHome;
  try {
    await remoteWrite(server.url, cpuSeries());
    // At BASE+31m the windows up to BASE+30m are closed (delay 1m): six of them.
    assert.equal(await server.server.downsampler.runOnce(BASE + 31 * MIN), 6);
    assert.equal(await server.server.downsampler.runOnce(BASE + 31 * MIN), 0, "nothing new is closed");
    const first = await sql(server.url, "SELECT count(*), sum(greptime_value) FROM cpu_5m_count");
    assert.deepEqual(first[0].map(Number), [12, 12 * 20]);
    const ddl = await sql(server.url, "SHOW CREATE TABLE cpu_5m_avg");
    assert.match(String(ddl[0][1]), /ttl = '30days'/);
    // A late sample for a window already written: marked with the write, recomputed after the restart.
    await remoteWrite(server.url, [{
      labels: { __name__: "cpu", instance: "a" },
      samples: [{ timestampMs: BASE + 61_000, value: 1e6 }],
    }]);
    await server.stop();

    server = await startTestServer({ downsample: METRIC_RULES, storage: { data_home: dataHome } });
    assert.equal(
      await server.server.downsampler.runOnce(BASE + 2 * HOUR),
      7,
      "the six windows not written before, and the one the late sample reached",
    );
    const rows = await sql(
      server.url,
      "SELECT a.instance, a.greptime_timestamp, a.greptime_value, n.greptime_value, x.greptime_value, s.greptime_value, " +
        "l.greptime_value, c.greptime_value FROM cpu_5m_avg a " +
        "JOIN cpu_5m_min n ON n.instance = a.instance AND n.greptime_timestamp = a.greptime_timestamp " +
        "JOIN cpu_5m_max x ON x.instance = a.instance AND x.greptime_timestamp = a.greptime_timestamp " +
        "JOIN cpu_5m_sum s ON s.instance = a.instance AND s.greptime_timestamp = a.greptime_timestamp " +
        "JOIN cpu_5m_last l ON l.instance = a.instance AND l.greptime_timestamp = a.greptime_timestamp " +
        "JOIN cpu_5m_count c ON c.instance = a.instance AND c.greptime_timestamp = a.greptime_timestamp " +
        "ORDER BY a.instance, a.greptime_timestamp",
    );
    assert.equal(rows.length, 24, "12 windows × 2 series, none twice");
    for (const [inst, ts, avg, min, max, sum, last, count] of rows) {
      const j = (Number(ts) - BASE) / (5 * MIN);
      const off = inst === "b" ? 1000 : 0;
      assert.ok(Number.isInteger(j) && j >= 0 && j < 12, `stamped at a window start: ${ts}`);
      const late = inst === "a" && j === 0;
      assert.deepEqual(
        [avg, min, max, sum, last, count].map(Number),
        late ? [(190 + 1e6) / 21, 0, 1e6, 190 + 1e6, 19, 21] : [
          20 * j + 9.5 + off,
          20 * j + off,
          20 * j + 19 + off,
          20 * (20 * j + 9.5 + off),
          20 * j + 19 + off,
          20,
        ],
        `window ${j} of ${inst}`,
      );
    }

    const matrix = await queryRange(server.url, 'cpu_5m_max{instance="a"}', BASE, BASE + 55 * MIN, 300);
    assert.equal(matrix.length, 1);
    assert.equal(matrix[0].metric.__name__, "cpu_5m_max");
    assert.deepEqual(
      matrix[0].values.map((v) => Number(v[1])),
      Array.from({ length: 12 }, (_, j) => j === 0 ? 1e6 : 20 * j + 19),
    );
    const sumAvg = await queryRange(server.url, "sum(cpu_5m_avg)", BASE, BASE, 60);
    assert.equal(Number(sumAvg[0].values[0][1]), (190 + 1e6) / 21 + 1009.5);

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.equal(
      metricValue(metrics, 'petrel_downsample_windows_total{target="cpu_5m"}'),
      7,
      "this process' windows",
    );
    assert.equal(metricValue(metrics, 'petrel_downsample_recomputed_windows_total{target="cpu_5m"}'), 1);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample: an ordinary table from line protocol gives one table with a column per field and aggregate", async () => {
  const rules = parseDownsampleRules([{
    source: "weather",
    interval: "10m",
    aggregates: ["avg", "max", "count", "last"],
    target: "weather_10m",
    target_database: "rollups",
    delay: "0s",
  }]);
  const server = await startTestServer({ downsample: rules });
  try {
    const lines: string[] = [];
    for (let k = 0; k < 30; k++) {
      lines.push(`weather,station=s1 temp=${k},hum=${100 - k}i ${BASE + k * MIN}`);
      if (k % 2 === 0) lines.push(`weather,station=s2 temp=${-k} ${BASE + k * MIN + 1}`);
    }
    await lineWrite(server.url, lines);
    assert.equal(await server.server.downsampler.runOnce(BASE + 20 * MIN), 2);
    await lineWrite(server.url, [`weather,station=s1 temp=99,hum=1i ${BASE + 35 * MIN}`]);
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 2, "the third window and the fourth");
    const rows = await sql(
      server.url,
      "SELECT station, greptime_timestamp, temp_avg, temp_max, temp_count, temp_last, hum_avg, hum_count " +
        "FROM weather_10m ORDER BY station, greptime_timestamp",
      "rollups",
    );
    assert.deepEqual(
      rows.map((r) => [
        r[0],
        (Number(r[1]) - BASE) / MIN,
        ...r.slice(2).map((v) => v === null ? null : Number(v)),
      ]),
      [
        ["s1", 0, 4.5, 9, 10, 9, 95.5, 10],
        ["s1", 10, 14.5, 19, 10, 19, 85.5, 10],
        ["s1", 20, 24.5, 29, 10, 29, 75.5, 10],
        ["s1", 30, 99, 99, 1, 99, 1, 1],
        ["s2", 0, -4, 0, 5, -8, null, 0],
        ["s2", 10, -14, -10, 5, -18, null, 0],
        ["s2", 20, -24, -20, 5, -28, null, 0],
      ],
    );
    await sql(server.url, "DROP TABLE weather_10m", "rollups");
    assert.equal(await server.server.downsampler.runOnce(BASE + HOUR), 4, "a dropped target is rebuilt");
    const rebuilt = await sql(server.url, "SELECT count(*), sum(temp_count) FROM weather_10m", "rollups");
    assert.deepEqual(rebuilt[0].map(Number), [7, 46]);
    const desc = await sql(server.url, "DESC TABLE weather_10m", "rollups");
    assert.deepEqual(desc.map((r) => [r[0], r[1]]), [
      ["station", "String"],
      ["greptime_timestamp", "TimestampMillisecond"],
      ["temp_avg", "Float64"],
      ["temp_max", "Float64"],
      ["temp_count", "Int64"],
      ["temp_last", "Float64"],
      ["hum_avg", "Float64"],
      ["hum_max", "Float64"],
      ["hum_count", "Int64"],
      ["hum_last", "Float64"],
    ]);
  } finally {
    await server.stop();
  }
});

Deno.test("downsample: bad rules stop start-up with a message naming the rule and key", async () => {
  const dir = await Deno.makeTempDir();
  const cases: Array<[string, RegExp]> = [
    [`[[downsample]]\nsource = "cpu"\ntarget = "cpu_5m"\n`, /#1: 'interval' is required/],
    [
      `[[downsample]]\nsource = "cpu"\ninterval = "5 fortnights"\ntarget = "x"\n`,
      /'interval' must be a duration/,
    ],
    [
      `[[downsample]]\nsource = "cpu"\ninterval = "5m"\ntarget = "x"\naggregates = ["median"]\n`,
      /unknown aggregate "median"/,
    ],
    [
      `[[downsample]]\nsource = "cpu"\ninterval = "5m"\ntarget = "x"\nwindow = "1h"\n`,
      /unknown key 'window'/,
    ],
    [
      `[[downsample]]\nsource = "cpu"\ninterval = "5m"\ntarget = "cpu"\n`,
      /'target' must differ from 'source'/,
    ],
    [
      `[[downsample]]\nsource = "a"\ninterval = "5m"\ntarget = "x"\n[[downsample]]\nsource = "b"\ninterval = "1m"\ntarget = "x"\n`,
      /#2: target public\.x is already the target of rule #1/,
    ],
    [
      `[[downsample]]\nsource = "cpu"\ninterval = "5m"\ntarget = "x"\nttl = "soon"\n`,
      /'ttl' must be a duration/,
    ],
  ];
  for (const [i, [toml, message]] of cases.entries()) {
    await Deno.writeTextFile(`${dir}/bad${i}.toml`, toml);
    const run = await runMain([
      "start",
      "--config-file",
      `${dir}/bad${i}.toml`,
      "--http-addr",
      "127.0.0.1:0",
    ]);
    assert.equal(run.code, 1, toml);
    assert.match(run.stderr, /Invalid downsample rule in .*bad\d\.toml/);
    assert.match(run.stderr, message);
  }
});

Deno.test("downsample: the server runs the rules in the background, logs them, and shows them in /config", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/petrel.toml`,
    `[[downsample]]\nsource = "cpu"\ninterval = "1s"\naggregates = ["max"]\ntarget = "cpu_1s"\ndelay = "0s"\n`,
  );
  const server = await spawnServer([
    "--config-file",
    `${dir}/petrel.toml`,
    "--http-addr",
    "127.0.0.1:0",
    "--data-home",
    `${dir}/data`,
  ]);
  try {
    await remoteWrite(server.url, cpuSeries());
    const deadline = Date.now() + 20_000;
    for (;;) {
      const rows = await sql(server.url, "SHOW TABLES");
      if (rows.some((r) => r[0] === "cpu_1s_max")) break;
      assert.ok(Date.now() < deadline, "cpu_1s_max appeared within 20 s");
      await new Promise((r) => setTimeout(r, 200));
    }
    const config = await (await fetch(`${server.url}/config`)).text();
    assert.match(config, /\[\[downsample\]\]\nsource = "cpu"\n[\s\S]*?target = "cpu_1s"/);
  } finally {
    const status = await server.stop();
    assert.equal(status.code, 0);
  }
  assert.match(server.stderr(), /"target":"petrel::downsample","msg":"downsampled"/);
  assert.match(server.stderr(), /"msg":"Petrel stopped"/);
});
