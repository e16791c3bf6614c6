/** The log view: the newest rows of a table, filtered by text over its string columns, refreshed while following. */
import { sql } from "./api.ts";
import { type ColumnInfo, databases, describe, tables } from "./catalog.ts";
import { h, replace, select } from "./dom.ts";
import { grid } from "./grid.ts";
import { tailQuery } from "./log_query.ts";
import { errorBox } from "./ui.ts";

const FOLLOW_EVERY_MS = 2000;

/** Builds the log view; `show(db, table)` picks a table. */
export function logsView(): {
  el: HTMLElement;
  show: (db?: string, table?: string) => void;
  hide: () => void;
} {
  const db = select(["public"], "public", { id: "logs-db", "aria-label": "Database" });
  const table = select([], "", { id: "logs-table", "aria-label": "Table" });
  const filter = h("input", {
    id: "logs-filter",
    type: "search",
    placeholder: "Filter text (% and _ are wildcards)",
  });
  const limit = select(["100", "200", "500", "1000"], "200", { id: "logs-limit", "aria-label": "Rows" });
  const follow = h("input", { id: "logs-follow", type: "checkbox" });
  const status = h("span", { class: "muted", id: "logs-status" });
  const out = h("div", { id: "logs-results", class: "results" });
  let columns: ColumnInfo[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let visible = false;
  let generation = 0;

  const refresh = async () => {
    clearTimeout(timer);
    const gen = ++generation;
    if (!table.value) return;
    try {
      if (columns.length === 0) columns = await describe(db.value, table.value);
      const query = tailQuery(table.value, columns, filter.value, Number(limit.value));
      const res = await sql(query, db.value);
      if (gen !== generation) return;
      const o = res.outputs[0];
      if (o?.kind === "records") {
        const cols = o.columns.map((c) => ({ name: c.name, type: c.data_type }));
        replace(out, grid(cols, o.rows, { maxColumnWidth: 900 }));
        status.textContent = `${o.rows.length} rows, newest first · ${new Date().toLocaleTimeString()}`;
      }
    } catch (e) {
      if (gen === generation) replace(out, errorBox(e));
    }
    if (gen === generation && follow.checked && visible) timer = setTimeout(refresh, FOLLOW_EVERY_MS);
  };

  const loadTables = async (wanted?: string) => {
    try {
      const names = await tables(db.value);
      replace(table, ...names.map((n) => h("option", { value: n }, n)));
      if (wanted && names.includes(wanted)) table.value = wanted;
      columns = [];
      await refresh();
    } catch (e) {
      replace(out, errorBox(e));
    }
  };

  db.addEventListener("change", () => loadTables());
  table.addEventListener("change", () => {
    columns = [];
    refresh();
  });
  let debounce: ReturnType<typeof setTimeout> | undefined;
  filter.addEventListener("input", () => {
    clearTimeout(debounce);
    debounce = setTimeout(refresh, 300);
  });
  limit.addEventListener("change", refresh);
  follow.addEventListener("change", refresh);

  const el = h(
    "div",
    { class: "view logs-view" },
    h("div", { class: "toolbar" }, db, table, filter, limit, h("label", {}, follow, " Follow"), status),
    out,
  );
  return {
    el,
    show: async (wantDb?: string, wantTable?: string) => {
      visible = true;
      const names = await databases().catch(() => ["public"]);
      const chosen = wantDb ?? db.value;
      replace(db, ...names.map((n) => h("option", { value: n }, n)));
      db.value = names.includes(chosen) ? chosen : "public";
      await loadTables(wantTable ?? table.value);
    },
    hide: () => {
      visible = false;
      clearTimeout(timer);
    },
  };
}
