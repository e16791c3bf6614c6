/**
 * Line protocol over HTTP: both write paths, every precision, gzip bodies, the grammar end to end
 * (what SQL reads back), table options, and malformed bodies of every kind → 400 with nothing written.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { startTestServer } from "../helpers/server.ts";
import { post, showCreate, sqlExec, sqlRows, tableNames, uniqueName, withServer } from "./util.ts";

const server = await startTestServer();
const base = server.url;
globalThis.addEventListener("unload", () => server.stop());

/** Writes `body` (with `$m` standing for a fresh table name) and returns that name. */
async function writeOk(body: string, query = "", headers: Record<string, string> = {}): Promise<string> {
  const m = uniqueName("lp");
  const r = await post(`${base}/v1/lineproto/write${query}`, body.replaceAll("$m", m), headers);
  assert.equal(r.status, 204, r.text);
  assert.equal(r.text, "");
  return m;
}

// ---- precision: every spelling, timestamps read back in ns ----
const T = 1_700_000_000n;
const precisions: [string | null, string, bigint][] = [
  [null, `${T * 1_000_000_000n}`, T * 1_000_000_000n],
  ["n", `${T * 1_000_000_000n + 7n}`, T * 1_000_000_000n + 7n],
  ["ns", `${T * 1_000_000_000n + 7n}`, T * 1_000_000_000n + 7n],
  ["u", `${T * 1_000_000n + 3n}`, (T * 1_000_000n + 3n) * 1000n],
  ["us", `${T * 1_000_000n + 3n}`, (T * 1_000_000n + 3n) * 1000n],
  ["µ", `${T * 1_000_000n + 3n}`, (T * 1_000_000n + 3n) * 1000n],
  ["ms", `${T * 1000n + 1n}`, (T * 1000n + 1n) * 1_000_000n],
  ["s", `${T}`, T * 1_000_000_000n],
  ["m", "28333333", 28333333n * 60_000_000_000n],
  ["h", "472222", 472222n * 3_600_000_000_000n],
];
for (const [p, ts, want] of precisions) {
  Deno.test(`lineproto HTTP: precision ${p ?? "(none)"}`, async () => {
    const q = p === null ? "" : `?precision=${encodeURIComponent(p)}`;
    const m = await writeOk(`$m,host=a v=1 ${ts}`, q);
    // Compared in SQL: JSON numbers cannot carry every nanosecond timestamp exactly.
    assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${m} WHERE greptime_timestamp = ${want}`), [[
      1,
    ]]);
  });
}

for (const p of ["x", "sec", "NS", "mss"]) {
  Deno.test(`lineproto HTTP: unknown precision '${p}' → 400`, async () => {
    const m = uniqueName("lp");
    const r = await post(`${base}/v1/lineproto/write?precision=${p}`, `${m} v=1 1`);
    assert.equal(r.status, 400);
    assert.deepEqual(JSON.parse(r.text), { error: `Failed to convert time precision, name: ${p}` });
    assert.ok(!(await tableNames(base)).includes(m));
  });
}

// ---- the grammar, read back through SQL ----
interface ReadCase {
  name: string;
  body: string;
  /** `SELECT <select> FROM $m ORDER BY greptime_timestamp` */
  select: string;
  rows: unknown[][];
}
const grammar: ReadCase[] = [
  {
    name: "all field types",
    body: '$m,host=a f=1.5,i=-2i,u=3u,s="x y",b=t,n=1024 1',
    select: "host, f, i, u, s, b, n",
    rows: [["a", 1.5, -2, 3, "x y", true, 1024]],
  },
  {
    name: "boolean spellings",
    body: "$m a=T,b=true,c=False,d=f 1",
    select: "a, b, c, d",
    rows: [[true, true, false, false]],
  },
  {
    name: "escapes in measurement, tag keys/values, field keys and strings",
    body: '$m,ta\\ g=v\\,1\\=x fi\\=eld="q\\"uo\\\\te" 1',
    select: '"ta g", "fi=eld"',
    rows: [["v,1=x", 'q"uo\\te']],
  },
  {
    name: "float forms: exponent, negative, leading dot",
    body: "$m a=1e3,b=-1.5E-2,c=.5,d=-0 1",
    select: "a, b, c, d",
    rows: [[1000, -0.015, 0.5, 0]],
  },
  {
    name: "comments, blank lines, CRLF",
    body: "# comment\n\n$m v=1 1\r\n  # another\n$m v=2 2\n\n",
    select: "v",
    rows: [[1], [2]],
  },
  {
    name: "columns added by later lines; missing ones are NULL",
    body: "$m,h=a x=1 1\n$m,h=b,z=q y=2i 2",
    select: "h, z, x, y",
    rows: [["a", null, 1, null], ["b", "q", null, 2]],
  },
  {
    name: "same series and time: last non-null wins per field",
    body: "$m,h=a x=1,y=1 1\n$m,h=a x=2 1",
    select: "h, x, y",
    rows: [["a", 2, 1]],
  },
  {
    name: "line without tags",
    body: "$m v=3 1",
    select: "v",
    rows: [[3]],
  },
];
for (const c of grammar) {
  Deno.test(`lineproto HTTP grammar: ${c.name}`, async () => {
    const m = await writeOk(c.body);
    assert.deepEqual(await sqlRows(base, `SELECT ${c.select} FROM ${m} ORDER BY greptime_timestamp`), c.rows);
  });
}

Deno.test("lineproto HTTP: several measurements in one body → one table each", async () => {
  const a = uniqueName("lpa"), b = uniqueName("lpb");
  const r = await post(`${base}/v1/lineproto/write`, `${a} v=1 1\n${b},t=x w=2i 2\n${a} v=3 3\n`);
  assert.equal(r.status, 204);
  assert.deepEqual(await sqlRows(base, `SELECT v FROM ${a} ORDER BY greptime_timestamp`), [[1], [3]]);
  assert.deepEqual(await sqlRows(base, `SELECT t, w FROM ${b}`), [["x", 2]]);
});

Deno.test("lineproto HTTP: missing timestamp is the server's now", async () => {
  const before = BigInt(Date.now()) * 1_000_000n;
  const m = await writeOk("$m v=1");
  const after = BigInt(Date.now()) * 1_000_000n;
  const ts = BigInt(
    (await sqlRows(base, `SELECT CAST(greptime_timestamp AS BIGINT) FROM ${m}`))[0][0] as number,
  );
  assert.ok(ts >= before - 1_000_000n && ts <= after + 1_000_000n, `${before} <= ${ts} <= ${after}`);
});

Deno.test("lineproto HTTP: schema is GreptimeDB's (tags, fields, time index; types)", async () => {
  const m = await writeOk('$m,host=a,dc=x f=1,i=1i,u=1u,s="s",b=t 1');
  const desc = await sqlRows(base, `DESC TABLE ${m}`);
  assert.deepEqual(desc.map((r) => [r[0], r[1], r[5]]), [
    ["host", "String", "TAG"],
    ["dc", "String", "TAG"],
    ["f", "Float64", "FIELD"],
    ["i", "Int64", "FIELD"],
    ["u", "UInt64", "FIELD"],
    ["s", "String", "FIELD"],
    ["b", "Boolean", "FIELD"],
    ["greptime_timestamp", "TimestampNanosecond", "TIMESTAMP"],
  ]);
  const ddl = await showCreate(base, m);
  assert.match(ddl, /merge_mode = 'last_non_null'/);
  assert.match(ddl, /'greptime.semantic.source' = 'influxdb'/);
  assert.match(ddl, /PRIMARY KEY \("host", "dc"\)/);
});

// ---- bodies: gzip, deflate, zstd, empty ----
Deno.test("lineproto HTTP: gzip body", async () => {
  const m = uniqueName("lp");
  const lines = Array.from({ length: 500 }, (_, i) => `${m},h=h${i % 7} v=${i} ${i + 1}`).join("\n");
  const r = await post(`${base}/v1/lineproto/write`, gzipSync(lines), { "content-encoding": "gzip" });
  assert.equal(r.status, 204, r.text);
  assert.deepEqual(await sqlRows(base, `SELECT count(*), sum(v) FROM ${m}`), [[500, 124750]]);
});

Deno.test("lineproto HTTP: a corrupt gzip body → 400, nothing written", async () => {
  const r = await post(`${base}/v1/lineproto/write`, new Uint8Array([0x1f, 0x8b, 1, 2, 3]), {
    "content-encoding": "gzip",
  });
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error, /decompress gzip/);
});

Deno.test("lineproto HTTP: empty body → 204, nothing written", async () => {
  const before = await tableNames(base);
  const r = await post(`${base}/v1/lineproto/write`, "");
  assert.equal(r.status, 204);
  assert.deepEqual(await tableNames(base), before);
});

// ---- malformed bodies: 400 naming the line, nothing from the request written ----
const malformed: [string, string, RegExp][] = [
  ["missing field set", "$ok v=1 1\n$m,h=a 1", /line 2 \(1-based\)/],
  ["field without value", "$ok v=1 1\n$m v= 1", /line 2.*missing value/],
  ["unterminated string", '$ok v=1 1\n$m s="abc 1', /line 2/],
  ["bad integer", "$ok v=1 1\n$m i=12xi 1", /line 2/],
  ["uint overflow", "$m u=18446744073709551616u 1", /line 1/],
  ["bad timestamp", "$ok v=1 1\n$ok v=2 12ab", /line 2/],
  ["trailing garbage", "$ok v=1 1 extra", /line 1/],
  ["field type conflict across lines", "$ok v=1 1\n$ok v=2i 2", /line 2/],
  ["tag and field with one name", "$ok,v=a v=1 1", /line 1/],
  ["missing measurement", "$ok v=1 1\n,h=a v=1 1", /line 2/],
  ["bad line after 100 good ones", Array(100).fill("$ok v=1 1").join("\n") + "\n$ok v", /line 101/],
];
for (const [name, body, message] of malformed) {
  Deno.test(`lineproto HTTP malformed: ${name} → 400, nothing written`, async () => {
    const m = uniqueName("bad"), ok = uniqueName("ok");
    const r = await post(`${base}/v1/lineproto/write`, body.replaceAll("$m", m).replaceAll("$ok", ok));
    assert.equal(r.status, 400, r.text);
    const error = JSON.parse(r.text).error as string;
    assert.ok(error.startsWith("Failed to parse InfluxDB line protocol: "), error);
    assert.match(error, message);
    const tables = await tableNames(base);
    assert.ok(!tables.includes(m) && !tables.includes(ok), `written: ${tables}`);
  });
}

Deno.test("lineproto HTTP: conflict with an existing table rolls back the whole request", async () => {
  const m = await writeOk("$m v=1i 1");
  const other = uniqueName("lp");
  const r = await post(`${base}/v1/lineproto/write`, `${other} v=1 1\n${m} v="text" 2`);
  assert.equal(r.status, 400, r.text);
  assert.ok(!(await tableNames(base)).includes(other));
  assert.deepEqual(await sqlRows(base, `SELECT count(*) FROM ${m}`), [[1]]);
});

// ---- databases, v2 path, ping and health ----
Deno.test("lineproto HTTP: db parameter, v2 bucket, header; missing database → 400", async () => {
  await sqlExec(base, "CREATE DATABASE IF NOT EXISTS lpdb");
  const m = uniqueName("lp");
  let r = await post(`${base}/v1/lineproto/write?db=lpdb`, `${m} v=1 1`);
  assert.equal(r.status, 204, r.text);
  r = await post(`${base}/v1/lineproto/api/v2/write?bucket=lpdb&org=o&precision=s`, `${m} v=2 2`);
  assert.equal(r.status, 204, r.text);
  r = await post(`${base}/v1/influxdb/api/v2/write?precision=ms`, `${m} v=3 3`, {
    "x-greptime-db-name": "lpdb",
  });
  assert.equal(r.status, 204, r.text);
  assert.deepEqual(await sqlRows(base, `SELECT v FROM ${m} ORDER BY greptime_timestamp`, "lpdb"), [[1], [3], [
    2,
  ]]);
  assert.ok(!(await tableNames(base)).includes(m));
  r = await post(`${base}/v1/lineproto/write?db=nope_db`, `${m} v=1 1`);
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error, /nope_db/);
});

Deno.test("lineproto HTTP: ping → 204 and health → 200, empty bodies", async () => {
  for (const [path, status] of [["/v1/lineproto/ping", 204], ["/v1/influxdb/health", 200]] as const) {
    const r = await fetch(`${base}${path}`);
    assert.equal(r.status, status);
    assert.equal(await r.text(), "");
  }
});

// ---- table options: merge mode from config and hints ----
const mergeCases: {
  name: string;
  config?: string;
  headers?: Record<string, string>;
  want: RegExp[];
  absent?: RegExp[];
}[] = [
  { name: "default", want: [/merge_mode = 'last_non_null'/] },
  { name: "config last_row", config: "last_row", want: [/merge_mode = 'last_row'/] },
  {
    name: "hint merge_mode=last_row",
    headers: { "x-greptime-hint-merge_mode": "last_row" },
    want: [/merge_mode = 'last_row'/],
  },
  {
    name: "hint merge_mode=last_non_null beats config",
    config: "last_row",
    headers: { "x-greptime-hints": "merge_mode=last_non_null" },
    want: [/merge_mode = 'last_non_null'/],
  },
  {
    name: "hint append_mode",
    headers: { "x-greptime-hint-append_mode": "true" },
    want: [/append_mode = 'true'/],
  },
  {
    name: "hint ttl",
    headers: { "x-greptime-hints": "ttl=7d" },
    want: [/ttl = '7d/, /merge_mode = 'last_non_null'/],
  },
  {
    name: "hint compaction.twcs.time_window also sets compaction.type (reference §8)",
    headers: { "x-greptime-hints": "compaction.twcs.time_window=1d" },
    want: [/'compaction.twcs.time_window' = '1d'/, /'compaction.type' = 'twcs'/],
  },
  {
    name: "a physical_table hint is no option of an ordinary table",
    headers: { "x-greptime-hints": "physical_table=phy,ttl=1d" },
    want: [/ttl = '1day'/],
    absent: [/physical_table/],
  },
];
for (const c of mergeCases) {
  Deno.test(`lineproto HTTP table options: ${c.name}`, async () => {
    await withServer(async (s) => {
      const m = uniqueName("opt");
      const t = BigInt(Date.now()) * 1_000_000n;
      const r = await post(
        `${s.url}/v1/lineproto/write`,
        `${m},h=a x=1,y=1 ${t}\n${m},h=a x=2 ${t}`,
        c.headers,
      );
      assert.equal(r.status, 204, r.text);
      const ddl = await showCreate(s.url, m);
      for (const w of c.want) assert.match(ddl, w);
      for (const w of c.absent ?? []) assert.doesNotMatch(ddl, w);
      const rows = await sqlRows(s.url, `SELECT x, y FROM ${m}`);
      const lastRow = /merge_mode = 'last_row'/.test(ddl), append = /append_mode = 'true'/.test(ddl);
      assert.deepEqual(rows, append ? [[1, 1], [2, null]] : lastRow ? [[2, null]] : [[2, 1]]);
    }, c.config ? { influxdb: { enable: true, default_merge_mode: c.config } } : {});
  });
}

// ---- authentication: u/p, Token, Basic ----
Deno.test("lineproto HTTP: credentials as u/p, Token and Basic; read-only user → 403", async () => {
  await withServer(async (s) => {
    const m = uniqueName("auth");
    const url = `${s.url}/v1/lineproto`;
    assert.equal((await post(`${url}/write?u=w&p=pw`, `${m} v=1 1`)).status, 204);
    assert.equal(
      (await post(`${url}/api/v2/write?bucket=public`, `${m} v=2 2`, { authorization: "Token w:pw" })).status,
      204,
    );
    assert.equal(
      (await post(`${url}/write`, `${m} v=3 3`, { authorization: `Basic ${btoa("w:pw")}` })).status,
      204,
    );
    assert.equal((await post(`${url}/write?u=r&p=pr`, `${m} v=4 4`)).status, 403);
    assert.equal((await post(`${url}/write`, `${m} v=5 5`)).status, 401);
    const rows = await fetch(`${s.url}/v1/sql?sql=${encodeURIComponent(`SELECT v FROM ${m} ORDER BY v`)}`, {
      headers: { authorization: `Basic ${btoa("w:pw")}` },
    }).then((r) => r.json());
    assert.deepEqual(rows.output[0].records.rows, [[1], [2], [3]]);
  }, { user_provider: "static_user_provider:cmd:w=pw,r:ro=pr" });
});

Deno.test("lineproto HTTP: a gzip bomb past body_limit → 413, nothing written", async () => {
  await withServer(async (s) => {
    const lines = "bomb v=1 1\n".repeat(200_000); // 2.2 MB, compresses to a few KB
    const body = gzipSync(lines);
    assert.ok(body.length < 64 * 1024);
    const r = await post(`${s.url}/v1/lineproto/write`, body, { "content-encoding": "gzip" });
    assert.equal(r.status, 413, r.text);
    assert.deepEqual(await tableNames(s.url), []);
  }, { http: { body_limit: 64 * 1024 } });
});

Deno.test("lineproto HTTP: an invalid merge_mode hint → 400, nothing written", async () => {
  const m = uniqueName("lp");
  const r = await post(`${base}/v1/lineproto/write`, `${m} v=1 1`, {
    "x-greptime-hint-merge_mode": "newest",
  });
  assert.equal(r.status, 400);
  assert.deepEqual(JSON.parse(r.text), { error: "Invalid value for table option merge_mode: 'newest'" });
  assert.ok(!(await tableNames(base)).includes(m));
});
