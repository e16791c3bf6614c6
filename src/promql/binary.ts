/**
 * Binary operators over step columns: scalar/scalar, vector/scalar, vector/vector with Prometheus'
 * vector matching (`on`, `ignoring`, `group_left`, `group_right`) and its many-to-many errors.
 */
import type { BinaryExpr, BinaryOp, VectorMatching } from "./ast.ts";
import { isArithmeticOp, isComparisonOp } from "./ast.ts";
import { executionError } from "./errors.ts";
import type { Evaluator } from "./evaluator.ts";
import { dropMetricName, labelsKey, labelsString, matchSignature } from "./labels.ts";
import { evalSetOp } from "./set_ops.ts";
import { mergeSeries } from "./series_ops.ts";
import type { Labels, StepGrid, StepSeries, StepValue } from "./values.ts";

/** Go's `math.Pow` where it differs from `**` (`1 ** NaN`, `(-1) ** ±Inf`). */
function goPow(x: number, y: number): number {
  if (x === 1) return 1;
  if (x === -1 && (y === Infinity || y === -Infinity)) return 1;
  return x ** y;
}

/** `[value, keep]` of one operation (Prometheus' `vectorElemBinop` for floats). */
export function applyOp(op: BinaryOp, l: number, r: number): number {
  switch (op) {
    case "+":
      return l + r;
    case "-":
      return l - r;
    case "*":
      return l * r;
    case "/":
      return l / r;
    case "%":
      return l % r;
    case "^":
      return goPow(l, r);
    case "atan2":
      return Math.atan2(l, r);
    default:
      throw executionError(`operator "${op}" not allowed for arithmetic`);
  }
}

/** Whether a comparison holds. */
export function compare(op: BinaryOp, l: number, r: number): boolean {
  switch (op) {
    case "==":
      return l === r;
    case "!=":
      return l !== r;
    case ">":
      return l > r;
    case "<":
      return l < r;
    case ">=":
      return l >= r;
    case "<=":
      return l <= r;
    default:
      return false;
  }
}

/** Evaluates a binary expression over a grid. */
export function evalBinary(ev: Evaluator, e: BinaryExpr, grid: StepGrid): StepValue {
  const lhs = ev.eval(e.lhs, grid);
  const rhs = ev.eval(e.rhs, grid);
  let out: StepValue;
  if (lhs.kind === "scalar" && rhs.kind === "scalar") {
    const values = new Float64Array(grid.n);
    for (let i = 0; i < grid.n; i++) {
      const l = lhs.values[i], r = rhs.values[i];
      values[i] = isComparisonOp(e.op) ? (compare(e.op, l, r) ? 1 : 0) : applyOp(e.op, l, r);
    }
    out = { kind: "scalar", values };
  } else if (lhs.kind === "vector" && rhs.kind === "vector") {
    out = e.op === "and" || e.op === "or" || e.op === "unless"
      ? evalSetOp(e.op, lhs.series, rhs.series, e.matching!, grid.n)
      : { kind: "vector", series: vectorBinop(e, lhs.series, rhs.series, grid.n) };
  } else if (lhs.kind === "vector" && rhs.kind === "scalar") {
    out = { kind: "vector", series: vectorScalar(e, lhs.series, rhs.values, false) };
  } else if (lhs.kind === "scalar" && rhs.kind === "vector") {
    out = { kind: "vector", series: vectorScalar(e, rhs.series, lhs.values, true) };
  } else throw executionError("binary expression must contain only scalar and instant vector types");
  ev.release(ev.sizeOf(lhs) + ev.sizeOf(rhs));
  if (out.kind === "vector") ev.hold(ev.sizeOf(out));
  return out;
}

function vectorScalar(
  e: BinaryExpr,
  series: StepSeries[],
  scalar: Float64Array,
  swap: boolean,
): StepSeries[] {
  const cmp = isComparisonOp(e.op);
  const drop = isArithmeticOp(e.op) || e.returnBool;
  const out: StepSeries[] = [];
  for (const s of series) {
    const n = s.values.length;
    const values = new Float64Array(n), present = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (!s.present[i]) continue;
      const v = s.values[i], c = scalar[i];
      const l = swap ? c : v, r = swap ? v : c;
      if (cmp) {
        const keep = compare(e.op, l, r);
        if (e.returnBool) values[i] = keep ? 1 : 0;
        else if (keep) values[i] = v;
        else continue;
      } else values[i] = applyOp(e.op, l, r);
      present[i] = 1;
    }
    out.push({ labels: drop ? dropMetricName(s.labels) : s.labels, values, present });
  }
  return mergeSeries(out);
}

