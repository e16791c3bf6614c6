/**
 * Serving the embedded dashboard (reference §6.7): `/dashboard` redirects to `/dashboard/`, known
 * files are answered from memory (gzipped when the client accepts it, revalidated by ETag), and any
 * other path under `/dashboard/` gets `index.html`, as GreptimeDB's single-page app fallback.
 */
import { gzipSync } from "node:zlib";
import { DASHBOARD_ASSETS } from "./assets.gen.ts";

interface Prepared {
  type: string;
  body: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
}

const prepared = new Map<string, Prepared>();

// Hashing once per file at first use keeps start-up free of work for a page few servers serve.
async function asset(name: string): Promise<Prepared | undefined> {
  let p = prepared.get(name);
  if (p) return p;
  const raw = DASHBOARD_ASSETS[name];
  if (!raw) return undefined;
  const body = new TextEncoder().encode(raw.body);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const etag = `"${[...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
  p = { type: raw.type, body, gzipped: new Uint8Array(gzipSync(body)), etag };
  prepared.set(name, p);
  return p;
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
};

/** The names of the embedded files. */
export function dashboardFiles(): string[] {
  return Object.keys(DASHBOARD_ASSETS);
}

/** Answers a request for `/dashboard` or a path under `/dashboard/`. */
export async function serveDashboard(url: URL, headers: Headers): Promise<Response> {
  if (url.pathname === "/dashboard") {
    return new Response(null, { status: 308, headers: { location: `/dashboard/${url.search}` } });
  }
  const name = decodeURIComponent(url.pathname.slice("/dashboard/".length));
  const file = (await asset(name === "" ? "index.html" : name)) ?? (await asset("index.html"));
  if (!file) return new Response("404", { status: 404, headers: { "content-type": "text/plain" } });
  const common = {
    ...SECURITY_HEADERS,
    "content-type": file.type,
    etag: file.etag,
    "cache-control": "no-cache",
    vary: "accept-encoding",
  };
  const match = headers.get("if-none-match");
  if (match !== null && match.split(",").some((t) => t.trim().replace(/^W\//, "") === file.etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  const gzip = /\bgzip\b/.test(headers.get("accept-encoding") ?? "") && file.body.length > 1024;
  return new Response(gzip ? file.gzipped : file.body, {
    headers: gzip ? { ...common, "content-encoding": "gzip" } : common,
  });
}
