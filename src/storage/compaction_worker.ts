/**
 * Worker entry of compaction (`metric_compaction.ts`): reads a closed window from the samples table
 * on a read-only connection, in one read transaction, and encodes its chunks, so the writer's thread
 * only writes them. The connection is opened per window (windows close once an hour) and closed
 * after, so no file stays open here once the job is answered (a dropped database's files go away).
 */
import { parentPort } from "node:worker_threads";
import { DatabaseHandle } from "./database.ts";
import { isPhysicalTable } from "./metric_layout.ts";
import { readWindow, windowBuffers, type WindowReply, type WindowRequest } from "./metric_window.ts";

function answer(req: WindowRequest & { id: number }): { reply: WindowReply; transfer: ArrayBuffer[] } {
  let handle: DatabaseHandle | undefined;
  try {
    handle = new DatabaseHandle(req.db, { main: req.main, nowal: req.nowal }, { readOnly: true });
    handle.conn.exec("BEGIN");
    const physical = handle.getTable(req.table);
    if (physical === undefined || !isPhysicalTable(physical) || physical.id !== req.tableId) {
      return { reply: { id: req.id, gone: true }, transfer: [] };
    }
    const window = readWindow(handle, physical, req.start);
    return { reply: { id: req.id, window }, transfer: windowBuffers(window) };
  } catch (e) {
    return { reply: { id: req.id, error: String((e as Error)?.stack ?? e) }, transfer: [] };
  } finally {
    try {
      handle?.conn.close();
    } catch { /* already closed */ }
  }
}

parentPort?.on("message", (req: WindowRequest & { id: number }) => {
  const { reply, transfer } = answer(req);
  parentPort!.postMessage(reply, transfer);
});
