/** Server status: build facts, health, `/metrics` highlights (ingest and request rates, memory) and storage. */
import { request, sqlObjects } from "./api.ts";
import { h, replace } from "./dom.ts";
import { grid } from "./grid.ts";
import { type MetricSample, parseMetrics, rates, sumBy, valueOf } from "./metrics_text.ts";
import { card, errorBox, facts, formatBytes } from "./ui.ts";

const REFRESH_MS = 5000;

interface Reading {
  at: number;
  samples: MetricSample[];
}

function fmtRate(n: number | undefined): string {
  if (n === undefined) return "…";
  return n >= 100 ? `${Math.round(n)}/s` : `${n.toFixed(2)}/s`;
}

function fmtUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const hh = Math.floor((seconds % 86400) / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d}d ${hh}h ${mm}m` : hh > 0 ? `${hh}h ${mm}m` : `${mm}m ${Math.floor(seconds % 60)}s`;
}

/** Builds the status view; it refreshes itself while shown. */
export function statusView(): { el: HTMLElement; show: () => void; hide: () => void } {
  const out = h("div", { id: "status-results", class: "view" });
  let prev: Reading | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let visible = false;

  const refresh = async () => {
    clearTimeout(timer);
    try {
      const [status, health, metricsText, storage] = await Promise.all([
        request("/status").then((r) => r.json()),
        request("/health").then((r) => r.ok),
        request("/metrics").then((r) => r.text()),
        sqlObjects(
          "SELECT table_schema, count(*) AS tables, sum(data_length) AS data, sum(index_length) AS idx " +
            "FROM information_schema.tables GROUP BY table_schema ORDER BY table_schema",
        ).catch(() => []),
      ]);
      const now: Reading = { at: Date.now(), samples: parseMetrics(metricsText) };
      replace(out, ...render(status, health, now, prev, storage));
      prev = now;
    } catch (e) {
      replace(out, errorBox(e));
    }
    if (visible) timer = setTimeout(refresh, REFRESH_MS);
  };

  const el = h("div", { class: "view status-view" }, out);
  return {
    el,
    show: () => {
      visible = true;
      refresh();
    },
    hide: () => {
      visible = false;
      clearTimeout(timer);
    },
  };
}

function render(
  status: Record<string, string>,
  healthy: boolean,
  now: Reading,
  prev: Reading | null,
  storage: Record<string, unknown>[],
): HTMLElement[] {
  const s = now.samples;
  const secs = prev ? (now.at - prev.at) / 1000 : 0;
  const started = valueOf(s, "process_start_time_seconds");
  const health = h(
    "span",
    { class: healthy ? "ok" : "bad", id: "status-health" },
    healthy ? "healthy" : "unhealthy",
  );
  return [
    h(
      "div",
      { class: "cards" },
      card(
        "Server",
        facts([
          ["Health", health],
          ["Version", h("span", { id: "status-version" }, status.version ?? "")],
          ["Commit", (status.commit ?? "").slice(0, 12)],
          ["Host", status.hostname ?? ""],
          ["Runtime", status.runtime ?? ""],
          ["Uptime", started ? fmtUptime(now.at / 1000 - started) : "?"],
        ]),
      ),
      ...trafficCards(s, prev, secs),
      processCard(s, prev, secs),
      storageCard(storage),
    ),
    card(
      "Petrel metrics",
      grid(
        [{ name: "metric" }, { name: "labels" }, { name: "value" }],
        s.filter((m) => m.name.startsWith("petrel_") || m.name.startsWith("greptime_"))
          .filter((m) => !m.name.endsWith("_bucket"))
          .map((m) => [m.name, Object.entries(m.labels).map(([k, v]) => `${k}="${v}"`).join(", "), m.value]),
        { maxHeight: 360 },
      ),
    ),
  ];
}

const sum = (m: Map<string, number> | null) => (m ? [...m.values()].reduce((a, b) => a + b, 0) : undefined);

/** Ingest rows and HTTP requests: totals, and rates once there are two readings. */
function trafficCards(s: MetricSample[], prev: Reading | null, secs: number): HTMLElement[] {
  const ingest = sumBy(s, "petrel_ingest_rows_total", "protocol");
  const ingestRates = prev
    ? rates(sumBy(prev.samples, "petrel_ingest_rows_total", "protocol"), ingest, secs)
    : null;
  const requests = sumBy(s, "greptime_servers_http_requests_total", "code");
  const reqRates = prev
    ? rates(sumBy(prev.samples, "greptime_servers_http_requests_total", "code"), requests, secs)
    : null;
  const errors = [...requests].filter(([code]) => code.startsWith("5")).reduce((a, [, v]) => a + v, 0);
  return [
    card(
      "Ingest",
      facts([
        ["Rows/s (all)", h("span", { id: "status-ingest-rate" }, fmtRate(sum(ingestRates)))],
        ...[...ingest].map(([p, v]): [string, string] => [
          p,
          `${v.toLocaleString()} rows${ingestRates ? ` · ${fmtRate(ingestRates.get(p))}` : ""}`,
        ]),
      ]),
    ),
    card(
      "Requests",
      facts([
        ["Requests/s", fmtRate(sum(reqRates))],
        ["Total", (sum(requests) ?? 0).toLocaleString()],
        ["5xx answers", errors.toLocaleString()],
      ]),
    ),
  ];
}

function processCard(s: MetricSample[], prev: Reading | null, secs: number): HTMLElement {
  const cpu = valueOf(s, "process_cpu_seconds_total");
  const cpuPrev = prev ? valueOf(prev.samples, "process_cpu_seconds_total") : undefined;
  const lagMs = (valueOf(s, "nodejs_eventloop_lag_p99_seconds") ?? 0) * 1000;
  return card(
    "Process",
    facts([
      [
        "CPU",
        cpu !== undefined && cpuPrev !== undefined && secs > 0
          ? `${(((cpu - cpuPrev) / secs) * 100).toFixed(1)}%`
          : "…",
      ],
      ["Resident memory", formatBytes(valueOf(s, "process_resident_memory_bytes") ?? 0)],
      ["JS heap used", formatBytes(valueOf(s, "nodejs_heap_size_used_bytes") ?? 0)],
      ["Event loop lag p99", `${lagMs.toFixed(2)} ms`],
    ]),
  );
}

function storageCard(storage: Record<string, unknown>[]): HTMLElement {
  const bytes = storage.reduce((a, r) => a + Number(r.data ?? 0) + Number(r.idx ?? 0), 0);
  return card(
    "Storage",
    facts([
      ["Tables", String(storage.reduce((a, r) => a + Number(r.tables ?? 0), 0))],
      ["Size", bytes > 0 ? formatBytes(bytes) : "n/a (0 in information_schema)"],
      ...storage.map((r): [string, string] => [String(r.table_schema), `${r.tables} tables`]),
    ]),
  );
}