/** The labels of a matched pair's result (Prometheus' `resultMetric`). */
function resultLabels(l: Labels, r: Labels, e: BinaryExpr, m: VectorMatching): Labels {
  let out: Labels = { ...l };
  if (isArithmeticOp(e.op)) delete out.__name__;
  if (m.card === "one-to-one") {
    if (m.on) {
      const kept: Labels = {};
      for (const n of m.matchingLabels) if (out[n] !== undefined) kept[n] = out[n];
      out = kept;
    } else for (const n of m.matchingLabels) delete out[n];
  }
  for (const n of m.include) {
    const v = r[n];
    if (v !== undefined && v !== "") out[n] = v;
    else delete out[n];
  }
  if (e.returnBool) delete out.__name__;
  return out;
}

/** One-to-one and many-to-one/one-to-many matching of two vectors. */
function vectorBinop(e: BinaryExpr, lhsIn: StepSeries[], rhsIn: StepSeries[], n: number): StepSeries[] {
  const m = e.matching!;
  if (lhsIn.length === 0 || rhsIn.length === 0) return [];
  const swapped = m.card === "one-to-many";
  const [many, one] = swapped ? [rhsIn, lhsIn] : [lhsIn, rhsIn];
  const cmp = isComparisonOp(e.op);
  // Prometheus matches nothing, and so finds no duplicates, at a step where either side is empty.
  const manyAt = new Uint8Array(n);
  for (const s of many) for (let i = 0; i < n; i++) manyAt[i] |= s.present[i];
  // The "one" side: per signature, which series has a value at each step (two is an error).
  const oneBySig = new Map<string, { idx: Int32Array; members: StepSeries[] }>();
  for (const s of one) {
    const sig = matchSignature(s.labels, m.matchingLabels, m.on);
    let g = oneBySig.get(sig);
    if (g === undefined) oneBySig.set(sig, g = { idx: new Int32Array(n).fill(-1), members: [] });
    const at = g.members.length;
    g.members.push(s);
    for (let i = 0; i < n; i++) {
      if (!s.present[i]) continue;
      if (g.idx[i] >= 0 && manyAt[i]) {
        const dup = g.members[g.idx[i]];
        const matched = m.on ? pick(s.labels, m.matchingLabels) : omit(s.labels, m.matchingLabels);
        throw executionError(
          `found duplicate series for the match group ${labelsString(matched)} on the ${
            swapped ? "left" : "right"
          } hand-side of the operation: [${labelsString(s.labels)}, ${
            labelsString(dup.labels)
          }];many-to-many matching not allowed: matching labels must be unique on one side`,
        );
      }
      g.idx[i] = at;
    }
  }
  const outByKey = new Map<string, StepSeries>();
  const matchedSigs = m.card === "one-to-one" ? new Map<string, Uint8Array>() : null;
  for (const ls of many) {
    const sig = matchSignature(ls.labels, m.matchingLabels, m.on);
    const g = oneBySig.get(sig);
    if (g === undefined) continue;
    const pairLabels = new Map<number, StepSeries>();
    let used: Uint8Array | undefined;
    if (matchedSigs !== null) {
      used = matchedSigs.get(sig);
      if (used === undefined) matchedSigs.set(sig, used = new Uint8Array(n));
    }
    for (let i = 0; i < n; i++) {
      if (!ls.present[i]) continue;
      const r = g.idx[i];
      if (r < 0) continue;
      const rs = g.members[r];
      const fl = swapped ? rs.values[i] : ls.values[i], fr = swapped ? ls.values[i] : rs.values[i];
      let value: number;
      if (cmp) {
        const keep = compare(e.op, fl, fr);
        if (e.returnBool) value = keep ? 1 : 0;
        else if (keep) value = fl;
        else continue;
      } else value = applyOp(e.op, fl, fr);
      let o = pairLabels.get(r);
      if (o === undefined) {
        const labels = resultLabels(ls.labels, rs.labels, e, m);
        const key = labelsKey(labels);
        o = outByKey.get(key);
        if (o === undefined) {
          outByKey.set(key, o = { labels, values: new Float64Array(n), present: new Uint8Array(n) });
        }
        pairLabels.set(r, o);
      }
      if (used !== undefined) {
        if (used[i]) {
          throw executionError(
            "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)",
          );
        }
        used[i] = 1;
      }
      if (o.present[i]) {
        throw executionError(
          m.card === "one-to-one"
            ? "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)"
            : "multiple matches for matching labels; many-to-one matching must be explicit (group_left/group_right)",
        );
      }
      o.values[i] = value;
      o.present[i] = 1;
    }
  }
  return [...outByKey.values()];
}

function pick(labels: Labels, names: string[]): Labels {
  const out: Labels = {};
  for (const n of names) if (labels[n] !== undefined) out[n] = labels[n];
  return out;
}

function omit(labels: Labels, names: string[]): Labels {
  const out: Labels = {};
  for (const k in labels) if (k !== "__name__" && !names.includes(k)) out[k] = labels[k];
  return out;
}
