/**
 * The typed PromQL syntax tree, mirroring Prometheus' `promql/parser/ast.go`: every node carries its
 * position range (byte offsets into the query) so type errors can name where they are.
 */
import type { LabelMatcher } from "../common/label_matcher.ts";

/** The four value types of PromQL (Prometheus' `ValueType` names). */
export type ValueType = "scalar" | "string" | "vector" | "matrix";

/** Byte offsets `[start, end)` of a node in the query text. */
export interface PosRange {
  start: number;
  end: number;
}

/** Binary operators, in Prometheus' spelling. */
export type BinaryOp =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "atan2"
  | "=="
  | "!="
  | ">"
  | "<"
  | ">="
  | "<="
  | "and"
  | "or"
  | "unless";

/** Aggregation operators. */
export type AggregateOp =
  | "sum"
  | "avg"
  | "count"
  | "min"
  | "max"
  | "group"
  | "stddev"
  | "stdvar"
  | "topk"
  | "bottomk"
  | "quantile"
  | "count_values"
  | "limitk"
  | "limit_ratio";

/** `@ start()` / `@ end()`. */
export type StartOrEnd = "start" | "end" | null;

/** How two vectors' series are paired (Prometheus' `VectorMatching`). */
export interface VectorMatching {
  card: "one-to-one" | "many-to-one" | "one-to-many" | "many-to-many";
  /** Labels of `on(...)` / `ignoring(...)`. */
  matchingLabels: string[];
  /** True for `on(...)`, false for `ignoring(...)` or no clause. */
  on: boolean;
  /** Extra labels of `group_left(...)` / `group_right(...)` taken from the "one" side. */
  include: string[];
}

/** Time modifiers shared by selectors and subqueries (offset and `@` in milliseconds). */
export interface TimeModifiers {
  /** `offset` as written, in milliseconds (negative for `offset -5m`). */
  offsetMs: number;
  /** `@ <timestamp>` in milliseconds, or null. */
  timestampMs: number | null;
  startOrEnd: StartOrEnd;
}

/** A float literal; `duration` when written as a duration (`5m` = 300, Prometheus 3). */
export interface NumberLiteral {
  type: "NumberLiteral";
  val: number;
  duration: boolean;
  pos: PosRange;
}

/** A string literal. */
export interface StringLiteral {
  type: "StringLiteral";
  val: string;
  pos: PosRange;
}

/** An instant vector selector `name{matchers}`. */
export interface VectorSelector extends TimeModifiers {
  type: "VectorSelector";
  name: string;
  matchers: LabelMatcher[];
  pos: PosRange;
}

/** A range vector selector `selector[range]`. */
export interface MatrixSelector {
  type: "MatrixSelector";
  vectorSelector: VectorSelector;
  rangeMs: number;
  pos: PosRange;
}

/** A subquery `expr[range:step]`. */
export interface SubqueryExpr extends TimeModifiers {
  type: "SubqueryExpr";
  expr: Expr;
  rangeMs: number;
  /** 0 when the step was left out (the engine's default applies). */
  stepMs: number;
  pos: PosRange;
}

/** A function call. */
export interface Call {
  type: "Call";
  func: string;
  args: Expr[];
  pos: PosRange;
}

/** An aggregation `op by|without (grouping) ([param,] expr)`. */
export interface AggregateExpr {
  type: "AggregateExpr";
  op: AggregateOp;
  expr: Expr;
  param: Expr | null;
  grouping: string[];
  without: boolean;
  pos: PosRange;
}

/** A binary operation. `matching` is null when both sides are scalars. */
export interface BinaryExpr {
  type: "BinaryExpr";
  op: BinaryOp;
  lhs: Expr;
  rhs: Expr;
  matching: VectorMatching | null;
  returnBool: boolean;
  pos: PosRange;
}

/** A unary `-` or `+`. */
export interface UnaryExpr {
  type: "UnaryExpr";
  op: "-" | "+";
  expr: Expr;
  pos: PosRange;
}

/** A parenthesized expression. */
export interface ParenExpr {
  type: "ParenExpr";
  expr: Expr;
  pos: PosRange;
}

/** Any PromQL expression. */
export type Expr =
  | NumberLiteral
  | StringLiteral
  | VectorSelector
  | MatrixSelector
  | SubqueryExpr
  | Call
  | AggregateExpr
  | BinaryExpr
  | UnaryExpr
  | ParenExpr;

/** Operators whose result drops the metric name (Prometheus' `shouldDropMetricName`). */
export function isArithmeticOp(op: BinaryOp): boolean {
  return op === "+" || op === "-" || op === "*" || op === "/" || op === "%" || op === "^" ||
    op === "atan2";
}

/** `== != > < >= <=`. */
export function isComparisonOp(op: BinaryOp): boolean {
  return op === "==" || op === "!=" || op === ">" || op === "<" || op === ">=" || op === "<=";
}

/** `and or unless`. */
export function isSetOp(op: BinaryOp): boolean {
  return op === "and" || op === "or" || op === "unless";
}

/** Aggregations that take a parameter before the vector. */
export function aggregateHasParam(op: AggregateOp): boolean {
  return op === "topk" || op === "bottomk" || op === "quantile" || op === "count_values" ||
    op === "limitk" || op === "limit_ratio";
}

/** The value type an expression evaluates to (Prometheus' `Expr.Type()`). */
export function exprType(e: Expr, returnTypeOf: (func: string) => ValueType): ValueType {
  switch (e.type) {
    case "NumberLiteral":
      return "scalar";
    case "StringLiteral":
      return "string";
    case "VectorSelector":
    case "AggregateExpr":
      return "vector";
    case "MatrixSelector":
    case "SubqueryExpr":
      return "matrix";
    case "Call":
      return returnTypeOf(e.func);
    case "BinaryExpr":
      return exprType(e.lhs, returnTypeOf) === "scalar" && exprType(e.rhs, returnTypeOf) === "scalar"
        ? "scalar"
        : "vector";
    case "UnaryExpr":
    case "ParenExpr":
      return exprType(e.expr, returnTypeOf);
  }
}

/** The expression inside any number of parentheses. */
export function unwrapParens(e: Expr): Expr {
  while (e.type === "ParenExpr") e = e.expr;
  return e;
}
