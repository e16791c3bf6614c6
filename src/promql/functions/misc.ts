/** `vector`, `scalar`, `time`, `pi`, `absent`, `timestamp` (of computed vectors). */
import type { Expr } from "../ast.ts";
import type { Labels, StepValue } from "../values.ts";
import { mapVector } from "./math.ts";
import type { VectorImpl } from "./types.ts";

/** `vector(s)`: the scalar as a one-element vector without labels. */
export const vector: VectorImpl = (args, ctx) => {
  const s = args[0];
  const values = s.kind === "scalar" ? s.values.slice() : new Float64Array(ctx.grid.n);
  return { kind: "vector", series: [{ labels: {}, values, present: new Uint8Array(ctx.grid.n).fill(1) }] };
};

/** `scalar(v)`: the value of a one-element vector, else NaN. */
export const scalar: VectorImpl = (args, ctx) => {
  const v = args[0];
  const out = new Float64Array(ctx.grid.n);
  if (v.kind !== "vector") return { kind: "scalar", values: out.fill(NaN) };
  for (let i = 0; i < ctx.grid.n; i++) {
    let count = 0, value = NaN;
    for (const s of v.series) {
      if (s.present[i]) {
        count++;
        value = s.values[i];
      }
    }
    out[i] = count === 1 ? value : NaN;
  }
  return { kind: "scalar", values: out };
};

/** `time()`: the evaluation time in seconds. */
export const time: VectorImpl = (_args, ctx) => ({
  kind: "scalar",
  values: ctx.grid.times.map((t) => t / 1000),
});

/** `pi()`. */
export const pi: VectorImpl = (_args, ctx) => ({
  kind: "scalar",
  values: new Float64Array(ctx.grid.n).fill(Math.PI),
});

/** `timestamp(v)` of anything but a plain selector: the evaluation time (the engine handles selectors). */
export const timestamp: VectorImpl = (args, ctx) => {
  const v = args[0];
  if (v.kind === "vector" && v.series.some((s) => s.sampleTimes !== undefined)) {
    const out = mapVector(v, () => 0);
    if (out.kind === "vector") {
      out.series.forEach((o, k) => {
        const st = v.series[k].sampleTimes;
        for (let i = 0; i < o.values.length; i++) o.values[i] = (st ? st[i] : ctx.grid.times[i]) / 1000;
      });
    }
    return out;
  }
  return mapVector(v, (_x, i) => ctx.grid.times[i] / 1000);
};

/**
 * The labels `absent` gives its one series: the selector's first `=` matcher of each name, dropped
 * by any later matcher of that name (Prometheus' rule); an empty value is no label.
 */
export function absentLabels(arg: Expr): Labels {
  let e = arg;
  if (e.type === "MatrixSelector") e = e.vectorSelector;
  if (e.type !== "VectorSelector") return {};
  const out: Labels = {};
  const seen = new Set<string>();
  for (const m of e.matchers) {
    if (m.name === "__name__") continue;
    if (m.type === "EQ" && !seen.has(m.name)) {
      if (m.value !== "") out[m.name] = m.value;
      seen.add(m.name);
    } else delete out[m.name];
  }
  return out;
}

/** `absent(v)`: 1 with the selector's labels at steps where the vector is empty. */
export const absent: VectorImpl = (args, ctx) => {
  const v = args[0] as StepValue & { kind: "vector" };
  const n = ctx.grid.n;
  const values = new Float64Array(n).fill(1), present = new Uint8Array(n).fill(1);
  for (const s of v.series) for (let i = 0; i < n; i++) if (s.present[i]) present[i] = 0;
  return { kind: "vector", series: [{ labels: absentLabels(ctx.args[0]), values, present }] };
};
