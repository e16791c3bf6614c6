/**
 * Elasticsearch bulk items → pipeline entries per target table (the identity pipeline, or the one
 * `?pipeline_name=` names, runs them later), as GreptimeDB does (`src/servers/src/elasticsearch.rs`):
 * the table is the action's `_index`, else the URL's `{index}`; with `?msg_field=` a document's
 * string field of that name is parsed as the JSON document (or kept as `{<field>: text}` when it is
 * not JSON). Each table remembers which items it holds, for the per-item response.
 */
import { invalidArguments } from "../../common/errors.ts";
import type { BulkRequest } from "../../protocols/elasticsearch/bulk.ts";

/** Where a bulk request's documents go. */
export interface BulkOptions {
  /** The `{index}` of `/{index}/_bulk`, when the URL has one. */
  indexFromUrl?: string | null;
  /** `?msg_field=`. */
  msgField?: string | null;
}

/** The documents bound for one table. */
export interface BulkTable {
  table: string;
  entries: Record<string, unknown>[];
  /** `items[i]` is the request item (position in `BulkRequest.items`) of `entries[i]`. */
  items: number[];
}

/** Bulk entries grouped by table, in order of first appearance. */
export interface BulkEntries {
  tables: BulkTable[];
  documents: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The log value of a document under `?msg_field=`. */
function fromMsgField(doc: unknown, field: string): unknown {
  if (!isObject(doc) || !(field in doc)) return doc;
  const message = doc[field];
  if (typeof message !== "string") return message;
  try {
    return JSON.parse(message);
  } catch {
    return { [field]: message };
  }
}

/** Groups the documents of a bulk request by table (pure); 400 for a missing index or a non-object document. */
export function bulkToEntries(req: BulkRequest, opts: BulkOptions = {}): BulkEntries {
  const byTable = new Map<string, BulkTable>();
  const url = opts.indexFromUrl ?? null;
  req.items.forEach((item, i) => {
    const table = item.index ?? url;
    if (table === null || table === "") {
      throw invalidArguments("Invalid Elasticsearch input: missing index in bulk request");
    }
    const doc = opts.msgField ? fromMsgField(item.document, opts.msgField) : item.document;
    if (!isObject(doc)) {
      throw invalidArguments(`Invalid Elasticsearch input: document ${i + 1} is not a JSON object`);
    }
    let t = byTable.get(table);
    if (t === undefined) {
      t = { table, entries: [], items: [] };
      byTable.set(table, t);
    }
    t.entries.push(doc);
    t.items.push(i);
  });
  return { tables: [...byTable.values()], documents: req.items.length };
}
