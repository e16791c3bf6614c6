/**
 * OTLP spans → rows of GreptimeDB's trace tables (reference §7.4). `greptime_trace_v1` (the default
 * model): one row per span with fixed columns, one column per span, scope and resource attribute
 * (typed from the value; see trace_columns.ts), events and links as JSON; plus the `<t>_services`
 * and `<t>_operations` tables the Jaeger API reads. `greptime_trace_v0` is in traces_v0.ts.
 */
import { invalidArguments } from "../../common/errors.ts";
import {
  ColumnarBatch,
  type ColumnIndex,
  type ColumnSchema,
  type DataType,
  type TableOptions,
  type Value,
  type WriteBatch,
} from "../../common/rows.ts";
import type { AnyValue, ExportTraceRequest, KeyValue, Span } from "../../protocols/otlp/model.ts";
import {
  durationNanos,
  eventsJson,
  linksJson,
  serviceName,
  spanKindName,
  statusCodeName,
} from "./span_fields.ts";
import { attributeType, coerceAttribute, reconcileTypes } from "./trace_columns.ts";
import { otlpTracesV0ToBatch } from "./traces_v0.ts";
import { TraceAux } from "./trace_aux.ts";

export { AUX_TIMESTAMP } from "./trace_aux.ts";

/** The trace table models GreptimeDB offers (chosen by the pipeline header). */
export type TraceModel = "greptime_trace_v1" | "greptime_trace_v0";

/** The table spans go to without `x-greptime-trace-table-name`. */
export const DEFAULT_TRACE_TABLE = "opentelemetry_traces";

/** How spans become rows. */
export interface OtlpTraceOptions {
  table: string;
  model: TraceModel;
  /** The type of a column of `table` when the table exists (its type wins over the values'). */
  existingType?: (column: string) => DataType | undefined;
}

/** What a traces request becomes. */
export interface OtlpTraceBatches {
  /** The span table's batch first, then (v1) `<table>_services` and `<table>_operations`. */
  batches: WriteBatch[];
  spans: number;
  rejectedSpans: number;
  /** For `partial_success.error_message` ("" when nothing was rejected). */
  rejectedMessage: string;
}

/**
 * The model a request asks for: the deprecated `x-greptime-log-pipeline-name` is read first (as
 * GreptimeDB does here), then `x-greptime-pipeline-name`; 400 when neither names a trace model.
 */
export function traceModel(header: (name: string) => string | null): TraceModel {
  const name = header("x-greptime-log-pipeline-name") ?? header("x-greptime-pipeline-name");
  if (name === null || name.trim() === "") throw invalidArguments("Pipeline is required for this API.");
  const n = name.trim();
  if (n === "greptime_trace_v1" || n === "greptime_trace_v0") return n;
  throw invalidArguments(
    `Unsupported trace pipeline '${n}': expected greptime_trace_v1 or greptime_trace_v0`,
  );
}

const SKIPPING: ColumnIndex = {
  kind: "skipping",
  options: { false_positive_rate: "0.01", granularity: "10240", type: "BLOOM" },
};

const V1_FIXED: ColumnSchema[] = [
  { name: "timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" },
  { name: "timestamp_end", type: "TimestampNanosecond", semantic: "FIELD" },
  { name: "duration_nano", type: "UInt64", semantic: "FIELD" },
  { name: "parent_span_id", type: "String", semantic: "FIELD", index: SKIPPING },
  { name: "trace_id", type: "String", semantic: "FIELD", index: SKIPPING },
  { name: "span_id", type: "String", semantic: "FIELD" },
  { name: "span_kind", type: "String", semantic: "FIELD" },
  { name: "span_name", type: "String", semantic: "FIELD" },
  { name: "span_status_code", type: "String", semantic: "FIELD" },
  { name: "span_status_message", type: "String", semantic: "FIELD" },
  { name: "trace_state", type: "String", semantic: "FIELD" },
  { name: "scope_name", type: "String", semantic: "FIELD" },
  { name: "scope_version", type: "String", semantic: "FIELD" },
  { name: "service_name", type: "String", semantic: "TAG", index: SKIPPING },
];

