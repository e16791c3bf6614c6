/**
 * Telegraf's InfluxDB outputs, replayed as they go on the wire (outputs/influxdb/http.go and
 * outputs/influxdb_v2/http.go), with `urls = ["http://host:4000/v1/influxdb"]`:
 * - v1 at start-up: `POST <url>/query`, form `q=CREATE DATABASE "telegraf"`; 200 with no error in
 *   `results` marks the database created, anything else is only a warning. A write answered
 *   "database not found" (lower case; Petrel words it as InfluxDB does) makes it create the database and
 *   retry.
 * - v1 writes: `POST <url>/write?db=telegraf` (no precision: nanoseconds), `Content-Type: text/plain;
 *   charset=utf-8`, `Content-Encoding: gzip` (the default), Basic auth; 204 expected, 5xx retried,
 *   400 "partial write"/"unable to parse" dropped.
 * - v2: `POST <url>/api/v2/write?bucket=…&org=…`, `Authorization: Token <token>` (GreptimeDB reads
 *   the token as `user:password`), gzip; 204 expected, 429/503 retried, other 4xx dropped.
 */
import assert from "node:assert/strict";
import { BASIC, expectStatus, gzip, READER_BASIC, rows, send, withAuthServer } from "./shippers_util.ts";

const TELEGRAF = { "user-agent": "Telegraf/1.32.0 Go/1.23.0" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const LP = { "content-type": "text/plain; charset=utf-8", "content-encoding": "gzip" };
const CPU = "cpu,cpu=cpu-total,host=h1 usage_idle=98.5,usage_user=1.25 1700000000000000000\n" +
  "cpu,cpu=cpu-total,host=h1 usage_idle=97.5,usage_user=2.5 1700000010000000000\n";

Deno.test("telegraf outputs.influxdb: CREATE DATABASE at start-up, then gzip writes into it", async () => {
  await withAuthServer(async (s) => {
    const q = new URLSearchParams({ q: 'CREATE DATABASE "telegraf"' }).toString();
    const created = await send(s, "POST", "/v1/influxdb/query", {
      ...FORM,
      ...TELEGRAF,
      authorization: BASIC,
    }, q);
    expectStatus(created, 200, "CREATE DATABASE");
    assert.deepStrictEqual(JSON.parse(created.text), { results: [{ statement_id: 0 }] });
    // Telegraf runs it again on every (re)connect: creating an existing database succeeds.
    expectStatus(
      await send(s, "POST", "/v1/influxdb/query", { ...FORM, authorization: BASIC }, q),
      200,
      "again",
    );

    const w = await send(s, "POST", "/v1/influxdb/write?db=telegraf&rp=autogen", {
      ...LP,
      ...TELEGRAF,
      authorization: BASIC,
    }, gzip(CPU));
    expectStatus(w, 204, "write");
    assert.equal(w.text, "");
    assert.deepStrictEqual(
      await rows(
        s,
        "SELECT host, cpu, usage_idle, usage_user FROM cpu ORDER BY greptime_timestamp",
        "telegraf",
      ),
      [["h1", "cpu-total", 98.5, 1.25], ["h1", "cpu-total", 97.5, 2.5]],
    );
  });
});

Deno.test("telegraf outputs.influxdb: /query lists databases, refuses the rest by name, checks permissions", async () => {
  await withAuthServer(async (s) => {
    const get = (q: string, auth = BASIC) =>
      send(s, "GET", `/v1/influxdb/query?q=${encodeURIComponent(q)}`, { authorization: auth });
    const both = await get('CREATE DATABASE "my-db"; SHOW DATABASES');
    expectStatus(both, 200, "two statements");
    const [create, show] = JSON.parse(both.text).results;
    assert.deepStrictEqual(create, { statement_id: 0 });
    assert.equal(show.statement_id, 1);
    assert.deepStrictEqual(show.series[0].columns, ["name"]);
    assert(show.series[0].values.some((v: string[]) => v[0] === "my-db"), both.text);
    assert(show.series[0].values.some((v: string[]) => v[0] === "public"), both.text);
    // The URL's u/p authenticate as on /write (InfluxDB 1.x rules).
    expectStatus(await send(s, "GET", "/v1/influxdb/query?q=SHOW+DATABASES&u=reader&p=rpass"), 200, "u/p");

    const unsupported = await get("SELECT * FROM cpu");
    expectStatus(unsupported, 400, "SELECT");
    assert.match(JSON.parse(unsupported.text).error, /unsupported InfluxQL statement: SELECT \* FROM cpu/);
    expectStatus(await get('CREATE DATABASE "x" WITH DURATION 1d'), 400, "retention clause");
    const missing = await send(s, "POST", "/v1/influxdb/query", { ...FORM, authorization: BASIC }, "");
    expectStatus(missing, 400, "no q");
    assert.match(missing.text, /missing required parameter \\"q\\"/);
    expectStatus(await get("SHOW DATABASES", READER_BASIC), 200, "reader lists");
    expectStatus(await get("CREATE DATABASE ro_made", READER_BASIC), 403, "reader may not create");
    expectStatus(await send(s, "GET", "/v1/influxdb/query?q=SHOW+DATABASES"), 401, "no credentials");
  });
});

Deno.test("telegraf outputs.influxdb: a write to a missing database is 'database not found', so it re-creates and retries", async () => {
  await withAuthServer(async (s) => {
    // Telegraf (outputs/influxdb/http.go) tests strings.Contains(error, "database not found"), case and
    // all: only then does it CREATE DATABASE and keep the batch for a retry; any other 4xx drops it.
    const w = await send(s, "POST", "/v1/influxdb/write?db=nodb", { ...LP, authorization: BASIC }, gzip(CPU));
    expectStatus(w, 400, "write to a missing database");
    const error: string = JSON.parse(w.text).error;
    assert.ok(error.includes("database not found"), error);
    assert.equal(error, 'database not found: "nodb"');
    const v2 = await send(
      s,
      "POST",
      "/v1/influxdb/api/v2/write?bucket=nodb",
      { ...LP, authorization: BASIC },
      gzip(CPU),
    );
    assert.equal(JSON.parse(v2.text).error, 'database not found: "nodb"');
    const q = new URLSearchParams({ q: 'CREATE DATABASE "nodb"' }).toString();
    expectStatus(
      await send(s, "POST", "/v1/influxdb/query", { ...FORM, authorization: BASIC }, q),
      200,
      "re-create",
    );
    const retry = await send(
      s,
      "POST",
      "/v1/influxdb/write?db=nodb",
      { ...LP, authorization: BASIC },
      gzip(CPU),
    );
    expectStatus(retry, 204, "retried batch");
    assert.deepStrictEqual(await rows(s, "SELECT count(*) FROM cpu", "nodb"), [[2]]);
  });
});

Deno.test("telegraf outputs.influxdb_v2: Token auth, bucket and org, gzip", async () => {
  await withAuthServer(async (s) => {
    const headers = { ...LP, ...TELEGRAF, authorization: "Token writer:wpass" };
    const w = await send(s, "POST", "/v1/influxdb/api/v2/write?bucket=public&org=myorg", headers, gzip(CPU));
    expectStatus(w, 204, "v2 write");
    assert.deepStrictEqual(await rows(s, "SELECT count(*), max(usage_user) FROM cpu"), [[2, 2.5]]);
    const bad = await send(s, "POST", "/v1/influxdb/api/v2/write?bucket=public&org=myorg", {
      ...headers,
      authorization: "Token writer:wrong",
    }, gzip(CPU));
    expectStatus(bad, 401, "wrong token");
  });
});
