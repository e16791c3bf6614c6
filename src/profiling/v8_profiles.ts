/**
 * V8's own profile formats (the inspector's `Profiler.Profile`, saved as `.cpuprofile`, and
 * `HeapProfiler.SamplingHeapProfile`, saved as `.heapprofile`) and their conversion to the model.
 */
import type { Frame, StackProfile, StackSample } from "./model.ts";

/** `Runtime.CallFrame`: line and column are 0-based. */
export interface V8CallFrame {
  functionName: string;
  scriptId?: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** A node of a `.cpuprofile`. */
export interface V8CpuNode {
  id: number;
  callFrame: V8CallFrame;
  hitCount?: number;
  children?: number[];
}

/** `Profiler.Profile` (times in µs). */
export interface V8CpuProfile {
  nodes: V8CpuNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** A node of a `.heapprofile` (a tree; `selfSize` in bytes). */
export interface V8HeapNode {
  callFrame: V8CallFrame;
  selfSize: number;
  id: number;
  children: V8HeapNode[];
}

/** `HeapProfiler.SamplingHeapProfile`. */
export interface V8HeapProfile {
  head: V8HeapNode;
  samples?: { size: number; nodeId: number; ordinal: number }[];
}

function frameOf(cf: V8CallFrame): Frame {
  return {
    name: cf.functionName === "" ? "(anonymous)" : cf.functionName,
    file: cf.url,
    line: cf.lineNumber >= 0 ? cf.lineNumber + 1 : 0,
  };
}

const isRoot = (cf: V8CallFrame) => cf.functionName === "(root)" && cf.url === "";

/**
 * A CPU profile as samples: per leaf node, the number of samples and the time they stand for (each
 * sample owns the time delta that follows it, as DevTools counts).
 */
export function fromCpuProfile(p: V8CpuProfile, startedAtMs = 0): StackProfile {
  const byId = new Map<number, V8CpuNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  const counts = new Map<number, [number, number]>();
  for (let i = 0; i < samples.length; i++) {
    const micros = Math.max(0, deltas[i + 1] ?? (p.endTime - p.startTime) / Math.max(1, samples.length));
    const c = counts.get(samples[i]) ?? [0, 0];
    c[0] += 1;
    c[1] += micros * 1000;
    counts.set(samples[i], c);
  }
  const out: StackSample[] = [];
  for (const [id, [count, nanos]] of counts) {
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      if (!isRoot(node.callFrame)) stack.push(frameOf(node.callFrame));
    }
    out.push({ stack: stack.reverse(), values: [count, Math.round(nanos)] });
  }
  return {
    sampleTypes: [{ type: "samples", unit: "count" }, { type: "cpu", unit: "nanoseconds" }],
    samples: out,
    timeNanos: startedAtMs * 1e6,
    durationNanos: Math.max(0, Math.round((p.endTime - p.startTime) * 1000)),
    periodType: { type: "cpu", unit: "nanoseconds" },
    period: samples.length > 0 ? Math.round(((p.endTime - p.startTime) * 1000) / samples.length) : 0,
  };
}

/** A sampling heap profile as samples: live sampled objects and bytes per allocating stack. */
export function fromHeapProfile(p: V8HeapProfile, startedAtMs = 0, durationMs = 0): StackProfile {
  const objects = new Map<number, number>();
  for (const s of p.samples ?? []) objects.set(s.nodeId, (objects.get(s.nodeId) ?? 0) + 1);
  const out: StackSample[] = [];
  const walk = (node: V8HeapNode, stack: Frame[]) => {
    const here = isRoot(node.callFrame) ? stack : [...stack, frameOf(node.callFrame)];
    if (node.selfSize > 0) out.push({ stack: here, values: [objects.get(node.id) ?? 1, node.selfSize] });
    for (const c of node.children ?? []) walk(c, here);
  };
  walk(p.head, []);
  return {
    sampleTypes: [{ type: "inuse_objects", unit: "count" }, { type: "inuse_space", unit: "bytes" }],
    samples: out,
    timeNanos: startedAtMs * 1e6,
    durationNanos: durationMs * 1e6,
    periodType: { type: "space", unit: "bytes" },
    period: 0,
  };
}

function isCallFrame(v: unknown): v is V8CallFrame {
  const o = v as V8CallFrame;
  return typeof o === "object" && o !== null && typeof o.functionName === "string" &&
    typeof o.url === "string" && typeof o.lineNumber === "number";
}

/** Whether parsed JSON is a `.cpuprofile`. */
export function isCpuProfile(v: unknown): v is V8CpuProfile {
  const o = v as V8CpuProfile;
  return typeof o === "object" && o !== null && Array.isArray(o.nodes) && typeof o.startTime === "number" &&
    o.nodes.every((n) => typeof n?.id === "number" && isCallFrame(n.callFrame));
}

/** Whether parsed JSON is a `.heapprofile` (the tree is checked to its leaves). */
export function isHeapProfile(v: unknown): v is V8HeapProfile {
  const ok = (n: V8HeapNode): boolean =>
    typeof n === "object" && n !== null && isCallFrame(n.callFrame) && typeof n.selfSize === "number" &&
    typeof n.id === "number" && Array.isArray(n.children) && n.children.every(ok);
  return typeof v === "object" && v !== null && ok((v as V8HeapProfile).head);
}