/** Translates a decoded traces request into batches (pure; no storage). */
export function otlpTracesToBatches(req: ExportTraceRequest, opts: OtlpTraceOptions): OtlpTraceBatches {
  if (opts.model === "greptime_trace_v0") return otlpTracesV0ToBatch(req, opts.table);
  let n = 0;
  for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  const b = new V1Builder(opts, n);
  let schemaUrl = "";
  for (const rs of req.resourceSpans) {
    if (schemaUrl === "") schemaUrl = rs.schemaUrl;
    const service = serviceName(rs.resource.attributes);
    const resAttrs = rs.resource.attributes.filter((kv) => kv.key !== "service.name");
    for (const ss of rs.scopeSpans) {
      b.addScope(ss.spans, ss.scope.name, ss.scope.version, service, ss.scope.attributes, resAttrs);
    }
  }
  return b.finish(schemaUrl);
}

/** A dynamic column: attribute columns (typed at the end) and the events/links JSON columns. */
interface DynColumn {
  name: string;
  seen: DataType[];
  /** Row r's attribute value, or its JSON text (events, links); a hole where the row has none. */
  cells: (AnyValue | string | undefined)[];
}

/**
 * Builds the v1 rows by column (a `ColumnarBatch`: no array per span, and the writer reads the
 * columns as they are): fixed cells as spans come, attribute cells once every column's type is
 * known. A scope's scope and resource attributes are looked up once and filled over its spans.
 */
class V1Builder {
  private fixed: Value[][];
  private dyn: DynColumn[] = [];
  /** Dynamic column by name; span attributes also by key (no `prefix + key` string a span). */
  private dynIndex = new Map<string, number>();
  private spanSlots = new Map<string, number>();
  private aux = new TraceAux();
  private r = 0;

  constructor(private opts: OtlpTraceOptions, private n: number) {
    this.fixed = V1_FIXED.map(() => new Array(n));
  }

  private slot(name: string, type: DataType): number {
    let i = this.dynIndex.get(name);
    if (i === undefined) {
      i = this.dyn.length;
      this.dyn.push({ name, seen: [], cells: new Array(this.n) });
      this.dynIndex.set(name, i);
    }
    const seen = this.dyn[i].seen;
    if (seen.length === 0 || !seen.includes(type)) seen.push(type);
    return i;
  }

  private spanAttrs(r: number, kvs: KeyValue[]): void {
    for (let k = 0; k < kvs.length; k++) {
      const kv = kvs[k];
      const t = attributeType(kv.value);
      if (t === null) continue;
      let i = this.spanSlots.get(kv.key);
      if (i === undefined) this.spanSlots.set(kv.key, i = this.slot("span_attributes." + kv.key, t));
      else {
        const seen = this.dyn[i].seen;
        if (seen[0] !== t && !seen.includes(t)) seen.push(t);
      }
      this.dyn[i].cells[r] = kv.value;
    }
  }

  /** The columns and values a scope's spans share (created in the order a span meets them). */
  private shared(prefix: string, kvs: KeyValue[], into: [number, AnyValue][]): void {
    for (const kv of kvs) {
      const t = attributeType(kv.value);
      if (t !== null) into.push([this.slot(prefix + kv.key, t), kv.value]);
    }
  }

