/**
 * COPY over a real server: tables, queries and databases to and from CSV, JSON lines and Parquet
 * files in a temp dir (round trips through new tables with every column kind), time ranges,
 * PATTERN, the errors (nothing written on a bad value) and read-only users.
 */
import assert from "node:assert/strict";
import { parquetMetadata, parquetReadObjects, parquetSchema } from "hyparquet";
import { basicAuth, startTestServer } from "../helpers/server.ts";
import { sqlOk, sqlRequest, sqlRows } from "../http/fixtures/sql_client.ts";

const COLUMNS = `host STRING, region STRING, i8 TINYINT, i32 INT, i64 BIGINT, u64 BIGINT UNSIGNED,
  f32 FLOAT, f64 DOUBLE, ok BOOLEAN, note STRING, raw VARBINARY, d DATE, price DECIMAL(10, 2)`;

function createTable(name: string, precision = 3): string {
  return `CREATE TABLE ${name} (${COLUMNS}, ts TIMESTAMP(${precision}) TIME INDEX, PRIMARY KEY (host, region))`;
}

/** Rows with every kind: tags (one null), each field type, NULLs, unicode and quoting-worthy text. */
const ROWS = `INSERT INTO m (host, region, i8, i32, i64, u64, f32, f64, ok, note, raw, ts, d, price) VALUES
  ('a', 'eu', -5, 100000, 9007199254740993, 18446744073709551615, 1.5, 2.25, true, 'héllo, "wörld"', X'00ff10', '2023-01-01 00:00:00', '2024-02-29', 12.34),
  ('b', NULL, 7, -1, -42, 0, -0.5, 1e300, false, '日本語
second line', X'', '2023-01-01 00:00:01.5', '1969-12-31', -0.5),
  ('c', 'us', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '2023-01-02 00:00:00', NULL, NULL)`;

const ALL = "SELECT host, region, i8, i32, i64, u64, f32, f64, ok, note, raw, ts, d, price FROM";

async function withServer(fn: (url: string, dir: string) => Promise<void>, users?: string): Promise<void> {
  const server = await startTestServer(users ? { user_provider: users } : {});
  const dir = await Deno.makeTempDir({ prefix: "petrel_copy_" });
  try {
    await fn(server.url, dir);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

async function affected(url: string, sql: string, auth?: string): Promise<number> {
  const [out] = await sqlOk(url, sql, auth ? { headers: { authorization: auth } } : {});
  assert.ok("affectedrows" in out, `${sql} → ${JSON.stringify(out)}`);
  return out.affectedrows;
}

async function failure(url: string, sql: string, auth?: string) {
  const reply = await sqlRequest(url, sql, auth ? { headers: { authorization: auth } } : {});
  const body = JSON.parse(reply.text);
  return { status: reply.status, error: String(body.error ?? "") };
}

for (const format of ["csv", "json", "parquet"]) {
  Deno.test(`COPY ${format}: table → file → new table keeps every column kind`, async () => {
    await withServer(async (url, dir) => {
      await sqlOk(url, `${createTable("m")}; ${ROWS}; ${createTable("m2")}`);
      const file = `${dir}/m.${format}`;
      assert.equal(await affected(url, `COPY m TO '${file}' WITH (FORMAT = '${format}')`), 3);
      assert.equal(await affected(url, `COPY m2 FROM '${file}' WITH (FORMAT = '${format}')`), 3);
      const want = await sqlRows(url, `${ALL} m ORDER BY host`);
      assert.deepEqual(await sqlRows(url, `${ALL} m2 ORDER BY host`), want);
      assert.equal(want[1][1], null);
      assert.equal(
        want[0][5],
        18446744073709551615n.toString() === String(want[0][5]) ? want[0][5] : want[0][5],
      );
    });
  });
}

Deno.test("COPY csv: a header row, naive UTC timestamps, hex binary, RFC 4180 quoting", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `${createTable("m")}; ${ROWS}`);
    await affected(url, `COPY m TO '${dir}/m.csv' WITH (FORMAT = 'csv')`);
    const text = await Deno.readTextFile(`${dir}/m.csv`);
    const lines = text.split("\n");
    assert.equal(lines[0], "host,region,i8,i32,i64,u64,f32,f64,ok,note,raw,d,price,ts");
    assert.ok(
      text.includes(
        `a,eu,-5,100000,9007199254740993,18446744073709551615,1.5,2.25,true,"héllo, ""wörld""",00ff10,2024-02-29,12.34,2023-01-01T00:00:00\n`,
      ),
      text,
    );
    assert.ok(text.includes(`"日本語\nsecond line","",1969-12-31,-0.50,2023-01-01T00:00:01.500\n`), text);
    assert.ok(text.includes("c,us,,,,,,,,,,,,2023-01-02T00:00:00\n"), text);
  });
});

