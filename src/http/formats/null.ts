/** The `null` format (GreptimeDB `http/result/null_result.rs`): only counts and elapsed time. */
import type { QueryOutput } from "../../common/rows.ts";
import { CONTENT_TYPE, formatResponse, type RenderOptions, singleOutput, wholeMillis } from "./response.ts";

/** Seconds with three decimals, computed on whole ms so no float rounding creeps in. */
function elapsedSeconds(ms: number): string {
  const whole = wholeMillis(ms);
  return `${Math.floor(whole / 1000)}.${String(whole % 1000).padStart(3, "0")}`;
}

/** The null body of a single statement's output (no output counts as an empty set). */
export function nullBody(output: QueryOutput | undefined, executionTimeMs: number): string {
  const count = output === undefined
    ? "0 rows in set."
    : output.kind === "affected"
    ? `${output.rows} rows affected.`
    : `${output.rows.length} rows in set.`;
  return `${count}\nElapsed: ${elapsedSeconds(executionTimeMs)} sec.\n`;
}

/** Renders a single statement as `"<n> rows in set.\nElapsed: 0.003 sec.\n"`; several are a 400. */
export function renderNull(outputs: QueryOutput[], opts: RenderOptions): Response {
  const body = nullBody(singleOutput(outputs, "null"), opts.executionTimeMs);
  return formatResponse(body, CONTENT_TYPE.text, "null", opts.executionTimeMs);
}
