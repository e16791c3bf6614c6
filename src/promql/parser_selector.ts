/**
 * Selectors and their postfix modifiers: `name{matchers}`, `[range]`, `[range:step]` subqueries,
 * `offset` and `@`.
 */
import { re2ToJs } from "../common/re2.ts";
import { regExpErrorReason } from "../common/regexp.ts";
import type { LabelMatcher, MatcherType } from "../common/label_matcher.ts";
import type { Expr, SubqueryExpr, VectorSelector } from "./ast.ts";
import { keywordOf, type Token } from "./lexer.ts";
import { TokenCursor } from "./parser_cursor.ts";

/** The selector half of the grammar; the expression half extends it. */
export abstract class SelectorParser extends TokenCursor {
  protected parseSelector(nameTok: Token | null): VectorSelector {
    const matchers: LabelMatcher[] = [];
    const start = nameTok?.pos ?? this.peek().pos;
    let end = nameTok?.end ?? start;
    let name = nameTok?.val ?? "";
    if (this.peek().type === "{") {
      this.next();
      while (this.peek().type !== "}") {
        const m = this.parseMatcher();
        if (m !== null) matchers.push(m);
        else if (name === "" && nameTok === null) name = this.tokens[this.i - 1].val;
        if (this.peek().type === ",") this.next();
        else if (this.peek().type !== "}") this.unexpected("label matching", '"," or "}"');
      }
      end = this.next().end;
    }
    if (nameTok !== null) matchers.push({ type: "EQ", name: "__name__", value: name });
    else if (name !== "") matchers.unshift({ type: "EQ", name: "__name__", value: name });
    return {
      type: "VectorSelector",
      name,
      matchers,
      offsetMs: 0,
      timestampMs: null,
      startOrEnd: null,
      pos: { start, end },
    };
  }

  /** One `name op "value"`; a lone quoted name (Prometheus 3's `{"metric"}`) returns null. */
  protected parseMatcher(): LabelMatcher | null {
    const t = this.peek();
    if (t.type !== "IDENT" && t.type !== "STRING") this.unexpected("label matching", 'identifier or "}"');
    this.next();
    const opTok = this.peek();
    if (t.type === "STRING" && (opTok.type === "," || opTok.type === "}")) return null;
    const ops: Record<string, MatcherType> = { "=": "EQ", "!=": "NEQ", "=~": "RE", "!~": "NRE" };
    const type = ops[opTok.type];
    if (type === undefined) this.unexpected("label matching", "label matching operator");
    this.next();
    const v = this.expect("STRING", "label matching", "string");
    const m: LabelMatcher = { type, name: t.val, value: v.val };
    if (type === "RE" || type === "NRE") {
      try {
        // Go's syntax only: a pattern JS cannot compile (too large) is refused where it is matched
        re2ToJs(v.val);
      } catch (e) {
        this.fail(t.pos, `error parsing regexp: ${regExpErrorReason(e)}`);
      }
    }
    return m;
  }

  protected parsePostfix(e: Expr): Expr {
    while (true) {
      const t = this.peek();
      if (t.type === "[") e = this.parseRange(e);
      else if (keywordOf(t) === "offset") e = this.parseOffset(e);
      else if (t.type === "@") e = this.parseAt(e);
      else return e;
    }
  }

  protected parseRange(e: Expr): Expr {
    const open = this.next();
    const range = this.durationArg("matrix selector");
    if (this.peek().type === ":") {
      this.next();
      const step = this.peek().type === "]" ? 0 : this.durationArg("subquery selector");
      const close = this.expect("]", "subquery selector", '"]"');
      const sq: SubqueryExpr = {
        type: "SubqueryExpr",
        expr: e,
        rangeMs: range,
        stepMs: step,
        offsetMs: 0,
        timestampMs: null,
        startOrEnd: null,
        pos: { start: e.pos.start, end: close.end },
      };
      return sq;
    }
    const close = this.expect("]", "matrix selector", '"]"');
    const errRange = { start: open.pos, end: close.end };
    if (e.type !== "VectorSelector") this.fail(errRange, "ranges only allowed for vector selectors");
    if (e.offsetMs !== 0) this.fail(errRange, "no offset modifiers allowed before range");
    if (e.timestampMs !== null || e.startOrEnd !== null) {
      this.fail(errRange, "no @ modifiers allowed before range");
    }
    return {
      type: "MatrixSelector",
      vectorSelector: e,
      rangeMs: range,
      pos: { start: e.pos.start, end: close.end },
    };
  }

  protected timeTarget(e: Expr, what: string): VectorSelector | SubqueryExpr {
    if (e.type === "VectorSelector" || e.type === "SubqueryExpr") return e;
    if (e.type === "MatrixSelector") return e.vectorSelector;
    this.fail(
      e.pos,
      `${what} modifier must be preceded by an instant vector selector or range vector selector or a subquery`,
    );
  }

  protected parseOffset(e: Expr): Expr {
    this.next();
    let sign = 1;
    if (this.peek().type === "-" || this.peek().type === "+") sign = this.next().type === "-" ? -1 : 1;
    const t = this.peek();
    let ms: number;
    if (t.type === "DURATION") ms = this.duration(this.next());
    else if (t.type === "NUMBER") ms = Math.round(this.number(this.next()) * 1000);
    else this.unexpected("offset", "duration");
    const target = this.timeTarget(e, "offset");
    if (target.offsetMs !== 0) this.fail(e.pos, "offset may not be set multiple times");
    target.offsetMs = sign * ms;
    e.pos = { start: e.pos.start, end: this.tokens[this.i - 1].end };
    return e;
  }

  protected parseAt(e: Expr): Expr {
    this.next();
    const t = this.peek();
    const target = this.timeTarget(e, "@");
    const setTwice = () => this.fail(e.pos, "@ <timestamp> may not be set multiple times");
    const lower = t.type === "IDENT" ? t.val.toLowerCase() : "";
    if (lower === "start" || lower === "end") {
      this.next();
      this.expect("(", "@", "timestamp");
      if (this.peek().type !== ")") this.unexpected("@", "timestamp");
      this.next();
      if (target.timestampMs !== null || target.startOrEnd !== null) setTwice();
      target.startOrEnd = lower;
    } else {
      let sign = 1;
      if (t.type === "-" || t.type === "+") sign = this.next().type === "-" ? -1 : 1;
      const n = this.peek();
      if (n.type !== "NUMBER" && n.type !== "DURATION") this.unexpected("@", "timestamp");
      this.next();
      const ts = sign * (n.type === "NUMBER" ? this.number(n) : this.duration(n) / 1000);
      if (!Number.isFinite(ts) || Math.abs(ts) >= 9.223372036854776e18 / 1000) {
        this.fail(n.pos, `timestamp out of bounds for @ modifier: ${ts}`);
      }
      if (target.timestampMs !== null || target.startOrEnd !== null) setTwice();
      target.timestampMs = Math.round(ts * 1000);
    }
    e.pos = { start: e.pos.start, end: this.tokens[this.i - 1].end };
    return e;
  }
}
