/**
 * `parse_json(…, max_depth: n)`: objects and arrays nested deeper than `n` are kept as their raw JSON text,
 * as VRL returns them (serde_json's `RawValue`).
 */

import type { VrlObject, VrlValue } from "../value.ts";
import { fail } from "./def.ts";

const SCALAR = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** Parses JSON `text` (already known to be valid) down to `maxDepth` levels of containers. */
export function parseJsonToDepth(
  text: string,
  maxDepth: number,
  scalar: (token: string) => VrlValue,
): VrlValue {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  // The raw text of the container starting at `i`, skipping strings so brackets inside them do not count.
  const raw = (): string => {
    const start = i;
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      } else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        if (--depth === 0) return text.slice(start, ++i);
      }
    }
    return fail("unable to parse json: unbalanced brackets");
  };
  const value = (depth: number): VrlValue => {
    ws();
    const c = text[i];
    if (c !== "{" && c !== "[") {
      SCALAR.lastIndex = i;
      const m = SCALAR.exec(text);
      if (!m) return fail(`unable to parse json: unexpected character at ${i}`);
      i = SCALAR.lastIndex;
      return scalar(m[0]);
    }
    if (depth > maxDepth) return raw();
    i++;
    const close = c === "{" ? "}" : "]";
    const obj: VrlObject = new Map();
    const arr: VrlValue[] = [];
    ws();
    if (text[i] === close) {
      i++;
      return c === "{" ? obj : arr;
    }
    for (;;) {
      if (c === "{") {
        ws();
        SCALAR.lastIndex = i;
        const key = SCALAR.exec(text)?.[0] ?? fail(`unable to parse json: expected a key at ${i}`);
        i = SCALAR.lastIndex;
        ws();
        i++; // the `:`
        obj.set(JSON.parse(key), value(depth + 1));
      } else arr.push(value(depth + 1));
      ws();
      if (text[i++] === close) return c === "{" ? obj : arr;
    }
  };
  return value(1);
}
