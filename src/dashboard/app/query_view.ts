/** The query editor: SQL or PromQL, results as tables and (for ranges) a line chart, with history. */
import { promql, type PromResponse, sql } from "./api.ts";
import { lineChart } from "./chart.ts";
import { alignMatrix, autoStep, type MatrixSeries, seriesLabel } from "./matrix.ts";
import { h, replace, select } from "./dom.ts";
import { grid } from "./grid.ts";
import { clearHistory, type HistoryEntry, loadHistory, remember } from "./history.ts";
import { withBusy } from "./ui.ts";
import { databases } from "./catalog.ts";

const RANGES: [string, string][] = [
  ["300", "Last 5 minutes"],
  ["900", "Last 15 minutes"],
  ["3600", "Last hour"],
  ["21600", "Last 6 hours"],
  ["86400", "Last 24 hours"],
  ["604800", "Last 7 days"],
];

/** What another view asks the editor to show. */
export interface QueryRequest {
  lang: "sql" | "promql";
  text: string;
  db?: string;
  run?: boolean;
}

/** Builds the query view; `open` loads a query into it (and runs it when asked). */
export function queryView(): { el: HTMLElement; open: (q: QueryRequest) => void } {
  const lang = select([["sql", "SQL"], ["promql", "PromQL"]], "sql", {
    id: "query-lang",
    "aria-label": "Language",
  });
  const db = select(["public"], "public", { id: "query-db", "aria-label": "Database" });
  const range = select(RANGES, "3600", { id: "query-range", "aria-label": "Time range" });
  const kind = select([["range", "Range"], ["instant", "Instant"]], "range", {
    id: "query-kind",
    "aria-label": "Query type",
  });
  const editor = h("textarea", {
    id: "query-editor",
    class: "editor",
    spellcheck: "false",
    rows: 6,
    placeholder: "SELECT * FROM numbers LIMIT 10   (Ctrl+Enter runs)",
  });
  const run = h("button", { id: "query-run", class: "primary" }, "Run");
  const results = h("div", { id: "query-results", class: "results" });
  const promOnly = [range, kind];
  const syncLang = () => {
    for (const el of promOnly) el.hidden = lang.value !== "promql";
    editor.placeholder = lang.value === "sql"
      ? "SELECT * FROM numbers LIMIT 10   (Ctrl+Enter runs)"
      : "rate(http_requests_total[5m])   (Ctrl+Enter runs)";
  };
  lang.addEventListener("change", syncLang);
  syncLang();

  const history = historyPanel((e) => open({ lang: e.lang, text: e.text, db: e.db }));

  const execute = () =>
    withBusy(run, results, async () => {
      const text = editor.value.trim();
      if (text === "") return;
      history.show(remember({ lang: lang.value as "sql" | "promql", text, db: db.value }));
      replace(results, h("div", { class: "muted" }, "Running…"));
      await runQuery(results, lang.value, text, db.value, Number(range.value), kind.value === "range");
    });
  run.addEventListener("click", execute);
  editor.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      execute();
    }
  });

  const open = (q: QueryRequest) => {
    lang.value = q.lang;
    syncLang();
    editor.value = q.text;
    if (q.db) {
      if (![...db.options].some((o) => o.value === q.db)) db.appendChild(h("option", { value: q.db }, q.db));
      db.value = q.db;
    }
    if (q.run) execute();
  };
  databases().then((names) => {
    const current = db.value;
    replace(db, ...names.map((n) => h("option", { value: n }, n)));
    db.value = names.includes(current) ? current : "public";
  }).catch(() => {/* the query itself will show the error */});

  const el = h(
    "div",
    { class: "view query-view" },
    h("div", { class: "toolbar" }, lang, db, range, kind, run),
    editor,
    h(
      "div",
      { class: "split" },
      results,
      history.el,
    ),
  );
  return { el, open };
}

