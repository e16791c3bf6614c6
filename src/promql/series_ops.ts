/** Operations on step series shared by functions and operators. */
import { executionError } from "./errors.ts";
import { labelsKey } from "./labels.ts";
import type { StepSeries } from "./values.ts";

/**
 * Series with equal label sets become one (Prometheus' rangeEval keys output series by labels);
 * two of them with a value at the same step fail as Prometheus fails.
 */
export function mergeSeries(series: StepSeries[]): StepSeries[] {
  if (series.length < 2) return series;
  const byKey = new Map<string, number>();
  const out: StepSeries[] = [];
  let merged = false;
  for (const s of series) {
    const key = labelsKey(s.labels);
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, out.length);
      out.push(s);
      continue;
    }
    const into = merged ? out[at] : out[at];
    const target: StepSeries = {
      labels: into.labels,
      values: into.values.slice(),
      present: into.present.slice(),
    };
    for (let i = 0; i < s.present.length; i++) {
      if (!s.present[i]) continue;
      if (target.present[i]) throw executionError("vector cannot contain metrics with the same labelset");
      target.present[i] = 1;
      target.values[i] = s.values[i];
    }
    out[at] = target;
    merged = true;
  }
  return out;
}

/** Whether any two series share a label set (Prometheus' `Matrix.ContainsSameLabelset`). */
export function containsSameLabelset(series: StepSeries[]): boolean {
  if (series.length < 2) return false;
  const seen = new Set<string>();
  for (const s of series) {
    const key = labelsKey(s.labels);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}
