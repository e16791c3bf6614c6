/**
 * One profile model for every source and output: weighted call stacks, as pprof thinks of them.
 * V8 CPU and heap profiles and uploaded pprof files are converted into it; the pprof encoder, the
 * text table and the flamegraph read only this.
 */

/** One stack frame: a function at a place in a script. */
export interface Frame {
  name: string;
  /** Script URL or file name; "" when V8 has none (native and synthetic frames). */
  file: string;
  /** 1-based line of the function (or the call site); 0 when unknown. */
  line: number;
}

/** A call stack (root first) and its values, one per sample type. */
export interface StackSample {
  stack: Frame[];
  values: number[];
}

/** What a value column counts: pprof's `ValueType` (e.g. `cpu`/`nanoseconds`). */
export interface ValueType {
  type: string;
  unit: string;
}

/** Weighted call stacks with their value columns. */
export interface StackProfile {
  sampleTypes: ValueType[];
  samples: StackSample[];
  /** Wall-clock start, ns since the epoch (0 when unknown). */
  timeNanos: number;
  durationNanos: number;
  periodType?: ValueType;
  period?: number;
  /** The value column readers show by default (pprof's `default_sample_type`): the last one if unset. */
  defaultIndex?: number;
}

/** The value column shown by default. */
export function defaultValueIndex(p: StackProfile): number {
  const i = p.defaultIndex ?? p.sampleTypes.length - 1;
  return i >= 0 && i < p.sampleTypes.length ? i : 0;
}

/** A frame's label: `name (file:line)`, or the name alone when it has no place. */
export function frameLabel(f: Frame): string {
  if (f.file === "") return f.name;
  return `${f.name} (${f.file}${f.line > 0 ? `:${f.line}` : ""})`;
}

/** Renders a value of a unit for people: `1.25 s`, `3.4 MiB`, `12`. */
export function formatValue(value: number, unit: string): string {
  if (unit === "nanoseconds") {
    if (value >= 1e9) return `${(value / 1e9).toFixed(2)} s`;
    if (value >= 1e6) return `${(value / 1e6).toFixed(2)} ms`;
    if (value >= 1e3) return `${(value / 1e3).toFixed(2)} µs`;
    return `${value} ns`;
  }
  if (unit === "bytes") {
    const units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let v = value;
    let u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u === 0 ? `${v} B` : `${v.toFixed(2)} ${units[u]}`;
  }
  return String(Math.round(value * 100) / 100);
}

/** A node of the merged call tree: the total of its subtree and its own (self) value. */
export interface CallTreeNode {
  frame: Frame;
  key: string;
  total: number;
  self: number;
  children: Map<string, CallTreeNode>;
}

/** Merges the samples into a call tree for one value column (frames equal by label share a node). */
export function callTree(p: StackProfile, valueIndex: number): CallTreeNode {
  const root: CallTreeNode = {
    frame: { name: "all", file: "", line: 0 },
    key: "all",
    total: 0,
    self: 0,
    children: new Map(),
  };
  for (const s of p.samples) {
    const v = s.values[valueIndex] ?? 0;
    if (v === 0) continue;
    root.total += v;
    let node = root;
    for (const frame of s.stack) {
      const key = frameLabel(frame);
      let child = node.children.get(key);
      if (!child) {
        child = { frame, key, total: 0, self: 0, children: new Map() };
        node.children.set(key, child);
      }
      child.total += v;
      node = child;
    }
    node.self += v;
  }
  return root;
}
