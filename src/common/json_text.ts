/**
 * JSON text → engine values with serde_json's integers (reference §2): an integer that fits in i64 stays
 * exact (a bigint beyond 2^53), a larger one becomes a float. Plain `JSON.parse` would round
 * `1716668197217123456` (a nanosecond epoch) to the nearest double.
 */

const I64_MIN = -9223372036854775808n;
const I64_MAX = 9223372036854775807n;
// Only a run of 16+ digits can be an integer beyond 2^53; other texts take the plain (fast) parse.
const LONG_DIGITS = /\d{16}/;
const INTEGER_TEXT = /^-?\d+$/;

function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
  const src = context?.source;
  if (src === undefined || !INTEGER_TEXT.test(src)) return value;
  const n = BigInt(src);
  return n >= I64_MIN && n <= I64_MAX ? n : value;
}

/** Whether `text` may hold an integer beyond 2^53 (else plain `JSON.parse` is exact for all of it). */
export function mayHoldLongIntegers(text: string): boolean {
  return LONG_DIGITS.test(text);
}

/** `JSON.parse` keeping i64 integers exact; throws SyntaxError like it. */
export function parseJsonText(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(text, exactIntegers as (this: unknown, key: string, value: unknown) => unknown);
}
