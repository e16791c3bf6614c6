/**
 * The PromQL parser: tokens → typed AST, then Prometheus' type checks (`check.ts`).
 *
 * Hand-written rather than built on `@prometheus-io/lezer-promql`: lezer's error recovery yields
 * anonymous error nodes, while Prometheus' API answers with its yacc parser's exact messages and
 * positions ("unexpected end of input in grouping opts, expected \"(\""…), which clients and our
 * equivalence tests compare. Precedence and associativity follow `generated_parser.y`.
 */
import type { LabelMatcher, MatcherType } from "../common/label_matcher.ts";
import type {
  AggregateExpr,
  AggregateOp,
  BinaryExpr,
  BinaryOp,
  Expr,
  NumberLiteral,
  PosRange,
  SubqueryExpr,
  VectorMatching,
  VectorSelector,
} from "./ast.ts";
import { aggregateHasParam } from "./ast.ts";
import { checkAST } from "./check.ts";
import { parseDurationMs } from "./duration.ts";
import { AGGREGATORS, describeToken, keywordOf, lex, type Token } from "./lexer.ts";
import { ParseError } from "./parse_error.ts";

const PRECEDENCE: Record<string, number> = {
  or: 1,
  and: 2,
  unless: 2,
  "==": 3,
  "!=": 3,
  "<": 3,
  "<=": 3,
  ">": 3,
  ">=": 3,
  "+": 4,
  "-": 4,
  "*": 5,
  "/": 5,
  "%": 5,
  atan2: 5,
  "^": 6,
};

/**
 * Parses and type-checks a PromQL expression; errors are {@link ParseError}s with Prometheus' text.
 * @example parseExpr("sum by (job) (rate(http_requests_total[5m]))")
 */
