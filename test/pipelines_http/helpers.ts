/** HTTP helpers for the pipeline tests: upload, ingest, dry run and `/v1/sql` reads against a real server. */
import type { Value } from "../../src/common/rows.ts";

/** A status and parsed JSON body (or the raw text when it is not JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Talks to one running Petrel. */
export class PipelineClient {
  constructor(readonly url: string) {}

  /** Any request; the body is read fully. */
  async request(
    method: string,
    path: string,
    body?: string | Uint8Array<ArrayBuffer> | FormData,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const res = await fetch(this.url + path, { method, body, headers });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** `POST /v1/pipelines/{name}` with a YAML body. */
  upload(name: string, yaml: string, contentType = "application/x-yaml"): Promise<Reply> {
    return this.request("POST", `/v1/pipelines/${encodeURIComponent(name)}`, yaml, {
      "content-type": contentType,
    });
  }

  /** Uploads and returns the new version string; throws when the upload fails. */
  async uploadOk(name: string, yaml: string): Promise<string> {
    const r = await this.upload(name, yaml);
    if (r.status !== 200) throw new Error(`upload ${name} failed: ${r.status} ${r.text}`);
    return (r.body as { pipelines: { version: string }[] }).pipelines[0].version;
  }

  /** `POST /v1/ingest?…` with the given body and content type. */
  ingest(
    query: Record<string, string>,
    body: string,
    contentType: string | null = "application/json",
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const h = { ...headers };
    if (contentType !== null) h["content-type"] = contentType;
    // A string body makes fetch add `text/plain`; bytes go without a content type.
    const payload = contentType === null ? new TextEncoder().encode(body) : body;
    return this.request("POST", `/v1/ingest?${new URLSearchParams(query)}`, payload, h);
  }

  /** Runs SQL and returns the rows of the first output (throws on an error reply). */
  async sql(query: string, db = "public"): Promise<Value[][]> {
    const r = await this.request("POST", `/v1/sql?db=${db}`, new URLSearchParams({ sql: query }).toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
    if (r.status !== 200) throw new Error(`SQL failed (${query}): ${r.status} ${r.text}`);
    const out = (r.body as { output: { records?: { rows: Value[][] } }[] }).output[0];
    return out.records?.rows ?? [];
  }

  /** The `SHOW CREATE TABLE` text of a table. */
  async showCreate(table: string, db = "public"): Promise<string> {
    const rows = await this.sql(`SHOW CREATE TABLE "${table}"`, db);
    return String(rows[0][1]);
  }

  /** The table names of a database, sorted. */
  async tables(db = "public"): Promise<string[]> {
    return (await this.sql("SHOW TABLES", db)).map((r) => String(r[0])).filter((t) => t !== "numbers").sort();
  }
}

/** The `error` field of a JSON error reply ("" when absent). */
export function errorOf(r: Reply): string {
  const b = r.body as { error?: unknown } | null;
  return typeof b === "object" && b !== null && typeof b.error === "string" ? b.error : "";
}
