/**
 * A `/metrics` series whose values are read from their source at each scrape (storage figures,
 * forwarding, downsampling, the process), rather than counted as events happen.
 */
import * as client from "./prom_client.ts";

/** One sample of a scraped series: its labels and value. */
export type ScrapedSample = [labels: Record<string, string>, value: number];

/**
 * Registers a series that `read` fills at every scrape: a counter (values are running totals kept by
 * the source) or a gauge.
 */
export function scrapedMetric(
  registry: client.Registry,
  type: "counter" | "gauge",
  name: string,
  help: string,
  labelNames: string[],
  read: () => Iterable<ScrapedSample>,
): void {
  const registers = [registry];
  if (type === "gauge") {
    new client.Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.set(labels, value);
      },
    });
    return;
  }
  new client.Counter({
    name,
    help,
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}
