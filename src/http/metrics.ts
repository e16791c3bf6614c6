/**
 * Petrel's own Prometheus metrics for `GET /metrics`. HTTP metric names are GreptimeDB's, so
 * dashboards built for GreptimeDB keep working.
 */
import * as client from "./prom_client.ts";
import { registerProcessMetrics } from "./process_metrics.ts";
import { scrapedMetric } from "./scraped_metric.ts";

/** One forwarding destination's figures (`src/forward/`). */
export interface ForwardFigures {
  destination: string;
  lag_seconds: number;
  queue_rows: number;
  queue_bytes: number;
  blocking_ingest: boolean;
  sent_rows: number;
  sent_requests: number;
  failed_requests: number;
  dropped_rows: number;
  dead_lettered_rows: number;
}

/** The registry and the instruments the server updates. */
export class ServerMetrics {
  readonly registry = new client.Registry();
  readonly httpRequests: client.Counter<"method" | "path" | "code">;
  readonly httpElapsed: client.Histogram<"method" | "path" | "code">;
  readonly ingestRows: client.Counter<"protocol">;
  readonly ingestRowsByDb: client.Counter<"db">;
  /** Stops the process metrics' lag probe. */
  readonly close: () => void;

  constructor() {
    this.close = registerProcessMetrics(this.registry);
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
    // GreptimeDB's name (no _total), which its Grafana dashboards chart as the ingestion rate
    this.ingestRowsByDb = new client.Counter({
      name: "greptime_table_operator_ingest_rows",
      help: "table operator ingest rows",
      labelNames: ["db"],
      registers: [this.registry],
    });
  }

  /** Reports the storage's background work at each scrape. */
  watchStorage(compactedWindows: () => number): void {
    scrapedMetric(
      this.registry,
      "counter",
      "petrel_metric_compaction_windows_total",
      "Hour windows of metric tables compacted into per-series chunks",
      [],
      () => [[{}, compactedWindows()]],
    );
  }

  /** Reports each `[[forward]]` destination's figures at each scrape. */
  watchForwarding(read: () => ForwardFigures[]): void {
    const series = (
      type: "counter" | "gauge",
      name: string,
      help: string,
      pick: (f: ForwardFigures) => number,
    ) =>
      scrapedMetric(
        this.registry,
        type,
        name,
        help,
        ["destination"],
        () => read().map((f) => [{ destination: f.destination }, pick(f)]),
      );
    series(
      "gauge",
      "petrel_forward_lag_seconds",
      "Age of the oldest write not yet forwarded",
      (f) => f.lag_seconds,
    );
    series("gauge", "petrel_forward_queue_rows", "Rows stored but not yet forwarded", (f) => f.queue_rows);
    series(
      "gauge",
      "petrel_forward_queue_bytes",
      "Estimated bytes of rows not yet forwarded",
      (f) => f.queue_bytes,
    );
    series(
      "gauge",
      "petrel_forward_blocking_ingest",
      "1 while block_ingest refuses writes",
      (f) => +f.blocking_ingest,
    );
    series("counter", "petrel_forward_sent_rows_total", "Rows the upstream acknowledged", (f) => f.sent_rows);
    series("counter", "petrel_forward_requests_total", "Requests sent upstream", (f) => f.sent_requests);
    series(
      "counter",
      "petrel_forward_failed_requests_total",
      "Requests failed and retried",
      (f) => f.failed_requests,
    );
    series(
      "counter",
      "petrel_forward_dropped_rows_total",
      "Rows skipped by drop_oldest",
      (f) => f.dropped_rows,
    );
    series(
      "counter",
      "petrel_forward_dead_letter_rows_total",
      "Rows the upstream refused (4xx)",
      (f) => f.dead_lettered_rows,
    );
  }

  /** Reports the windows each downsampling target received, at each scrape. */
  watchDownsampling(windows: ReadonlyMap<string, number>, recomputed: ReadonlyMap<string, number>): void {
    scrapedMetric(
      this.registry,
      "counter",
      "petrel_downsample_windows_total",
      "Windows written by downsampling rules, by target",
      ["target"],
      () => [...windows].map(([target, n]) => [{ target }, n]),
    );
    scrapedMetric(
      this.registry,
      "counter",
      "petrel_downsample_recomputed_windows_total",
      "Windows written again by downsampling rules after late writes into their source, by target",
      ["target"],
      () => [...recomputed].map(([target, n]) => [{ target }, n]),
    );
  }

  /** Records one finished request. */
  observe(method: string, path: string, status: number, seconds: number): void {
    const labels = { method, path, code: String(status) };
    this.httpRequests.inc(labels);
    this.httpElapsed.observe(labels, seconds);
  }

  /** Counts rows a protocol wrote into database `db`. */
  addIngestedRows(protocol: string, db: string, rows: number): void {
    if (rows <= 0) return;
    this.ingestRows.inc({ protocol }, rows);
    this.ingestRowsByDb.inc({ db }, rows);
  }

  /** The text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