Deno.test("COPY json: one object per line, nulls left out, timestamps as text", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `${createTable("m", 9)}; ${ROWS}`);
    await affected(url, `COPY m TO '${dir}/m.json' WITH (FORMAT = 'json')`);
    const lines = (await Deno.readTextFile(`${dir}/m.json`)).trimEnd().split("\n");
    assert.equal(lines.length, 3);
    const c = lines.map((l) => JSON.parse(l)).find((o) => o.host === "c");
    assert.deepEqual(c, { host: "c", region: "us", ts: "2023-01-02T00:00:00" });
    assert.match(lines.join("\n"), /"i64":9007199254740993/);
  });
});

Deno.test("COPY parquet: a real Parquet file with GreptimeDB's column types", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `${createTable("m", 6)}; ${ROWS}`);
    const file = `${dir}/m.parquet`;
    await affected(url, `COPY m TO '${file}'`); // parquet is the default format
    const buffer = (await Deno.readFile(file)).buffer as ArrayBuffer;
    const meta = parquetMetadata(buffer);
    const types = Object.fromEntries(
      parquetSchema(meta).children.map((c) => [c.element.name, [c.element.type, c.element.logical_type]]),
    );
    assert.deepEqual(types.ts, ["INT64", { type: "TIMESTAMP", isAdjustedToUTC: false, unit: "MICROS" }]);
    assert.equal(types.f64[0], "DOUBLE");
    assert.equal(types.f32[0], "FLOAT");
    assert.equal(types.ok[0], "BOOLEAN");
    assert.equal(types.i8[0], "INT32");
    assert.deepEqual(types.u64, ["INT64", { type: "INTEGER", bitWidth: 64, isSigned: false }]);
    assert.deepEqual(types.note, ["BYTE_ARRAY", { type: "STRING" }]);
    assert.equal(types.raw[0], "BYTE_ARRAY");
    const rows = await parquetReadObjects({ file: buffer, utf8: false });
    const a = rows.find((r) => r.host === "a")!;
    assert.equal(a.note, 'héllo, "wörld"');
    assert.equal(a.i64, 9007199254740993n);
    assert.deepEqual([...a.raw], [0, 255, 16]);
    assert.equal((a.ts as Date).toISOString(), "2023-01-01T00:00:00.000Z");
    assert.equal(rows.find((r) => r.host === "c")!.f64, null);
  });
});

Deno.test("COPY TO: START_TIME inclusive, END_TIME exclusive", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `${createTable("m")}; ${ROWS}; ${createTable("m2")}`);
    const file = `${dir}/part.csv`;
    const sql =
      `COPY m TO '${file}' WITH (FORMAT='csv', START_TIME='2023-01-01T00:00:01.5Z', END_TIME='2023-01-02 00:00:00')`;
    assert.equal(await affected(url, sql), 1);
    await affected(url, `COPY m2 FROM '${file}' WITH (FORMAT='csv')`);
    assert.deepEqual(await sqlRows(url, "SELECT host FROM m2"), [["b"]]);
    assert.equal(
      (await failure(url, `COPY m TO '${file}' WITH (FORMAT='csv', START_TIME='yesterday')`)).status,
      400,
    );
  });
});

Deno.test("COPY (query) TO writes the query's result", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `${createTable("m")}; ${ROWS}`);
    const file = `${dir}/q.csv`;
    const n = await affected(
      url,
      `COPY (SELECT host, f64 * 2 AS twice FROM m WHERE host <> 'c' ORDER BY host) TO '${file}' WITH (FORMAT = 'csv')`,
    );
    assert.equal(n, 2);
    assert.equal(await Deno.readTextFile(file), "host,twice\na,4.5\nb,2e+300\n");
  });
});

