/** Elasticsearch translator: bulk items (src/protocols/elasticsearch) → pipeline entries per table. */
export { type BulkEntries, type BulkOptions, type BulkTable, bulkToEntries } from "./translate.ts";
export * from "./write.ts";
