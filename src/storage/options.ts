/**
 * Table options: validation of `WITH (...)` values and hints, the ttl duration grammar, and
 * GreptimeDB's normalized display (`7d` → `7days`).
 */
import type { CreateType, TableOptions } from "../common/rows.ts";
import { invalidArguments } from "../common/errors.ts";
import { parseDuration, parseSize } from "../common/humantime.ts";

/** Options that `WITH (...)` and write hints may set. */
const VALID_OPTION_KEYS = new Set([
  "ttl",
  "append_mode",
  "merge_mode",
  "skip_wal",
  "comment",
  "write_buffer_size",
  "storage",
  "sst_format",
  "physical_metric_table",
  "on_physical_table",
  "table_data_model",
  "otlp_metric_compat",
  "compaction.type",
  "compaction.twcs.time_window",
  "compaction.twcs.trigger_file_num",
  "compaction.twcs.max_output_file_size",
  "compaction.twcs.remote_compaction",
  "compaction.twcs.fallback_to_local",
  "index.type",
  "index.inverted_index.ignore_column_ids",
  "index.inverted_index.segment_row_count",
  "memtable.type",
  // mito's partition-tree memtable tuning: kept as options, nothing in SQLite reads them
  "memtable.partition_tree.index_max_keys_per_shard",
  "memtable.partition_tree.data_freeze_threshold",
  "memtable.partition_tree.fork_dictionary_bytes",
  "physical_table",
  "max_disk_size",
]);

/** Parses a humantime duration (`7d`, `1h 30m`, `90s`, `5 minutes`) into milliseconds; undefined if malformed. */
export function parseDurationMs(text: string): number | undefined {
  return parseDuration(text) ?? undefined;
}

/** A parsed ttl: null keeps data forever, 0 keeps nothing (`instant`). */
export function parseTtl(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (s === "forever" || s === "") return null;
  if (s === "instant") return 0;
  const ms = parseDurationMs(text);
  if (ms === undefined) throw invalidArguments(`Invalid ttl value: '${text}'`);
  return ms === 0 ? null : ms;
}

const DISPLAY_UNITS: Array<[string, number]> = [
  ["year", 31_557_600_000],
  ["month", 2_630_016_000],
  ["day", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
  ["ms", 1],
];

/** GreptimeDB's humantime rendering of a ttl (`7days`, `1day`, `1h`, `forever`, `instant`). */
export function formatTtl(text: string): string {
  const ms = parseTtl(text);
  if (ms === null) return "forever";
  if (ms === 0) return "instant";
  let rest = Math.round(ms);
  const parts: string[] = [];
  for (const [name, size] of DISPLAY_UNITS) {
    const n = Math.floor(rest / size);
    if (n === 0) continue;
    rest -= n * size;
    const plural = name.length > 2 && n !== 1 ? "s" : "";
    parts.push(`${n}${name}${plural}`);
  }
  return parts.join(" ");
}

function parseBoolOption(key: string, value: string): string {
  const v = value.trim().toLowerCase();
  if (v !== "true" && v !== "false") {
    throw invalidArguments(`Invalid value for table option ${key}: '${value}'`);
  }
  return v;
}

/** Validates and normalizes table options (keys lowercased, booleans and ttl checked). */
export function normalizeOptions(options: TableOptions, strictKeys = true): TableOptions {
  const out: TableOptions = {};
  for (const [rawKey, rawValue] of Object.entries(options)) {
    const key = rawKey.toLowerCase();
    const value = String(rawValue);
    if (strictKeys && !VALID_OPTION_KEYS.has(key) && !key.startsWith("greptime.semantic.")) {
      throw invalidArguments(`Invalid table option key: ${rawKey}`);
    }
    switch (key) {
      case "append_mode":
      case "skip_wal":
        out[key] = parseBoolOption(key, value);
        break;
      case "merge_mode": {
        const v = value.trim().toLowerCase();
        if (v !== "last_row" && v !== "last_non_null") {
          throw invalidArguments(`Invalid value for table option merge_mode: '${value}'`);
        }
        out[key] = v;
        break;
      }
      case "ttl":
        parseTtl(value);
        out[key] = value.trim();
        break;
      case "max_disk_size":
        if (parseSize(value) === null) {
          throw invalidArguments(
            `Invalid value for table option max_disk_size: '${value}' (expected a size like '1GiB' or '500MB')`,
          );
        }
        out[key] = value.trim();
        break;
      default:
        out[key] = value;
    }
  }
  if (out.max_disk_size !== undefined && out.on_physical_table !== undefined) {
    // A logical table's samples share its physical table's b-trees: the bound goes there.
    throw invalidArguments("max_disk_size applies to a metric engine's physical table, not a logical table");
  }
  if (out.append_mode === "true" && out.merge_mode) {
    throw invalidArguments("merge_mode is not allowed when append_mode is enabled");
  }
  return out;
}

/** Hints that steer a write but are never table options. */
const WRITE_ONLY_HINTS = new Set(["auto_create_table", "read_preference", "trace_table_partitions"]);
/** Hints only the physical (mito) create type copies. */
const PHYSICAL_ONLY = new Set(["append_mode", "merge_mode", "compaction.twcs.time_window"]);

/**
 * The options a table gets when a write creates it (GreptimeDB's `fill_table_options_for_create`):
 * hints and batch options, filtered by create type, plus the type's forced defaults.
 */
export function optionsForCreate(
  createType: CreateType,
  ...sources: Array<TableOptions | undefined>
): TableOptions {
  const merged: TableOptions = {};
  for (const src of sources) {
    if (!src) continue;
    for (const [k, v] of Object.entries(src)) {
      const key = k.toLowerCase();
      if (WRITE_ONLY_HINTS.has(key)) continue;
      if (!VALID_OPTION_KEYS.has(key) && !key.startsWith("greptime.semantic.")) continue;
      if (PHYSICAL_ONLY.has(key) && createType !== "physical" && createType !== "last_non_null") continue;
      merged[key] = String(v);
    }
  }
  // GreptimeDB sets the compaction type with the window, which only TWCS reads.
  if (merged["compaction.twcs.time_window"] !== undefined) merged["compaction.type"] = "twcs";
  if (createType === "log" || createType === "trace") {
    merged.append_mode = "true";
    delete merged.merge_mode;
  } else if (createType === "last_non_null") {
    if (merged.append_mode !== "true") merged.merge_mode = "last_non_null";
  }
  return normalizeOptions(merged, false);
}

/** Options a database accepts (`CREATE DATABASE … WITH (…)`): ttl, plus pass-through memtable and compaction settings. */
export function normalizeDatabaseOptions(options: TableOptions): TableOptions {
  const out = normalizeOptions(options);
  for (const k of ["append_mode", "merge_mode", "skip_wal", "physical_table"]) {
    if (k in out) throw invalidArguments(`Invalid database option key: ${k}`);
  }
  return out;
}
