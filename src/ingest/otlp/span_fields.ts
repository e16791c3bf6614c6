/** The span fields every trace table model shares, as GreptimeDB writes them (reference §7.4). */
import type { KeyValue, Span } from "../../protocols/otlp/model.ts";
import { SPAN_KINDS, STATUS_CODES } from "../../protocols/otlp/model.ts";
import { attributesJson, rfc3339Nanos } from "./attributes.ts";

/** `Span.SpanKind` as GreptimeDB stores it (unknown numbers as unspecified). */
export function spanKindName(kind: number): string {
  return SPAN_KINDS[kind] ?? SPAN_KINDS[0];
}

/** `Status.StatusCode` as GreptimeDB stores it. */
export function statusCodeName(code: number): string {
  return STATUS_CODES[code] ?? STATUS_CODES[0];
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `end - start` in ns (0 when the span ends before it starts), a number when it fits. */
export function durationNanos(s: Span): number | bigint {
  const d = s.endTimeUnixNano - s.startTimeUnixNano;
  if (d <= 0n) return 0;
  return d <= MAX_SAFE ? Number(d) : d;
}

/** The span events as GreptimeDB's JSON: `[{"name","time","attributes"}]`. */
export function eventsJson(s: Span): string {
  if (s.events.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < s.events.length; i++) {
    const e = s.events[i];
    out += (i === 0 ? "" : ",") +
      `{"name":${JSON.stringify(e.name)},"time":"${rfc3339Nanos(e.timeUnixNano)}",` +
      `"attributes":${attributesJson(e.attributes)}}`;
  }
  return out + "]";
}

/** The span links as GreptimeDB's JSON: `[{"trace_id","span_id","trace_state","attributes"}]`. */
export function linksJson(s: Span): string {
  if (s.links.length === 0) return "[]";
  let out = "[";
  for (let i = 0; i < s.links.length; i++) {
    const l = s.links[i];
    out += (i === 0 ? "" : ",") + `{"trace_id":"${l.traceId}","span_id":"${l.spanId}",` +
      `"trace_state":${JSON.stringify(l.traceState)},"attributes":${attributesJson(l.attributes)}}`;
  }
  return out + "]";
}

/** The service name of a resource (`service.name`), or null. */
export function serviceName(attrs: KeyValue[]): string | null {
  let name: string | null = null;
  for (const kv of attrs) {
    if (kv.key !== "service.name") continue;
    const v = kv.value;
    name = v.type === "string" ? v.value : v.type === "int" || v.type === "double" ? String(v.value) : null;
  }
  return name;
}
