/**
 * The `greptime.semantic.*` options of tables a Prometheus remote write creates (reference §7.2):
 * `metric.metadata_quality='inferred'`, except for 2.0 series that carry their own metadata, whose
 * tables are `declared` with `metric.type` and `metric.unit` (in UCUM: `seconds` → `s`).
 */
import type { TableOptions } from "../common/rows.ts";
import type { RemoteMetadata } from "../protocols/remote_write/parser.ts";
import { ucumUnit } from "./otlp/metric_names.ts";

/** The options of a 2.0 request's metrics that declared a type or unit, by metric name. */
export function declaredMetricOptions(
  version: 1 | 2,
  metadata: readonly RemoteMetadata[],
): Map<string, TableOptions> {
  const out = new Map<string, TableOptions>();
  if (version !== 2) return out;
  for (const md of metadata) {
    if (md.type === "unknown" && md.unit === "") continue;
    const options: TableOptions = {
      "greptime.semantic.signal_type": "metric",
      "greptime.semantic.source": "prometheus",
      "greptime.semantic.source_version": "2.0",
      "greptime.semantic.metric.metadata_quality": "declared",
      "greptime.semantic.metric.type": md.type,
    };
    if (md.unit !== "") options["greptime.semantic.metric.unit"] = ucumUnit(md.unit);
    out.set(md.metric, options);
  }
  return out;
}
