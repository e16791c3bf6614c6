/**
 * The one request handler behind `Deno.serve`: routing, CORS, authentication, permission checks,
 * timeouts, metrics, access logging and error rendering wrap every route once, here.
 */
import { Logger } from "../common/log.ts";
import { parseDuration } from "../common/humantime.ts";
import { authenticateRequest, type AuthScheme, checkPermission, type UserInfo } from "./auth.ts";
import { type HttpHost, RequestContext, type Route } from "./context.ts";
import { PetrelError, StatusCode, timedOut, tooDeeplyNested } from "../common/errors.ts";
import { type ErrorShape, HttpError, renderError } from "./render_error.ts";
import type { Router } from "./router.ts";
import { bodyMemoryOf } from "./body_memory.ts";
import { compressResponse } from "./compress_response.ts";
import { storageFailure } from "../common/storage_errors.ts";

const log = new Logger("petrel::http");

/** Builds the `Deno.serve` handler for an app and its compiled route table. */
export function createHandler<A extends HttpHost>(
  app: A,
  router: Router<A>,
): (req: Request) => Promise<Response> {
  return async (req) => {
    const startedAt = performance.now();
    const url = new URL(req.url);
    let routePath = "unmatched";
    let response: Response;
    try {
      if (req.method === "OPTIONS" && app.config.http.enable_cors) {
        response = new Response(null, { status: 200, headers: preflightHeaders(req) });
      } else {
        const match = router.match(req.method, url.pathname);
        if (match.kind === "none") {
          // axum's answer to a path no route has (GreptimeDB adds no fallback): no body
          response = new Response(null, { status: 404 });
        } else if (match.kind === "method") {
          // axum's answer (GreptimeDB adds none of its own): no body, the route's methods in `allow`
          response = new Response(null, { status: 405, headers: { allow: match.allow.join(",") } });
        } else {
          // as matched: a GreptimeDB dashboard counts /v1/influxdb/write, not the spec's /v1/lineproto/write
          routePath = match.path;
          response = await dispatch(app, req, url, match.route, match.params, startedAt);
          if (match.route.compressResponse) response = compressResponse(req, response);
        }
      }
    } catch (e) {
      response = renderUnexpected(e, "plain", startedAt);
    }
    if (app.config.http.enable_cors) addCorsHeaders(req, response, app.config.http.cors_allowed_origins);
    const seconds = (performance.now() - startedAt) / 1000;
    app.metrics.observe(req.method, routePath, response.status, seconds);
    if (log.enabled("debug")) {
      log.debug("request", {
        method: req.method,
        path: url.pathname,
        route: routePath,
        status: response.status,
        elapsed_ms: Math.round(seconds * 1000),
      });
    }
    return response;
  };
}

async function dispatch<A extends HttpHost>(
  app: A,
  req: Request,
  url: URL,
  route: Route<A>,
  params: Record<string, string>,
  startedAt: number,
): Promise<Response> {
  let user: UserInfo | null = null;
  try {
    if (app.userProvider && needsAuth(route, url.pathname)) {
      user = authenticateRequest(app.userProvider, req, url, authScheme(url.pathname));
    }
  } catch (e) {
    // Authentication failures take GreptimeDB's ErrorResponse shape (its auth middleware renders
    // them), whatever the endpoint, except Splunk HEC's own (§3.3).
    return renderUnexpected(e, route.errors === "splunk" ? "splunk" : "greptime", startedAt);
  }
  try {
    if (route.auth === "read" || route.auth === "write") checkPermission(user, route.auth);
  } catch (e) {
    // GreptimeDB checks permissions inside the handlers: a denial takes the endpoint's error shape,
    // as the per-statement denials of `/v1/sql` and InfluxQL do.
    return renderUnexpected(e, route.errors, startedAt);
  }
  const controller = new AbortController();
  const ctx = new RequestContext(
    req,
    url,
    params,
    app,
    user,
    controller.signal,
    startedAt,
    bodyMemoryOf(app),
  );
  const timeoutMs = requestTimeout(req, app.config.http.timeout);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const work = Promise.resolve(route.handler(ctx));
    if (timeoutMs <= 0) return await work;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        const message = `Request timed out after ${timeoutMs}ms`;
        // Without a reason the code's own status applies: DeadlineExceeded is 504.
        reject(
          route.timeoutIsGatewayTimeout
            ? new PetrelError(StatusCode.DeadlineExceeded, message)
            : timedOut(message),
        );
      }, timeoutMs);
    });
    work.catch(() => {}); // a late failure after the 408 must not become an unhandled rejection
    return await Promise.race([work, expired]);
  } catch (e) {
    return renderUnexpected(e, route.errors, startedAt);
  } finally {
    clearTimeout(timer);
    ctx.bodyLease.release();
  }
}

/** Authentication applies to `/v1/…` except the public paths of reference §3.1 and routes marked public. */
function needsAuth(route: { auth: Route["auth"] }, path: string): boolean {
  return route.auth !== "public" && path.startsWith("/v1/");
}

function authScheme(path: string): AuthScheme {
  if (path.includes("influxdb") || path.includes("/lineproto/")) return "influxdb";
  return path.startsWith("/v1/splunk/") ? "splunk" : "standard";
}

/** `x-greptime-timeout` (humantime; `0s` = none) overrides the configured timeout. */
function requestTimeout(req: Request, configured: number): number {
  const header = req.headers.get("x-greptime-timeout");
  if (header !== null) {
    const ms = parseDuration(header);
    if (ms !== null) return ms;
  }
  return configured;
}

const internalLog = new Logger("petrel::http::error");

function renderUnexpected(e: unknown, shape: ErrorShape, startedAt: number): Response {
  const elapsed = Math.round(performance.now() - startedAt);
  if (e instanceof HttpError) return renderError(e.error, e.shape ?? shape, elapsed, e.headers);
  if (e instanceof PetrelError) return renderError(e, shape, elapsed);
  // only input nested past the stack overflows it: the client's problem, whichever parser ran out
  const nested = tooDeeplyNested(e);
  if (nested) return renderError(nested, shape, elapsed);
  const storage = storageFailure(e);
  if (storage) {
    internalLog.warn("storage failure", { error: String((e as Error).message) });
    return renderError(storage, shape, elapsed);
  }
  internalLog.error("unexpected failure", { error: String((e as Error)?.stack ?? e) });
  return renderError(new PetrelError(StatusCode.Internal, String(e)), shape, elapsed);
}

function preflightHeaders(req: Request): Headers {
  return new Headers({
    "access-control-allow-methods": "GET,POST,PUT,DELETE,HEAD",
    "access-control-allow-headers": req.headers.get("access-control-request-headers") ?? "*",
  });
}

function addCorsHeaders(req: Request, res: Response, allowed: string[]): void {
  const origin = req.headers.get("origin");
  try {
    if (allowed.length === 0) res.headers.set("access-control-allow-origin", "*");
    else if (origin && allowed.includes(origin)) {
      res.headers.set("access-control-allow-origin", origin);
      res.headers.append("vary", "origin");
    }
  } catch {
    // Responses with immutable headers (e.g. Response.redirect) go out unchanged.
  }
}