function historyPanel(
  pick: (e: HistoryEntry) => void,
): { el: HTMLElement; show: (list: HistoryEntry[]) => void } {
  const list = h("ul", { class: "history", id: "query-history" });
  const show = (entries: HistoryEntry[]) =>
    replace(
      list,
      ...entries.map((e) =>
        h(
          "li",
          { title: new Date(e.at).toLocaleString() },
          h(
            "button",
            { class: "link", onclick: () => pick(e) },
            h("span", { class: `tag ${e.lang}` }, e.lang === "sql" ? "SQL" : "PromQL"),
            " ",
            e.text,
          ),
        )
      ),
    );
  show(loadHistory());
  const clear = h("button", { class: "link small", onclick: () => (clearHistory(), show([])) }, "clear");
  return { el: h("aside", { class: "history-panel" }, h("h3", {}, "History ", clear), list), show };
}

async function runQuery(
  out: HTMLElement,
  lang: string,
  text: string,
  db: string,
  seconds: number,
  isRange: boolean,
): Promise<void> {
  const started = performance.now();
  if (lang === "sql") {
    const res = await sql(text, db);
    renderSql(out, res.outputs, res.executionMs);
    return;
  }
  const end = Date.now() / 1000;
  const res = isRange
    ? await promql("query_range", {
      query: text,
      start: String(end - seconds),
      end: String(end),
      step: String(autoStep(seconds)),
    }, db)
    : await promql("query", { query: text, time: String(end) }, db);
  renderProm(out, res, Math.round(performance.now() - started));
}

function renderSql(out: HTMLElement, outputs: Awaited<ReturnType<typeof sql>>["outputs"], ms: number): void {
  const parts: HTMLElement[] = [];
  outputs.forEach((o, i) => {
    const label = outputs.length > 1 ? `Statement ${i + 1}: ` : "";
    if (o.kind === "affected") {
      parts.push(h("div", { class: "summary" }, `${label}${o.rows} row${o.rows === 1 ? "" : "s"} affected`));
    } else {
      parts.push(
        h("div", { class: "summary" }, `${label}${o.rows.length} row${o.rows.length === 1 ? "" : "s"}`),
      );
      parts.push(grid(o.columns.map((c) => ({ name: c.name, type: c.data_type })), o.rows));
    }
  });
  if (outputs.length === 0) parts.push(h("div", { class: "summary" }, "No output"));
  replace(out, ...parts, h("div", { class: "muted" }, `Executed in ${ms} ms`));
}

function renderProm(out: HTMLElement, res: PromResponse, ms: number): void {
  const { resultType, result } = res.data;
  const parts: HTMLElement[] = [];
  for (const w of res.warnings ?? []) parts.push(h("div", { class: "warning" }, w));
  if (resultType === "matrix") {
    const series = result as MatrixSeries[];
    parts.push(h("div", { class: "summary" }, `${series.length} series`));
    if (series.length > 0) parts.push(lineChart(alignMatrix(series)));
    const rows = series.map((s) => {
      const last = s.values[s.values.length - 1];
      return [seriesLabel(s.metric), s.values.length, last ? last[1] : null];
    });
    parts.push(grid([{ name: "series" }, { name: "points" }, { name: "last value" }], rows));
  } else if (resultType === "vector") {
    const vec = result as { metric: Record<string, string>; value: [number, string] }[];
    parts.push(h("div", { class: "summary" }, `${vec.length} series`));
    parts.push(grid(
      [{ name: "series" }, { name: "time" }, { name: "value" }],
      vec.map((v) => [seriesLabel(v.metric), new Date(v.value[0] * 1000).toISOString(), v.value[1]]),
    ));
  } else {
    const [t, v] = result as [number, string];
    parts.push(h("div", { class: "summary" }, `${resultType}: ${v} at ${new Date(t * 1000).toISOString()}`));
  }
  replace(out, ...parts, h("div", { class: "muted" }, `Answered in ${ms} ms`));
}
