/**
 * `CREATE FLOW … WHERE …` over HTTP: a flow aggregates only the rows its WHERE keeps (the same
 * rows the plain SQL query with that WHERE reads: tags, fields, null tags, LIKE, IN, BETWEEN, the
 * time index), keeps its WHERE across a restart (late rows recomputed through it), shows it, and
 * refuses (400) unknown columns, literals its column cannot hold and subqueries; a WHERE with
 * functions, arithmetic or CASE makes the flow run its own SELECT per window (flow_general_test.ts).
 */
import assert from "node:assert/strict";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, remoteWrite, sql } from "../retention/http_helpers.ts";

const HOUR = 3_600_000;
const MIN = 60_000;
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

/**
 * Requests a row every 30 s for 30 minutes from four hosts ("test" among them): status, latency,
 * path (some in upper case), ok; every third row has no `level` tag.
 */
function httpLines(): string[] {
  const lines: string[] = [];
  const levels = ["error", "warn", "info"];
  const statuses = [200, 204, 301, 404, 500, 503];
  for (let k = 0; k < 60; k++) {
    for (const [h, host] of ["a", "b", "c", "test"].entries()) {
      const n = k * 4 + h;
      const level = n % 4 === 3 ? "" : `,level=${levels[n % 3]}`;
      const status = statuses[(k + h * 5) % statuses.length];
      const path = ["/api/users", "/API/users", "/health", "/api/x_y", "/api/xzy", "/q?a=[1]*"][(k + h) % 6];
      const latency = ((k * 13 + h * 7) % 50) / 10;
      lines.push(
        `http,host=${host}${level} status=${status}i,latency=${latency},path="${path}",ok=${status < 400} ${
          BASE + k * 30_000
        }`,
      );
    }
  }
  return lines;
}

const WINDOW = "date_bin(INTERVAL '5 minutes', greptime_timestamp)";

function flowSql(name: string, where: string): string {
  return `CREATE FLOW ${name} SINK TO ${name}_sink AS SELECT host, count(latency) AS n, avg(latency) AS avg_latency,
  max(status) AS max_status, last_value(latency ORDER BY greptime_timestamp) AS last_latency,
  ${WINDOW} AS time_window FROM http WHERE ${where} GROUP BY host, time_window`;
}

/** The sink's rows beside the plain SQL aggregate of the same WHERE (window starts in ms). */
async function sinkAndPlain(url: string, name: string, where: string) {
  const sink = await sql(
    url,
    `SELECT host, CAST(time_window AS BIGINT), n, avg_latency, max_status FROM ${name}_sink ORDER BY host, time_window`,
  );
  const plain = await sql(
    url,
    `SELECT host, CAST(${WINDOW} AS BIGINT) AS w, count(latency), avg(latency), max(status) FROM http
     WHERE ${where} GROUP BY host, w ORDER BY host, w`,
  );
  const asText = (rows: unknown[][], scale: number) =>
    rows.map(([host, w, ...rest]) => [host, Math.round(Number(w) / scale), ...rest].map(String));
  return { sink: asText(sink, 1), plain: asText(plain, 1e6) }; // the source's time index is in ns
}

const ISO_20 = new Date(BASE + 20 * MIN).toISOString();
/** [flow, its WHERE, the plain SQL's WHERE when it must be spelt differently] */
const CASES: Array<[string, string, string?]> = [
  ["tag_and_field", "host != 'test' AND status >= 500"],
  ["in_or", "level IN ('error', 'warn') OR latency > 4.5"],
  ["null_tag", "level IS NULL"],
  ["not_null_not_in", "level IS NOT NULL AND host NOT IN ('a', 'test')"],
  ["like", "path LIKE '/api/%' AND NOT (host = 'b' OR host = 'zz')"],
  // DataFusion's LIKE takes `\` as its escape: `\_` is an underscore, not any character
  [
    "like_escaped",
    "path LIKE '/api/x\\_y' OR path NOT LIKE '%users'",
    "path = '/api/x_y' OR path NOT LIKE '%users'",
  ],
  ["like_one", "path LIKE '/api/x_y' AND NOT path LIKE '/api/x\\_y'", "path = '/api/xzy'"],
  // GLOB's own specials (`*`, `?`, `[`) in a LIKE pattern are plain characters
  [
    "like_glob_chars",
    "path LIKE '/q?a=[1]*' OR path LIKE '%[1]%' OR path LIKE '/q?%*'",
    "path = '/q?a=[1]*'",
  ],
  ["between_bool", "status BETWEEN 200 AND 299 AND ok AND latency < 4"],
  ["time_string", `greptime_timestamp >= '${ISO_20}' AND "host" = 'c'`],
  ["time_number", `greptime_timestamp < ${BigInt(BASE + 10 * MIN) * 1_000_000n} AND 2 < latency`],
];

