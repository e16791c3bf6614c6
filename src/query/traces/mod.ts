/**
 * Trace reads for the Jaeger query API (reference §6.16) over a trace table of either model and
 * its `<table>_services` / `<table>_operations` tables; a missing table reads as empty.
 */
import { invalidArguments } from "../../common/errors.ts";
import { parseDuration } from "../../common/humantime.ts";
import type { Storage } from "../../storage/mod.ts";
import type { JaegerOperation, JaegerTrace } from "./jaeger_model.ts";
import { jaegerKind, jaegerTrace, spanTags } from "./jaeger.ts";
import { ALL_TIME, latestSpans, type SpanRecord, traceSpans } from "./span_rows.ts";

export type * from "./jaeger_model.ts";

/** Where traces are read from. */
export interface TraceSource {
  db: string;
  table: string;
}

function scanAux(storage: Storage, src: TraceSource, suffix: string, columns: string[]): string[][] {
  const t = storage.getTable(src.db, `${src.table}${suffix}`);
  if (t === undefined) return [];
  return storage.scanTable(src.db, t.name, { columns, timeRange: ALL_TIME }).map((r) =>
    r.map((v) => String(v ?? ""))
  );
}

/** The services that sent spans, sorted; null when there is no trace table. */
export function traceServices(storage: Storage, src: TraceSource): string[] | null {
  if (storage.getTable(src.db, src.table) === undefined) return null;
  return [...new Set(scanAux(storage, src, "_services", ["service_name"]).map((r) => r[0]))].sort();
}

/** A service's operations (optionally of one span kind, Jaeger's `server`), sorted by name then kind. */
export function traceOperations(
  storage: Storage,
  src: TraceSource,
  service: string,
  spanKind?: string | null,
): JaegerOperation[] {
  const rows = scanAux(storage, src, "_operations", ["service_name", "span_name", "span_kind"]);
  const ops = rows.filter((r) => r[0] === service)
    .map(([, name, kind]) => ({ name, spanKind: jaegerKind(kind) }))
    .filter((o) => !spanKind || o.spanKind === spanKind.toLowerCase());
  const seen = new Set<string>();
  return ops.filter((o) =>
    !seen.has(o.name + "\u0000" + o.spanKind) && seen.add(o.name + "\u0000" + o.spanKind)
  )
    .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : a.spanKind < b.spanKind ? -1 : 1);
}

/** µs since the epoch (query parameters) → an inclusive ns range; absent bounds are open. */
export function microsRange(start: string | null, end: string | null): [bigint, bigint] {
  const micros = (v: string | null, name: string): bigint | null => {
    if (v === null || v.trim() === "") return null;
    if (!/^-?\d{1,16}$/.test(v.trim())) throw invalidArguments(`Invalid parameter '${name}': ${v}`);
    return BigInt(v.trim());
  };
  const lo = micros(start, "start"), hi = micros(end, "end");
  return [lo === null ? ALL_TIME[0] : lo * 1000n, hi === null ? ALL_TIME[1] : hi * 1000n + 999n];
}

/** One trace by id (lowercase hex), its spans in start order; null when no span has that id. */
export function traceById(
  storage: Storage,
  src: TraceSource,
  traceId: string,
  range: [bigint, bigint] = ALL_TIME,
): JaegerTrace | null {
  const table = storage.getTable(src.db, src.table);
  if (table === undefined) return null;
  const id = traceId.toLowerCase();
  const spans = traceSpans(storage, src.db, table, id, range);
  return spans.length === 0 ? null : jaegerTrace(id, spans);
}

/** A trace search (`/api/traces`). */
export interface TraceSearch {
  service: string;
  operation?: string | null;
  /** Tag key → value text (Jaeger's `tags` JSON object). */
  tags?: Record<string, string>;
  minDuration?: string | null;
  maxDuration?: string | null;
  range: [bigint, bigint];
  limit?: number | null;
  /** Keep only each trace's first N spans (GreptimeDB's Grafana mode). */
  spansPerTrace?: number;
}

function durationNs(text: string | null | undefined, name: string): bigint | null {
  if (text === null || text === undefined || text.trim() === "") return null;
  const ms = parseDuration(text);
  if (ms === null) throw invalidArguments(`Invalid parameter '${name}': ${text}`);
  return BigInt(Math.round(ms * 1e6));
}

function matches(s: SpanRecord, q: TraceSearch, min: bigint | null, max: bigint | null): boolean {
  if (min !== null && s.durationNs < min) return false;
  if (max !== null && s.durationNs > max) return false;
  const want = Object.entries(q.tags ?? {});
  if (want.length === 0) return true;
  const have = new Map<string, string>();
  for (const t of [...s.resourceAttributes, ...spanTags(s)]) have.set(t.key, String(t.value));
  return want.every(([k, v]) => have.get(k) === v);
}

/** Latest first; traces whose latest matching spans start at the same time by id. */
const byLatest = (a: [string, bigint], b: [string, bigint]) =>
  a[1] > b[1] ? -1 : a[1] < b[1] ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/**
 * The traces with a span of the service (and operation, tags, duration) in the range, most recent
 * first (by their latest such span), at most `limit`; each trace whole (all its spans, whatever
 * their service). Spans are read latest first and only until `limit` traces are found, and each
 * trace over the time its spans lie in (the trace table's trace map), so a search costs what it
 * returns, not the size of the range.
 */
export function searchTraces(storage: Storage, src: TraceSource, q: TraceSearch): JaegerTrace[] {
  const table = storage.getTable(src.db, src.table);
  if (table === undefined) return [];
  const min = durationNs(q.minDuration, "minDuration");
  const max = durationNs(q.maxDuration, "maxDuration");
  const equal: Record<string, string> = { service_name: q.service };
  if (q.operation) equal.span_name = q.operation;
  const limit = q.limit !== null && q.limit !== undefined && q.limit > 0 ? q.limit : Infinity;
  const latest = new Map<string, bigint>();
  let boundary: bigint | null = null;
  for (const s of latestSpans(storage, src.db, table, equal, q.range)) {
    // once `limit` traces are found, only spans starting with the last of them can still tie with it
    if (boundary !== null && s.startNs < boundary) break;
    if (latest.has(s.traceId) || !matches(s, q, min, max)) continue;
    latest.set(s.traceId, s.startNs);
    if (latest.size === limit) boundary = s.startNs;
  }
  const ids = [...latest.entries()].sort(byLatest).slice(0, limit).map(([id]) => id);
  return ids.map((id) => {
    let spans = traceSpans(storage, src.db, table, id);
    if (q.spansPerTrace !== undefined) spans = spans.slice(0, q.spansPerTrace);
    return jaegerTrace(id, spans);
  });
}