  /** Adds a scope's spans (rows in order), with what they share: scope, service, attributes. */
  addScope(
    spans: Span[],
    scopeName: string,
    scopeVersion: string,
    service: string | null,
    scopeAttrs: KeyValue[],
    resAttrs: KeyValue[],
  ): void {
    if (spans.length === 0) return;
    const from = this.r;
    const f = this.fixed;
    let events = -1, links = -1;
    const shared: [number, AnyValue][] = [];
    for (const s of spans) {
      const r = this.r++;
      const kind = spanKindName(s.kind);
      f[0][r] = s.startTimeUnixNano;
      f[1][r] = s.endTimeUnixNano;
      f[2][r] = durationNanos(s);
      f[3][r] = s.parentSpanId === "" ? null : s.parentSpanId;
      f[4][r] = s.traceId;
      f[5][r] = s.spanId;
      f[6][r] = kind;
      f[7][r] = s.name;
      f[8][r] = statusCodeName(s.status.code);
      f[9][r] = s.status.message;
      f[10][r] = s.traceState;
      this.spanAttrs(r, s.attributes);
      if (events < 0) {
        // after the first span's own attributes, as a span at a time made them
        this.shared("scope_attributes.", scopeAttrs, shared);
        this.shared("resource_attributes.", resAttrs, shared);
        events = this.slot("span_events", "Json");
        links = this.slot("span_links", "Json");
      }
      this.dyn[events].cells[r] = eventsJson(s);
      this.dyn[links].cells[r] = linksJson(s);
      this.aux.add(service, s.name, kind);
    }
    f[11].fill(scopeName, from, this.r);
    f[12].fill(scopeVersion, from, this.r);
    f[13].fill(service, from, this.r);
    // in attribute order: of a key given twice, the last value wins
    for (const [i, v] of shared) this.dyn[i].cells.fill(v, from, this.r);
  }

  /** Types the attribute columns and converts their cells; drops the spans a cell rejects. */
  finish(schemaUrl: string): OtlpTraceBatches {
    const n = this.n;
    const types = this.dyn.map((d) => reconcileTypes(d.seen, this.opts.existingType?.(d.name)));
    const columns: ColumnSchema[] = [
      ...V1_FIXED,
      ...this.dyn.map((d, i): ColumnSchema => ({ name: d.name, type: types[i], semantic: "FIELD" })),
    ];
    // firstBad[r]: 1 + the first column whose cell cannot take its type (0: the span is kept)
    const firstBad = new Int32Array(n);
    let rejected = 0;
    const dynCols = this.dyn.map((d, j): Value[] => {
      const cells = d.cells, type = types[j], out: Value[] = new Array(n);
      for (let r = 0; r < n; r++) {
        const c = cells[r];
        if (c === undefined) out[r] = null;
        else if (typeof c === "string") out[r] = c;
        else {
          const v = coerceAttribute(c, type);
          if (v !== undefined) out[r] = v;
          else {
            out[r] = null;
            if (firstBad[r] === 0) [firstBad[r], rejected] = [j + 1, rejected + 1];
          }
        }
      }
      return out;
    });
    let cols: Value[][] = [...this.fixed, ...dynCols];
    const reasons = new Set<string>();
    if (rejected > 0) {
      for (let r = 0; r < n; r++) {
        const j = firstBad[r] - 1;
        if (j < 0) continue;
        const c = this.dyn[j].cells[r] as AnyValue;
        reasons.add(`column ${this.dyn[j].name} is ${types[j]}, got a ${c.type} value`);
      }
      cols = cols.map((col) => col.filter((_, r) => firstBad[r] === 0));
      // the services and operations of the kept spans only: a rejected span lists nothing
      this.aux = new TraceAux();
      const f = this.fixed;
      for (let r = 0; r < n; r++) {
        if (firstBad[r] === 0) this.aux.add(f[13][r] as string | null, f[7][r] as string, f[6][r] as string);
      }
    }
    const kept = n - rejected;
    return {
      batches: [this.mainBatch(columns, cols, kept, schemaUrl), ...this.aux.batches(this.opts.table)],
      spans: kept,
      rejectedSpans: rejected,
      rejectedMessage: rejected === 0
        ? ""
        : `Accepted ${kept} spans, rejected ${rejected} spans: ${[...reasons].join("; ")}`,
    };
  }

  private mainBatch(columns: ColumnSchema[], cols: Value[][], n: number, schemaUrl: string): WriteBatch {
    const options: TableOptions = {
      append_mode: "true",
      table_data_model: "greptime_trace_v1",
      "greptime.semantic.signal_type": "trace",
      "greptime.semantic.source": "opentelemetry",
      "greptime.semantic.pipeline": "greptime_trace_v1",
      "greptime.semantic.entity.service.id": "service_name",
    };
    if (schemaUrl !== "") options["greptime.semantic.trace.conventions"] = schemaUrl;
    const batch = new ColumnarBatch(this.opts.table, columns, cols, n);
    batch.options = options;
    batch.createType = "trace";
    return batch;
  }
}
