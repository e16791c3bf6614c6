/**
 * serde_json's error for JSON text that does not parse, worded and placed as serde_json does
 * (`expected ident at line 1 column 2`), so `parse_json`'s errors read as VRL's. Only called after
 * `JSON.parse` has failed: it walks the text the way serde_json's parser does and stops at its first error.
 */

import { utf8Bytes } from "../bytes.ts";

class SerdeError extends Error {}

const IDENTS: Record<number, string> = { 0x6e: "ull", 0x74: "rue", 0x66: "alse" };
const ESCAPES = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
const isHex = (b: number) => isDigit(b) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);

/** serde_json's message for `text`, or undefined when serde_json's walk finds nothing wrong. */
export function serdeJsonError(text: string): string | undefined {
  const w = new SerdeWalk(utf8Bytes(text));
  try {
    w.value(0);
    if (w.ws() !== undefined) w.peekErr("trailing characters");
  } catch (e) {
    if (e instanceof SerdeError) return e.message;
    throw e;
  }
  return undefined;
}

/** serde_json's `Deserializer` over a byte slice, reduced to finding the first error. */
class SerdeWalk {
  private i = 0;
  constructor(private readonly b: Uint8Array) {}

  private at(n: number): string {
    let line = 1, start = 0;
    for (let k = 0; k < n; k++) if (this.b[k] === 0x0a) [line, start] = [line + 1, k + 1];
    return ` at line ${line} column ${n - start}`;
  }
  /** An error at the last consumed byte (serde's `error`). */
  err(msg: string): never {
    throw new SerdeError(msg + this.at(this.i));
  }
  /** An error at the next, peeked byte (serde's `peek_error`). */
  peekErr(msg: string): never {
    throw new SerdeError(msg + this.at(Math.min(this.i + 1, this.b.length)));
  }
  /** serde's `next_char`: consumes a byte, or nothing at the end. */
  private next(): number | undefined {
    return this.i < this.b.length ? this.b[this.i++] : undefined;
  }
  ws(): number | undefined {
    const b = this.b;
    while (
      this.i < b.length &&
      (b[this.i] === 0x20 || b[this.i] === 0x0a || b[this.i] === 0x0d || b[this.i] === 0x09)
    ) {
      this.i++;
    }
    return b[this.i];
  }
  private digits(): void {
    while (isDigit(this.b[this.i])) this.i++;
  }

  value(depth: number): void {
    const c = this.ws();
    if (c === undefined) return this.peekErr("EOF while parsing a value");
    if (IDENTS[c] !== undefined) {
      this.i++;
      for (const want of IDENTS[c]) {
        const got = this.next();
        if (got === undefined) return this.err("EOF while parsing a value");
        if (got !== want.charCodeAt(0)) return this.err("expected ident");
      }
    } else if (c === 0x2d || isDigit(c)) this.number();
    else if (c === 0x22) this.string();
    else if (c === 0x5b || c === 0x7b) {
      if (depth >= 128) return this.peekErr("recursion limit exceeded");
      this.i++;
      this.container(depth, c === 0x5b);
    } else return this.peekErr("expected value");
  }

  private number(): void {
    if (this.b[this.i] === 0x2d) this.i++;
    const first = this.next();
    if (first === undefined) return this.err("EOF while parsing a value");
    if (!isDigit(first)) return this.err("invalid number");
    if (first === 0x30 && isDigit(this.b[this.i])) return this.peekErr("invalid number");
    this.digits();
    if (this.b[this.i] === 0x2e) {
      this.i++;
      if (!isDigit(this.b[this.i])) {
        return this.peekErr(this.b[this.i] === undefined ? "EOF while parsing a value" : "invalid number");
      }
      this.digits();
    }
    if (this.b[this.i] === 0x65 || this.b[this.i] === 0x45) {
      this.i++;
      if (this.b[this.i] === 0x2b || this.b[this.i] === 0x2d) this.i++;
      const e = this.next();
      if (e === undefined) return this.err("EOF while parsing a value");
      if (!isDigit(e)) return this.err("invalid number");
      this.digits();
    }
  }

  private string(): void {
    this.i++;
    for (;;) {
      const c = this.next();
      if (c === undefined) return this.err("EOF while parsing a string");
      if (c === 0x22) return;
      if (c < 0x20) return this.err("control character (\\u0000-\\u001F) found while parsing a string");
      if (c !== 0x5c) continue;
      const e = this.next();
      if (e === undefined) return this.err("EOF while parsing a string");
      if (e !== 0x75) {
        if (!ESCAPES.has(e)) return this.err("invalid escape");
        continue;
      }
      for (let k = 0; k < 4; k++) {
        const h = this.next();
        if (h === undefined) return this.err("EOF while parsing a string");
        if (!isHex(h)) return this.err("invalid escape");
      }
    }
  }

  /** A list's or an object's items, after the opening bracket (serde's `has_next_element`/`has_next_key`). */
  private container(depth: number, list: boolean): void {
    const [close, what, comma] = list ? [0x5d, "a list", "`,` or `]`"] : [0x7d, "an object", "`,` or `}`"];
    for (let first = true;; first = false) {
      const p = this.ws();
      if (p === undefined) return this.peekErr(`EOF while parsing ${what}`);
      if (p === close) return void this.i++;
      if (!first) {
        if (p !== 0x2c) return this.peekErr(`expected ${comma}`);
        this.i++;
        const q = this.ws();
        if (q === close) return this.peekErr("trailing comma");
        if (q === undefined) return this.peekErr("EOF while parsing a value");
      }
      if (!list) this.key();
      this.value(depth + 1);
    }
  }

  private key(): void {
    if (this.b[this.i] !== 0x22) return this.peekErr("key must be a string");
    this.string();
    const colon = this.ws();
    if (colon === undefined) return this.peekErr("EOF while parsing an object");
    if (colon !== 0x3a) return this.peekErr("expected `:`");
    this.i++;
  }
}