Deno.test("flow WHERE: a flow aggregates the rows its WHERE keeps, as plain SQL with that WHERE does", async () => {
  let server = await startTestServer();
  const dataHome = server.dataHome;
  try {
    await lineWrite(server.url, httpLines());
    for (const [name, where, plainWhere] of CASES) {
      await sql(server.url, flowSql(name, where));
      await sql(server.url, `ADMIN FLUSH_FLOW('${name}')`);
      const { sink, plain } = await sinkAndPlain(server.url, name, plainWhere ?? where);
      assert.ok(plain.length > 0, `${name}: the WHERE keeps some rows`);
      assert.deepEqual(sink, plain, `${name}: ${where}`);
    }
    // the cases really filter: all rows give more groups than the tag-and-field WHERE
    const all = await sql(server.url, "SELECT count(latency) FROM http");
    const kept = await sql(server.url, "SELECT sum(n) FROM tag_and_field_sink");
    assert.ok(Number(kept[0][0]) < Number(all[0][0]) / 2, `${kept[0][0]} of ${all[0][0]}`);
    const upper = await sql(server.url, "SELECT count(*) FROM http WHERE path = '/API/users'");
    assert.ok(Number(upper[0][0]) > 0, "upper-case paths exist, and LIKE '/api/%' left them out");
    await server.stop();

    server = await startTestServer({ storage: { data_home: dataHome } });
    const create = await sql(server.url, "SHOW CREATE FLOW tag_and_field");
    assert.match(String(create[0][1]), /FROM http WHERE host != 'test' AND status >= 500 GROUP BY host/);
    // Late rows in a computed window: the restarted rule recomputes it through the stored WHERE.
    await lineWrite(server.url, [
      `http,host=a,level=error status=502i,latency=9.5,path="/x",ok=false ${BASE + 40 * MIN + 1000}`,
      `http,host=a,level=error status=200i,latency=0.1,path="/x",ok=true ${BASE + 40 * MIN + 2000}`,
      `http,host=test,level=error status=500i,latency=7,path="/x",ok=false ${BASE + 40 * MIN + 3000}`,
    ]);
    assert.ok(await server.server.downsampler.runOnce(BASE + 2 * HOUR) > 0);
    const { sink, plain } = await sinkAndPlain(server.url, "tag_and_field", CASES[0][1]);
    assert.deepEqual(sink, plain);
    const late = await sql(
      server.url,
      `SELECT n, max_status, last_latency FROM tag_and_field_sink WHERE host = 'a' AND time_window = ${
        BASE + 40 * MIN
      }`,
    );
    assert.deepEqual(late, [[1, 502, 9.5]], "only the late row the WHERE keeps");
    assert.deepEqual(
      await sql(server.url, `SELECT count(*) FROM tag_and_field_sink WHERE host = 'test'`),
      [[0]],
    );
  } finally {
    await server.stop();
  }
});

async function failure(url: string, query: string) {
  const r = await fetch(`${url}/v1/sql?db=public`, {
    method: "POST",
    body: new URLSearchParams({ sql: query }),
  });
  const body = await r.json();
  return { status: r.status, code: body.code as number, error: String(body.error ?? "") };
}

const FLOW_OVER = (where: string) =>
  `CREATE FLOW f SINK TO s AS SELECT host, avg(latency) AS a, ${WINDOW} AS w FROM http h WHERE ${where} GROUP BY host, w`;

