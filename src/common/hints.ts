/** The table options a request may set per write, shared by the HTTP hint headers, pipelines and storage. */

/** Table options a request can set through hints (`x-greptime-hint-*`, pipeline `greptime_*` variables). */
export const HINT_OPTIONS = [
  "auto_create_table",
  "ttl",
  "append_mode",
  "merge_mode",
  "physical_table",
  "skip_wal",
] as const;

const TRUTHY_WORDS = new Set(["true", "1", "yes", "on", "t"]);

/** GreptimeDB's truthy words for a request parameter or header (`true`, `1`, `yes`, `on`, `t`, any case). */
export function isTruthyWord(v: string | null | undefined): boolean {
  return v !== null && v !== undefined && TRUTHY_WORDS.has(v.trim().toLowerCase());
}
