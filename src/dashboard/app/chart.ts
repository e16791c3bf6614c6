/** Time-series line charts with uPlot. */
import uPlot from "uplot";
import { h } from "./dom.ts";
import type { AlignedData } from "./matrix.ts";

const PALETTE = [
  "#3b82f6",
  "#ef4444",
  "#10b981",
  "#f59e0b",
  "#8b5cf6",
  "#ec4899",
  "#14b8a6",
  "#84cc16",
  "#f97316",
];

/** A line chart element for aligned data; it follows its container's width. */
export function lineChart(data: AlignedData, height = 320): HTMLElement {
  const el = h("div", { class: "chart", "data-series": data.ys.length, "data-points": data.xs.length });
  const opts: uPlot.Options = {
    width: 800,
    height,
    series: [
      {},
      ...data.labels.map((label, i) => ({
        label,
        stroke: PALETTE[i % PALETTE.length],
        width: 1.5,
        spanGaps: false,
      })),
    ],
    axes: [{}, { size: 70 }],
    legend: { show: data.labels.length <= 20 },
    cursor: { drag: { x: true, y: false } },
  };
  const plot = new uPlot(opts, [data.xs, ...data.ys] as uPlot.AlignedData, el);
  const fit = () => {
    const width = el.clientWidth;
    if (width > 0 && width !== plot.width) plot.setSize({ width, height });
  };
  new ResizeObserver(fit).observe(el);
  requestAnimationFrame(fit);
  return el;
}
