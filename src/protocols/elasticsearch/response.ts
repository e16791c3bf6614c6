/**
 * The `_bulk` response as GreptimeDB shapes it: on success one `{"create":{"status":201}}` item per
 * document (GreptimeDB names every item `create`, whatever the action), `errors:false`; on failure a
 * single item with the status and an `illegal_argument_exception` naming the reason, `errors:true`.
 * `bulkItemsResponse` adds per-item outcomes in Elasticsearch's own shape for partial failures.
 */

/** The outcome of one bulk item. */
export interface BulkItemOutcome {
  /** HTTP-style status of the item (201 created, 400 rejected, …). */
  status: number;
  /** Why the item failed (absent on success). */
  error?: { type: string; reason: string };
  /** The item's action; GreptimeDB reports every item as `create`. */
  action?: "create" | "index";
  index?: string;
  id?: string | null;
}

/** The JSON body of a `_bulk` response. */
export interface BulkResponse {
  took: number;
  errors: boolean;
  items: Record<string, Record<string, unknown>>[];
}

const SUCCESS_ITEM = '{"create":{"status":201}}';

/**
 * The JSON text of a success for `n` documents (GreptimeDB's shape), built as text: the items are
 * all alike, and serializing one object per document cost as much as a tenth of the ingest.
 */
export function bulkSuccessJson(tookMs: number, n: number): string {
  const items = n > 0 ? SUCCESS_ITEM + ("," + SUCCESS_ITEM).repeat(n - 1) : "";
  return `{"took":${JSON.stringify(tookMs)},"errors":false,"items":[${items}]}`;
}

/** The whole request failed (GreptimeDB answers this with the given HTTP status, usually 400). */
export function bulkErrorResponse(tookMs: number, status: number, reason: string): BulkResponse {
  return {
    took: tookMs,
    errors: true,
    items: [{ create: { status, error: { type: "illegal_argument_exception", reason } } }],
  };
}

/** A response with one outcome per item (`errors` is true when any item failed). */
export function bulkItemsResponse(tookMs: number, outcomes: BulkItemOutcome[]): BulkResponse {
  let errors = false;
  const items = outcomes.map((o) => {
    const body: Record<string, unknown> = {};
    if (o.index !== undefined) body._index = o.index;
    if (o.id !== undefined) body._id = o.id;
    body.status = o.status;
    if (o.error !== undefined) {
      body.error = o.error;
      errors = true;
    }
    return { [o.action ?? "create"]: body };
  });
  return { took: tookMs, errors, items };
}
