/** Prometheus results for charts: label sets as text, series aligned on shared timestamps, range steps. */

/** One series of a Prometheus range query. */
export interface MatrixSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

/** The data uPlot takes: shared x values (unix seconds) and one y array per series. */
export interface AlignedData {
  xs: number[];
  ys: (number | null)[][];
  labels: string[];
}

/** `name{a="1", b="2"}`, as Prometheus prints a label set. */
export function seriesLabel(metric: Record<string, string>): string {
  const { __name__: name = "", ...rest } = metric;
  const pairs = Object.keys(rest).sort().map((k) => `${k}="${rest[k]}"`);
  return pairs.length === 0 ? (name || "{}") : `${name}{${pairs.join(", ")}}`;
}

/** Aligns series on the union of their timestamps (missing points are gaps). */
export function alignMatrix(series: MatrixSeries[]): AlignedData {
  const times = new Set<number>();
  for (const s of series) for (const [t] of s.values) times.add(t);
  const xs = [...times].sort((a, b) => a - b);
  const index = new Map(xs.map((t, i) => [t, i]));
  const ys = series.map((s) => {
    const y: (number | null)[] = new Array(xs.length).fill(null);
    for (const [t, v] of s.values) {
      const n = Number(v);
      y[index.get(t)!] = Number.isFinite(n) ? n : null;
    }
    return y;
  });
  return { xs, ys, labels: series.map((s) => seriesLabel(s.metric)) };
}

/** A step giving about 250 points over the range, at least 1 s. */
export function autoStep(rangeSeconds: number): number {
  const raw = rangeSeconds / 250;
  const nice = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];
  return nice.find((s) => s >= raw) ?? 86400;
}
