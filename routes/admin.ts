/** Administration endpoints outside `/v1`: health, status, metrics, config, log level, tracing. */
import { renderConfigToml } from "../src/config/config.ts";
import type { Ctx } from "./context.ts";
import { invalidArguments } from "../src/common/errors.ts";
import { LogFilter, setLogFilter } from "../src/common/log.ts";

const TEXT = { "content-type": "text/plain; charset=utf-8" };

/** `GET|POST /health`, `/ready`, `/v1/health` → `{}`. */
export function health(): Response {
  return Response.json({});
}

/**
 * `GET /v1/loki/ready` → `ready`, as Loki answers: Vector's `loki` sink probes it as its health check
 * (GreptimeDB has no such route, so Vector reports the sink unhealthy there).
 */
export function lokiReady(): Response {
  return new Response("ready\n", { headers: TEXT });
}

/** `GET /` → a small page linking the admin endpoints. */
export function index(ctx: Ctx): Response {
  const html = `<!doctype html><html><head><title>Petrel</title></head><body><h1>Petrel</h1>` +
    `<p>Version: ${ctx.app.build.version}</p><ul>` +
    ["/dashboard", "/v1/health", "/status", "/metrics", "/config"].map((p) =>
      `<li><a href="${p}">${p}</a></li>`
    )
      .join("") +
    `</ul></body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

/** `GET /status` → build and host facts. */
export function status(ctx: Ctx): Response {
  const b = ctx.app.build;
  return Response.json({
    version: b.version,
    hostname: b.hostname,
    source_time: b.source_time,
    commit: b.commit,
    branch: b.branch,
    runtime: b.runtime,
    rustc_version: b.runtime,
    storage: storageFacts(ctx),
    ...(ctx.app.forwarder !== null ? { forward: ctx.app.forwarder.status() } : {}),
  });
}

/** Where data lives, and whether it outlives the process (`:memory:`) or the isolate (Deno Deploy). */
function storageFacts(ctx: Ctx) {
  const dataHome = ctx.app.config.storage.data_home;
  const memory = dataHome === ":memory:";
  return {
    data_home: dataHome,
    ephemeral: memory || ctx.app.deploy,
    deno_deploy: ctx.app.deploy,
  };
}

/** `GET /metrics` → Prometheus text exposition. */
export async function metrics(ctx: Ctx): Promise<Response> {
  return new Response(await ctx.app.metrics.render(), {
    headers: { "content-type": ctx.app.metrics.registry.contentType },
  });
}

/** `GET /config` → the effective configuration as TOML (credentials redacted). */
export function config(ctx: Ctx): Response {
  return new Response(renderConfigToml(ctx.app.config), { headers: TEXT });
}

/** `POST /debug/log_level` with a level or directive list such as `info,petrel::http=debug`. */
export async function logLevel(ctx: Ctx): Promise<Response> {
  const body = (await ctx.text()).trim();
  let filter: LogFilter;
  try {
    filter = LogFilter.parse(body);
  } catch (e) {
    throw invalidArguments(`Invalid request parameter: Invalid filter "${body}": ${(e as Error).message}`);
  }
  const old = setLogFilter(filter);
  return new Response(`Log Level changed from ${old} to ${filter.text}`, { headers: TEXT });
}

/** `POST /debug/enable_trace` with `true` or `false`. */
export async function enableTrace(ctx: Ctx): Promise<Response> {
  const body = (await ctx.text()).trim();
  if (body !== "true" && body !== "false") {
    throw invalidArguments(
      `Invalid request parameter: Invalid parameter "enable": expected true or false, got "${body}"`,
    );
  }
  ctx.app.traceEnabled = body === "true";
  return new Response(ctx.app.traceEnabled ? "trace enabled" : "trace disabled", { headers: TEXT });
}
