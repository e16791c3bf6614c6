/** Label-set helpers with Prometheus' semantics: keys for grouping, name dropping, printing. */
import type { Labels } from "./values.ts";

const SEP = "\xff";

/** A key identifying a label set (sorted names and values). */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  let key = "";
  for (const n of names) key += n + SEP + labels[n] + SEP;
  return key;
}

/** The label set without `__name__` (the same object when it has none). */
export function dropMetricName(labels: Labels): Labels {
  if (!Object.hasOwn(labels, "__name__")) return labels;
  const out: Labels = {};
  for (const k in labels) if (k !== "__name__") out[k] = labels[k];
  return out;
}

/**
 * The matching signature of a label set: with `on`, the values of `names`; otherwise all labels
 * except `names` and `__name__` (Prometheus' `signatureFunc`).
 */
export function matchSignature(labels: Labels, names: string[], on: boolean): string {
  if (on) {
    let key = "";
    for (const n of names) {
      const v = labels[n];
      if (v !== undefined && v !== "") key += n + SEP + v + SEP;
    }
    return key;
  }
  const keys = Object.keys(labels).sort();
  let key = "";
  for (const n of keys) {
    if (n === "__name__" || names.includes(n)) continue;
    key += n + SEP + labels[n] + SEP;
  }
  return key;
}

/** The labels kept by `by (names)` or left by `without (names)` (which also drops `__name__`). */
export function groupingLabels(labels: Labels, names: string[], without: boolean): Labels {
  const out: Labels = {};
  if (without) {
    for (const k in labels) if (k !== "__name__" && !names.includes(k)) out[k] = labels[k];
  } else {
    for (const n of names) {
      const v = labels[n];
      if (v !== undefined && v !== "") out[n] = v;
    }
  }
  return out;
}

/** A label set as Prometheus' `Labels.String()` prints it: `{a="1", b="2"}`. */
export function labelsString(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return "{" + names.map((n) => `${n}=${JSON.stringify(labels[n])}`).join(", ") + "}";
}

/** Compares label sets as Prometheus' `labels.Compare` does. */
export function compareLabels(a: Labels, b: Labels): number {
  const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    const va = a[ka[i]], vb = b[kb[i]];
    if (va !== vb) return va < vb ? -1 : 1;
  }
  return ka.length - kb.length;
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Whether a string is a valid (legacy) label name. */
export function isValidLabelName(name: string): boolean {
  return LABEL_NAME.test(name);
}
