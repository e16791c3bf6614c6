/** VRL parser: tokens to a syntax tree (recursive descent, VRL's operator precedence). */

import type { Arg, Closure, Expr, PathNode, PathRoot, Segment, Span } from "./ast.ts";
import { desugarCoalesce } from "./parser_coalesce.ts";
import { VrlCompileError } from "./diagnostic.ts";
import { chainedComparison } from "./diagnostic_errors.ts";
import { lex, type Token } from "./lexer.ts";
import { BINARY_LEVELS, isTarget, KEYWORDS, RESERVED, TokenStream, toTarget } from "./parser_tokens.ts";
import { parseTimestampLiteral } from "./stdlib/timefmt.ts";
import { compileRegex } from "./regex.ts";

const COMPARISONS = new Set(["==", "!=", "<", "<=", ">", ">="]);

/** Parses a whole program into its top-level expressions. */
export function parseProgram(src: string): Expr[] {
  const p = new Parser(lex(src));
  const body = p.statements("eof");
  return body;
}

class Parser extends TokenStream {
  constructor(toks: Token[]) {
    super(toks);
  }

  /** Statement list until `close` (`}` or end of input), separated by newlines or `;`. */
  statements(close: "}" | ")" | "eof"): Expr[] {
    const out: Expr[] = [];
    for (;;) {
      while (this.peek().kind === "newline" || this.is(";")) this.next();
      const t = this.peek();
      if (close === "eof" ? t.kind === "eof" : this.is(close)) break;
      if (t.kind === "eof") this.fail(t);
      out.push(this.statement());
      const after = this.peek();
      if (after.kind === "newline" || this.is(";")) continue;
      if (close === "eof" ? after.kind === "eof" : this.is(close)) break;
      this.fail(after);
    }
    return out;
  }

  private statement(): Expr {
    const start = this.peek().start;
    if (this.is("abort")) {
      this.next();
      const t = this.peek();
      let message: Expr | undefined;
      if (!this.atStatementEnd()) message = this.expr();
      return { k: "abort", message, start, end: message?.end ?? t.start };
    }
    if (this.is("return")) {
      const kw = this.next();
      if (this.atStatementEnd()) this.fail(this.peek(), "syntax error: `return` needs a value");
      const value = this.expr();
      return { k: "return", value, start: kw.start, end: value.end };
    }
    const first = this.expr();
    if ((this.is("=") || this.is("|=")) && isTarget(first)) {
      const op = this.next().text as "=" | "|=";
      this.skipNewlines();
      const value = this.statement();
      return { k: "assign", target: toTarget(first), op, value, start, end: value.end };
    }
    if (this.is(",") && isTarget(first)) {
      this.next();
      const second = this.expr();
      if (!isTarget(second)) this.fail(this.peek(), "syntax error: expected an assignment target");
      // `ok, err |= v` merges into `ok` as VRL does: `ok, err = ok | v`.
      const merge = this.is("|=");
      if (!merge) this.expect("=");
      else this.next();
      this.skipNewlines();
      const rhs = this.statement();
      const value: Expr = merge
        ? { k: "binary", op: "|", l: first, r: rhs, start: first.start, end: rhs.end }
        : rhs;
      return { k: "assign2", ok: toTarget(first), err: toTarget(second), value, start, end: value.end };
    }
    return first;
  }

  private atStatementEnd(): boolean {
    const t = this.peek();
    return t.kind === "newline" || t.kind === "eof" || this.is(";") || this.is("}") || this.is(")");
  }

