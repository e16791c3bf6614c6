/**
 * The `<table>_services` and `<table>_operations` tables the Jaeger API lists services and
 * operations from (reference §7.4): one row per service, and per (service, span name, span kind),
 * at a fixed time so that writing the same key again keeps one row. Both trace models write them.
 * They are created without the request's hints (no `ttl`), as GreptimeDB creates them.
 */
import type { ColumnSchema, TableOptions, WriteBatch } from "../../common/rows.ts";

/** The fixed time of every aux-table row (2100-01-01), so each key is one row. */
export const AUX_TIMESTAMP = 4102444800000000000n;

/** Collects the services and operations of a request's spans. */
export class TraceAux {
  private services = new Set<string>();
  /** Seen operations: service → span name → span kinds (no key string made a span). */
  private seen = new Map<string, Map<string, Set<string>>>();
  private operations: [string, string, string][] = [];

  /** Records a span (spans without a service name are not listed). */
  add(service: string | null, spanName: string, spanKind: string): void {
    if (service === null) return;
    let names = this.seen.get(service);
    if (names === undefined) {
      this.services.add(service);
      this.seen.set(service, names = new Map());
    }
    let kinds = names.get(spanName);
    if (kinds === undefined) names.set(spanName, kinds = new Set());
    if (kinds.has(spanKind)) return;
    kinds.add(spanKind);
    this.operations.push([service, spanName, spanKind]);
  }

  /** The two aux tables' batches for the span table `table`. */
  batches(table: string): WriteBatch[] {
    const options: TableOptions = { append_mode: "false" };
    const ts = { name: "timestamp", type: "TimestampNanosecond", semantic: "TIMESTAMP" } as const;
    const tag = (name: string): ColumnSchema => ({ name, type: "String", semantic: "TAG" });
    return [
      {
        table: `${table}_services`,
        columns: [ts, tag("service_name")],
        rows: [...this.services].map((s) => [AUX_TIMESTAMP, s]),
        options,
        createType: "physical",
        createWithHints: false,
      },
      {
        table: `${table}_operations`,
        columns: [ts, tag("service_name"), tag("span_name"), tag("span_kind")],
        rows: this.operations.map(([s, n, k]) => [AUX_TIMESTAMP, s, n, k]),
        options,
        createType: "physical",
        createWithHints: false,
      },
    ];
  }
}
