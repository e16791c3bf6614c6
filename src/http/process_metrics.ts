/**
 * The process metrics of prom-client's `collectDefaultMetrics` that Petrel's dashboard and users read
 * (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_start_time_seconds`,
 * `nodejs_heap_size_*`, `nodejs_eventloop_lag_*`), computed at scrape time. The full default set
 * costs ~2.6 MB of idle memory (perf_hooks histograms and observers) on a host where every MB counts.
 */
import process from "node:process";
import client from "prom-client";

const LAG_PROBE_MS = 500;
const LAG_WINDOW = 120;

/** Registers the process metrics on a registry; the lag probe's timer never keeps the process alive. */
export function registerProcessMetrics(registry: client.Registry): void {
  const registers = [registry];
  const startSeconds = Math.round(Date.now() / 1000 - performance.now() / 1000);
  const cpu = () => process.cpuUsage();
  new client.Counter({
    name: "process_cpu_user_seconds_total",
    help: "Total user CPU time spent in seconds.",
    registers,
    collect() {
      this.reset();
      this.inc(cpu().user / 1e6);
    },
  });
  new client.Counter({
    name: "process_cpu_system_seconds_total",
    help: "Total system CPU time spent in seconds.",
    registers,
    collect() {
      this.reset();
      this.inc(cpu().system / 1e6);
    },
  });
  new client.Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds.",
    registers,
    collect() {
      const u = cpu();
      this.reset();
      this.inc((u.user + u.system) / 1e6);
    },
  });
  gauge(
    registry,
    "process_start_time_seconds",
    "Start time of the process since unix epoch in seconds.",
    () => startSeconds,
  );
  gauge(
    registry,
    "process_resident_memory_bytes",
    "Resident memory size in bytes.",
    () => Deno.memoryUsage().rss,
  );
  gauge(
    registry,
    "nodejs_heap_size_total_bytes",
    "Process heap size from Node.js in bytes.",
    () => Deno.memoryUsage().heapTotal,
  );
  gauge(
    registry,
    "nodejs_heap_size_used_bytes",
    "Process heap size used from Node.js in bytes.",
    () => Deno.memoryUsage().heapUsed,
  );
  gauge(
    registry,
    "nodejs_external_memory_bytes",
    "Node.js external memory size in bytes.",
    () => Deno.memoryUsage().external,
  );
  const lags = eventLoopLagProbe();
  gauge(registry, "nodejs_eventloop_lag_seconds", "Lag of event loop in seconds.", () => lags.at(-1) ?? 0);
  gauge(
    registry,
    "nodejs_eventloop_lag_p99_seconds",
    "The 99th percentile of the recorded event loop delays.",
    () => {
      if (lags.length === 0) return 0;
      const sorted = [...lags].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
    },
  );
}

function gauge(registry: client.Registry, name: string, help: string, value: () => number): void {
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(value());
    },
  });
}

// How late a timer fires, in seconds, over the last minute: the event loop's delay.
function eventLoopLagProbe(): number[] {
  const lags: number[] = [];
  let expected = performance.now() + LAG_PROBE_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected) / 1000);
    if (lags.length > LAG_WINDOW) lags.shift();
    expected = now + LAG_PROBE_MS;
  }, LAG_PROBE_MS);
  Deno.unrefTimer(timer);
  return lags;
}
