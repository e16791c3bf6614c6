/**
 * Stored spans → Jaeger's JSON (reference §6.16): µs times, the parent as a `CHILD_OF` reference and
 * links as `FOLLOWS_FROM`, attributes plus `span.kind`, `otel.scope.*` and status tags (sorted by
 * key), events as logs, one process per service with the resource attributes as its tags.
 */
import type { JaegerKeyValue, JaegerLog, JaegerProcess, JaegerSpan, JaegerTrace } from "./jaeger_model.ts";
import { jsonTag, type SpanRecord } from "./span_rows.ts";

const byKey = (a: JaegerKeyValue, b: JaegerKeyValue) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** `SPAN_KIND_SERVER` → `server`; unspecified → "". */
export function jaegerKind(stored: string): string {
  const k = stored.replace(/^SPAN_KIND_/, "").toLowerCase();
  return k === "unspecified" ? "" : k;
}

/** The tags Jaeger shows for a span (what tag searches match, too). */
export function spanTags(s: SpanRecord): JaegerKeyValue[] {
  const tags = [...s.spanAttributes];
  const kind = jaegerKind(s.kind);
  if (kind !== "") tags.push({ key: "span.kind", type: "string", value: kind });
  if (s.scopeName !== "") tags.push({ key: "otel.scope.name", type: "string", value: s.scopeName });
  if (s.scopeVersion !== "") tags.push({ key: "otel.scope.version", type: "string", value: s.scopeVersion });
  const status = s.statusCode.replace(/^STATUS_CODE_/, "");
  if (status === "ERROR") tags.push({ key: "error", type: "bool", value: true });
  if (status === "ERROR" || status === "OK") {
    tags.push({ key: "otel.status_code", type: "string", value: status });
  }
  if (s.statusMessage !== "") {
    tags.push({ key: "otel.status_description", type: "string", value: s.statusMessage });
  }
  return tags.sort(byKey);
}

/** An RFC 3339 time with up to nine fractional digits → µs since the epoch. */
function rfc3339Micros(t: string): number {
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return 0;
  const frac = /\.(\d+)/.exec(t)?.[1] ?? "";
  return Math.floor(ms / 1000) * 1_000_000 + Number((frac + "000000").slice(0, 6));
}

function logs(s: SpanRecord): JaegerLog[] {
  return s.events.map((e) => ({
    timestamp: rfc3339Micros(e.time),
    fields: [
      { key: "event", type: "string", value: e.name },
      ...Object.entries(e.attributes ?? {}).map(([k, v]) => jsonTag(k, v)),
    ],
  }));
}

/** One span in Jaeger's shape. */
export function jaegerSpan(s: SpanRecord, processID: string): JaegerSpan {
  const references: JaegerSpan["references"] = [];
  if (s.parentSpanId !== null) {
    references.push({ refType: "CHILD_OF", traceID: s.traceId, spanID: s.parentSpanId });
  }
  for (const l of s.links) {
    references.push({ refType: "FOLLOWS_FROM", traceID: l.trace_id, spanID: l.span_id });
  }
  return {
    traceID: s.traceId,
    spanID: s.spanId,
    operationName: s.name,
    references,
    startTime: Number(s.startNs / 1000n),
    duration: Number(s.durationNs / 1000n),
    tags: spanTags(s),
    logs: logs(s),
    processID,
  };
}

/** A trace of spans (in start order): processes `p1`, `p2`, … in order of first appearance. */
export function jaegerTrace(traceID: string, spans: SpanRecord[]): JaegerTrace {
  const processes: Record<string, JaegerProcess> = {};
  const ids = new Map<string, string>();
  const out = spans.map((s) => {
    const key = JSON.stringify([s.service, s.resourceAttributes]);
    let id = ids.get(key);
    if (id === undefined) {
      id = `p${ids.size + 1}`;
      ids.set(key, id);
      processes[id] = { serviceName: s.service, tags: [...s.resourceAttributes].sort(byKey) };
    }
    return jaegerSpan(s, id);
  });
  return { traceID, spans: out, processes };
}