export function parseExpr(input: string): Expr {
  const p = new Parser(input);
  const expr = p.parseTop();
  checkAST(expr, input);
  return expr;
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;

  constructor(private readonly input: string) {
    this.tokens = lex(input);
  }

  private peek(k = 0): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)];
  }

  private next(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)];
  }

  fail(pos: PosRange | number, msg: string): never {
    const range = typeof pos === "number" ? { start: pos, end: pos } : pos;
    throw new ParseError(msg, range, this.input);
  }

  private unexpected(context = "", expected = ""): never {
    const t = this.peek();
    let msg = `unexpected ${describeToken(t)}`;
    if (context !== "") msg += ` in ${context}`;
    if (expected !== "") msg += `, expected ${expected}`;
    this.fail(t.pos, msg);
  }

  private expect(type: Token["type"], context: string, expected: string): Token {
    if (this.peek().type !== type) this.unexpected(context, expected);
    return this.next();
  }

  parseTop(): Expr {
    if (this.peek().type === "EOF") this.fail(0, "no expression found in input");
    const e = this.parseBinary(0);
    if (this.peek().type !== "EOF") this.unexpected();
    return e;
  }

  private binaryOp(t: Token): BinaryOp | null {
    const kw = keywordOf(t);
    if (kw === "and" || kw === "or" || kw === "unless" || kw === "atan2") return kw;
    return t.type in PRECEDENCE ? t.type as BinaryOp : null;
  }

  private parseBinary(minPrec: number): Expr {
    let lhs = this.parseUnary();
    while (true) {
      const op = this.binaryOp(this.peek());
      if (op === null) return lhs;
      const prec = PRECEDENCE[op];
      if (prec < minPrec) return lhs;
      this.next();
      const { returnBool, matching } = this.parseBinModifiers();
      const rhs = this.parseBinary(op === "^" ? prec : prec + 1);
      const e: BinaryExpr = {
        type: "BinaryExpr",
        op,
        lhs,
        rhs,
        matching,
        returnBool,
        pos: { start: lhs.pos.start, end: rhs.pos.end },
      };
      lhs = e;
    }
  }

  private parseBinModifiers(): { returnBool: boolean; matching: VectorMatching } {
    const matching: VectorMatching = { card: "one-to-one", matchingLabels: [], on: false, include: [] };
    let returnBool = false;
    if (keywordOf(this.peek()) === "bool") {
      this.next();
      returnBool = true;
    }
    const kw = keywordOf(this.peek());
    if (kw === "on" || kw === "ignoring") {
      this.next();
      matching.on = kw === "on";
      matching.matchingLabels = this.parseLabelList();
      const g = keywordOf(this.peek());
      if (g === "group_left" || g === "group_right") {
        this.next();
        matching.card = g === "group_left" ? "many-to-one" : "one-to-many";
        if (this.peek().type === "(") matching.include = this.parseLabelList();
      }
    }
    return { returnBool, matching };
  }

  /** `(a, b, …)` with an optional trailing comma (grouping and matching labels). */
  private parseLabelList(): string[] {
    this.expect("(", "grouping opts", '"("');
    const out: string[] = [];
    while (this.peek().type !== ")") {
      const t = this.peek();
      if (t.type === "IDENT" || t.type === "STRING") out.push(this.next().val);
      else this.unexpected("grouping opts", "label");
      if (this.peek().type === ",") this.next();
      else if (this.peek().type !== ")") this.unexpected("grouping opts", '"," or ")"');
    }
    this.next();
    return out;
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (t.type === "-" || t.type === "+") {
      this.next();
      // Unary operators bind like `*`: only `^` (and postfix modifiers) bind tighter.
      const operand = this.parseBinary(6);
      if (operand.type === "NumberLiteral") {
        if (t.type === "-") operand.val = -operand.val;
        operand.pos = { start: t.pos, end: operand.pos.end };
        return operand;
      }
      return { type: "UnaryExpr", op: t.type, expr: operand, pos: { start: t.pos, end: operand.pos.end } };
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    switch (t.type) {
      case "NUMBER":
        this.next();
        return {
          type: "NumberLiteral",
          val: this.number(t),
          duration: false,
          pos: { start: t.pos, end: t.end },
        };
      case "DURATION":
        this.next();
        return {
          type: "NumberLiteral",
          val: this.duration(t) / 1000,
          duration: true,
          pos: { start: t.pos, end: t.end },
        };
      case "STRING":
        this.next();
        return { type: "StringLiteral", val: t.val, pos: { start: t.pos, end: t.end } };
      case "(": {
        this.next();
        const inner = this.parseBinary(0);
        const close = this.expect(")", "", "");
        return { type: "ParenExpr", expr: inner, pos: { start: t.pos, end: close.end } };
      }
      case "{":
        return this.parseSelector(null);
      case "IDENT":
        return this.parseIdentifier(t);
      default:
        this.unexpected();
    }
  }

  private parseIdentifier(t: Token): Expr {
    const kw = keywordOf(t);
    const after = this.peek(1);
    if (kw !== null && AGGREGATORS.has(kw)) {
      const g = keywordOf(after);
      if (after.type === "(" || g === "by" || g === "without") return this.parseAggregation();
    }
    if (after.type === "(" && kw === null) return this.parseCall();
    if (kw !== null && after.type !== "{") this.unexpected();
    this.next();
    return this.parseSelector(t);
  }

  private parseCall(): Expr {
    const name = this.next();
    const { args, end } = this.parseArgs("function call");
    return { type: "Call", func: name.val, args, pos: { start: name.pos, end } };
  }

  /** `( expr, expr, … )`. */
  private parseArgs(context: string): { args: Expr[]; end: number } {
    this.expect("(", context, '"("');
    const args: Expr[] = [];
    if (this.peek().type !== ")") {
      while (true) {
        args.push(this.parseBinary(0));
        if (this.peek().type === ",") {
          const comma = this.next();
          if (this.peek().type === ")") {
            this.fail(comma.pos, "trailing commas not allowed in function call args");
          }
          continue;
        }
        if (this.peek().type !== ")") this.unexpected(context, '"," or ")"');
        break;
      }
    }
    return { args, end: this.next().end };
  }

  private parseAggregation(): AggregateExpr {
    const opTok = this.next();
    const op = opTok.val.toLowerCase() as AggregateOp;
    let grouping: string[] = [], without = false, seenGrouping = false;
    const grouping_ = () => {
      without = keywordOf(this.next()) === "without";
      grouping = this.parseLabelList();
      seenGrouping = true;
    };
    const g = keywordOf(this.peek());
    if (g === "by" || g === "without") grouping_();
    if (this.peek().type !== "(") this.unexpected("aggregation", "");
    const { args, end: argsEnd } = this.parseArgs("aggregation");
    let end = argsEnd;
    const g2 = keywordOf(this.peek());
    if (!seenGrouping && (g2 === "by" || g2 === "without")) {
      grouping_();
      end = this.tokens[this.i - 1].end;
    }
    const pos = { start: opTok.pos, end };
    if (args.length === 0) this.fail(pos, "no arguments for aggregate expression provided");
    const want = aggregateHasParam(op) ? 2 : 1;
    if (args.length !== want) {
      this.fail(
        pos,
        `wrong number of arguments for aggregate expression provided, expected ${want}, got ${args.length}`,
      );
    }
    return {
      type: "AggregateExpr",
      op,
      expr: args[want - 1],
      param: want === 2 ? args[0] : null,
      grouping,
      without,
      pos,
    };
  }

  private parseSelector(nameTok: Token | null): VectorSelector {
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
  private parseMatcher(): LabelMatcher | null {
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
        new RegExp(v.val.replaceAll("(?P<", "(?<").replace(/^\(\?i\)/, ""), "s");
      } catch (e) {
        this.fail(t.pos, `error parsing regexp: ${(e as Error).message}`);
      }
    }
    return m;
  }

  private parsePostfix(e: Expr): Expr {
    while (true) {
      const t = this.peek();
      if (t.type === "[") e = this.parseRange(e);
      else if (keywordOf(t) === "offset") e = this.parseOffset(e);
      else if (t.type === "@") e = this.parseAt(e);
      else return e;
    }
  }

  private parseRange(e: Expr): Expr {
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

  /** A duration (or, as Prometheus 3 allows, a number of seconds) inside brackets. */
  private durationArg(context: string): number {
    const t = this.peek();
    if (t.type === "DURATION") return this.next(), this.duration(t);
    if (t.type === "NUMBER") return this.next(), Math.round(this.number(t) * 1000);
    if (t.type === "]" || t.type === ":") this.fail(t.pos, "missing unit character in duration");
    this.unexpected(context, "number or duration");
  }

  private timeTarget(e: Expr, what: string): VectorSelector | SubqueryExpr {
    if (e.type === "VectorSelector" || e.type === "SubqueryExpr") return e;
    if (e.type === "MatrixSelector") return e.vectorSelector;
    this.fail(
      e.pos,
      `${what} modifier must be preceded by an instant vector selector or range vector selector or a subquery`,
    );
  }

  private parseOffset(e: Expr): Expr {
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

  private parseAt(e: Expr): Expr {
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

  private duration(t: Token): number {
    const ms = parseDurationMs(t.val);
    if (ms === null) this.fail(t.pos, `not a valid duration string: "${t.val}"`);
    return ms;
  }

  /** Prometheus' `number()`: integers in Go's base syntax first (`0x1F`, octal `010`), then floats. */
  private number(t: Token): number {
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

/** A number literal node (for callers building ASTs). */
export function numberLiteral(val: number): NumberLiteral {
  return { type: "NumberLiteral", val, duration: false, pos: { start: 0, end: 0 } };
}
