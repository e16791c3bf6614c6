/**
 * Views (`CREATE VIEW`): named queries of a database, kept in its own file beside the table catalog
 * (table `__petrel_views`), so they go with the database when it is dropped and survive a restart.
 * The query is stored as written and planned again at every use, as GreptimeDB does.
 */
import { PetrelError, StatusCode } from "../common/errors.ts";
import type { DatabaseHandle } from "./database.ts";
import { quoteIdent } from "./table.ts";

const VIEWS = "__petrel_views";

/** One view of a database. */
export interface ViewMeta {
  name: string;
  /** The database it belongs to (not stored: the file says it). */
  db: string;
  /** Shares the table id sequence (information_schema.tables shows it). */
  id: number;
  /** The `CREATE VIEW` statement as written (information_schema.views' view_definition). */
  definition: string;
  /** The text of the query after `AS`. */
  query: string;
  /** Names given in `CREATE VIEW v (a, b)`: they rename the query's columns; empty keeps them. */
  columns: string[];
  orReplace: boolean;
  ifNotExists: boolean;
  /** When it was created (ms). */
  createdAt: number;
}

const loaded = new WeakMap<DatabaseHandle, Map<string, ViewMeta>>();

function hasViewTable(handle: DatabaseHandle): boolean {
  return handle.conn.prepare(`SELECT 1 AS x FROM main.sqlite_master WHERE type = 'table' AND name = ?`)
    .get(VIEWS) !== undefined;
}

/** The views of a database, read from its file once per opening. */
export function viewMap(handle: DatabaseHandle): Map<string, ViewMeta> {
  let views = loaded.get(handle);
  if (views) return views;
  views = new Map();
  if (hasViewTable(handle)) {
    const rows = handle.conn.prepare(`SELECT meta FROM ${quoteIdent(VIEWS)}`).all() as Array<
      { meta: string }
    >;
    for (const r of rows) {
      const v = { ...JSON.parse(r.meta), db: handle.name } as ViewMeta;
      views.set(v.name, v);
    }
  }
  // ids come from the table sequence, which only counts tables when the catalog loads
  for (const v of views.values()) handle.noteId(v.id);
  loaded.set(handle, views);
  return views;
}

/** The views of a database, by name. */
export function listViews(handle: DatabaseHandle): ViewMeta[] {
  return [...viewMap(handle).values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A view, if it exists (exact name first, then a case-insensitive match, as tables resolve). */
export function getView(handle: DatabaseHandle, name: string): ViewMeta | undefined {
  const views = viewMap(handle);
  const exact = views.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const v of views.values()) if (v.name.toLowerCase() === lower) return v;
  return undefined;
}

/** A fresh id for a new view. */
export function allocateViewId(handle: DatabaseHandle): number {
  viewMap(handle);
  return handle.allocateId();
}

/** Stores a view (replacing one of the same name); durable when it returns. */
export function saveView(handle: DatabaseHandle, view: ViewMeta): void {
  if (handle.getTable(view.name)) {
    throw new PetrelError(
      StatusCode.TableAlreadyExists,
      `Table already exists: \`greptime.${handle.name}.${view.name}\``,
    );
  }
  const views = viewMap(handle);
  const { db: _db, ...stored } = view;
  handle.transaction(() => {
    handle.conn.exec(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(VIEWS)} (name TEXT PRIMARY KEY, meta TEXT NOT NULL)`,
    );
    handle.conn.prepare(`INSERT OR REPLACE INTO ${quoteIdent(VIEWS)} (name, meta) VALUES (?, ?)`).run(
      view.name,
      JSON.stringify(stored),
    );
  });
  views.set(view.name, view);
}

/** Deletes a view; false if there was none. */
export function deleteView(handle: DatabaseHandle, name: string): boolean {
  const view = getView(handle, name);
  if (!view) return false;
  handle.transaction(() => {
    handle.conn.prepare(`DELETE FROM ${quoteIdent(VIEWS)} WHERE name = ?`).run(view.name);
  });
  viewMap(handle).delete(view.name);
  return true;
}
