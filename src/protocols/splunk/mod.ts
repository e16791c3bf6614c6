/** Splunk HTTP Event Collector: body decoders, HEC codes and response bodies. */
export { HecCode, HecError } from "./errors.ts";
export { decodeHecEvents, decodeHecRaw, type HecDefaults, type HecEvent, parseEpochSeconds } from "./hec.ts";
export { hecError, hecHealthy, type HecResponse, hecSuccess } from "./response.ts";
