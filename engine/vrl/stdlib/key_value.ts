/**
 * `parse_key_value` / `parse_logfmt`: VRL's nom parser, pair after pair. A key runs to the key/value delimiter
 * (or, with standalone keys, to the field delimiter); `whitespace: "lenient"` (the default) allows blanks around
 * the key/value delimiter, so `user= msg=hi` gives `user: "msg=hi"` there and `user: ""` when strict.
 */

import type { VrlObject, VrlValue } from "../value.ts";
import { fail } from "./def.ts";

const isBlank = (c: string | undefined) => c === " " || c === "\t";

/** The pairs of `text`; repeated keys collect their values in an array. */
export function parseKeyValue(
  text: string,
  kvDelim: string,
  fieldDelim: string,
  strict: boolean,
  standalone: boolean,
): VrlObject {
  const p = new KeyValueParser(text, kvDelim, fieldDelim, strict, standalone);
  const out: VrlObject = new Map();
  const add = ([key, value]: [string, VrlValue]) => {
    const prev = out.get(key);
    if (prev === undefined) out.set(key, value);
    else if (Array.isArray(prev)) prev.push(value);
    else out.set(key, [prev, value]);
  };
  const first = p.pair();
  if (first) {
    add(first);
    for (;;) {
      const save = p.i;
      const next = p.fieldDelimiter() ? p.pair() : undefined;
      if (!next) {
        p.i = save;
        break;
      }
      add(next);
    }
  }
  if (text.slice(p.i).trim() !== "") return fail("could not parse whole line successfully");
  return out;
}

class KeyValueParser {
  i = 0;
  constructor(
    private readonly text: string,
    private readonly kvDelim: string,
    private readonly fieldDelim: string,
    private readonly strict: boolean,
    private readonly standalone: boolean,
  ) {}

  private blanks(): void {
    while (isBlank(this.text[this.i])) this.i++;
  }

  /** Consumes a field delimiter (a run of spaces when it is a space, else blanks and the delimiter). */
  fieldDelimiter(): boolean {
    const t = this.text;
    if (this.fieldDelim === " ") {
      if (t[this.i] !== " ") return false;
      while (t[this.i] === " ") this.i++;
      return true;
    }
    let j = this.i;
    while (t[j] === " ") j++;
    if (!t.startsWith(this.fieldDelim, j)) return false;
    this.i = j + this.fieldDelim.length;
    return true;
  }

  /** A quoted key or value at `i` (escapes `\"`, `\'`, `\\` undone), or undefined if the quote never closes. */
  private quoted(): string | undefined {
    const t = this.text, q = t[this.i];
    let j = this.i + 1, s = "";
    for (; j < t.length && t[j] !== q; j++) {
      if (t[j] === "\\" && (t[j + 1] === q || t[j + 1] === "\\" || t[j + 1] === '"' || t[j + 1] === "'")) j++;
      s += t[j];
    }
    if (j >= t.length) return undefined;
    this.i = j + 1;
    return s;
  }

  /** True when a field ends at `i`: the end of the text or (after blanks) the field delimiter. */
  private atFieldEnd(): boolean {
    let j = this.i;
    if (j >= this.text.length || this.text.startsWith(this.fieldDelim, j)) return true;
    while (this.text[j] === " ") j++;
    return j >= this.text.length || this.text.startsWith(this.fieldDelim, j);
  }

  private key(): string | undefined {
    const t = this.text;
    if (t[this.i] === '"' || t[this.i] === "'") return this.quoted();
    const kv = t.indexOf(this.kvDelim, this.i);
    const fd = this.standalone ? t.indexOf(this.fieldDelim, this.i) : -1;
    let end = kv < 0 ? fd : fd < 0 ? kv : Math.min(kv, fd);
    if (end < 0) {
      if (!this.standalone) return undefined;
      end = t.length;
    }
    const key = t.slice(this.i, end);
    this.i = end;
    return key === "" ? undefined : key;
  }

  private value(): string {
    const t = this.text, start = this.i;
    if (t[start] === '"' || t[start] === "'") {
      const q = this.quoted();
      if (q !== undefined && this.atFieldEnd()) return q;
      this.i = start;
    }
    const end = t.indexOf(this.fieldDelim, start);
    this.i = end < 0 ? t.length : end;
    const raw = t.slice(start, this.i);
    return this.strict ? raw : raw.trim();
  }

  /** One `key<delim>value` (or a standalone key, `true`), or undefined (with `i` unchanged) when none is here. */
  pair(): [string, VrlValue] | undefined {
    const save = this.i;
    this.blanks();
    const key = this.key();
    if (key === undefined) {
      this.i = save;
      return undefined;
    }
    const afterKey = this.i;
    if (!this.strict) this.blanks();
    if (this.text.startsWith(this.kvDelim, this.i)) {
      this.i += this.kvDelim.length;
      if (!this.strict) this.blanks();
      return [key, this.value()];
    }
    this.i = afterKey;
    if (!this.standalone) {
      this.i = save;
      return undefined;
    }
    this.value();
    return [key, true];
  }
}
