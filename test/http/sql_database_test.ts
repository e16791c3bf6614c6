/**
 * Database selection (reference §2.1) through `/v1/sql`: `x-greptime-db-name`, the `db` parameter
 * (which beats the header here), GreptimeDB's `catalog-schema` spelling, and 4004 for a missing one.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase } from "./fixtures/sql_client.ts";

const HEADER = { "x-greptime-db-name": "d1" };

const CASES: SqlCase[] = [
  { sql: "CREATE DATABASE d1", affected: [1] },
  {
    sql: "CREATE TABLE d1.t (ts TIMESTAMP TIME INDEX, v DOUBLE); INSERT INTO d1.t VALUES (1, 2)",
    affected: [0, 1],
  },
  { name: "the header picks the database", sql: "SELECT v FROM t", headers: HEADER, rows: [[2]] },
  { name: "catalog-schema spelling", sql: "SELECT v FROM t", db: "greptime-d1", rows: [[2]] },
  {
    name: "the db parameter beats the header",
    sql: "SELECT v FROM t",
    db: "public",
    headers: HEADER,
    error: { code: 4001, message: "Table not found: greptime.public.t" },
  },
  { name: "an empty db parameter is ignored", sql: "SELECT v FROM t", db: "", headers: HEADER, rows: [[2]] },
  {
    name: "a missing database is 4004",
    sql: "SELECT 1",
    db: "nope",
    error: { code: 4004, message: "Database not found: nope" },
  },
  {
    name: "a missing database by header is 4004",
    sql: "SELECT 1",
    headers: { "x-greptime-db-name": "nope" },
    error: { code: 4004, message: "Database not found: nope" },
  },
  {
    name: "the form's db parameter works too",
    sql: "SELECT v FROM t",
    via: "form",
    db: "d1",
    rows: [[2]],
  },
];

Deno.test("/v1/sql database selection", async (t) => {
  const server = await startTestServer();
  try {
    await runCases(t, server.url, CASES);
  } finally {
    await server.stop();
  }
});
