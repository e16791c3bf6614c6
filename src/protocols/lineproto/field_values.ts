/**
 * One field value of a line: a quoted string, a number (the allocation-free fast path first), an
 * `i`/`u` integer or a boolean, read into one shared record (the parser copies it out at once).
 */
import type { DataType, Value } from "../../common/rows.ts";
import { parseIntegerToken, scanned, scanNumber } from "./numbers.ts";
import {
  BACKSLASH,
  BOOLEANS,
  DOT,
  isEndOfValue,
  isFloatToken,
  LineProblem,
  MINUS,
  NINE,
  PLUS,
  QUOTE,
  unescapeString,
  ZERO,
} from "./syntax.ts";

/** What the last {@link readFieldValue} read: the value, its type, and where it ended. */
export const field: { value: Value; type: DataType; end: number } = { value: null, type: "Float64", end: 0 };

function readQuoted(text: string, p: number, key: string): void {
  const n = text.length;
  const valStart = p + 1;
  p = valStart;
  let esc = false;
  for (;;) {
    if (p >= n) throw new LineProblem(`Unterminated string value for field key '${key}'`);
    const d = text.charCodeAt(p);
    if (d === BACKSLASH) {
      esc = true;
      p += 2;
      continue;
    }
    if (d === QUOTE) break;
    p++;
  }
  const raw = text.slice(valStart, p);
  field.value = esc ? unescapeString(raw) : raw;
  field.type = "String";
  field.end = p + 1;
}

/** A value that is not a plain number: `i`/`u` integers, other floats, booleans. */
function readToken(text: string, p: number, c: number, key: string): void {
  const valStart = p;
  while (!isEndOfValue(text.charCodeAt(p))) p++;
  if (p === valStart) throw new LineProblem(`Invalid field set: missing value for field key '${key}'`);
  const tok = text.slice(valStart, p);
  const last = tok.charCodeAt(tok.length - 1);
  field.end = p;
  if (last === 105 /* i */) {
    field.value = parseIntegerToken(tok, true);
    field.type = "Int64";
  } else if (last === 117 /* u */) {
    field.value = parseIntegerToken(tok, false);
    field.type = "UInt64";
  } else if ((c >= ZERO && c <= NINE) || c === MINUS || c === PLUS || c === DOT) {
    if (!isFloatToken(tok)) throw new LineProblem(`Unable to parse floating-point value '${tok}'`);
    field.value = Number(tok);
    field.type = "Float64";
  } else {
    const b = BOOLEANS[tok];
    if (b === undefined) throw new LineProblem(`Invalid field value for field key '${key}': '${tok}'`);
    field.value = b;
    field.type = "Boolean";
  }
}

/** Reads the field value starting at `text[p]` (of field `key`, for messages) into {@link field}. */
export function readFieldValue(text: string, p: number, key: string): void {
  const c = text.charCodeAt(p);
  if (c === QUOTE) return readQuoted(text, p, key);
  if (scanNumber(text, p, c)) {
    field.value = scanned.value;
    field.type = scanned.type;
    field.end = scanned.end;
    return;
  }
  readToken(text, p, c, key);
}
