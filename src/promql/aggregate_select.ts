/** `topk`, `bottomk`, `limitk` and `limit_ratio`: aggregations that pick input series per step. */
import type { Groups } from "./aggregate.ts";
import { executionError } from "./errors.ts";
import { formatFloatV } from "./printer.ts";
import type { StepGrid, StepSeries } from "./values.ts";
import { labelsHash } from "./xxhash.ts";

/** Orders two values for topk (descending) or bottomk (ascending), NaN last. */
function rank(desc: boolean): (a: number, b: number) => number {
  return (a, b) => (a !== a ? (b !== b ? 0 : 1) : b !== b ? -1 : desc ? b - a : a - b);
}

/**
 * The step's k from the parameter, or 0 for "nothing" (k < 1). As Prometheus' `convertibleToInt64`,
 * a NaN (as `scalar()` of no series gives) is an error, not "nothing".
 */
function kOf(p: number): number {
  if (!(p <= 9223372036854774784 && p >= -9223372036854775808)) {
    throw executionError(`Scalar value ${formatFloatV(p)} overflows int64`);
  }
  return p >= 1 ? Math.trunc(p) : 0;
}

/** Evaluates a selecting aggregation; the output series keep their input labels. */
export function aggregateSelect(
  op: "topk" | "bottomk" | "limitk" | "limit_ratio",
  series: StepSeries[],
  groups: Groups,
  param: Float64Array,
  grid: StepGrid,
): StepSeries[] {
  const n = grid.n;
  const selected: (StepSeries | null)[] = series.map(() => null);
  const order: number[] = [];
  const take = (k: number, i: number) => {
    let o = selected[k];
    if (o === null) {
      o = selected[k] = { labels: series[k].labels, values: new Float64Array(n), present: new Uint8Array(n) };
    }
    o.values[i] = series[k].values[i];
    o.present[i] = 1;
    if (n === 1) order.push(k);
  };
  const offsets = op === "limit_ratio" ? series.map((s) => labelsHash(s.labels) / 18446744073709551616) : [];
  for (let i = 0; i < n; i++) {
    if (op === "limit_ratio") {
      let ratio = param[i];
      if (ratio !== ratio) continue;
      ratio = Math.max(-1, Math.min(1, ratio));
      for (const members of groups.members) {
        for (const k of members) {
          if (!series[k].present[i]) continue;
          const off = offsets[k];
          if (ratio >= 0 ? off < ratio : off >= 1 + ratio) take(k, i);
        }
      }
      continue;
    }
    const k = kOf(param[i]);
    if (k === 0) continue;
    for (const members of groups.members) {
      const present = members.filter((m) => series[m].present[i]);
      if (op === "limitk") {
        for (const m of present.slice(0, k)) take(m, i);
        continue;
      }
      const cmp = rank(op === "topk");
      present.sort((a, b) => cmp(series[a].values[i], series[b].values[i]));
      for (const m of present.slice(0, k)) take(m, i);
    }
  }
  if (n === 1) return order.map((k) => selected[k]!);
  return selected.filter((s): s is StepSeries => s !== null);
}
