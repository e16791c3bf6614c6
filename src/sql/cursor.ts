/** A cursor over a statement's tokens with the small vocabulary the statement parsers need. */
import { invalidSyntax } from "../common/errors.ts";
import type { PetrelError } from "../common/errors.ts";
import { isKeyword, isOp, lineColumn } from "./lexer.ts";
import type { Token } from "./lexer.ts";
import { trailingToken } from "./format_check.ts";

/** Reads tokens of one statement; errors name the position in the request. */
export class Cursor {
  i = 0;
  constructor(readonly tokens: Token[], readonly sql: string) {}

  /** The token `k` ahead. */
  peek(k = 0): Token | undefined {
    return this.tokens[this.i + k];
  }

  /** Whether all tokens are consumed. */
  get atEnd(): boolean {
    return this.i >= this.tokens.length;
  }

  /** Consumes and returns the next token. */
  next(): Token {
    const t = this.tokens[this.i];
    if (!t) throw this.error("Expected more tokens, found: EOF");
    this.i++;
    return t;
  }

  /** Consumes a keyword sequence if present. */
  acceptKw(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) if (!isKeyword(this.peek(k), words[k])) return false;
    this.i += words.length;
    return true;
  }

  /** Consumes a keyword sequence or fails. */
  expectKw(...words: string[]): void {
    if (!this.acceptKw(...words)) throw this.error(`Expected: ${words.join(" ")}, found: ${this.describe()}`);
  }

  /** Consumes an operator if present. */
  acceptOp(op: string): boolean {
    if (!isOp(this.peek(), op)) return false;
    this.i++;
    return true;
  }

  /** Consumes an operator or fails. */
  expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.error(`Expected: ${op}, found: ${this.describe()}`);
  }

  /** An identifier: quoted ones keep their case, bare ones are lowercased (as GreptimeDB normalizes them). */
  ident(what = "identifier"): string {
    const t = this.peek();
    if (t?.kind === "qident") {
      this.i++;
      return t.value;
    }
    if (t?.kind === "ident") {
      this.i++;
      return t.value.toLowerCase();
    }
    throw this.error(`Expected: ${what}, found: ${this.describe()}`);
  }

  /** A possibly qualified name (`db.table`): the parts. */
  objectName(): string[] {
    const parts = [this.ident("an object name")];
    while (this.acceptOp(".")) parts.push(this.ident("an object name"));
    return parts;
  }

  /** The text of the next token, or EOF. */
  describe(): string {
    const t = this.peek();
    return t ? t.text : "EOF";
  }

  /** A syntax error at the current token. */
  error(message: string): PetrelError {
    const t = this.peek() ?? this.tokens[this.tokens.length - 1];
    const pos = t ? (this.peek() ? t.pos : t.pos + t.text.length) : 0;
    const { line, column } = lineColumn(this.sql, pos);
    return invalidSyntax(
      `Invalid SQL syntax: sql parser error: ${message} at Line: ${line}, Column: ${column}`,
    );
  }

  /**
   * Fails unless every token was consumed: as GreptimeDB's statement loop does when a token is left
   * after a whole statement (1001 `SQL statement is not supported, keyword: x`).
   */
  expectEnd(): void {
    const t = this.peek();
    if (t) throw trailingToken(t);
  }
}
