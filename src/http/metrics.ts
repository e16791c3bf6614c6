/**
 * Petrel's own Prometheus metrics for `GET /metrics`. HTTP metric names are GreptimeDB's, so
 * dashboards built for GreptimeDB keep working.
 */
import client from "prom-client";
import { registerProcessMetrics } from "./process_metrics.ts";

/** The registry and the instruments the server updates. */
export class ServerMetrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<"method" | "path" | "code">;
  readonly httpElapsed: client.Histogram<"method" | "path" | "code">;
  readonly ingestRows: client.Counter<"protocol">;

  constructor() {
    registerProcessMetrics(this.registry);
    this.httpRequests = new client.Counter({
      name: "greptime_servers_http_requests_total",
      help: "Total HTTP requests by method, route pattern and status code",
      labelNames: ["method", "path", "code"],
      registers: [this.registry],
    });
    this.httpElapsed = new client.Histogram({
      name: "greptime_servers_http_requests_elapsed",
      help: "HTTP request latency in seconds by method, route pattern and status code",
      labelNames: ["method", "path", "code"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.ingestRows = new client.Counter({
      name: "petrel_ingest_rows_total",
      help: "Rows ingested, by protocol",
      labelNames: ["protocol"],
      registers: [this.registry],
    });
  }

  /** Reports the storage's background work at each scrape. */
  watchStorage(compactedWindows: () => number): void {
    new client.Counter({
      name: "petrel_metric_compaction_windows_total",
      help: "Hour windows of metric tables compacted into per-series chunks",
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(compactedWindows());
      },
    });
  }

  /** Records one finished request. */
  observe(method: string, path: string, status: number, seconds: number): void {
    const labels = { method, path, code: String(status) };
    this.httpRequests.inc(labels);
    this.httpElapsed.observe(labels, seconds);
  }

  /** Counts rows a protocol wrote. */
  addIngestedRows(protocol: string, rows: number): void {
    if (rows > 0) this.ingestRows.inc({ protocol }, rows);
  }

  /** The text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
