/** The bodies HEC answers with: `{"text":"…","code":N}`, plus `invalid-event-number` for one event's fault. */
import { HecCode } from "./errors.ts";

/** A HEC response body. */
export interface HecResponse {
  text: string;
  code: number;
  "invalid-event-number"?: number;
}

/** `{"text":"Success","code":0}`. */
export function hecSuccess(): HecResponse {
  return { text: "Success", code: HecCode.Success };
}

/** The health check's answer. */
export function hecHealthy(): HecResponse {
  return { text: "HEC is healthy", code: HecCode.Healthy };
}

/** An error body. */
export function hecError(code: number, text: string, eventNumber?: number): HecResponse {
  return eventNumber === undefined ? { text, code } : { text, code, "invalid-event-number": eventNumber };
}
