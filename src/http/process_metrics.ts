/**
 * The process metrics of prom-client's `collectDefaultMetrics` that Petrel's dashboard and users read
 * (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_start_time_seconds`,
 * `nodejs_heap_size_*`, `nodejs_eventloop_lag_*`), computed at scrape time. The full default set
 * costs ~2.6 MB of idle memory (perf_hooks histograms and observers) on a host where every MB counts.
 */
import process from "node:process";
import type client from "prom-client";
import { scrapedMetric } from "./scraped_metric.ts";

const LAG_PROBE_MS = 500;
const LAG_WINDOW = 120;

/**
 * Registers the process metrics on a registry and returns the function that stops the lag probe
 * (whose timer never keeps the process alive, but would outlive a stopped in-process server).
 */
export function registerProcessMetrics(registry: client.Registry): () => void {
  const startSeconds = Math.round(Date.now() / 1000 - performance.now() / 1000);
  const one = (type: "counter" | "gauge", name: string, help: string, value: () => number) =>
    scrapedMetric(registry, type, name, help, [], () => [[{}, value()]]);
  const cpu = () => process.cpuUsage();
  one(
    "counter",
    "process_cpu_user_seconds_total",
    "Total user CPU time spent in seconds.",
    () => cpu().user / 1e6,
  );
  one(
    "counter",
    "process_cpu_system_seconds_total",
    "Total system CPU time spent in seconds.",
    () => cpu().system / 1e6,
  );
  one("counter", "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", () => {
    const u = cpu();
    return (u.user + u.system) / 1e6;
  });
  one(
    "gauge",
    "process_start_time_seconds",
    "Start time of the process since unix epoch in seconds.",
    () => startSeconds,
  );
  one(
    "gauge",
    "process_resident_memory_bytes",
    "Resident memory size in bytes.",
    () => Deno.memoryUsage().rss,
  );
  one(
    "gauge",
    "nodejs_heap_size_total_bytes",
    "Process heap size from Node.js in bytes.",
    () => Deno.memoryUsage().heapTotal,
  );
  one(
    "gauge",
    "nodejs_heap_size_used_bytes",
    "Process heap size used from Node.js in bytes.",
    () => Deno.memoryUsage().heapUsed,
  );
  one(
    "gauge",
    "nodejs_external_memory_bytes",
    "Node.js external memory size in bytes.",
    () => Deno.memoryUsage().external,
  );
  const { lags, stop } = eventLoopLagProbe();
  one("gauge", "nodejs_eventloop_lag_seconds", "Lag of event loop in seconds.", () => lags.at(-1) ?? 0);
  one(
    "gauge",
    "nodejs_eventloop_lag_p99_seconds",
    "The 99th percentile of the recorded event loop delays.",
    () => {
      if (lags.length === 0) return 0;
      const sorted = [...lags].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
    },
  );
  return stop;
}

// How late a timer fires, in seconds, over the last minute: the event loop's delay.
function eventLoopLagProbe(): { lags: number[]; stop: () => void } {
  const lags: number[] = [];
  let expected = performance.now() + LAG_PROBE_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected) / 1000);
    if (lags.length > LAG_WINDOW) lags.shift();
    expected = now + LAG_PROBE_MS;
  }, LAG_PROBE_MS);
  Deno.unrefTimer(timer);
  return { lags, stop: () => clearInterval(timer) };
}
