/**
 * What a running server tells information_schema about itself: `build_info`, `cluster_info` (one
 * STANDALONE peer), `runtime_metrics` (its Prometheus metrics) and `procedure_info` (empty). The composition root registers
 * the facts per storage ({@link registerServer}); without a server (a bare storage) the tables
 * answer from the build facts alone.
 */
import type { DataType, Value } from "../common/rows.ts";
import type { Storage } from "../storage/mod.ts";
import { type BuildInfo, knownBuildInfo } from "../build_info.ts";
import { formatDuration } from "../common/humantime.ts";
import { emptyTable, type InfoTable, strings } from "./info_table.ts";

/** One metric family as prom-client's `getMetricsAsJSON` gives it. */
export interface MetricFamily {
  name: string;
  values: Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>;
}

/** What the server running on a storage knows about itself. */
export interface ServerFacts {
  build: BuildInfo;
  /** The HTTP address it listens on (`host:port`). */
  addr: string;
  /** When it started (ms since the epoch). */
  startedAt: number;
  /** Reads its metrics (prom-client collects asynchronously). */
  metrics(): Promise<MetricFamily[]>;
}

interface Known {
  facts: ServerFacts;
  /** The metrics read just before the query that names runtime_metrics (tables fill synchronously). */
  metrics: { at: number; families: MetricFamily[] } | null;
}

const servers = new WeakMap<Storage, Known>();

/** Records the facts of the server that runs on `storage`. */
export function registerServer(storage: Storage, facts: ServerFacts): void {
  servers.set(storage, { facts, metrics: null });
}

/** The facts of the server running on `storage`, if one registered. */
export function serverFacts(storage: Storage): ServerFacts | undefined {
  return servers.get(storage)?.facts;
}

/** Reads the server's metrics ahead of a query that names `runtime_metrics` (a no-op otherwise). */
export async function prepareServerTables(storage: Storage, tables: readonly string[]): Promise<void> {
  const known = servers.get(storage);
  if (known === undefined || !tables.includes("runtime_metrics")) return;
  known.metrics = { at: Date.now(), families: await known.facts.metrics() };
}

function build(storage: Storage): BuildInfo | undefined {
  return serverFacts(storage)?.build ?? knownBuildInfo();
}

/** The short commit id GreptimeDB shows (its first 10 characters; "unknown" stays as it is). */
function shortCommit(commit: string): string {
  return /^[0-9a-f]{11,}$/.test(commit) ? commit.slice(0, 10) : commit;
}

const buildInfo: InfoTable = {
  columns: strings("git_branch", "git_commit", "git_commit_short", "git_clean", "pkg_version"),
  rows: (storage) => {
    const b = build(storage);
    if (b === undefined) return [["unknown", "unknown", "unknown", "unknown", "unknown"]];
    return [[b.branch, b.commit, shortCommit(b.commit), b.clean, b.version]];
  },
};

const clusterInfo: InfoTable = {
  columns: [
    ["peer_id", "Int64"],
    ...strings("peer_type", "peer_addr", "version", "git_commit"),
    ["start_time", "TimestampMillisecond"],
    ...strings("uptime", "active_time"),
  ] as Array<[string, DataType]>,
  rows: (storage) => {
    const facts = serverFacts(storage);
    const b = build(storage);
    const uptime = facts === undefined ? null : Math.floor((Date.now() - facts.startedAt) / 1000) * 1000;
    // a standalone server sends no heartbeats: GreptimeDB shows no active time for it either
    return [[
      0,
      "STANDALONE",
      facts?.addr ?? "",
      b?.version ?? "unknown",
      shortCommit(b?.commit ?? "unknown"),
      facts?.startedAt ?? null,
      uptime === null ? null : formatDuration(uptime),
      null,
    ]];
  },
};

/** `k=v, k2=v2`, in label order. */
function formatLabels(labels: Record<string, string | number>): string {
  return Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(", ");
}

const runtimeMetrics: InfoTable = {
  columns: [
    ["metric_name", "String"],
    ["value", "Float64"],
    ...strings("labels", "peer_addr", "peer_type"),
    ["timestamp", "TimestampMillisecond"],
  ] as Array<[string, DataType]>,
  rows: (storage) => {
    const read = servers.get(storage)?.metrics;
    if (!read) return [];
    return read.families.flatMap((f) =>
      f.values.map((v): Value[] => [
        v.metricName ?? f.name,
        v.value,
        formatLabels(v.labels),
        null,
        "STANDALONE",
        read.at,
      ])
    );
  },
};

/** The server's own tables, by name. */
/** `procedure_info`: GreptimeDB's DDL procedures; Petrel applies DDL in one transaction, so none. */
const procedureInfo: InfoTable = emptyTable([
  ...strings("procedure_id", "procedure_type"),
  ["start_time", "TimestampMillisecond"],
  ["end_time", "TimestampMillisecond"],
  ...strings("status", "lock_keys"),
]);

export const SERVER_INFO_TABLES: Record<string, InfoTable> = {
  build_info: buildInfo,
  cluster_info: clusterInfo,
  procedure_info: procedureInfo,
  runtime_metrics: runtimeMetrics,
};
