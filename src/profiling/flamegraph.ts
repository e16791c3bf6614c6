/**
 * The `flamegraph` output: a self-contained SVG in the style of Brendan Gregg's flamegraph.pl (root
 * at the bottom, width = share of the value, a tooltip per frame, click to zoom, no external tools).
 */
import { callTree, type CallTreeNode, defaultValueIndex, formatValue, type StackProfile } from "./model.ts";

const WIDTH = 1200;
const FRAME_HEIGHT = 16;
const FONT_SIZE = 11;
const CHAR_WIDTH = FONT_SIZE * 0.6;
const PAD = 10;
const TITLE_HEIGHT = 40;
/** Frames narrower than this (px) are dropped: they cannot be seen and would bloat the SVG. */
const MIN_WIDTH = 0.3;

/** Escapes text for XML content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  )
    // Control characters are not allowed in XML 1.0 at all.
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "\ufffd");
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0) / 4294967296;
}

/** flamegraph.pl's palettes: warm for script code, aqua for runtime internals, grey for V8's pseudo frames. */
function color(node: CallTreeNode): string {
  const { name, file } = node.frame;
  const v = hash(node.key);
  if (name.startsWith("(") && file === "") {
    const g = Math.round(180 + 40 * v);
    return `rgb(${g},${g},${g})`;
  }
  if (file.startsWith("ext:") || file.startsWith("node:") || file === "") {
    return `rgb(${Math.round(50 + 60 * v)},${Math.round(165 + 55 * v)},${Math.round(165 + 55 * v)})`;
  }
  return `rgb(${Math.round(205 + 50 * v)},${Math.round(230 * hash(name))},${Math.round(55 * v)})`;
}

interface Placed {
  node: CallTreeNode;
  depth: number;
  x: number;
  w: number;
}

function layout(root: CallTreeNode, scale: number): { frames: Placed[]; depth: number } {
  const frames: Placed[] = [];
  let maxDepth = 0;
  const place = (node: CallTreeNode, depth: number, x: number) => {
    const w = node.total * scale;
    if (w < MIN_WIDTH) return;
    frames.push({ node, depth, x, w });
    if (depth > maxDepth) maxDepth = depth;
    let cx = x;
    // Alphabetical order, as flamegraph.pl: the x axis is not time.
    for (const child of [...node.children.values()].sort((a, b) => a.key.localeCompare(b.key))) {
      place(child, depth + 1, cx);
      cx += child.total * scale;
    }
  };
  place(root, 0, PAD);
  return { frames, depth: maxDepth };
}

function fit(label: string, w: number): string {
  const chars = Math.floor((w - 6) / CHAR_WIDTH);
  if (chars < 3) return "";
  return label.length <= chars ? label : label.slice(0, chars - 2) + "..";
}

// Click a frame to zoom to it, click the background (or "all") to reset; runs when opened on its own.
const ZOOM_SCRIPT = `
const W = ${WIDTH - 2 * PAD}, P = ${PAD};
const frames = [...document.querySelectorAll("g.f")];
function zoom(g) {
  const zx = +g.dataset.x, zw = +g.dataset.w, zd = +g.dataset.d;
  for (const f of frames) {
    const x = +f.dataset.x, w = +f.dataset.w, d = +f.dataset.d;
    const inside = x >= zx - 1e-6 && x + w <= zx + zw + 1e-6 && d >= zd;
    const below = d < zd && x <= zx + 1e-6 && x + w >= zx + zw - 1e-6;
    const nx = inside ? P + (x - zx) / zw * W : P, nw = inside ? w / zw * W : W;
    f.style.display = inside || below ? "" : "none";
    const r = f.querySelector("rect"), t = f.querySelector("text");
    r.setAttribute("x", nx); r.setAttribute("width", Math.max(0, nw - 0.5));
    t.setAttribute("x", nx + 3);
    const n = Math.floor((nw - 6) / ${CHAR_WIDTH}), label = f.dataset.label;
    t.textContent = n < 3 ? "" : label.length <= n ? label : label.slice(0, n - 2) + "..";
  }
}
for (const f of frames) f.addEventListener("click", (e) => { e.stopPropagation(); zoom(f); });
`;

/** Renders a profile's default value column as a flamegraph SVG document. */
export function renderFlamegraph(p: StackProfile, title: string): string {
  const vi = defaultValueIndex(p);
  const type = p.sampleTypes[vi] ?? { type: "samples", unit: "count" };
  const root = callTree(p, vi);
  const scale = root.total > 0 ? (WIDTH - 2 * PAD) / root.total : 0;
  const { frames, depth } = root.total > 0 ? layout(root, scale) : { frames: [], depth: 0 };
  const height = TITLE_HEIGHT + (depth + 1) * FRAME_HEIGHT + 2 * PAD;
  const out: string[] = [
    `<?xml version="1.0" encoding="UTF-8" standalone="no"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${WIDTH}" height="${height}" ` +
    `viewBox="0 0 ${WIDTH} ${height}" font-family="Verdana, sans-serif" font-size="${FONT_SIZE}">`,
    `<style>g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; } text { pointer-events: none; }</style>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#f8f8f0"/>`,
    `<text x="${WIDTH / 2}" y="20" text-anchor="middle" font-size="15">${escapeXml(title)}</text>`,
    `<text x="${WIDTH / 2}" y="34" text-anchor="middle" fill="#555">${
      escapeXml(`${type.type}: ${formatValue(root.total, type.unit)} in all; width = share of ${type.type}`)
    }</text>`,
  ];
  if (frames.length === 0) {
    out.push(`<text x="${WIDTH / 2}" y="${TITLE_HEIGHT + PAD + 12}" text-anchor="middle">No samples</text>`);
  }
  for (const { node, depth: d, x, w } of frames) {
    const y = height - PAD - (d + 1) * FRAME_HEIGHT;
    const share = ((node.total / root.total) * 100).toFixed(2);
    const tip = `${node.key}: ${formatValue(node.total, type.unit)} (${share}%), self ${
      formatValue(node.self, type.unit)
    }`;
    out.push(
      `<g class="f" data-x="${x.toFixed(2)}" data-w="${w.toFixed(2)}" data-d="${d}" data-label="${
        escapeXml(node.key)
      }"><title>${escapeXml(tip)}</title>` +
        `<rect x="${x.toFixed(2)}" y="${y}" width="${Math.max(0, w - 0.5).toFixed(2)}" ` +
        `height="${FRAME_HEIGHT - 1}" fill="${color(node)}" rx="2"/>` +
        `<text x="${(x + 3).toFixed(2)}" y="${y + FRAME_HEIGHT - 4}">${
          escapeXml(fit(node.key, w))
        }</text></g>`,
    );
  }
  out.push(`<script type="text/ecmascript"><![CDATA[${ZOOM_SCRIPT}]]></script>`, `</svg>`, "");
  return out.join("\n");
}
