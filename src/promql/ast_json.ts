/**
 * The syntax tree as Prometheus' `/api/v1/parse_query` renders it (`translateAST` in web/api/v1),
 * with object keys sorted as Go's JSON encoder sorts map keys.
 */
import type { LabelMatcher } from "../common/label_matcher.ts";
import type { Expr, StartOrEnd } from "./ast.ts";
import { FUNCTIONS } from "./functions/mod.ts";
import { formatFloatF } from "./printer.ts";

/** A JSON value. */
export type AstJson = string | number | boolean | null | AstJson[] | { [key: string]: AstJson };

const MATCH_OP = { EQ: "=", NEQ: "!=", RE: "=~", NRE: "!~" } as const;

function sortedObject(o: Record<string, AstJson>): Record<string, AstJson> {
  const out: Record<string, AstJson> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

function matchers(ms: LabelMatcher[]): AstJson {
  return ms.map((m) => sortedObject({ name: m.name, type: MATCH_OP[m.type], value: m.value }));
}

const startOrEnd = (s: StartOrEnd): AstJson => s;

/** Prometheus' `translateAST` of an expression. */
export function astJson(e: Expr): AstJson {
  switch (e.type) {
    case "AggregateExpr":
      return sortedObject({
        type: "aggregation",
        op: e.op,
        expr: astJson(e.expr),
        param: e.param === null ? null : astJson(e.param),
        grouping: e.grouping,
        without: e.without,
      });
    case "BinaryExpr":
      return sortedObject({
        type: "binaryExpr",
        op: e.op,
        lhs: astJson(e.lhs),
        rhs: astJson(e.rhs),
        matching: e.matching === null ? null : sortedObject({
          card: e.matching.card,
          labels: e.matching.matchingLabels,
          on: e.matching.on,
          include: e.matching.include,
        }),
        bool: e.returnBool,
      });
    case "Call": {
      const fn = FUNCTIONS.get(e.func)!;
      return sortedObject({
        type: "call",
        func: sortedObject({
          name: fn.name,
          argTypes: fn.argTypes,
          variadic: fn.variadic,
          returnType: fn.returnType,
        }),
        args: e.args.map(astJson),
      });
    }
    case "MatrixSelector": {
      const vs = e.vectorSelector;
      return sortedObject({
        type: "matrixSelector",
        name: vs.name,
        range: e.rangeMs,
        offset: vs.offsetMs,
        matchers: matchers(vs.matchers),
        timestamp: vs.timestampMs,
        startOrEnd: startOrEnd(vs.startOrEnd),
      });
    }
    case "SubqueryExpr":
      return sortedObject({
        type: "subquery",
        expr: astJson(e.expr),
        range: e.rangeMs,
        offset: e.offsetMs,
        step: e.stepMs,
        timestamp: e.timestampMs,
        startOrEnd: startOrEnd(e.startOrEnd),
      });
    case "NumberLiteral":
      return sortedObject({ type: "numberLiteral", val: formatFloatF(e.val) });
    case "ParenExpr":
      return sortedObject({ type: "parenExpr", expr: astJson(e.expr) });
    case "StringLiteral":
      return sortedObject({ type: "stringLiteral", val: e.val });
    case "UnaryExpr":
      return sortedObject({ type: "unaryExpr", op: e.op, expr: astJson(e.expr) });
    case "VectorSelector":
      return sortedObject({
        type: "vectorSelector",
        name: e.name,
        offset: e.offsetMs,
        matchers: matchers(e.matchers),
        timestamp: e.timestampMs,
        startOrEnd: startOrEnd(e.startOrEnd),
      });
  }
}
