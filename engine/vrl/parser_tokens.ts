/** The parser's token stream: look-ahead, expectations, syntax errors, and the bracketed literals. */

import type { Expr, PathNode, Segment, Target } from "./ast.ts";
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
  /**
   * A syntax error at `t`, as VRL's parser reports lalrpop's: `syntax error`, E204 with `unexpected end of
   * program` at the end, else E203 labelled `msg` (Petrel's words: VRL lists the tokens it expected).
   */
  fail(t: Token, msg?: string): never {
    const end = Math.max(t.end, t.start + 1);
    if (t.kind === "eof") {
      throw new VrlCompileError("E204", "syntax error", t.start, end, "unexpected end of program");
    }
    const what = t.kind === "newline" ? "newline" : `"${t.text}"`;
    const label = msg?.replace(/^syntax error: /, "") ?? `unexpected ${what}`;
    throw new VrlCompileError("E203", "syntax error", t.start, end, label);
  }
  /** Reads a path coalescing group `(a | b | "c")` at `segs`' next field, pushing its first field there. */
  protected coalesceGroup(refused: boolean, segs: Segment[]): { at: number; fields: string[] } {
    if (refused) {
      this.fail(
        this.peek(),
        "syntax error: path coalescing `.(a | b)` is supported once per path, on the event, metadata or a variable",
      );
    }
    this.expect("(");
    const fields: string[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind !== "ident" && t.kind !== "string") this.fail(t);
      fields.push(t.text);
      if (!this.is("|")) break;
      this.next();
    }
    this.expect(")");
    segs.push(fields[0]);
    return { at: segs.length - 1, fields };
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

/** Binary operators by precedence level, loosest first. */
export const BINARY_LEVELS: string[][] = [
  ["??"],
  ["|"],
  ["||"],
  ["&&"],
  ["==", "!="],
  ["<", "<=", ">", ">="],
  ["+", "-"],
  ["*", "/", "%"],
];

/** Words that are syntax, never names. */
export const KEYWORDS = new Set(["if", "else", "true", "false", "null", "abort", "return"]);

/** Words VRL reserves for future syntax: not usable as variable names (E205). */
export const RESERVED = new Set([
  "as",
  "break",
  "continue",
  "for",
  "impl",
  "in",
  "let",
  "loop",
  "self",
  "std",
  "then",
  "this",
  "type",
  "until",
  "use",
  "while",
]);

/** True for a path that can be assigned to. */
export function isTarget(e: Expr): e is PathNode {
  return e.k === "path" && e.root.kind !== "expr";
}

/** The assignment target of a path (`_` discards). */
export function toTarget(e: PathNode): Target {
  if (e.root.kind === "var" && e.root.name === "_" && e.segs.length === 0) {
    return { k: "noop", start: e.start, end: e.end };
  }
  return e;
}
