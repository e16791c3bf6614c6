/**
 * The parser's token cursor: lookahead, Prometheus-worded errors, and the literal forms (numbers,
 * durations) every part of the grammar reads.
 */
import type { PosRange } from "./ast.ts";
import { parseDurationMs } from "./duration.ts";
import { describeToken, lex, type Token } from "./lexer.ts";
import { ParseError } from "./parse_error.ts";

/** Tokens of one input with a read position. */
export abstract class TokenCursor {
  protected readonly tokens: Token[];
  protected i = 0;

  constructor(protected readonly input: string) {
    this.tokens = lex(input);
  }

  protected peek(k = 0): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)];
  }

  protected next(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)];
  }

  fail(pos: PosRange | number, msg: string): never {
    const range = typeof pos === "number" ? { start: pos, end: pos } : pos;
    throw new ParseError(msg, range, this.input);
  }

  protected unexpected(context = "", expected = ""): never {
    const t = this.peek();
    let msg = `unexpected ${describeToken(t)}`;
    if (context !== "") msg += ` in ${context}`;
    if (expected !== "") msg += `, expected ${expected}`;
    this.fail(t.pos, msg);
  }

  protected expect(type: Token["type"], context: string, expected: string): Token {
    if (this.peek().type !== type) this.unexpected(context, expected);
    return this.next();
  }

  /** A duration (or, as Prometheus 3 allows, a number of seconds) inside brackets. */
  protected durationArg(context: string): number {
    const t = this.peek();
    if (t.type === "DURATION") return this.next(), this.duration(t);
    if (t.type === "NUMBER") return this.next(), Math.round(this.number(t) * 1000);
    if (t.type === "]" || t.type === ":") this.fail(t.pos, "missing unit character in duration");
    this.unexpected(context, "number or duration");
  }

  /** A duration token's milliseconds; as Prometheus' `parseDuration`, a zero one (`0s`) is an error. */
  protected duration(t: Token): number {
    const ms = parseDurationMs(t.val);
    if (ms === null) this.fail(t.pos, `not a valid duration string: "${t.val}"`);
    if (ms === 0) this.fail(t.pos, "duration must be greater than 0");
    return ms;
  }

  /** Prometheus' `number()`: integers in Go's base syntax first (`0x1F`, octal `010`), then floats. */
  protected number(t: Token): number {
    const text = t.val;
    const lower = text.toLowerCase();
    if (lower === "inf" || lower === "+inf") return Infinity;
    if (lower === "nan") return NaN;
    const clean = text.replaceAll("_", "");
    let v: number;
    if (/^0[0-7]+$/.test(clean)) v = parseInt(clean, 8);
    else if (/^0[xX][0-9a-fA-F]+$/.test(clean)) v = parseInt(clean.slice(2), 16);
    else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean)) v = Number(clean);
    else v = NaN;
    if (v !== v) {
      this.fail(t.pos, `error parsing number: strconv.ParseFloat: parsing "${text}": invalid syntax`);
    }
    return v;
  }
}
