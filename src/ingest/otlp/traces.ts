/**
 * OTLP spans → rows of GreptimeDB's trace tables (reference §7.4). `greptime_trace_v1` (the default
 * model): one row per span with fixed columns, one column per span, scope and resource attribute
 * (typed from the value; see trace_columns.ts), events and links as JSON; plus the `<t>_services`
 * and `<t>_operations` tables the Jaeger API reads. `greptime_trace_v0` is in traces_v0.ts.
 */
import { invalidArguments } from "../../common/errors.ts";
import type {
  ColumnIndex,
  ColumnSchema,
  DataType,
  TableOptions,
  Value,
  WriteBatch,
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
  const b = new V1Builder(opts);
  let schemaUrl = "";
  for (const rs of req.resourceSpans) {
    if (schemaUrl === "") schemaUrl = rs.schemaUrl;
    const service = serviceName(rs.resource.attributes);
    const resAttrs = rs.resource.attributes.filter((kv) => kv.key !== "service.name");
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans) {
        b.add(s, ss.scope.name, ss.scope.version, service, ss.scope.attributes, resAttrs);
      }
    }
  }
  return b.finish(schemaUrl);
}

/** A dynamic column: attribute columns (typed at the end) and the events/links JSON columns. */
interface DynColumn {
  name: string;
  seen: DataType[];
}

/** Builds the v1 rows: fixed cells now, attribute cells once every column's type is known. */
class V1Builder {
  private fixed: Value[][] = [];
  private dynCells: (AnyValue | string | undefined)[][] = [];
  private dyn: DynColumn[] = [];
  private dynIndex = new Map<string, number>();
  private aux = new TraceAux();

  constructor(private opts: OtlpTraceOptions) {}

  private slot(name: string, type: DataType): number {
    let i = this.dynIndex.get(name);
    if (i === undefined) {
      i = this.dyn.length;
      this.dyn.push({ name, seen: [] });
      this.dynIndex.set(name, i);
    }
    const seen = this.dyn[i].seen;
    if (seen.length === 0 || !seen.includes(type)) seen.push(type);
    return i;
  }

  private attrs(cells: (AnyValue | string | undefined)[], prefix: string, kvs: KeyValue[]): void {
    for (const kv of kvs) {
      const t = attributeType(kv.value);
      if (t !== null) cells[this.slot(prefix + kv.key, t)] = kv.value;
    }
  }

  add(
    s: Span,
    scopeName: string,
    scopeVersion: string,
    service: string | null,
    scopeAttrs: KeyValue[],
    resAttrs: KeyValue[],
  ) {
    const kind = spanKindName(s.kind);
    this.fixed.push([
      s.startTimeUnixNano,
      s.endTimeUnixNano,
      durationNanos(s),
      s.parentSpanId === "" ? null : s.parentSpanId,
      s.traceId,
      s.spanId,
      kind,
      s.name,
      statusCodeName(s.status.code),
      s.status.message,
      s.traceState,
      scopeName,
      scopeVersion,
      service,
    ]);
    const cells: (AnyValue | string | undefined)[] = [];
    this.attrs(cells, "span_attributes.", s.attributes);
    this.attrs(cells, "scope_attributes.", scopeAttrs);
    this.attrs(cells, "resource_attributes.", resAttrs);
    cells[this.slot("span_events", "Json")] = eventsJson(s);
    cells[this.slot("span_links", "Json")] = linksJson(s);
    this.dynCells.push(cells);
    this.aux.add(service, s.name, kind);
  }

  finish(schemaUrl: string): OtlpTraceBatches {
    const types = this.dyn.map((d) => reconcileTypes(d.seen, this.opts.existingType?.(d.name)));
    const columns: ColumnSchema[] = [
      ...V1_FIXED,
      ...this.dyn.map((d, i): ColumnSchema => ({ name: d.name, type: types[i], semantic: "FIELD" })),
    ];
    const rows: Value[][] = [];
    const reasons = new Set<string>();
    for (let r = 0; r < this.fixed.length; r++) {
      const row = this.fixed[r];
      const cells = this.dynCells[r];
      let ok = true;
      for (let j = 0; j < this.dyn.length; j++) {
        const c = cells[j];
        if (c === undefined) row.push(null);
        else if (typeof c === "string") row.push(c);
        else {
          const v = coerceAttribute(c, types[j]);
          if (v === undefined) {
            reasons.add(`column ${this.dyn[j].name} is ${types[j]}, got a ${c.type} value`);
            ok = false;
            break;
          }
          row.push(v);
        }
      }
      if (ok) rows.push(row);
    }
    const rejected = this.fixed.length - rows.length;
    return {
      batches: [this.mainBatch(columns, rows, schemaUrl), ...this.aux.batches(this.opts.table)],
      spans: rows.length,
      rejectedSpans: rejected,
      rejectedMessage: rejected === 0
        ? ""
        : `Accepted ${rows.length} spans, rejected ${rejected} spans: ${[...reasons].join("; ")}`,
    };
  }

  private mainBatch(columns: ColumnSchema[], rows: Value[][], schemaUrl: string): WriteBatch {
    const options: TableOptions = {
      append_mode: "true",
      table_data_model: "greptime_trace_v1",
      "greptime.semantic.signal_type": "trace",
      "greptime.semantic.source": "opentelemetry",
      "greptime.semantic.pipeline": "greptime_trace_v1",
      "greptime.semantic.entity.service.id": "service_name",
    };
    if (schemaUrl !== "") options["greptime.semantic.trace.conventions"] = schemaUrl;
    return { table: this.opts.table, columns, rows, options, createType: "trace" };
  }
}