/** WHERE clauses refused: [where, code, message]. */
const REFUSED: Array<[string, number, RegExp]> = [
  ["nope = 'a'", 1004, /column nope of http does not exist/],
  ["host = 'a' AND Level IS NULL AND missing > 1", 1004, /column missing of http does not exist/],
  ["host IN (SELECT host FROM other)", 1001, /subquery/],
  ["other.host = 'a'", 3000, /No field named other\.host/],
  ["status = 'abc'", 1004, /cannot compare column status \(Int64\) with 'abc'/],
  ["greptime_timestamp > 'yesterday'", 1004, /not a timestamp/],
  ["latency LIKE '1%'", 1004, /LIKE on column latency/],
  ["ok = 3", 1004, /cannot compare column ok \(Boolean\)/],
  ["host = 'a' ORDER", 1001, /ORDER/],
];

/** WHERE clauses the flow's own SELECT per window evaluates (its general form). */
const GENERAL = [
  "lower(host) = 'a'",
  "host = upper('a')",
  "latency + 1 > 2",
  "host = NULL",
  "latency > status",
  "host ~ 'a.*'",
  "host ILIKE 'a%'",
  "CASE WHEN host = 'a' THEN true END",
  "greptime_timestamp > now() - INTERVAL '1 hour'",
];

Deno.test("flow WHERE: unknown columns, mismatched literals and subqueries are 400; other expressions run", async () => {
  const server = await startTestServer();
  try {
    await lineWrite(server.url, [`http,host=a,level=error status=500i,latency=1,path="/",ok=false ${BASE}`]);
    for (const [where, code, message] of REFUSED) {
      const r = await failure(server.url, FLOW_OVER(where));
      assert.deepEqual([r.status, r.code], [400, code], `${where}: ${r.error}`);
      assert.match(r.error, message, where);
    }
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [], "nothing refused was stored");
    for (const where of GENERAL) {
      const r = await failure(server.url, FLOW_OVER(where));
      assert.equal(r.status, 200, `${where}: ${r.error}`);
      await sql(server.url, "DROP FLOW f");
      await sql(server.url, "DROP TABLE s");
    }
    // qualified by the table or its alias, names resolved as the rest of the flow's
    await sql(server.url, FLOW_OVER("h.HOST = 'a' AND http.latency >= -1 AND 'error' = Level"));
    assert.deepEqual(await sql(server.url, "SHOW FLOWS"), [["f"]]);
  } finally {
    await server.stop();
  }
});

Deno.test("flow WHERE: a flow over a metric filters on its labels and value", async () => {
  const server = await startTestServer();
  try {
    await remoteWrite(
      server.url,
      [["a", "node"], ["b", "node"], ["c", ""]].map(([instance, job], i) => ({
        labels: { __name__: "up_time", instance, ...(job === "" ? {} : { job }) },
        samples: Array.from(
          { length: 40 },
          (_, k) => ({ timestampMs: BASE + k * 15_000, value: k + 100 * i }),
        ),
      })),
    );
    const where = "(job = 'node' AND instance <> 'b' OR job IS NULL) AND greptime_value >= 10";
    await sql(
      server.url,
      "CREATE FLOW up_5m SINK TO up_5m AS SELECT instance, sum(greptime_value) AS v, " +
        `count(greptime_value) AS n, ${WINDOW} AS w FROM up_time WHERE ${where} GROUP BY instance, w`,
    );
    await sql(server.url, "ADMIN FLUSH_FLOW('up_5m')");
    const plain = await sql(
      server.url,
      `SELECT instance, sum(greptime_value), count(greptime_value) FROM up_time WHERE ${where} ` +
        `GROUP BY instance, ${WINDOW} ORDER BY instance, ${WINDOW}`,
    );
    const sink = await sql(server.url, "SELECT instance, v, n FROM up_5m ORDER BY instance, w");
    assert.deepEqual(sink.map((r) => r.map(String)), plain.map((r) => r.map(String)));
    assert.deepEqual(sink.map((r) => r[0]), ["a", "a", "c", "c"], "b left out; a's first 10 samples too");
    assert.equal(sink[0][2], 10);
  } finally {
    await server.stop();
  }
});