  expr(level = 0): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    let l = this.expr(level + 1);
    const ops = BINARY_LEVELS[level];
    // Only a comparison built by this loop chains: a parenthesized one on the left is a group.
    let comparing = false;
    while (this.peek().kind === "punct" && ops.includes(this.peek().text)) {
      const opToken = this.next();
      this.skipNewlines();
      const r = this.expr(level + 1);
      if (comparing) throw chainedComparison({ start: l.start, end: r.end });
      comparing = COMPARISONS.has(opToken.text);
      l = { k: "binary", op: opToken.text, l, r, start: l.start, end: r.end, opStart: opToken.start };
    }
    return l;
  }

  private unary(): Expr {
    const t = this.peek();
    if (this.is("!")) {
      this.next();
      const expr = this.unary();
      return { k: "not", expr, start: t.start, end: expr.end };
    }
    if (this.is("-")) {
      this.next();
      const expr = this.unary();
      if (expr.k === "lit" && (typeof expr.value === "bigint" || typeof expr.value === "number")) {
        // i64 wraps: `-9223372036854775808` is i64::MIN (its digits alone wrapped to it already).
        const value = typeof expr.value === "bigint" ? BigInt.asIntN(64, -expr.value) : -expr.value;
        return { k: "lit", value, start: t.start, end: expr.end };
      }
      return { k: "neg", expr, start: t.start, end: expr.end };
    }
    return this.primary();
  }

  private primary(): Expr {
    const e = this.primaryBase();
    const n = this.peek();
    if (
      e.k !== "path" && e.k !== "lit" && !n.space && n.kind === "punct" && (n.text === "." || n.text === "[")
    ) {
      return this.pathTail({ kind: "expr", expr: e }, e.start, e.end, false);
    }
    return e;
  }

  private primaryBase(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case "int":
        this.next();
        return { k: "lit", value: BigInt.asIntN(64, BigInt(t.text)), start: t.start, end: t.end };
      case "float":
        this.next();
        return { k: "lit", value: Number(t.text), start: t.start, end: t.end };
      case "rawstring":
        this.next();
        return { k: "lit", value: t.text, start: t.start, end: t.end };
      case "regex":
        this.next();
        try {
          return { k: "lit", value: compileRegex(t.text), start: t.start, end: t.end };
        } catch (e) {
          throw new VrlCompileError("E203", `invalid regex: ${(e as Error).message}`, t.start, t.end);
        }
      case "timestamp": {
        this.next();
        const ts = parseTimestampLiteral(t.text);
        if (!ts) throw new VrlCompileError("E206", `invalid timestamp literal: ${t.text}`, t.start, t.end);
        return { k: "lit", value: ts, start: t.start, end: t.end };
      }
      case "string":
        this.next();
        return this.stringLiteral(t);
      case "ident":
        return this.identExpr();
      case "punct":
        break;
      default:
        this.fail(t);
    }
    if (t.text === "(") {
      this.next();
      const body = this.statements(")");
      const close = this.expect(")");
      if (body.length === 0) this.fail(close);
      // `(a; b)` is a block whose value is its last expression.
      if (body.length > 1) return { k: "block", body, group: true, start: t.start, end: close.end };
      return { ...body[0], start: t.start, end: close.end } as Expr;
    }
    if (t.text === "[") return this.arrayLiteral();
    if (t.text === "{") {
      let j = 1;
      while (this.peek(j).kind === "newline") j++;
      const a = this.peek(j);
      const isObject = (a.kind === "punct" && a.text === "}") ||
        (a.kind === "string" && this.peek(j + 1).kind === "punct" && this.peek(j + 1).text === ":");
      if (isObject) return this.objectLiteral();
      this.next();
      const body = this.statements("}");
      const close = this.expect("}");
      return { k: "block", body, start: t.start, end: close.end };
    }
    if (t.text === ".") {
      this.next();
      return desugarCoalesce(this.pathTail({ kind: "event" }, t.start, t.end, true));
    }
    if (t.text === "%") {
      this.next();
      const nx = this.peek();
      if (!nx.space && (nx.kind === "ident" || nx.kind === "string")) {
        this.next();
        const node = this.pathTail({ kind: "meta" }, t.start, nx.end, false);
        node.segs.unshift(nx.text);
        if (node.coalesce) node.coalesce.at++;
        return desugarCoalesce(node);
      }
      return desugarCoalesce(this.pathTail({ kind: "meta" }, t.start, t.end, false));
    }
    return this.fail(t);
  }

  private stringLiteral(t: Token): Expr {
    const parts = t.parts!;
    if (parts.every((p) => "text" in p)) return { k: "lit", value: t.text, start: t.start, end: t.end };
    const out: (string | Expr)[] = [];
    for (const p of parts) {
      if ("text" in p) {
        out.push(p.text);
        continue;
      }
      const sub = new Parser(lex(p.expr, p.offset));
      sub.skipNewlines();
      const e = sub.expr();
      sub.skipNewlines();
      if (sub.peek().kind !== "eof") sub.fail(sub.peek());
      out.push(e);
    }
    return { k: "template", parts: out, start: t.start, end: t.end };
  }

  /** Path segments after a root; `afterDot` means a field may follow directly (`.foo`). */
  private pathTail(root: PathRoot, start: number, end: number, afterDot: boolean): PathNode {
    const segs: Segment[] = [];
    let coalesce: PathNode["coalesce"];
    let expectField = afterDot;
    for (;;) {
      const t = this.peek();
      if (t.space) break;
      if (expectField && (t.kind === "ident" || t.kind === "int" || t.kind === "string")) {
        if (t.kind === "string" && t.parts!.some((p) => !("text" in p))) this.fail(t);
        this.next();
        let name = t.text;
        end = t.end;
        // A field may start with digits (`.0tar`): the lexer splits it into a number and a word.
        if (t.kind === "int" && this.peek().kind === "ident" && this.peek().start === t.end) {
          name += this.peek().text;
          end = this.next().end;
        }
        segs.push(name);
        expectField = false;
        continue;
      }
      if (expectField && t.kind === "punct" && t.text === "(") {
        coalesce = this.coalesceGroup(root.kind === "expr" || coalesce !== undefined, segs);
        [end, expectField] = [this.peek(-1).end, false];
        continue;
      }
      if (!expectField && t.kind === "punct" && t.text === "." && !this.peek(1).space) {
        const n = this.peek(1);
        if (n.kind === "ident" || n.kind === "int" || n.kind === "string" || this.is("(", 1)) {
          this.next();
          expectField = true;
          continue;
        }
      }
      if (t.kind === "punct" && t.text === "[") {
        this.next();
        let neg = false;
        if (this.is("-")) {
          this.next();
          neg = true;
        }
        const n = this.next();
        if (n.kind !== "int") this.fail(n, "syntax error: path index must be an integer literal");
        const close = this.expect("]");
        segs.push(neg ? -Number(n.text) : Number(n.text));
        end = close.end;
        expectField = false;
        continue;
      }
      break;
    }
    return coalesce ? { k: "path", root, segs, start, end, coalesce } : { k: "path", root, segs, start, end };
  }

  private identExpr(): Expr {
    const t = this.next();
    switch (t.text) {
      case "true":
        return { k: "lit", value: true, start: t.start, end: t.end };
      case "false":
        return { k: "lit", value: false, start: t.start, end: t.end };
      case "null":
        return { k: "lit", value: null, start: t.start, end: t.end };
      case "if":
        return this.ifExpr(t);
      case "abort":
      case "return": {
        this.i--;
        return this.statement();
      }
    }
    if (KEYWORDS.has(t.text)) this.fail(t);
    if (RESERVED.has(t.text) && !(this.is("(") && !this.peek().space) && !this.is("!")) {
      throw new VrlCompileError(
        "E205",
        "reserved keyword",
        t.start,
        t.end,
        `"${t.text}" is a reserved keyword`,
      );
    }
    const bang = this.is("!") && !this.peek().space && this.is("(", 1) && !this.peek(1).space;
    if (bang) this.next();
    if (this.is("(") && !this.peek().space) return this.call(t, bang);
    if (bang) this.fail(this.peek());
    return desugarCoalesce(this.pathTail({ kind: "var", name: t.text }, t.start, t.end, false));
  }

  private ifExpr(t: Token): Expr {
    const cond = this.expr();
    const then = this.blockBody();
    let end = this.toks[this.i - 1].end;
    let otherwise: Expr[] | undefined;
    let j = 0;
    while (this.peek(j).kind === "newline") j++;
    if (this.is("else", j)) {
      this.i += j + 1;
      if (this.is("if")) {
        const inner = this.ifExpr(this.next());
        otherwise = [inner];
        end = inner.end;
      } else {
        otherwise = this.blockBody();
        end = this.toks[this.i - 1].end;
      }
    }
    return { k: "if", cond, then, else: otherwise, start: t.start, end };
  }

  private blockBody(): Expr[] {
    this.skipNewlines();
    this.expect("{");
    const body = this.statements("}");
    this.expect("}");
    return body;
  }

  private call(name: Token, bang: boolean): Expr {
    this.expect("(");
    const args: Arg[] = [];
    this.skipNewlines();
    while (!this.is(")")) {
      const start = this.peek().start;
      let argName: string | undefined;
      if (this.peek().kind === "ident" && this.is(":", 1)) {
        argName = this.next().text;
        this.next();
        this.skipNewlines();
      }
      const expr = this.expr();
      args.push({ name: argName, expr, start, end: expr.end });
      this.skipNewlines();
      if (this.is(",")) {
        this.next();
        this.skipNewlines();
      } else if (!this.is(")")) this.fail(this.peek());
    }
    let end = this.next().end;
    let closure: Closure | undefined;
    if (this.is("->")) {
      const arrow = this.next();
      this.expect("|");
      const params: Closure["params"] = [];
      while (!this.is("|")) {
        const p = this.next();
        if (p.kind !== "ident") this.fail(p, "syntax error: expected a closure parameter name");
        params.push({ name: p.text, span: { start: p.start, end: p.end } });
        if (this.is(",")) this.next();
        else if (!this.is("|")) this.fail(this.peek());
      }
      this.next();
      const body = this.blockBody();
      end = this.toks[this.i - 1].end;
      closure = { params, body, start: arrow.start, end };
    }
    const nameSpan: Span = { start: name.start, end: name.end + (bang ? 1 : 0) };
    return { k: "call", name: name.text, bang, args, closure, nameSpan, start: name.start, end };
  }
}
