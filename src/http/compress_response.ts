/**
 * Response compression of the routes that ask for it (GreptimeDB's `CompressionLayer` on the
 * Prometheus query API, reference §2.8): Grafana asks for gzip, and label values, series and range
 * queries are large, repetitive JSON.
 */

/** Bodies smaller than this are sent as they are (tower-http's default threshold). */
const MIN_SIZE = 32;
const ENCODINGS = ["gzip", "deflate"] as const;

/** The first encoding we speak that `accept-encoding` allows (q > 0), if any. */
function chooseEncoding(accept: string | null): (typeof ENCODINGS)[number] | null {
  if (!accept) return null;
  const allowed = new Map<string, number>();
  for (const part of accept.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    allowed.set(name.trim(), q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return ENCODINGS.find((e) => (allowed.get(e) ?? allowed.get("*") ?? 0) > 0) ?? null;
}

/** The response compressed for the request's `accept-encoding`, or unchanged. */
export function compressResponse(req: Request, res: Response): Response {
  if (res.body === null || res.headers.has("content-encoding")) return res;
  const length = res.headers.get("content-length");
  if (length !== null && Number(length) < MIN_SIZE) return res;
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return res;
  const encoding = chooseEncoding(req.headers.get("accept-encoding"));
  if (encoding === null) return res;
  const headers = new Headers(res.headers);
  headers.set("content-encoding", encoding);
  headers.delete("content-length");
  headers.append("vary", "accept-encoding");
  return new Response(res.body.pipeThrough(new CompressionStream(encoding)), {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}
