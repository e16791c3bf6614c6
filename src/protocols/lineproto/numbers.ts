/**
 * Numeric field values of line protocol: the allocation-free fast path for plain numbers, and
 * `i`/`u` integer tokens with their Int64/UInt64 range checks.
 */

import type { DataType } from "../../common/rows.ts";
import {
  DOT,
  I64_MAX,
  I64_MIN,
  isEndOfValue,
  isIntegerToken,
  LineProblem,
  MINUS,
  narrow,
  NINE,
  POW10,
  U64_MAX,
  ZERO,
} from "./syntax.ts";

/** What the last successful `scanNumber` read (one shared record: the parser copies it out at once). */
export const scanned: { value: number; type: DataType; end: number } = { value: 0, type: "Float64", end: 0 };

/**
 * Fast path for plain numbers (`-?digits[.digits]` with at most 15 digits, optional `i`/`u`) at
 * `text[p]` (whose char code is `c`): the digits fit a double exactly, so `mantissa / 10^k` is the
 * correctly rounded value and no substring or `Number()` call is needed. Fills `scanned` and returns
 * true; anything else returns false for the general path.
 */
export function scanNumber(text: string, p: number, c: number): boolean {
  const start = p;
  let neg = false;
  if (c === MINUS) {
    neg = true;
    c = text.charCodeAt(++p);
  }
  let mant = 0, digits = 0, frac = 0, dot = false;
  for (;;) {
    if (c >= ZERO && c <= NINE) {
      mant = mant * 10 + (c - ZERO);
      digits++;
      if (dot) frac++;
    } else if (c === DOT && !dot) {
      dot = true;
    } else break;
    c = text.charCodeAt(++p);
  }
  if (digits === 0) return false;
  if (digits > 15) {
    // Too many digits for the exact shortcut, but the syntax is checked: let Number() round it.
    if (!isEndOfValue(c)) return false;
    scanned.value = Number(text.slice(start, p));
    scanned.type = "Float64";
    scanned.end = p;
    return true;
  }
  if (isEndOfValue(c)) {
    scanned.value = neg ? -(frac === 0 ? mant : mant / POW10[frac]) : frac === 0 ? mant : mant / POW10[frac];
    scanned.type = "Float64";
    scanned.end = p;
    return true;
  }
  if ((c === 105 /* i */ || (c === 117 /* u */ && !neg)) && !dot && isEndOfValue(text.charCodeAt(p + 1))) {
    scanned.value = neg ? 0 - mant : mant;
    scanned.type = c === 105 ? "Int64" : "UInt64";
    scanned.end = p + 1;
    return true;
  }
  return false;
}

/** An `i` (signed) or `u` (unsigned) integer token, suffix included; a LineProblem when out of range or malformed. */
export function parseIntegerToken(tok: string, signed: boolean): number | bigint {
  const end = tok.length - 1;
  if (!isIntegerToken(tok, end, signed)) {
    throw new LineProblem(
      signed ? `Unable to parse integer value '${tok}'` : `Unable to parse unsigned integer value '${tok}'`,
    );
  }
  const digits = tok.slice(0, end);
  if (end <= 15) return Number(digits) + 0; // + 0 turns -0 into 0
  const v = BigInt(digits);
  if (signed ? v < I64_MIN || v > I64_MAX : v > U64_MAX) {
    throw new LineProblem(
      signed ? `Unable to parse integer value '${tok}'` : `Unable to parse unsigned integer value '${tok}'`,
    );
  }
  return narrow(v);
}
