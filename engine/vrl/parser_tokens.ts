/** The parser's token stream: look-ahead, expectations, syntax errors, and the bracketed literals. */

import type { Expr } from "./ast.ts";
import { VrlCompileError } from "./diagnostic.ts";
import type { Token } from "./lexer.ts";

/** Token-level helpers the recursive-descent parser builds on. */
export abstract class TokenStream {
  protected i = 0;
  constructor(protected readonly toks: Token[]) {}

  peek(off = 0): Token {
    return this.toks[Math.min(this.i + off, this.toks.length - 1)];
  }
  protected next(): Token {
    const t = this.toks[this.i];
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  protected is(text: string, off = 0): boolean {
    const t = this.peek(off);
    return (t.kind === "punct" || t.kind === "ident") && t.text === text;
  }
  skipNewlines(): void {
    while (this.peek().kind === "newline") this.i++;
  }
  fail(t: Token, msg?: string): never {
    const what = t.kind === "eof" ? "end of program" : t.kind === "newline" ? "newline" : `"${t.text}"`;
    throw new VrlCompileError(
      "E203",
      msg ?? `syntax error: unexpected ${what}`,
      t.start,
      Math.max(t.end, t.start + 1),
    );
  }
  protected expect(text: string): Token {
    if (!this.is(text)) {
      this.fail(this.peek(), `syntax error: expected "${text}", found "${this.peek().text}"`);
    }
    return this.next();
  }

  /** An expression (the parser's entry point for operands). */
  abstract expr(): Expr;

  protected arrayLiteral(): Expr {
    const open = this.next();
    const items: Expr[] = [];
    this.skipNewlines();
    while (!this.is("]")) {
      items.push(this.expr());
      this.skipNewlines();
      if (this.is(",")) {
        this.next();
        this.skipNewlines();
      } else if (!this.is("]")) this.fail(this.peek());
    }
    const close = this.next();
    return { k: "array", items, start: open.start, end: close.end };
  }

  protected objectLiteral(): Expr {
    const open = this.next();
    const entries: [string, Expr][] = [];
    this.skipNewlines();
    while (!this.is("}")) {
      const key = this.next();
      if (key.kind !== "string" || key.parts!.some((p) => !("text" in p))) {
        this.fail(key, "syntax error: object keys must be string literals");
      }
      this.expect(":");
      this.skipNewlines();
      entries.push([key.text, this.expr()]);
      this.skipNewlines();
      if (this.is(",")) {
        this.next();
        this.skipNewlines();
      } else if (!this.is("}")) this.fail(this.peek());
    }
    const close = this.next();
    return { k: "object", entries, start: open.start, end: close.end };
  }
}
