/** Elasticsearch `_bulk` ingestion: the body decoder and the response builders. */
export { type BulkAction, type BulkItem, type BulkRequest, decodeBulk } from "./bulk.ts";
export {
  bulkErrorResponse,
  type BulkItemOutcome,
  bulkItemsResponse,
  type BulkResponse,
  bulkSuccessJson,
} from "./response.ts";
