/** `and`, `or`, `unless` over step columns: membership is decided per step and per signature. */
import type { VectorMatching } from "./ast.ts";
import { matchSignature } from "./labels.ts";
import { mergeSeries } from "./series_ops.ts";
import type { StepSeries, StepValue } from "./values.ts";

/** Per signature, the steps at which any of the series has a value. */
function presenceBySig(series: StepSeries[], m: VectorMatching, n: number): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const s of series) {
    const sig = matchSignature(s.labels, m.matchingLabels, m.on);
    let p = out.get(sig);
    if (p === undefined) out.set(sig, p = new Uint8Array(n));
    for (let i = 0; i < n; i++) p[i] |= s.present[i];
  }
  return out;
}

function masked(s: StepSeries, mask: Uint8Array | undefined, keepWhere: 0 | 1): StepSeries | null {
  const n = s.present.length;
  const present = new Uint8Array(n);
  let any = false;
  for (let i = 0; i < n; i++) {
    const m = mask === undefined ? 0 : mask[i];
    if (s.present[i] && m === keepWhere) {
      present[i] = 1;
      any = true;
    }
  }
  return any ? { labels: s.labels, values: s.values, present } : null;
}

/** Evaluates a set operator. */
export function evalSetOp(
  op: "and" | "or" | "unless",
  lhs: StepSeries[],
  rhs: StepSeries[],
  m: VectorMatching,
  n: number,
): StepValue {
  const out: StepSeries[] = [];
  if (op === "or") {
    out.push(...lhs);
    const left = presenceBySig(lhs, m, n);
    for (const s of rhs) {
      const r = masked(s, left.get(matchSignature(s.labels, m.matchingLabels, m.on)), 0);
      if (r !== null) out.push(r);
    }
    return { kind: "vector", series: mergeSeries(out) };
  }
  const right = presenceBySig(rhs, m, n);
  for (const s of lhs) {
    const r = masked(s, right.get(matchSignature(s.labels, m.matchingLabels, m.on)), op === "and" ? 1 : 0);
    if (r !== null) out.push(r);
  }
  return { kind: "vector", series: out };
}
