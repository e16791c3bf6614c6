/** Loki translator: a typed push (src/protocols/loki) → rows of `loki_logs`, or pipeline entries. */
export { DEFAULT_LOKI_TABLE, lokiToBatch, lokiToEntries, metadataJson } from "./translate.ts";
export * from "./write.ts";
