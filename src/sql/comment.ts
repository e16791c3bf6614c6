/**
 * GreptimeDB's `COMMENT ON TABLE t IS '…'`, `COMMENT ON COLUMN t.c IS '…'` and `COMMENT ON FLOW f
 * IS '…'` (`IS NULL` removes the comment). A table's comment is its `comment` option, as `CREATE TABLE
 * … WITH (comment = '…')` sets it; a column's is the one `CREATE TABLE` takes after `COMMENT`; a
 * flow's the one `CREATE FLOW … COMMENT '…'` takes. All are metadata only.
 */
import { PetrelError, StatusCode, unsupported } from "../common/errors.ts";
import type { QueryOutput } from "../common/rows.ts";
import { listFlows, saveFlow } from "../downsample/flow_store.ts";
import { alterOptions } from "../storage/ddl.ts";
import type { Storage } from "../storage/mod.ts";
import type { Cursor } from "./cursor.ts";
import { affected, notATable, type Session, tableName } from "./ddl_syntax.ts";

/** Runs the rest of a COMMENT statement (the cursor is past `COMMENT`). */
export function commentStatement(storage: Storage, cur: Cursor, session: Session): QueryOutput {
  cur.expectKw("ON");
  if (cur.acceptKw("TABLE")) {
    const { db, table } = tableName(cur.objectName(), session);
    const comment = parseComment(cur);
    const handle = storage.database(db);
    const meta = handle.getTable(table);
    if (!meta) throw notATable(handle, db, table, "a view has no comment");
    alterOptions(handle, meta, comment === null ? {} : { comment }, comment === null ? ["comment"] : []);
    return affected(0);
  }
  if (cur.acceptKw("COLUMN")) {
    const parts = cur.objectName();
    if (parts.length < 2) throw cur.error("Expected: a column name as table.column");
    const column = parts[parts.length - 1];
    const { db, table } = tableName(parts.slice(0, -1), session);
    const comment = parseComment(cur);
    const handle = storage.database(db);
    const meta = handle.getTable(table);
    if (!meta) throw notATable(handle, db, table, "a view has no comment");
    const col = meta.columns.find((c) => c.name.toLowerCase() === column.toLowerCase());
    if (!col) {
      throw new PetrelError(StatusCode.TableColumnNotFound, `Column ${column} not exists in table ${table}`);
    }
    const next = { ...col, comment: comment ?? undefined };
    if (comment === null) delete next.comment;
    handle.transaction(() =>
      handle.saveMeta({ ...meta, columns: meta.columns.map((c) => c === col ? next : c) })
    );
    return affected(0);
  }
  if (cur.acceptKw("FLOW")) {
    const parts = cur.objectName();
    const name = parts[parts.length - 1];
    const comment = parseComment(cur);
    const flow = listFlows(storage).find((f) => f.spec.name === name);
    if (!flow) throw new PetrelError(StatusCode.FlowNotFound, `Flow not found: greptime.${name}`);
    // the comment is only shown (SHOW CREATE FLOW, information_schema.flows): the rule stays as it runs
    saveFlow(storage, { ...flow, spec: { ...flow.spec, comment: comment ?? "" } });
    return affected(0);
  }
  throw unsupported(`Unsupported statement: COMMENT ON ${cur.describe().toUpperCase()}`);
}

/** `IS '…'` or `IS NULL`: the comment, or null to remove it. */
function parseComment(cur: Cursor): string | null {
  cur.expectKw("IS");
  if (cur.acceptKw("NULL")) {
    cur.expectEnd();
    return null;
  }
  const t = cur.next();
  if (t.kind !== "string") throw cur.error(`Expected: a string literal, found: ${t.text}`);
  cur.expectEnd();
  return t.value;
}
