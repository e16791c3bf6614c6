/**
 * Strings holding U+0000 are stored as their UTF-8 bytes: a BLOB inside the TEXT column. SQLite
 * keeps such a TEXT value whole, but node:sqlite reads a text value as a C string, up to its first
 * NUL (and SQLite's own `length()` and `LIKE` stop there too), so stored as text a log line with an
 * embedded `\0` would lose its tail on every read. A BLOB reads back whole; every reader of a String
 * or Json column turns a non-empty BLOB back into its string (the empty BLOB stays the null-tag
 * stand-in, which no string needs: the empty string holds no NUL). Strings without a NUL, nearly
 * all of them, are stored and read as before, at the cost of one `indexOf` on the write.
 */
import type { DataType, Value } from "../common/rows.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Whether a string must be stored as bytes (it holds a NUL). */
export function holdsNul(s: string): boolean {
  return s.indexOf("\u0000") !== -1;
}

/** The value that stores a string whole: the string itself, or its UTF-8 bytes when it holds a NUL. */
export function storedText(s: string): string | Uint8Array {
  return s.indexOf("\u0000") === -1 ? s : encoder.encode(s);
}

/** A stored text value read back: a non-empty BLOB becomes its string; anything else is kept. */
export function textOf<T>(v: T): T | string {
  return v instanceof Uint8Array && v.length > 0 ? decoder.decode(v) : v;
}

/** Whether a column of this type holds text (stored strings with a NUL come back as BLOBs). */
export function isTextType(type: DataType | string): boolean {
  return type === "String" || type === "Json";
}

/** Turns the non-empty BLOBs of columns `at` of `rows` back into strings, in place. */
export function decodeTextColumns(rows: Value[][] | unknown[][], at: readonly number[]): void {
  if (at.length === 0) return;
  for (const row of rows) {
    for (const i of at) {
      const v = row[i];
      // strings are the common case: one typeof, no call
      if (typeof v === "object" && v !== null && (v as Uint8Array).length > 0) {
        row[i] = decoder.decode(v as Uint8Array);
      }
    }
  }
}
