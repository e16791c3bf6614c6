/**
 * JSON text → engine values with serde_json's integers (reference §2): an integer that fits in i64 stays
 * exact (a bigint beyond 2^53), a larger one becomes a float. Plain `JSON.parse` would round
 * `1716668197217123456` (a nanosecond epoch) to the nearest double.
 */

const I64_MIN = -9223372036854775808n;
const I64_MAX = 9223372036854775807n;
const INTEGER_TEXT = /^-?\d+$/;
/** An integer literal beyond 2^53 parses to a double at least this large (rounding keeps it there). */
const UNSAFE = 2 ** 53;

function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return value;
  const src = context?.source;
  if (src === undefined || !INTEGER_TEXT.test(src)) return value;
  const n = BigInt(src);
  return n >= I64_MIN && n <= I64_MAX ? n : value;
}

/** Whether a parsed value holds a number of magnitude ≥ 2^53: only then may the exact parse differ. */
function holdsUnsafeNumber(v: unknown): boolean {
  if (typeof v === "number") return v >= UNSAFE || v <= -UNSAFE;
  if (typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsUnsafeNumber(v[i])) return true;
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) if (holdsUnsafeNumber(o[k])) return true;
  return false;
}

/**
 * How deep objects and arrays may nest in a JSON body: serde_json's recursion limit (GreptimeDB parses
 * bodies with it), which refuses the 128th level.
 */
export const JSON_MAX_DEPTH = 127;

/**
 * Throws serde_json's SyntaxError "recursion limit exceeded" when `text` nests objects and arrays past
 * {@link JSON_MAX_DEPTH}. Scanning stops there: a body nested 100 000 deep is refused in microseconds,
 * where `JSON.parse` spent ~100 ms on it (several times that on a busy machine, with `/health` waiting)
 * and then the walks after it overflowed the stack. A plain body costs ~1 ms a MB, strings skipped by
 * `indexOf`. Text that is not JSON is left for `JSON.parse` to refuse.
 */
export function checkJsonDepth(text: string): void {
  if (fewOpeners(text)) return;
  const n = text.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > JSON_MAX_DEPTH) {
        const [line, column] = lineColumn(text, i);
        throw new SyntaxError(`recursion limit exceeded at line ${line} column ${column}`);
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
}

/**
 * Whether `text` holds fewer `{` and `[` than the depth limit, so it cannot nest past it: counted by
 * `indexOf` (native), ~3× cheaper than the scan on an Elasticsearch bulk line, which rarely has more
 * than a few.
 */
function fewOpeners(text: string): boolean {
  let n = 0;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1)) {
    if (++n > JSON_MAX_DEPTH) return false;
  }
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) {
    if (++n > JSON_MAX_DEPTH) return false;
  }
  return true;
}

const QUOTE = 34, BACKSLASH = 92, OPEN_BRACE = 123, CLOSE_BRACE = 125, OPEN_BRACKET = 91, CLOSE_BRACKET = 93;

/** Index of the quote closing the string opened at `open`, or -1 when it never closes. */
function closingQuote(text: string, open: number): number {
  for (let j = open;;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return j;
  }
}

/** Line and column (1-based, as serde_json reports them) of a character offset. */
export function lineColumn(text: string, offset: number): [number, number] {
  let line = 1, col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) line++, col = 1;
    else col++;
  }
  return [line, col];
}

/** `JSON.parse` of a request body, refusing first what nests past {@link JSON_MAX_DEPTH}. */
export function parseJsonBody(text: string): unknown {
  checkJsonDepth(text);
  return JSON.parse(text);
}

/**
 * `JSON.parse` keeping i64 integers exact, refusing nesting past {@link JSON_MAX_DEPTH}; throws
 * SyntaxError like it. The plain parse comes first
 * and the exact one (a reviver, several times slower) only when a parsed number is that large:
 * walking the values cost ~0.09 µs an Elasticsearch bulk document where scanning the text for a
 * 16-digit run cost ~0.36 µs.
 */
export function parseJsonText(text: string): unknown {
  const v = parseJsonBody(text);
  return holdsUnsafeNumber(v)
    ? JSON.parse(text, exactIntegers as (this: unknown, key: string, value: unknown) => unknown)
    : v;
}

const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/**
 * JSON text of a value `parseJsonText` read: its i64 bigints written as the integers they were
 * (`JSON.stringify` throws on a bigint, which made a HEC event of one a 500).
 */
export function formatJsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x) => typeof x === "bigint" ? rawJSON(String(x)) : x) ?? String(v);
}
