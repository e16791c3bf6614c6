/**
 * Talking to Petrel: every request goes through `request`, which adds Basic credentials, asks for
 * them when the server answers 401, and turns any other failure into an `ApiError` holding the
 * server's answer verbatim.
 */

/** A failed request: the HTTP status and the body exactly as the server sent it. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: string) {
    super(errorMessage(status, body));
    this.name = "ApiError";
  }
}

/** The `error` field of a JSON error body, else the body itself. */
function errorMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed?.error === "string") return parsed.error;
  } catch { /* not JSON */ }
  return body.trim() === "" ? `HTTP ${status}` : body;
}

const AUTH_KEY = "petrel.auth";

/** Asks the user for credentials; resolves false when they cancel. Set by the login dialog. */
let askCredentials: (reason: string) => Promise<boolean> = () => Promise.resolve(false);

/** Installs the function that prompts for credentials. */
export function onCredentialsNeeded(fn: (reason: string) => Promise<boolean>): void {
  askCredentials = fn;
}

/** Remembers credentials for this browser tab (sessionStorage: closing the tab forgets them). */
export function setCredentials(user: string, password: string): void {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  sessionStorage.setItem(AUTH_KEY, btoa(String.fromCharCode(...bytes)));
}

/** Forgets the credentials. */
export function clearCredentials(): void {
  sessionStorage.removeItem(AUTH_KEY);
}

/** The signed-in user name, if any. */
export function currentUser(): string | null {
  const token = sessionStorage.getItem(AUTH_KEY);
  if (!token) return null;
  const text = new TextDecoder().decode(Uint8Array.from(atob(token), (c) => c.charCodeAt(0)));
  return text.slice(0, text.indexOf(":"));
}

/** Sends a request; on 401 asks for credentials and retries; throws `ApiError` on any other failure. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  for (;;) {
    const headers = new Headers(init.headers);
    const token = sessionStorage.getItem(AUTH_KEY);
    if (token) headers.set("authorization", `Basic ${token}`);
    const res = await fetch(path, { ...init, headers });
    if (res.ok) return res;
    const body = await res.text();
    if (res.status === 401 && await askCredentials(errorMessage(401, body))) continue;
    throw new ApiError(res.status, body);
  }
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * JSON.parse that keeps integers beyond 2^53 exact (nanosecond timestamps, UInt64) as their digits,
 * where the browser passes the source text to revivers.
 */
export function parseJsonExact(text: string): unknown {
  const reviver: Reviver = (_key, value, context) => {
    if (
      typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value) && context?.source
    ) {
      return /^-?\d+$/.test(context.source) ? context.source : value;
    }
    return value;
  };
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

/** A column of a SQL result. */
export interface Column {
  name: string;
  data_type: string;
}

/** One statement's output: rows, or a count of affected rows. */
export type SqlOutput =
  | { kind: "records"; columns: Column[]; rows: unknown[][] }
  | { kind: "affected"; rows: number };

/** The outputs of a `/v1/sql` call and how long the server took. */
export interface SqlResult {
  outputs: SqlOutput[];
  executionMs: number;
}

interface GreptimeV1 {
  output?:
    ({ records: { schema: { column_schemas: Column[] }; rows: unknown[][] } } | { affectedrows: number })[];
  execution_time_ms: number;
}

/** Runs SQL (one or more statements) through `POST /v1/sql`. */
export async function sql(query: string, db = "public"): Promise<SqlResult> {
  const body = new URLSearchParams({ sql: query, db });
  const res = await request("/v1/sql", { method: "POST", body });
  const parsed = parseJsonExact(await res.text()) as GreptimeV1;
  return {
    executionMs: parsed.execution_time_ms,
    outputs: (parsed.output ?? []).map((o): SqlOutput =>
      "records" in o
        ? { kind: "records", columns: o.records.schema.column_schemas, rows: o.records.rows }
        : { kind: "affected", rows: o.affectedrows }
    ),
  };
}

/** The rows of a single-statement query, as objects keyed by column name. */
export async function sqlObjects(query: string, db = "public"): Promise<Record<string, unknown>[]> {
  const { outputs } = await sql(query, db);
  const first = outputs[0];
  if (!first || first.kind !== "records") return [];
  return first.rows.map((r) => Object.fromEntries(first.columns.map((c, i) => [c.name, r[i]])));
}

/** Whether an error is GreptimeDB's "table not found" (4001). */
export function isTableNotFound(e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  try {
    return JSON.parse(e.body).code === 4001;
  } catch {
    return false;
  }
}

/** A Prometheus API answer (`/api/v1/query` and `/query_range`). */
export interface PromResponse {
  status: "success" | "error";
  data: { resultType: "matrix" | "vector" | "scalar" | "string"; result: unknown };
  warnings?: string[];
}

/** Runs PromQL through the Prometheus HTTP API (POST form, as Grafana does). */
export async function promql(
  path: "query" | "query_range",
  params: Record<string, string>,
  db = "public",
): Promise<PromResponse> {
  const res = await request(`/v1/prometheus/api/v1/${path}?db=${encodeURIComponent(db)}`, {
    method: "POST",
    body: new URLSearchParams(params),
  });
  return await res.json() as PromResponse;
}
