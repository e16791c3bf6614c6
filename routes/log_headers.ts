/** The pipeline a log-protocol request names in its headers (OTLP logs, Loki; reference §6.11, §6.12). */
import { isTruthyWord } from "../src/common/hints.ts";
import type { Ctx } from "./context.ts";

/** A named pipeline and how to run it. */
export interface PipelineChoice {
  name: string;
  version: string | null;
  skipError: boolean;
  /** `max_nested_levels` of `x-greptime-pipeline-params` (the identity pipeline's flattening depth). */
  maxNestedLevels?: number;
}

/** `max_nested_levels` of a `x-greptime-pipeline-params` header; undefined unless a whole number. */
export function maxNestedLevelsParam(params: URLSearchParams): number | undefined {
  const v = params.get("max_nested_levels");
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
}

/**
 * `x-greptime-pipeline-name` (else the deprecated `x-greptime-log-pipeline-name`), its
 * `x-greptime-pipeline-version`, and `skip_error` and `max_nested_levels` from
 * `x-greptime-pipeline-params` (reference §6.11, §6.14); undefined
 * when no pipeline is named.
 */
export function pipelineFromHeaders(ctx: Ctx): PipelineChoice | undefined {
  const h = ctx.req.headers;
  const name = [h.get("x-greptime-pipeline-name"), h.get("x-greptime-log-pipeline-name")]
    .map((v) => v?.trim() ?? "")
    .find((v) => v !== "");
  if (name === undefined) return undefined;
  const params = new URLSearchParams(h.get("x-greptime-pipeline-params") ?? "");
  const version = h.get("x-greptime-pipeline-version")?.trim() || null;
  return {
    name,
    version,
    skipError: isTruthyWord(params.get("skip_error")),
    maxNestedLevels: maxNestedLevelsParam(params),
  };
}

/** `x-greptime-log-table-name`, else the protocol's default table. */
export function logTable(ctx: Ctx, fallback: string): string {
  return ctx.req.headers.get("x-greptime-log-table-name")?.trim() || fallback;
}
