/**
 * What a fuzzed request's answer must look like beyond its status: a 4xx in the error shape of its
 * endpoint (the route table's `errors`, reference §4.1) naming what was wrong, and a server that
 * still answers `/health` within a second (tests, which share the machine with others, allow more).
 */
import { Router } from "../../src/http/router.ts";
import { ROUTES } from "../../routes/mod.ts";

const router = new Router(ROUTES, () => true);

/** Why a 4xx answer is not in its endpoint's error shape, or null when it is. */
export function errorShapeViolation(
  method: string,
  path: string,
  status: number,
  contentType: string,
  text: string,
): string | null {
  if (status < 400 || status >= 500 || status === 405) return null; // 405: axum's, no body
  const pathname = path.split("?")[0];
  // OTLP traces with no span accepted: a google.rpc.Status in protobuf (reference §6.11)
  if (/^\/v1\/(otlp|telemetry)\/v1\/traces$/.test(pathname) && contentType.includes("protobuf")) return null;
  const match = router.match(method, pathname);
  if (match.kind !== "found") return null;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON (${contentType}): ${text.slice(0, 120)}`;
  }
  if (body === null || typeof body !== "object") return `a ${status} whose body is not an object`;
  const str = (k: string) => typeof body[k] === "string" && (body[k] as string).length > 0;
  let ok: boolean;
  if (pathname.startsWith("/v1/elasticsearch/")) {
    // Elasticsearch's bulk answer with the failure in its one item
    ok = body.errors === true && Array.isArray(body.items);
  } else {
    switch (match.route.errors) {
      case "greptime":
        ok = typeof body.code === "number" && str("error");
        break;
      case "prometheus":
        ok = body.status === "error" && str("error") && str("errorType");
        break;
      case "splunk":
        ok = str("text") && typeof body.code === "number";
        break;
      case "jaeger":
        ok = Array.isArray(body.errors) && body.errors.length > 0;
        break;
      default:
        ok = str("error");
    }
  }
  return ok ? null : `a ${status} not in the ${match.route.errors} error shape: ${text.slice(0, 160)}`;
}

/** Why the server failed its health check (no 200 within `withinMs`), or null. */
export async function healthViolation(url: string, withinMs = 1000): Promise<string | null> {
  const started = performance.now();
  try {
    const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(withinMs) });
    await r.body?.cancel();
    return r.status === 200 ? null : `/health answered ${r.status}`;
  } catch (e) {
    return `/health did not answer within ${withinMs} ms (${Math.round(performance.now() - started)} ms: ${
      (e as Error).message
    })`;
  }
}
