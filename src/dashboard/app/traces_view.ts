/** The trace view: recent root spans, and a trace id opened as a span waterfall with span details. */
import { sqlObjects } from "./api.ts";
import { databases } from "./catalog.ts";
import { h, replace, select } from "./dom.ts";
import { grid } from "./grid.ts";
import { formatCell, ident, literal } from "./sql_text.ts";
import { buildWaterfall, formatDuration, type Waterfall, type WaterfallSpan } from "./trace_tree.ts";
import { card, errorBox, facts } from "./ui.ts";

const COLORS = ["#3b82f6", "#10b981", "#f59e0b", "#8b5cf6", "#ef4444", "#14b8a6", "#ec4899", "#84cc16"];

/** Builds the trace view; `show(traceId?)` opens a trace or lists recent ones. */
export function tracesView(
  navigate: (traceId: string) => void,
): { el: HTMLElement; show: (traceId?: string) => void } {
  const db = select(["public"], "public", { id: "traces-db", "aria-label": "Database" });
  const table = h("input", {
    id: "traces-table",
    value: "opentelemetry_traces",
    "aria-label": "Trace table",
  });
  const traceId = h("input", { id: "trace-id", placeholder: "Trace id (hex)", size: 36 });
  const openBtn = h("button", { id: "trace-open", class: "primary" }, "Open");
  const out = h("div", { id: "traces-results", class: "results" });
  const go = () => traceId.value.trim() && navigate(traceId.value.trim());
  openBtn.addEventListener("click", go);
  traceId.addEventListener("keydown", (e) => e.key === "Enter" && go());

  const recent = async () => {
    replace(out, h("p", { class: "muted" }, "Loading recent traces…"));
    try {
      const rows = await sqlObjects(
        `SELECT trace_id, service_name, span_name, "timestamp", duration_nano FROM ${ident(table.value)} ` +
          `WHERE parent_span_id IS NULL OR parent_span_id = '' ORDER BY "timestamp" DESC LIMIT 100`,
        db.value,
      );
      replace(
        out,
        card(
          "Recent traces (root spans)",
          rows.length === 0 ? h("p", { class: "muted" }, "No traces yet.") : grid(
            [{ name: "trace_id" }, { name: "service" }, { name: "root span" }, {
              name: "start",
              type: "TimestampNanosecond",
            }, {
              name: "duration",
            }],
            rows.map((
              r,
            ) => [
              r.trace_id,
              r.service_name,
              r.span_name,
              r.timestamp,
              formatDuration(Number(r.duration_nano ?? 0)),
            ]),
            { onRowClick: (i) => navigate(String(rows[i].trace_id)) },
          ),
        ),
      );
    } catch (e) {
      replace(out, errorBox(e));
    }
  };

  const open = async (id: string) => {
    traceId.value = id;
    replace(out, h("p", { class: "muted" }, `Loading trace ${id}…`));
    try {
      const rows = await sqlObjects(
        `SELECT * FROM ${ident(table.value)} WHERE trace_id = ${literal(id)} ORDER BY "timestamp"`,
        db.value,
      );
      if (rows.length === 0) {
        replace(
          out,
          h(
            "div",
            { class: "error", role: "alert" },
            `No spans for trace ${id} in ${db.value}.${table.value}`,
          ),
        );
        return;
      }
      replace(out, waterfallView(id, buildWaterfall(rows)));
    } catch (e) {
      replace(out, errorBox(e));
    }
  };

  const el = h(
    "div",
    { class: "view traces-view" },
    h("div", { class: "toolbar" }, db, table, traceId, openBtn),
    out,
  );
  return {
    el,
    show: async (id?: string) => {
      if (db.options.length <= 1) {
        const names = await databases().catch(() => ["public"]);
        const cur = db.value;
        replace(db, ...names.map((n) => h("option", { value: n }, n)));
        db.value = names.includes(cur) ? cur : "public";
      }
      if (id) await open(id);
      else await recent();
    },
  };
}

function waterfallView(id: string, w: Waterfall): HTMLElement {
  const color = new Map(w.services.map((s, i) => [s, COLORS[i % COLORS.length]]));
  const details = h("div", { id: "span-details" });
  const rows = w.spans.map((s) => spanRow(s, w.totalNs, color.get(s.service)!, () => showSpan(details, s)));
  const ticks = h("div", { class: "wf-ticks" });
  for (let i = 0; i <= 4; i++) {
    ticks.appendChild(
      h("span", { style: `left:${i * 25}%` }, formatDuration(Math.round((w.totalNs * i) / 4))),
    );
  }
  return h(
    "div",
    { class: "waterfall-wrap" },
    h("h2", { id: "trace-title" }, `Trace ${id}`),
    facts([
      ["Spans", String(w.spans.length)],
      ["Duration", formatDuration(w.totalNs)],
      ["Started", formatCell(w.startNs.toString(), "TimestampNanosecond")],
      [
        "Services",
        h(
          "span",
          {},
          ...w.services.map((s) =>
            h("span", { class: "legend", style: `--c:${color.get(s)}` }, s || "(none)")
          ),
        ),
      ],
    ]),
    h(
      "div",
      { class: "waterfall", id: "waterfall" },
      h("div", { class: "wf-row wf-head" }, h("div", { class: "wf-label" }, "Span"), ticks),
      ...rows,
    ),
    details,
  );
}

function spanRow(s: WaterfallSpan, total: number, color: string, onClick: () => void): HTMLElement {
  const left = total > 0 ? (s.offsetNs / total) * 100 : 0;
  const width = total > 0 ? Math.max(0.3, (s.durationNs / total) * 100) : 100;
  const error = s.status === "STATUS_CODE_ERROR";
  return h(
    "div",
    {
      class: `wf-row span${error ? " span-error" : ""}`,
      "data-span-id": s.spanId,
      "data-depth": s.depth,
      onclick: onClick,
    },
    h(
      "div",
      { class: "wf-label", style: `padding-left:${8 + s.depth * 14}px`, title: `${s.service} ${s.name}` },
      h("span", { class: "svc", style: `color:${color}` }, s.service),
      " ",
      h("span", { class: "span-name" }, s.name),
    ),
    h(
      "div",
      { class: "wf-track" },
      h("div", { class: "wf-bar", style: `left:${left}%;width:${width}%;background:${color}` }),
      h(
        "span",
        { class: "wf-dur", style: `left:${Math.min(left + width, 100)}%` },
        formatDuration(s.durationNs),
      ),
    ),
  );
}

function showSpan(out: HTMLElement, s: WaterfallSpan): void {
  const items: [string, string][] = [];
  for (const [k, v] of Object.entries(s.row)) {
    if (v === null || v === undefined || v === "") continue;
    const type = k === "timestamp" || k === "timestamp_end" ? "TimestampNanosecond" : "";
    items.push([k, formatCell(v, type)]);
  }
  replace(out, card(`Span ${s.name} (${s.spanId})`, facts(items.map(([k, v]) => [k, h("code", {}, v)]))));
  out.scrollIntoView({ block: "nearest" });
}
