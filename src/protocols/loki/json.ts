/**
 * Loki JSON push → the typed model. As GreptimeDB does, a body that is not an object with a
 * `streams` array is refused, while a malformed stream or entry inside it is skipped (and counted).
 */
import type { LokiEntry, LokiPushRequest, LokiStream } from "./model.ts";
import { parseJsonBody } from "../../common/json_text.ts";

/** A JSON push that cannot be read at all. */
export class LokiJsonError extends Error {}

const DIGITS = /^[0-9]+$/;

function labelPairs(v: unknown): [string, string][] | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const out: [string, string][] = [];
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return null;
    out.push([k, x]);
  }
  return out;
}

/** Structured metadata: an object of strings (other scalars are written as their JSON text). */
function metadataPairs(v: unknown): [string, string][] | null {
  if (v === undefined || v === null) return [];
  if (typeof v !== "object" || Array.isArray(v)) return null;
  const out: [string, string][] = [];
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "string") out.push([k, x]);
    else if (typeof x === "number" || typeof x === "boolean") out.push([k, String(x)]);
    else if (x !== null) return null;
  }
  return out;
}

function entry(v: unknown): LokiEntry | null {
  if (!Array.isArray(v) || v.length < 2 || v.length > 3) return null;
  const [ts, line, meta] = v;
  let ns: bigint;
  if (typeof ts === "string" && DIGITS.test(ts)) ns = BigInt(ts);
  else if (typeof ts === "number" && Number.isSafeInteger(ts) && ts >= 0) ns = BigInt(ts);
  else return null;
  if (typeof line !== "string") return null;
  const md = metadataPairs(meta);
  if (md === null) return null;
  return { timestampNs: ns, line, structuredMetadata: md };
}

/** Decodes Loki JSON push text. */
export function decodeLokiJson(text: string): LokiPushRequest {
  let top: unknown;
  try {
    top = parseJsonBody(text);
  } catch (e) {
    throw new LokiJsonError((e as Error).message);
  }
  if (typeof top !== "object" || top === null || Array.isArray(top)) {
    throw new LokiJsonError("the body is not a JSON object");
  }
  const raw = (top as Record<string, unknown>).streams;
  if (!Array.isArray(raw)) throw new LokiJsonError("missing `streams` array");
  const streams: LokiStream[] = [];
  let skippedStreams = 0, skippedEntries = 0;
  for (const s of raw) {
    const o = typeof s === "object" && s !== null && !Array.isArray(s) ? s as Record<string, unknown> : null;
    const labels = o ? labelPairs(o.stream ?? {}) : null;
    if (o === null || labels === null || !Array.isArray(o.values)) {
      skippedStreams++;
      continue;
    }
    const entries: LokiEntry[] = [];
    for (const v of o.values) {
      const e = entry(v);
      if (e === null) skippedEntries++;
      else entries.push(e);
    }
    streams.push({ labels, entries });
  }
  return { streams, skippedStreams, skippedEntries };
}
