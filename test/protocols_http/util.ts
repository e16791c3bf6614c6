/** Shared helpers of the HTTP protocol tests: one server per file, SQL checks through `/v1/sql`. */
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Rows of one SELECT run through `/v1/sql` (fails the test on any error). */
export async function sqlRows(base: string, sql: string, db = "public"): Promise<unknown[][]> {
  const r = await fetch(`${base}/v1/sql?db=${encodeURIComponent(db)}&sql=${encodeURIComponent(sql)}`);
  const body = await r.json();
  assert.equal(r.status, 200, `${sql}: ${JSON.stringify(body)}`);
  return body.output[0].records.rows;
}

/** Runs statements through `/v1/sql`, failing the test on any error. */
export async function sqlExec(base: string, sql: string, db = "public"): Promise<void> {
  const r = await fetch(`${base}/v1/sql?db=${encodeURIComponent(db)}&sql=${encodeURIComponent(sql)}`);
  const body = await r.text();
  assert.equal(r.status, 200, `${sql}: ${body}`);
}

/** Names of the tables in a database. */
export async function tableNames(base: string, db = "public"): Promise<string[]> {
  return (await sqlRows(base, "SHOW TABLES", db)).map((r) => String(r[0])).filter((n) => n !== "numbers");
}

/** The `SHOW CREATE TABLE` text of a table. */
export async function showCreate(base: string, table: string, db = "public"): Promise<string> {
  return String((await sqlRows(base, `SHOW CREATE TABLE "${table}"`, db))[0][1]);
}

/** A POST returning status, headers and body text. */
export async function post(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const payload = typeof body === "string" ? body : new Uint8Array(body);
  const r = await fetch(url, { method: "POST", body: payload, headers });
  return { status: r.status, text: await r.text(), headers: r.headers };
}

/** Runs `fn` against a fresh in-process server, stopping it afterwards. */
export async function withServer(
  fn: (s: TestServer) => Promise<void>,
  overrides: Parameters<typeof startTestServer>[0] = {},
): Promise<void> {
  const s = await startTestServer(overrides);
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}

/** A unique-enough name for a table per test case. */
let counter = 0;
export function uniqueName(prefix: string): string {
  return `${prefix}_${++counter}`;
}
