/**
 * Shared by the shipper replay tests (`shippers_*_test.ts`): one authenticated server per file, the
 * exact requests a shipper sends, and SQL reads of what they stored.
 */
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** `writer` may read and write, `reader` only read. */
export const USERS = "static_user_provider:cmd:writer=wpass,reader:ro=rpass";
/** The writer's Basic credentials, as every shipper's `username`/`password` options send them. */
export const BASIC = `Basic ${btoa("writer:wpass")}`;
/** The read-only user's Basic credentials. */
export const READER_BASIC = `Basic ${btoa("reader:rpass")}`;

/** A reply: status, headers, the raw body and its text. */
export interface Reply {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

/** Sends one request to the server and reads the whole reply. */
export async function send(
  s: TestServer,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Uint8Array,
): Promise<Reply> {
  const payload = typeof body === "string" ? body : body === undefined ? undefined : new Uint8Array(body);
  const r = await fetch(s.url + path, { method, headers, body: payload });
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, headers: r.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/** Asserts the status, showing the body when it differs. */
export function expectStatus(r: Reply, status: number, label: string): void {
  assert.equal(r.status, status, `${label}: ${r.text}`);
}

/** Rows of a SELECT through `/v1/sql`, as the writer. */
export async function rows(s: TestServer, sql: string, db = "public"): Promise<unknown[][]> {
  const r = await send(s, "GET", `/v1/sql?db=${encodeURIComponent(db)}&sql=${encodeURIComponent(sql)}`, {
    authorization: BASIC,
  });
  expectStatus(r, 200, sql);
  return JSON.parse(r.text).output[0].records.rows;
}

/** gzip, as the shippers' `compression`/`compress` options do. */
export function gzip(text: string | Uint8Array): Uint8Array {
  return new Uint8Array(zlib.gzipSync(text));
}

/** Runs `fn` against a fresh server with {@link USERS}, stopped afterwards. */
export async function withAuthServer(fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await startTestServer({ user_provider: USERS });
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}
