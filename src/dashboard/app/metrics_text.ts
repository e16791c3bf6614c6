/** Reading Prometheus' text exposition (what `GET /metrics` answers) into samples. */

/** One sample line. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/g;

/** Parses the samples of a text exposition (comments and malformed lines are skipped). */
export function parseMetrics(text: string): MetricSample[] {
  const out: MetricSample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(LABEL)) {
      labels[l[1]] = l[2].replace(/\\(["\\n])/g, (_, c) => (c === "n" ? "\n" : c));
    }
    const value = m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== "NaN") continue;
    out.push({ name: m[1], labels, value });
  }
  return out;
}

/** The sum of a metric's samples, optionally grouped by one label. */
export function sumBy(samples: MetricSample[], name: string, label?: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const key = label ? (s.labels[label] ?? "") : "";
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}

/** One metric's single value (summed over label sets), or undefined. */
export function valueOf(samples: MetricSample[], name: string): number | undefined {
  const m = sumBy(samples, name);
  return m.size === 0 ? undefined : m.get("");
}

/** Per-second rates between two readings of counters grouped by a label. */
export function rates(
  prev: Map<string, number>,
  next: Map<string, number>,
  seconds: number,
): Map<string, number> {
  const out = new Map<string, number>();
  if (seconds <= 0) return out;
  for (const [k, v] of next) {
    const before = prev.get(k) ?? 0;
    // A counter that went down was reset (a restart): its new value is the increase.
    out.set(k, (v >= before ? v - before : v) / seconds);
  }
  return out;
}
