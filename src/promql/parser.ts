/**
 * The PromQL parser: tokens → typed AST, then Prometheus' type checks (`check.ts`).
 *
 * Hand-written rather than built on `@prometheus-io/lezer-promql`: lezer's error recovery yields
 * anonymous error nodes, while Prometheus' API answers with its yacc parser's exact messages and
 * positions ("unexpected end of input in grouping opts, expected \"(\""…), which clients and our
 * equivalence tests compare. Precedence and associativity follow `generated_parser.y`.
 */
import type {
  AggregateExpr,
  AggregateOp,
  BinaryExpr,
  BinaryOp,
  Expr,
  NumberLiteral,
  VectorMatching,
} from "./ast.ts";
import { aggregateHasParam } from "./ast.ts";
import { checkAST } from "./check.ts";
import { AGGREGATORS, keywordOf, type Token } from "./lexer.ts";
import { SelectorParser } from "./parser_selector.ts";

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

class Parser extends SelectorParser {
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
}

/** A number literal node (for callers building ASTs). */
export function numberLiteral(val: number): NumberLiteral {
  return { type: "NumberLiteral", val, duration: false, pos: { start: 0, end: 0 } };
}
