/** What the range-query tests share: a `/v1/sql` client returning exact columns and rows, and GreptimeDB's sqlness `host` table. */
import assert from "node:assert/strict";
import type { TestServer } from "../helpers/server.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded" };

export type Result = { columns: Array<[string, string]>; rows: unknown[][] };

export async function post(
  s: TestServer,
  sql: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.url}/v1/sql`, {
    method: "POST",
    headers: { ...FORM, ...headers },
    body: new URLSearchParams({ sql }),
  });
  return { status: res.status, body: await res.json() };
}

export async function query(
  s: TestServer,
  sql: string,
  headers: Record<string, string> = {},
): Promise<Result> {
  const { status, body } = await post(s, sql, headers);
  assert.equal(status, 200, `${sql}: ${JSON.stringify(body)}`);
  const records = (body.output as Array<{ records: Record<string, unknown> }>)[0].records as {
    schema: { column_schemas: Array<{ name: string; data_type: string }> };
    rows: unknown[][];
  };
  return {
    columns: records.schema.column_schemas.map((c): [string, string] => [c.name, c.data_type]),
    rows: records.rows,
  };
}

/** A SQL error case: the statement, GreptimeDB's status code, and what the message must say. */
export type SqlErrorCase = [sql: string, code: number, message: RegExp];

/** Asserts each statement fails with a 400 carrying its code and message. */
export async function assertSqlErrors(s: TestServer, cases: SqlErrorCase[]): Promise<void> {
  for (const [sql, code, message] of cases) {
    const { status, body } = await post(s, sql);
    assert.equal(status, 400, sql);
    assert.equal(body.code, code, `${sql}: ${JSON.stringify(body)}`);
    assert.match(String(body.error), message, sql);
  }
}

/** GreptimeDB's sqlness `host` table: a value every 5s per host, nulls between. */
export const HOST_TABLE = [
  "CREATE TABLE host (ts TIMESTAMP(3) TIME INDEX, host STRING PRIMARY KEY, val BIGINT)",
  `INSERT INTO host VALUES (0, 'host1', 0), (5000, 'host1', null), (10000, 'host1', 1), (15000, 'host1', null),
    (20000, 'host1', 2), (0, 'host2', 3), (5000, 'host2', null), (10000, 'host2', 4), (15000, 'host2', null),
    (20000, 'host2', 5)`,
];
