/** Profiling endpoints `/debug/prof/…` (reference §6.6): decode the request, call `src/profiling/`, encode. */
import type { Ctx } from "./context.ts";
import { invalidArguments } from "../src/common/errors.ts";
import {
  decodeUploadedProfile,
  heapProfiling,
  HeapProfilingInactiveError,
  parseCpuParams,
  parseOutput,
  profileCpu,
  ProfilerBusyError,
  type RenderedProfile,
  renderProfile,
} from "../src/profiling/mod.ts";

const TEXT = { "content-type": "text/plain; charset=utf-8" };

function send(r: RenderedProfile): Response {
  const headers: Record<string, string> = { "content-type": r.contentType };
  if (r.filename) headers["content-disposition"] = `attachment; filename="${r.filename}"`;
  return new Response(r.body, { headers });
}

/** 409 for a profiler whose state does not allow the request (busy, or not activated). */
function conflict(e: unknown): Response {
  if (e instanceof ProfilerBusyError || e instanceof HeapProfilingInactiveError) {
    return Response.json({ error: e.message }, { status: 409 });
  }
  throw e;
}

/** `POST /debug/prof/cpu?seconds=5&frequency=99&output=proto|text|flamegraph`. */
export async function cpu(ctx: Ctx): Promise<Response> {
  const { seconds, frequency, output } = parseCpuParams(ctx.url.searchParams);
  try {
    // Stop early when the request times out or the client goes away.
    const signal = AbortSignal.any([ctx.signal, ctx.req.signal]);
    const profile = await profileCpu({ seconds, frequency, signal });
    return send(renderProfile(profile, output, "Petrel CPU profile"));
  } catch (e) {
    return conflict(e);
  }
}

/** `POST /debug/prof/mem?output=text|proto|flamegraph`: the live sampled allocations. */
export async function mem(ctx: Ctx): Promise<Response> {
  const output = parseOutput(ctx.url.searchParams, "text");
  try {
    return send(renderProfile(await heapProfiling.dump(), output, "Petrel heap profile"));
  } catch (e) {
    return conflict(e);
  }
}

/** `GET /debug/prof/mem/status` → `{"active": bool}` (GreptimeDB's spacing). */
export function memStatus(): Response {
  return new Response(`{"active": ${heapProfiling.active}}`, {
    headers: { "content-type": "application/json" },
  });
}

/** `POST /debug/prof/mem/activate`. */
export async function memActivate(): Promise<Response> {
  await heapProfiling.activate();
  return new Response("Heap profiling activated", { headers: TEXT });
}

/** `POST /debug/prof/mem/deactivate`. */
export async function memDeactivate(): Promise<Response> {
  await heapProfiling.deactivate();
  return new Response("Heap profiling deactivated", { headers: TEXT });
}

/** `GET /debug/prof/mem/gdump` → `{"active": bool}`; `POST` with form field `activate=true|false`. */
export async function gdump(ctx: Ctx): Promise<Response> {
  if (ctx.req.method === "GET" || ctx.req.method === "HEAD") {
    return new Response(`{"active": ${heapProfiling.gdump}}`, {
      headers: { "content-type": "application/json" },
    });
  }
  const form = new URLSearchParams(await ctx.text());
  const raw = form.get("activate") ?? ctx.query("activate");
  if (raw !== "true" && raw !== "false") {
    throw invalidArguments(
      `Invalid request parameter: form field activate must be true or false, got ${
        raw === null ? "nothing" : `"${raw}"`
      }`,
    );
  }
  heapProfiling.gdump = raw === "true";
  return new Response(heapProfiling.gdump ? "gdump activated" : "gdump deactivated", { headers: TEXT });
}

/** `POST /debug/prof/mem/symbol`: an uploaded profile (raw body or multipart file) → flamegraph SVG. */
export async function symbol(ctx: Ctx): Promise<Response> {
  const output = parseOutput(ctx.url.searchParams, "flamegraph");
  let bytes = await ctx.body();
  const type = (ctx.req.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } })
      .formData().catch(() => {
        throw invalidArguments("Invalid request parameter: malformed multipart/form-data body");
      });
    const file = [...form.values()][0];
    bytes = file === undefined
      ? new Uint8Array()
      : typeof file === "string"
      ? new TextEncoder().encode(file)
      : new Uint8Array(await file.arrayBuffer());
  }
  return send(renderProfile(decodeUploadedProfile(bytes), output, "Uploaded profile"));
}
