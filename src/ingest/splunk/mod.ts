/** Splunk HEC translator: typed events (src/protocols/splunk) → the Splunk log model, and the writer. */
export { checkIndex, DEFAULT_SPLUNK_TABLE, groupByTable, toSplunkModel } from "./translate.ts";
export * from "./write.ts";
