/**
 * The pipeline's time formats: chrono's parse dialect as GreptimeDB's `date` processor and
 * `timestamp` index read it (the shared parser lives in `src/common/strptime.ts`).
 */

import {
  CHRONO_PARSE,
  compileParse,
  type ParsedTime,
  type ParseFormat,
  parseTimeOrNull,
} from "../src/common/strptime.ts";

export type { ParsedTime };

/** Compiles a format; returns null for an invalid format (chrono: `BadFormat`). */
export function compileStrftime(fmt: string): ParseFormat | null {
  return compileParse(fmt, CHRONO_PARSE);
}

/** Parses `s` with a compiled format; null when it does not match completely. */
export function parseStrftime(s: string, format: ParseFormat): ParsedTime | null {
  return parseTimeOrNull(s, format);
}