Deno.test("COPY DATABASE TO and FROM: one file per table, into another database", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, `CREATE DATABASE src; CREATE DATABASE dst`);
    const setup = `${
      createTable("m")
    }; ${ROWS}; CREATE TABLE t (k STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX);
      INSERT INTO t VALUES ('x', 1, 1000), ('y', 2, 2000)`;
    await sqlOk(url, setup, { db: "src" });
    await sqlOk(
      url,
      `${createTable("m")}; CREATE TABLE t (k STRING PRIMARY KEY, v DOUBLE, ts TIMESTAMP TIME INDEX)`,
      {
        db: "dst",
      },
    );
    for (const format of ["csv", "parquet"]) {
      const out = `${dir}/${format}/`;
      assert.equal(await affected(url, `COPY DATABASE src TO '${out}' WITH (FORMAT = '${format}')`), 5);
      assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name).sort(), [`m.${format}`, `t.${format}`]);
    }
    assert.equal(
      await affected(url, `COPY DATABASE dst FROM '${dir}/parquet/' WITH (FORMAT = 'parquet')`),
      5,
    );
    assert.deepEqual(await sqlRows(url, "SELECT k, v, ts FROM dst.t ORDER BY k"), [["x", 1, 1000], [
      "y",
      2,
      2000,
    ]]);
    assert.deepEqual(
      await sqlRows(url, `${ALL} dst.m ORDER BY host`),
      await sqlRows(url, `${ALL} src.m ORDER BY host`),
    );
  });
});

Deno.test("COPY FROM a directory with PATTERN (Rust regex syntax); missing columns are NULL; liberal timestamps", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, "CREATE TABLE t (k STRING PRIMARY KEY, v DOUBLE, n INT, ts TIMESTAMP TIME INDEX)");
    await Deno.mkdir(`${dir}/in`);
    await Deno.writeTextFile(
      `${dir}/in/a_1.csv`,
      "ts,K,v,extra\n2023-01-01T00:00:00Z,a,1.5,zzz\r\n1672531201000,b,,q\n",
    );
    await Deno.writeTextFile(`${dir}/in/a_2.csv`, "k,ts\nc,2023-01-01 00:00:02\n");
    await Deno.writeTextFile(`${dir}/in/b_1.csv`, "k,ts\nd,2023-01-01 00:00:03\n");
    const n = await affected(
      url,
      `COPY t FROM '${dir}/in/' WITH (FORMAT = 'csv', PATTERN = '(?i)A_[[:digit:]]+\\.CSV')`,
    );
    assert.equal(n, 3);
    assert.deepEqual(await sqlRows(url, "SELECT k, v, n, ts FROM t ORDER BY k"), [
      ["a", 1.5, null, 1672531200000],
      ["b", null, null, 1672531201000],
      ["c", null, null, 1672531202000],
    ]);
    await Deno.writeTextFile(
      `${dir}/in.json`,
      '{"k":"j","v":2,"ts":"2023-01-01T00:00:04+00:00","n":7}\n\n{"k":"k","ts":1672531205000}\n',
    );
    assert.equal(await affected(url, `COPY t FROM '${dir}/in.json' WITH (FORMAT = 'json')`), 2);
    assert.deepEqual(await sqlRows(url, "SELECT k, v, n, ts FROM t WHERE k >= 'j' ORDER BY k"), [
      ["j", 2, 7, 1672531204000],
      ["k", null, null, 1672531205000],
    ]);
  });
});

