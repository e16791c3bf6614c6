/**
 * A HEC event body: JSON objects one after another, with or without whitespace between them
 * (`{"event":"a"}{"event":"b"}`), as Splunk's collector reads it. Each object's extent is found by
 * counting braces outside strings, then it is parsed keeping i64 integers exact (`parseJsonText`).
 */
import { parseJsonText } from "../../common/json_text.ts";
import { HecCode, HecError } from "./errors.ts";

const WS = new Set([" ", "\t", "\n", "\r"]);

function invalid(n: number, why: string): HecError {
  return new HecError(HecCode.InvalidDataFormat, `Invalid data format: event ${n} ${why}`, n);
}

/** The end (exclusive) of the object starting at `start`, or -1 when the text ends first. */
function objectEnd(t: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Splits and parses a stream of concatenated JSON objects; 400 (code 6) naming the bad one. */
export function splitJsonStream(t: string): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  while (i < t.length) {
    if (WS.has(t[i])) {
      i++;
      continue;
    }
    const n = out.length;
    if (t[i] !== "{") {
      const what = t[i] === "[" ? "is an array; send the objects one after another" : "is not a JSON object";
      throw invalid(n, what);
    }
    const end = objectEnd(t, i);
    if (end < 0) throw invalid(n, "is not complete JSON (the body ends inside it)");
    try {
      out.push(parseJsonText(t.slice(i, end)));
    } catch (e) {
      throw invalid(n, `is not valid JSON: ${(e as Error).message}`);
    }
    i = end;
  }
  return out;
}
