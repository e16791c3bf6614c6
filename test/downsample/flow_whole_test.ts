/**
 * Flows without a time window, as GreptimeDB's documentation writes them: GROUP BY other columns
 * (with HAVING), SELECT DISTINCT, an aggregate alone. Over HTTP: the whole query's rows in the sink
 * after ADMIN FLUSH_FLOW, one current row per group after more writes (into a sink made beforehand
 * with `update_at` as its time index, or the one Petrel makes with `__ts_placeholder`), recomputed
 * by the periodic run only when the source changed and the last run is `delay` old; a sink made
 * beforehand that cannot hold the flow's rows is refused at CREATE FLOW, naming the column.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { sql } from "../retention/http_helpers.ts";

async function sqlError(url: string, query: string) {
  const r = await fetch(`${url}/v1/sql?db=public`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  return { status: r.status, code: body.code as number, error: String(body.error ?? "") };
}

const SENSORS = `CREATE TABLE temp_sensor_data (sensor_id INT, loc STRING, temperature DOUBLE,
  ts TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id, loc))`;
const ALERTS = `CREATE TABLE temp_alerts (sensor_id INT, loc STRING, max_temp DOUBLE,
  update_at TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id, loc))`;
const MONITORING = `CREATE FLOW temp_monitoring SINK TO temp_alerts AS
SELECT sensor_id, loc, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id, loc
HAVING max_temp > 100`;

const T0 = Date.UTC(2025, 0, 1);
const reading = (id: number, loc: string, temp: number, s: number) =>
  `(${id}, '${loc}', ${temp}, '${new Date(T0 + s * 1000).toISOString()}')`;
const insert = (rows: string[]) => `INSERT INTO temp_sensor_data VALUES ${rows.join(", ")}`;
const flush = async (url: string, flow: string) =>
  Number((await sql(url, `ADMIN FLUSH_FLOW('${flow}')`))[0][0]);

Deno.test("flow without window: GreptimeDB's real-time monitoring example keeps one current row per group", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, SENSORS);
    await sql(url, ALERTS);
    await sql(url, MONITORING);
    await sql(url, insert([reading(1, "room1", 98.5, 0), reading(2, "room2", 99.5, 1)]));
    assert.equal(await flush(url, "temp_monitoring"), 0, "no group passes HAVING yet");
    assert.deepEqual(await sql(url, "SELECT * FROM temp_alerts"), []);

    await sql(url, insert([reading(1, "room1", 101.5, 2), reading(2, "room2", 102.5, 3)]));
    const before = Date.now();
    assert.equal(await flush(url, "temp_monitoring"), 2);
    const rows = await sql(
      url,
      "SELECT sensor_id, loc, max_temp, update_at FROM temp_alerts ORDER BY sensor_id",
    );
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [[1, "room1", 101.5], [2, "room2", 102.5]]);
    for (const r of rows) assert.ok(Number(r[3]) >= before - 1000, `update_at is the run's time: ${r[3]}`);

    // more writes: the max over every source row so far replaces the group's row, a new group joins
    await sql(
      url,
      insert([reading(1, "room1", 105, 4), reading(3, "room3", 120, 5), reading(2, "room2", 50, 6)]),
    );
    await new Promise((r) => setTimeout(r, 5)); // the next run's update_at differs from the last
    assert.equal(await flush(url, "temp_monitoring"), 3);
    assert.deepEqual(await sql(url, "SELECT sensor_id, loc, max_temp FROM temp_alerts ORDER BY sensor_id"), [
      [1, "room1", 105],
      [2, "room2", 102.5],
      [3, "room3", 120],
    ]);
    assert.equal((await sql(url, "SELECT count(*) FROM temp_alerts"))[0][0], 3, "one row per group");

    // a group that no longer passes HAVING (its hot rows deleted) leaves the sink
    await sql(url, "DELETE FROM temp_sensor_data WHERE sensor_id = 3");
    assert.equal(await flush(url, "temp_monitoring"), 2);
    assert.deepEqual(await sql(url, "SELECT sensor_id FROM temp_alerts ORDER BY sensor_id"), [[1], [2]]);
  } finally {
    await server.stop();
  }
});

Deno.test("flow without window: the sink Petrel makes has update_at and the constant __ts_placeholder", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await sql(server.url, SENSORS);
    await sql(server.url, MONITORING.replace("temp_alerts", "alerts_made"));
    assert.deepEqual((await sql(server.url, "DESC TABLE alerts_made")).map((r) => [r[0], r[1], r[2], r[5]]), [
      ["sensor_id", "Int32", "PRI", "TAG"],
      ["loc", "String", "PRI", "TAG"],
      ["max_temp", "Float64", "", "FIELD"],
      ["update_at", "TimestampMillisecond", "", "FIELD"],
      ["__ts_placeholder", "TimestampMillisecond", "PRI", "TIMESTAMP"],
    ]);
    await sql(server.url, insert([reading(1, "room1", 101, 0), reading(1, "room1", 103, 1)]));
    assert.equal(await flush(server.url, "temp_monitoring"), 1);
    await sql(server.url, insert([reading(1, "room1", 104, 2)]));
    assert.equal(await flush(server.url, "temp_monitoring"), 1);
    const q = "SELECT sensor_id, loc, max_temp, __ts_placeholder FROM alerts_made";
    assert.deepEqual(await sql(server.url, q), [[1, "room1", 104, 0]]);

    // the flow and its progress survive a restart
    await server.stop();
    server = await startTestServer({ storage: { data_home: dataHome } });
    await sql(server.url, insert([reading(2, "room2", 130, 3)]));
    assert.equal(await flush(server.url, "temp_monitoring"), 2);
    assert.deepEqual(await sql(server.url, `${q} ORDER BY sensor_id`), [
      [1, "room1", 104, 0],
      [2, "room2", 130, 0],
    ]);
  } finally {
    await server.stop();
  }
});

Deno.test("flow without window: the sink Petrel makes keeps its rows in a database with a ttl (its time index is 0)", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, "CREATE DATABASE kept WITH (ttl = '30d')");
    const inKept = (q: string) => sql(url, q, "kept");
    await inKept(SENSORS);
    await inKept(MONITORING.replace("temp_alerts", "alerts_made"));
    await inKept(
      insert([reading(1, "room1", 101, 0)]).replace(
        `'${new Date(T0).toISOString()}'`,
        "now()",
      ),
    );
    assert.equal(Number((await inKept("ADMIN FLUSH_FLOW('temp_monitoring')"))[0][0]), 1);
    assert.deepEqual(await inKept("SELECT sensor_id, loc, max_temp FROM alerts_made"), [[1, "room1", 101]]);
    const create = String((await inKept("SHOW CREATE TABLE alerts_made"))[0][1]);
    assert.match(create, /ttl = 'forever'/);
  } finally {
    await server.stop();
  }
});

Deno.test("flow without window: SELECT DISTINCT and an aggregate alone; refused shapes", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, SENSORS);
    await sql(
      url,
      "CREATE FLOW locs SINK TO sensor_locs AS SELECT DISTINCT sensor_id, loc FROM temp_sensor_data WHERE temperature > 0",
    );
    await sql(
      url,
      "CREATE FLOW readings SINK TO reading_count AS SELECT count(*) AS n, max(temperature) AS hottest FROM temp_sensor_data",
    );
    assert.deepEqual((await sql(url, "DESC TABLE sensor_locs")).map((r) => [r[0], r[5]]), [
      ["sensor_id", "TAG"],
      ["loc", "TAG"],
      ["update_at", "FIELD"],
      ["__ts_placeholder", "TIMESTAMP"],
    ]);
    assert.equal(await flush(url, "readings"), 1, "an aggregate of no rows is one row");
    assert.deepEqual(await sql(url, "SELECT n, hottest FROM reading_count"), [[0, null]]);
    await sql(
      url,
      insert([
        reading(1, "a", 10, 0),
        reading(1, "a", 11, 1),
        reading(2, "b", 12, 2),
        reading(3, "c", -5, 3),
      ]),
    );
    assert.equal(await flush(url, "locs"), 2);
    assert.deepEqual(await sql(url, "SELECT sensor_id, loc FROM sensor_locs ORDER BY sensor_id"), [
      [1, "a"],
      [2, "b"],
    ]);
    assert.equal(await flush(url, "readings"), 1);
    assert.deepEqual(await sql(url, "SELECT n, hottest FROM reading_count"), [[4, 12]]);

    const refused: Array<[string, RegExp]> = [
      ["SELECT sensor_id, temperature FROM temp_sensor_data", /no key/],
      ["SELECT count(*) AS n FROM temp_sensor_data GROUP BY loc", /GROUP BY loc not in the SELECT list/],
      ["SELECT DISTINCT ON (loc) loc FROM temp_sensor_data", /DISTINCT ON/],
      ["SELECT loc, count(*) AS n FROM temp_sensor_data GROUP BY loc ORDER BY n", /ORDER/],
    ];
    for (const [query, message] of refused) {
      const r = await sqlError(url, `CREATE FLOW f SINK TO s AS ${query}`);
      assert.deepEqual([r.status, r.code], [400, 1001], `${query}: ${r.error}`);
      assert.match(r.error, message, query);
    }
  } finally {
    await server.stop();
  }
});

Deno.test("flow without window: EXPIRE AFTER leaves out the source rows older than it at a run", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, SENSORS);
    await sql(
      url,
      "CREATE FLOW recent SINK TO recent_max EXPIRE AFTER '1 hour' AS " +
        "SELECT loc, max(temperature) AS hottest FROM temp_sensor_data GROUP BY loc",
    );
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    await sql(
      url,
      `INSERT INTO temp_sensor_data VALUES (1, 'a', 50, '${ago(2 * 3_600_000)}'), (1, 'a', 20, '${
        ago(60_000)
      }'), ` +
        `(2, 'b', 90, '${ago(3 * 3_600_000)}')`,
    );
    assert.equal(await flush(url, "recent"), 1);
    assert.deepEqual(await sql(url, "SELECT loc, hottest FROM recent_max"), [["a", 20]]);
  } finally {
    await server.stop();
  }
});

Deno.test("flow without window: the periodic run recomputes after writes or deletes, at most once per delay", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    const { downsampler } = server.server;
    await sql(url, SENSORS);
    await sql(
      url,
      "CREATE FLOW readings SINK TO reading_count AS SELECT count(*) AS n FROM temp_sensor_data",
    );
    const now = Date.now();
    assert.equal(await downsampler.runOnce(now), 1, "a flow that never ran runs");
    assert.equal(await downsampler.runOnce(now + 120_000), 0, "no change: no run");
    await sql(url, insert([reading(1, "a", 10, 0)]));
    assert.equal(await downsampler.runOnce(now + 30_000), 0, "changed, but the last run is not a delay old");
    assert.deepEqual(await sql(url, "SELECT n FROM reading_count"), [[0]]);
    assert.equal(await downsampler.runOnce(now + 61_000), 1);
    assert.deepEqual(await sql(url, "SELECT n FROM reading_count"), [[1]]);
    await sql(url, "DELETE FROM temp_sensor_data WHERE sensor_id = 1");
    assert.equal(await downsampler.runOnce(now + 200_000), 1, "a delete changes the source too");
    assert.deepEqual(await sql(url, "SELECT n FROM reading_count"), [[0]]);
    assert.equal(await downsampler.runOnce(now + 400_000), 0);
  } finally {
    await server.stop();
  }
});

Deno.test("flow sink made beforehand: a key, time index or type it cannot hold is refused, naming the column", async () => {
  const server = await startTestServer();
  try {
    const { url } = server;
    await sql(url, SENSORS);
    const W = "date_bin(INTERVAL '1 minute', ts) AS w";
    const cases: Array<[string, string, RegExp]> = [
      [
        "CREATE TABLE s1 (sensor_id INT, max_temp DOUBLE, update_at TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id))",
        "SELECT sensor_id, loc, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id, loc",
        /s1 has no column loc/,
      ],
      [
        "CREATE TABLE s2 (sensor_id INT, loc STRING, max_temp DOUBLE, update_at TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id))",
        "SELECT sensor_id, loc, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id, loc",
        /s2 has column loc outside its primary key/,
      ],
      [
        "CREATE TABLE s3 (sensor_id INT, loc STRING, max_temp DOUBLE, update_at TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id, loc))",
        "SELECT sensor_id, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id",
        /s3 has primary key column loc, which is not a GROUP BY key/,
      ],
      [
        "CREATE TABLE s4 (sensor_id INT, max_temp BOOLEAN, update_at TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id))",
        "SELECT sensor_id, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id",
        /s4 has column max_temp of type Boolean/,
      ],
      [
        "CREATE TABLE s5 (sensor_id INT, max_temp DOUBLE, seen TIMESTAMP TIME INDEX, PRIMARY KEY(sensor_id))",
        "SELECT sensor_id, max(temperature) AS max_temp FROM temp_sensor_data GROUP BY sensor_id",
        /s5 has time index seen/,
      ],
      [
        "CREATE TABLE s6 (sensor_id INT, n BIGINT, w TIMESTAMP TIME INDEX)",
        `SELECT sensor_id, count(*) AS n, ${W} FROM temp_sensor_data GROUP BY sensor_id, w`,
        /s6 has no column sensor_id|s6 has column sensor_id outside its primary key/,
      ],
      [
        "CREATE TABLE s7 (loc STRING PRIMARY KEY, n STRING, w TIMESTAMP TIME INDEX)",
        `SELECT loc, count(*) AS n, ${W} FROM temp_sensor_data GROUP BY loc, w`,
        /x^/, // a String column takes any value: accepted
      ],
    ];
    for (const [table, query, message] of cases) {
      await sql(url, table);
      const name = table.split(" ")[2];
      const r = await sqlError(url, `CREATE FLOW f SINK TO ${name} AS ${query}`);
      if (name === "s7") {
        assert.equal(r.status, 200, r.error);
        continue;
      }
      assert.equal(r.status, 400, `${query}: ${r.error}`);
      assert.match(r.error, message, query);
    }
    assert.deepEqual(await sql(url, "SHOW FLOWS"), [["f"]], "only the fitting flow is stored");
  } finally {
    await server.stop();
  }
});
