/** The table browser: databases and their tables; a table's schema, options, size, row count and newest rows. */
import { sql, sqlObjects } from "./api.ts";
import { type ColumnInfo, databases, describe, tables, timeIndex } from "./catalog.ts";
import { h, replace } from "./dom.ts";
import { grid } from "./grid.ts";
import { ident, literal } from "./sql_text.ts";
import { card, errorBox, facts, formatBytes } from "./ui.ts";

/** Where the browser can send the user next. */
export interface TableActions {
  query(db: string, text: string): void;
  tail(db: string, table: string): void;
}

/** Builds the table browser. `show(db, table)` opens a table (or just the list when no table). */
export function tablesView(
  actions: TableActions,
): { el: HTMLElement; show: (db?: string, table?: string) => void } {
  const tree = h("nav", { class: "tree", id: "tables-tree", "aria-label": "Databases and tables" });
  const detail = h(
    "div",
    { class: "detail", id: "table-detail" },
    h("p", { class: "muted" }, "Pick a table."),
  );
  const el = h("div", { class: "view tables-view" }, tree, detail);
  let current = "";
  let loaded = false;

  const loadTree = async (openDb?: string) => {
    try {
      const dbs = await databases();
      const items = await Promise.all(dbs.map(async (db) => {
        const list = h("ul", {});
        const open = db === openDb || (openDb === undefined && db === "public");
        const details = h("details", { "data-db": db, open }, h("summary", {}, db), list);
        let filled: Promise<void> | null = null;
        const fill = () =>
          filled ??= (async () => {
            try {
              const names = await tables(db);
              if (names.length === 0) list.appendChild(h("li", { class: "muted" }, "no tables"));
              for (const t of names) {
                list.appendChild(
                  h(
                    "li",
                    {},
                    h("a", { href: `#/tables/${encodeURIComponent(db)}/${encodeURIComponent(t)}` }, t),
                  ),
                );
              }
            } catch (e) {
              list.appendChild(h("li", {}, errorBox(e)));
              filled = null;
            }
          })();
        details.addEventListener("toggle", () => details.open && fill());
        if (open) await fill();
        return details;
      }));
      replace(
        tree,
        h(
          "h3",
          {},
          "Databases ",
          h("button", { class: "link small", title: "Reload", onclick: () => loadTree(openDb) }, "↻"),
        ),
        ...items,
      );
      loaded = true;
    } catch (e) {
      replace(tree, errorBox(e));
    }
  };

  const showTable = async (db: string, table: string) => {
    const key = `${db}.${table}`;
    current = key;
    replace(detail, h("h2", {}, `${db}.${table}`), h("p", { class: "muted" }, "Loading…"));
    try {
      const columns = await describe(db, table);
      const parts = await tableParts(db, table, columns, actions);
      if (current === key) replace(detail, ...parts);
    } catch (e) {
      if (current === key) replace(detail, h("h2", {}, `${db}.${table}`), errorBox(e));
    }
  };

  return {
    el,
    show: (db?: string, table?: string) => {
      if (!loaded) loadTree(db);
      if (db && table) showTable(db, table);
    },
  };
}

async function tableParts(
  db: string,
  table: string,
  columns: ColumnInfo[],
  actions: TableActions,
): Promise<HTMLElement[]> {
  const ts = timeIndex(columns);
  const q = ident(table);
  const [count, create, info] = await Promise.all([
    sql(`SELECT count(*) FROM ${q}`, db),
    sql(`SHOW CREATE TABLE ${q}`, db),
    sqlObjects(
      `SELECT * FROM information_schema.tables WHERE table_schema = ${literal(db)} AND table_name = ${
        literal(table)
      }`,
    ),
  ]);
  const rowsOut = count.outputs[0];
  const rowCount = rowsOut?.kind === "records" ? String(rowsOut.rows[0]?.[0] ?? "?") : "?";
  const createOut = create.outputs[0];
  const ddl = createOut?.kind === "records" ? String(createOut.rows[0]?.[1] ?? "") : "";
  const meta = info[0] ?? {};
  const dataBytes = Number(meta.data_length ?? 0) + Number(meta.index_length ?? 0);
  const newest = `SELECT * FROM ${q}${ts ? ` ORDER BY ${ident(ts.name)} DESC` : ""} LIMIT 100`;
  const preview = await sql(newest, db);
  const previewOut = preview.outputs[0];
  const optionsMatch = /WITH\s*\(([\s\S]*)\)\s*$/.exec(ddl.trim());
  return [
    h(
      "div",
      { class: "title-row" },
      h("h2", { id: "table-title" }, `${db}.${table}`),
      h("button", { onclick: () => actions.query(db, newest) }, "Query"),
      ts ? h("button", { onclick: () => actions.tail(db, table) }, "Tail as logs") : null,
    ),
    facts([
      ["Rows", h("span", { id: "table-rows" }, rowCount)],
      ["Disk size", dataBytes > 0 ? formatBytes(dataBytes) : "n/a (0 in information_schema)"],
      ["Engine", String(meta.engine ?? "")],
      ["Created", String(meta.create_time ?? "")],
      ["Time index", ts?.name ?? "none"],
      ["Options", optionsMatch ? optionsMatch[1].trim().replace(/\s*\n\s*/g, " ") : "none"],
    ]),
    card(
      "Schema",
      grid(
        [{ name: "Column" }, { name: "Type" }, { name: "Key" }, { name: "Null" }, { name: "Semantic Type" }],
        columns.map((c) => [c.name, c.type, c.key, c.nullable ? "YES" : "NO", c.semantic]),
        { maxHeight: 320 },
      ),
    ),
    card("Create table", h("pre", { class: "ddl" }, ddl)),
    card(
      "Newest rows",
      previewOut?.kind === "records"
        ? grid(previewOut.columns.map((c) => ({ name: c.name, type: c.data_type })), previewOut.rows, {
          maxHeight: 400,
        })
        : h("p", {}, "No rows"),
    ),
  ];
}