Deno.test("COPY errors: 4xx naming what was wrong, nothing written on a bad value", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(url, "CREATE TABLE t (k STRING PRIMARY KEY, n INT, ts TIMESTAMP TIME INDEX)");
    await Deno.writeTextFile(`${dir}/bad.csv`, "k,n,ts\na,1,1000\nb,not-a-number,2000\n");
    let f = await failure(url, `COPY t FROM '${dir}/bad.csv' WITH (FORMAT = 'csv')`);
    assert.equal(f.status, 400);
    assert.match(f.error, /bad\.csv: row 2, column n/);
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM t"), [[0]]);

    // past the INT column's range (SQLite would keep it in its one INTEGER)
    await Deno.writeTextFile(`${dir}/wide.csv`, "k,n,ts\na,1,1000\nb,1099511627776,2000\n");
    f = await failure(url, `COPY t FROM '${dir}/wide.csv' WITH (FORMAT = 'csv')`);
    assert.equal(f.status, 400);
    assert.match(
      f.error,
      /wide\.csv: row 2, column n: Failed to insert value '1099511627776' into column n of type Int32$/,
    );
    assert.deepEqual(await sqlRows(url, "SELECT count(*) FROM t"), [[0]]);

    f = await failure(url, `COPY t FROM '${dir}/missing.csv' WITH (FORMAT = 'csv')`);
    assert.equal(f.status, 400);
    assert.match(f.error, /missing\.csv does not exist/);

    f = await failure(url, `COPY t TO '${dir}/x.txt' WITH (FORMAT = 'xml')`);
    assert.equal(f.status, 400);
    assert.match(f.error, /Unsupported format 'xml'/);

    f = await failure(url, `COPY t TO '${dir}/x.csv' WITH (FORMAT = 'csv', DELIMITER = ';')`);
    assert.equal(f.status, 400);
    assert.match(f.error, /Unknown option 'delimiter'/);

    f = await failure(url, `COPY nope TO '${dir}/x.csv' WITH (FORMAT = 'csv')`);
    assert.equal(f.status >= 400 && f.status < 500, true, JSON.stringify(f));
    assert.match(f.error, /nope/);

    f = await failure(
      url,
      `COPY t TO 's3://bucket/x.csv' WITH (FORMAT = 'csv') CONNECTION (REGION = 'us-west-2')`,
    );
    assert.equal(f.status, 400);
    assert.match(f.error, /CONNECTION/);

    await Deno.writeTextFile(`${dir}/nots.csv`, "k,n\na,1\n");
    f = await failure(url, `COPY t FROM '${dir}/nots.csv' WITH (FORMAT = 'csv')`);
    assert.match(f.error, /no column ts \(the time index/);

    await Deno.writeTextFile(`${dir}/junk.parquet`, "not parquet at all");
    f = await failure(url, `COPY t FROM '${dir}/junk.parquet' WITH (FORMAT = 'parquet')`);
    assert.equal(f.status, 400);
    assert.match(f.error, /junk\.parquet: not a Parquet file/);
  });
});

Deno.test("COPY needs a read-write user, TO as well as FROM", async () => {
  await withServer(async (url, dir) => {
    const rw = basicAuth("rw", "pw"), ro = basicAuth("ro", "pw");
    await sqlOk(
      url,
      "CREATE TABLE t (k STRING PRIMARY KEY, ts TIMESTAMP TIME INDEX); INSERT INTO t VALUES ('a', 1)",
      {
        headers: { authorization: rw },
      },
    );
    for (
      const sql of [
        `COPY t TO '${dir}/t.csv' WITH (FORMAT='csv')`,
        `COPY t FROM '${dir}/t.csv' WITH (FORMAT='csv')`,
      ]
    ) {
      assert.equal((await failure(url, sql, ro)).status, 403, sql);
    }
    assert.equal(await affected(url, `COPY t TO '${dir}/t.csv' WITH (FORMAT='csv')`, rw), 1);
  }, "static_user_provider:cmd:ro:ro=pw,rw=pw");
});

Deno.test("COPY streams a table larger than one page and imports it in batches", async () => {
  await withServer(async (url, dir) => {
    await sqlOk(
      url,
      "CREATE TABLE big (v BIGINT, ts TIMESTAMP TIME INDEX); CREATE TABLE big2 (v BIGINT, ts TIMESTAMP TIME INDEX)",
    );
    await sqlOk(url, "INSERT INTO big SELECT number, number FROM numbers LIMIT 1");
    const values = Array.from({ length: 25_001 }, (_, i) => `(${i}, ${i})`).join(",");
    await sqlOk(url, `INSERT INTO big VALUES ${values}`, { via: "text" });
    for (const format of ["csv", "parquet"]) {
      assert.equal(
        await affected(url, `COPY big TO '${dir}/big.${format}' WITH (FORMAT='${format}')`),
        25_001,
      );
      await sqlOk(url, "TRUNCATE big2");
      assert.equal(
        await affected(url, `COPY big2 FROM '${dir}/big.${format}' WITH (FORMAT='${format}')`),
        25_001,
      );
      assert.deepEqual(await sqlRows(url, "SELECT count(*), sum(v), max(ts) FROM big2"), [[
        25_001,
        312_512_500,
        25_000,
      ]]);
    }
  });
});
