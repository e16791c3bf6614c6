/**
 * A trace's spans (rows of GreptimeDB's `opentelemetry_traces` table, reference §7.4) laid out as a
 * waterfall: parents before children, children by start time, offsets from the trace's first span.
 */

/** One span placed in the waterfall. */
export interface WaterfallSpan {
  row: Record<string, unknown>;
  spanId: string;
  parentId: string;
  name: string;
  service: string;
  kind: string;
  status: string;
  depth: number;
  /** Nanoseconds from the trace's start. */
  offsetNs: number;
  durationNs: number;
}

/** A laid-out trace. */
export interface Waterfall {
  spans: WaterfallSpan[];
  /** From the first start to the last end, ns. */
  totalNs: number;
  /** The trace's first start, ns since the epoch (exact). */
  startNs: bigint;
  services: string[];
}

function toBig(v: unknown): bigint | null {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isFinite(v)) return BigInt(Math.round(v));
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** Lays out spans; a span whose parent is not in the trace is drawn as a root. */
export function buildWaterfall(rows: Record<string, unknown>[]): Waterfall {
  interface Raw {
    row: Record<string, unknown>;
    id: string;
    parent: string;
    start: bigint;
    duration: bigint;
  }
  const raws: Raw[] = [];
  for (const row of rows) {
    const start = toBig(row.timestamp);
    if (start === null) continue;
    const end = toBig(row.timestamp_end);
    const duration = toBig(row.duration_nano) ?? (end !== null ? end - start : 0n);
    raws.push({ row, id: text(row.span_id), parent: text(row.parent_span_id), start, duration });
  }
  if (raws.length === 0) return { spans: [], totalNs: 0, startNs: 0n, services: [] };
  const first = raws.reduce((m, r) => (r.start < m ? r.start : m), raws[0].start);
  const last = raws.reduce((m, r) => (r.start + r.duration > m ? r.start + r.duration : m), first);
  const ids = new Set(raws.map((r) => r.id));
  const children = new Map<string, Raw[]>();
  const roots: Raw[] = [];
  for (const r of raws) {
    if (r.parent !== "" && r.parent !== r.id && ids.has(r.parent)) {
      const list = children.get(r.parent) ?? [];
      list.push(r);
      children.set(r.parent, list);
    } else roots.push(r);
  }
  const byStart = (
    a: Raw,
    b: Raw,
  ) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id.localeCompare(b.id));
  const spans: WaterfallSpan[] = [];
  const seen = new Set<Raw>();
  const visit = (r: Raw, depth: number) => {
    if (seen.has(r)) return; // a cycle in bad data must not loop forever
    seen.add(r);
    spans.push({
      row: r.row,
      spanId: r.id,
      parentId: r.parent,
      name: text(r.row.span_name),
      service: text(r.row.service_name),
      kind: text(r.row.span_kind),
      status: text(r.row.span_status_code),
      depth,
      offsetNs: Number(r.start - first),
      durationNs: Number(r.duration),
    });
    for (const c of (children.get(r.id) ?? []).sort(byStart)) visit(c, depth + 1);
  };
  for (const r of roots.sort(byStart)) visit(r, 0);
  for (const r of raws.sort(byStart)) visit(r, 0); // spans only reachable through a cycle
  return {
    spans,
    totalNs: Number(last - first),
    startNs: first,
    services: [...new Set(spans.map((s) => s.service))],
  };
}

/** A duration for people: `1.25 s`, `340 ms`, `12.5 µs`. */
export function formatDuration(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(ns >= 1e8 ? 0 : 1)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns} ns`;
}
