/** The table options GreptimeDB stamps on the log tables a protocol creates (reference §7.0). */
import type { TableOptions } from "../common/rows.ts";

/**
 * `greptime.semantic.*` for a log source; with `appendMode`, also `append_mode` (the direct models'
 * tables keep every line, duplicates included).
 */
export function logTableOptions(source: string, appendMode = false): TableOptions {
  return {
    ...(appendMode ? { append_mode: "true" } : {}),
    "greptime.semantic.signal_type": "log",
    "greptime.semantic.source": source,
  };
}
