/**
 * `/v1/sql` under `static_user_provider:cmd:admin=a,ro:ro=r,wo:wo=w`: authentication failures are 401,
 * read-only users may only read and write-only users may only write (403, code 7006).
 */
import { basicAuth, startTestServer } from "../helpers/server.ts";
import { checkCase, type SqlCase } from "./fixtures/sql_client.ts";

const DENIED = { status: 403, code: 7006, message: "User is not authorized to perform this action" };

/** [user, password, case]: the rows of the permission matrix. */
const MATRIX: [string, string, SqlCase][] = [
  ["admin", "a", {
    sql: "CREATE TABLE t (host STRING, v DOUBLE, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host))",
  }],
  ["admin", "a", { sql: "INSERT INTO t VALUES ('a', 1, 0)", affected: [1] }],
  ["admin", "a", { sql: "SELECT host FROM t", rows: [["a"]] }],
  ["ro", "r", { sql: "SELECT host FROM t", rows: [["a"]] }],
  ["ro", "r", { sql: "SELECT host FROM t", via: "form", rows: [["a"]] }],
  ["ro", "r", { sql: "WITH x AS (SELECT host FROM t) SELECT * FROM x", rows: [["a"]] }],
  ["ro", "r", { sql: "SHOW TABLES", rows: [["numbers"], ["t"]] }],
  ["ro", "r", { sql: "DESC TABLE t" }],
  ["ro", "r", { sql: "SHOW CREATE TABLE t" }],
  ["ro", "r", { sql: "SELECT count(*) FROM information_schema.tables WHERE table_name = 't'", rows: [[1]] }],
  ["ro", "r", { sql: "INSERT INTO t VALUES ('b', 1, 0)", error: DENIED }],
  ["ro", "r", { sql: "CREATE TABLE t2 (ts TIMESTAMP TIME INDEX)", error: DENIED }],
  ["ro", "r", { sql: "CREATE DATABASE d", error: DENIED }],
  ["ro", "r", { sql: "DELETE FROM t WHERE host = 'a'", error: DENIED }],
  ["ro", "r", { sql: "DROP TABLE t", error: DENIED }],
  ["ro", "r", { sql: "TRUNCATE TABLE t", error: DENIED }],
  ["ro", "r", { sql: "ALTER TABLE t ADD COLUMN x BIGINT", error: DENIED }],
  ["ro", "r", { name: "a write hidden after a read", sql: "SELECT 1; DROP TABLE t", error: DENIED }],
  ["ro", "r", { name: "a write in a text/plain body", sql: "DROP TABLE t", via: "text", error: DENIED }],
  ["wo", "w", { sql: "INSERT INTO t VALUES ('w', 2, 0)", affected: [1] }],
  ["wo", "w", { sql: "SELECT host FROM t", error: DENIED }],
  ["wo", "w", { sql: "SHOW TABLES", error: DENIED }],
  ["wo", "w", { sql: "DESC TABLE t", error: DENIED }],
  ["wo", "w", { sql: "(SELECT 1)", error: DENIED }],
  ["admin", "a", {
    name: "writes of wo landed, those of ro did not",
    sql: "SELECT host FROM t ORDER BY host",
    rows: [
      ["a"],
      ["w"],
    ],
  }],
];

Deno.test("/v1/sql with a static user provider", async (t) => {
  const server = await startTestServer({ user_provider: "static_user_provider:cmd:admin=a,ro:ro=r,wo:wo=w" });
  try {
    for (const [user, password, c] of MATRIX) {
      await t.step(
        `${user}: ${c.name ?? c.sql}`,
        () => checkCase(server.url, { ...c, headers: { authorization: basicAuth(user, password) } }),
      );
    }
    const failures: [string, Record<string, string>, number, string][] = [
      ["no credentials", {}, 7003, "Not found http or grpc authorization header"],
      ["unknown user", { authorization: basicAuth("nobody", "x") }, 7000, "User not found, username: nobody"],
      [
        "wrong password",
        { authorization: basicAuth("admin", "nope") },
        7002,
        "Username and password does not match, username: admin",
      ],
      [
        "bearer token",
        { authorization: "Bearer abc" },
        7002,
        "Unsupported authentication method: bearer token",
      ],
      ["unknown scheme", { authorization: "Digest abc" }, 7004, "Unsupported http auth scheme, name: Digest"],
    ];
    for (const [name, headers, code, message] of failures) {
      await t.step(`401: ${name}`, async () => {
        await checkCase(server.url, { sql: "SELECT 1", headers, error: { status: 401, code, message } });
      });
    }
    await t.step("the basic scheme name is case-insensitive", async () => {
      await checkCase(server.url, {
        sql: "SELECT 1",
        headers: { authorization: basicAuth("ro", "r").replace("Basic", "basic") },
        rows: [[1]],
      });
    });
  } finally {
    await server.stop();
  }
});
