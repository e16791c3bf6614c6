/**
 * A virtualised result table: only the rows in view (plus a margin) exist in the DOM, so a result
 * of 100k rows scrolls as smoothly as one of ten. Rows have a fixed height; columns a width guessed
 * from the header and the first rows.
 */
import { h } from "./dom.ts";
import { formatCell } from "./sql_text.ts";

/** A column to show. */
export interface GridColumn {
  name: string;
  /** GreptimeDB data type (e.g. `TimestampMillisecond`), for formatting. */
  type?: string;
}

/** Options of a grid. */
export interface GridOptions {
  /** Called with the row index when a row is clicked. */
  onRowClick?: (index: number) => void;
  /** Most pixels the grid may take before it scrolls. */
  maxHeight?: number;
  /** Wrap-free cells longer than this are cut (the full text is in the tooltip). */
  maxCellChars?: number;
  /** The widest a column may be sized (px); log messages want more than the default 420. */
  maxColumnWidth?: number;
}

const ROW_HEIGHT = 24;
const OVERSCAN = 10;
const CHAR_PX = 7.4;

function columnWidths(columns: GridColumn[], rows: unknown[][], max: number): number[] {
  const sample = rows.slice(0, 200);
  return columns.map((c, i) => {
    let chars = c.name.length + 2;
    for (const r of sample) chars = Math.max(chars, formatCell(r[i], c.type).length);
    return Math.round(Math.min(max, Math.max(64, chars * CHAR_PX + 18)));
  });
}

/** Builds a grid element for rows (arrays in column order). */
export function grid(columns: GridColumn[], rows: unknown[][], opts: GridOptions = {}): HTMLElement {
  const widths = columnWidths(columns, rows, opts.maxColumnWidth ?? 420);
  const numWidth = Math.max(44, String(rows.length).length * CHAR_PX + 18);
  const total = numWidth + widths.reduce((a, b) => a + b, 0);
  const maxChars = opts.maxCellChars ?? 500;
  const header = h("div", { class: "grid-row grid-head", style: `width:${total}px` });
  header.appendChild(h("div", { class: "grid-cell grid-num", style: `width:${numWidth}px` }, "#"));
  columns.forEach((c, i) =>
    header.appendChild(
      h("div", {
        class: "grid-cell",
        style: `width:${widths[i]}px`,
        title: c.type ? `${c.name}: ${c.type}` : c.name,
      }, c.name),
    )
  );
  const body = h("div", {
    class: "grid-body",
    style: `height:${rows.length * ROW_HEIGHT}px;width:${total}px`,
  });
  const maxHeight = opts.maxHeight ?? Math.round(globalThis.innerHeight * 0.6);
  const viewport = h(
    "div",
    {
      class: "grid",
      role: "table",
      "data-rows": rows.length,
      style: `max-height:${maxHeight}px`,
    },
    header,
    body,
  );
  let first = -1;
  let last = -1;
  const renderRow = (i: number) => {
    const row = rows[i];
    const el = h("div", {
      class: `grid-row${i % 2 ? " odd" : ""}`,
      role: "row",
      "data-index": i,
      style: `top:${i * ROW_HEIGHT}px;width:${total}px`,
    });
    el.appendChild(h("div", { class: "grid-cell grid-num", style: `width:${numWidth}px` }, i + 1));
    columns.forEach((c, j) => {
      const v = row[j];
      const text = formatCell(v, c.type);
      const cell = h("div", { class: v === null || v === undefined ? "grid-cell null" : "grid-cell" });
      cell.style.width = `${widths[j]}px`;
      cell.textContent = v === null || v === undefined
        ? "NULL"
        : text.length > maxChars
        ? text.slice(0, maxChars) + "…"
        : text;
      if (text.length * CHAR_PX > widths[j] - 12) cell.title = text;
      el.appendChild(cell);
    });
    if (opts.onRowClick) el.addEventListener("click", () => opts.onRowClick!(i));
    return el;
  };
  const update = () => {
    const height = viewport.clientHeight || maxHeight;
    const top = Math.max(0, viewport.scrollTop - ROW_HEIGHT);
    const from = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const to = Math.min(rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    if (from === first && to === last) return;
    first = from;
    last = to;
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) frag.appendChild(renderRow(i));
    body.replaceChildren(frag);
  };
  let scheduled = false;
  viewport.addEventListener("scroll", () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      update();
    });
  });
  // The first paint happens once the grid is in the document and has a size.
  requestAnimationFrame(update);
  update();
  return viewport;
}
