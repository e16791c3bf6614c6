/** Prometheus' `checkAST`: the type rules of PromQL, with its messages and positions. */
import { matchLabel } from "../common/label_matcher.ts";
import { type Expr, exprType, isComparisonOp, isSetOp, type PosRange, type ValueType } from "./ast.ts";
import { functionReturnType, FUNCTIONS } from "./functions/mod.ts";
import { ParseError } from "./parse_error.ts";

/** Prometheus' documented names of value types. */
export function documentedType(t: ValueType): string {
  return t === "vector" ? "instant vector" : t === "matrix" ? "range vector" : t;
}

const typeOf = (e: Expr) => exprType(e, functionReturnType);

/** Throws the first type error of the tree, as Prometheus' parser reports it. */
export function checkAST(e: Expr, query: string): ValueType {
  const fail = (pos: PosRange, msg: string): never => {
    throw new ParseError(msg, pos, query);
  };
  const expectType = (node: Expr, want: ValueType, context: string) => {
    const t = checkAST(node, query);
    if (t !== want) {
      fail(node.pos, `expected type ${documentedType(want)} in ${context}, got ${documentedType(t)}`);
    }
  };
  switch (e.type) {
    case "NumberLiteral":
    case "StringLiteral":
      break;
    case "ParenExpr":
      checkAST(e.expr, query);
      break;
    case "AggregateExpr":
      expectType(e.expr, "vector", "aggregation expression");
      if (e.param !== null) {
        expectType(e.param, e.op === "count_values" ? "string" : "scalar", "aggregation parameter");
      }
      break;
    case "Call":
      checkCall(e, query, fail, expectType);
      break;
    case "UnaryExpr": {
      const t = checkAST(e.expr, query);
      if (t !== "scalar" && t !== "vector") {
        fail(
          e.pos,
          `unary expression only allowed on expressions of type scalar or instant vector, got "${
            documentedType(t)
          }"`,
        );
      }
      break;
    }
    case "SubqueryExpr": {
      const t = checkAST(e.expr, query);
      if (t !== "vector") fail(e.pos, `subquery is only allowed on instant vector, got ${t} instead`);
      break;
    }
    case "MatrixSelector":
      checkAST(e.vectorSelector, query);
      break;
    case "VectorSelector":
      checkSelector(e, fail);
      break;
    case "BinaryExpr":
      checkBinary(e, query, fail);
      break;
  }
  return typeOf(e);
}

function checkCall(
  e: Expr & { type: "Call" },
  query: string,
  fail: (pos: PosRange, msg: string) => never,
  expectType: (node: Expr, want: ValueType, context: string) => void,
): void {
  const fn = FUNCTIONS.get(e.func);
  if (fn === undefined) fail(e.pos, `unknown function with name "${e.func}"`);
  const nargs = fn.argTypes.length;
  if (fn.variadic === 0) {
    if (nargs !== e.args.length) {
      fail(e.pos, `expected ${nargs} argument(s) in call to "${e.func}", got ${e.args.length}`);
    }
  } else {
    const na = nargs - 1;
    if (na > e.args.length) {
      fail(e.pos, `expected at least ${na} argument(s) in call to "${e.func}", got ${e.args.length}`);
    } else if (fn.variadic > 0 && na + fn.variadic < e.args.length) {
      fail(
        e.pos,
        `expected at most ${na + fn.variadic} argument(s) in call to "${e.func}", got ${e.args.length}`,
      );
    }
  }
  e.args.forEach((arg, i) => {
    if (i >= nargs) {
      if (fn.variadic === 0) return;
      i = nargs - 1;
    }
    expectType(arg, fn.argTypes[i], `call to function "${e.func}"`);
  });
  void query;
}

function checkSelector(
  e: Expr & { type: "VectorSelector" },
  fail: (pos: PosRange, msg: string) => never,
): void {
  if (e.name !== "") {
    const named = e.matchers.filter((m) => m.name === "__name__");
    if (named.length > 1) {
      fail(e.pos, `metric name must not be set twice: "${e.name}" or "${named[0].value}"`);
    }
    return;
  }
  if (!e.matchers.some((m) => !matchLabel(m, ""))) {
    fail(e.pos, "vector selector must contain at least one non-empty matcher");
  }
}

function checkBinary(
  e: Expr & { type: "BinaryExpr" },
  query: string,
  fail: (pos: PosRange, msg: string) => never,
): void {
  const lt = checkAST(e.lhs, query);
  const rt = checkAST(e.rhs, query);
  const opRange = (): PosRange => {
    let start = e.lhs.pos.end, end = e.rhs.pos.start - 1;
    while (/\s/.test(query[start] ?? "")) start++;
    while (/\s/.test(query[end] ?? "")) end--;
    return { start, end };
  };
  if (e.returnBool && !isComparisonOp(e.op)) {
    fail(opRange(), "bool modifier can only be used on comparison operators");
  }
  if (isComparisonOp(e.op) && !e.returnBool && lt === "scalar" && rt === "scalar") {
    fail(opRange(), "comparisons between scalars must use BOOL modifier");
  }
  const m = e.matching;
  if (m !== null && isSetOp(e.op) && m.card === "one-to-one") m.card = "many-to-many";
  if (m !== null && m.on) {
    for (const l of m.matchingLabels) {
      if (m.include.includes(l)) {
        fail(opRange(), `label "${l}" must not occur in ON and GROUP clause at once`);
      }
    }
  }
  if (lt !== "scalar" && lt !== "vector") {
    fail(e.lhs.pos, "binary expression must contain only scalar and instant vector types");
  }
  if (rt !== "scalar" && rt !== "vector") {
    fail(e.rhs.pos, "binary expression must contain only scalar and instant vector types");
  }
  if ((lt !== "vector" || rt !== "vector") && m !== null) {
    if (m.matchingLabels.length > 0) fail(e.pos, "vector matching only allowed between instant vectors");
    e.matching = null;
  } else if (isSetOp(e.op) && m !== null) {
    if (m.card === "one-to-many" || m.card === "many-to-one") {
      fail(e.pos, `no grouping allowed for "${e.op}" operation`);
    }
    if (m.card !== "many-to-many") fail(e.pos, "set operations must always be many-to-many");
  }
  if ((lt === "scalar" || rt === "scalar") && isSetOp(e.op)) {
    fail(e.pos, `set operator "${e.op}" not allowed in binary scalar expression`);
  }
}
