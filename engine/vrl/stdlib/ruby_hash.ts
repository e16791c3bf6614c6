/** `parse_ruby_hash`: Ruby hash literals (`{ "a" => 1, :b => nil, c: [true] }`) as VRL objects. */

import type { VrlObject, VrlValue } from "../value.ts";
import { fail } from "./def.ts";

class RubyReader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  eat(text: string): boolean {
    this.ws();
    if (!this.s.startsWith(text, this.i)) return false;
    this.i += text.length;
    return true;
  }

  expect(text: string): void {
    if (!this.eat(text)) this.bad(`expected "${text}"`);
  }

  bad(what: string): never {
    return fail(`unable to parse ruby hash: ${what} at position ${this.i}`);
  }

  value(): VrlValue {
    this.ws();
    const c = this.s[this.i];
    if (c === "{") return this.hash();
    if (c === "[") return this.array();
    if (c === '"' || c === "'") return this.string(c);
    if (c === ":") {
      this.i++;
      return this.s[this.i] === '"' || this.s[this.i] === "'" ? this.string(this.s[this.i]) : this.word();
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      return num[1] || num[2] ? Number(num[0]) : BigInt(num[0]);
    }
    const w = this.word();
    if (w === "true") return true;
    if (w === "false") return false;
    if (w === "nil") return null;
    return this.bad(`unexpected ${JSON.stringify(w)}`);
  }

  word(): string {
    const m = /^[A-Za-z_][\w?!]*/.exec(this.s.slice(this.i));
    if (!m) return this.bad("expected a value");
    this.i += m[0].length;
    return m[0];
  }

  string(q: string): string {
    let out = "";
    this.i++;
    while (this.i < this.s.length && this.s[this.i] !== q) {
      const c = this.s[this.i++];
      if (c !== "\\") {
        out += c;
        continue;
      }
      const n = this.s[this.i++];
      out += q === "'" ? (n === "'" || n === "\\" ? n : "\\" + n) : ({ n: "\n", t: "\t", r: "\r" }[n] ?? n);
    }
    if (this.s[this.i] !== q) this.bad("unterminated string");
    this.i++;
    return out;
  }

  array(): VrlValue[] {
    this.expect("[");
    const out: VrlValue[] = [];
    while (!this.eat("]")) {
      out.push(this.value());
      if (!this.eat(",")) {
        this.expect("]");
        break;
      }
    }
    return out;
  }

  key(): string {
    this.ws();
    const c = this.s[this.i];
    // `key: value` (a symbol key in the new syntax).
    const bare = /^([A-Za-z_][\w?!]*):(?!:)/.exec(this.s.slice(this.i));
    if (bare) {
      this.i += bare[0].length;
      return bare[1];
    }
    const k = c === '"' || c === "'" || c === ":" || /[-\d]/.test(c) ? this.value() : this.word();
    if (!this.eat("=>") && !this.eat(":")) this.bad('expected "=>"');
    return typeof k === "string" ? k : String(k);
  }

  hash(): VrlObject {
    this.expect("{");
    const out: VrlObject = new Map();
    while (!this.eat("}")) {
      const k = this.key();
      out.set(k, this.value());
      if (!this.eat(",")) {
        this.expect("}");
        break;
      }
    }
    return out;
  }
}

/** Parses a Ruby hash literal; fails on anything else. */
export function parseRubyHash(text: string): VrlObject {
  const r = new RubyReader(text);
  r.ws();
  if (r.s[r.i] !== "{") r.bad("expected a hash");
  const out = r.hash();
  r.ws();
  if (r.i !== text.length) r.bad("trailing input");
  return out;
}
