/**
 * Prometheus' `parser.Prettify` (what `/format_query` answers): expressions longer than 100
 * characters are split, one operand or argument per line, indented two spaces per level.
 */
import type { Expr } from "./ast.ts";
import { aggregateHasParam } from "./ast.ts";
import { aggregateOpString, atOffset, binaryModifiersString, exprString } from "./printer.ts";
import { formatDurationMs } from "./duration.ts";

const MAX_LINE = 100;
const indent = (level: number) => "  ".repeat(level);
const needsSplit = (e: Expr) => exprString(e).length > MAX_LINE;

/**
 * The prettified text of an expression.
 * @example prettify(parseExpr("foo/bar")) === "foo / bar"
 */
export function prettify(e: Expr): string {
  return pretty(e, 0);
}

function pretty(e: Expr, level: number): string {
  const s = indent(level);
  switch (e.type) {
    case "AggregateExpr": {
      if (!needsSplit(e)) return s + exprString(e);
      let out = s + aggregateOpString(e) + "(\n";
      if (aggregateHasParam(e.op) && e.param !== null) out += `${pretty(e.param, level + 1)},\n`;
      return out + `${pretty(e.expr, level + 1)}\n${s})`;
    }
    case "BinaryExpr":
      if (!needsSplit(e)) return s + exprString(e);
      return `${pretty(e.lhs, level + 1)}\n${s}${e.op}${binaryModifiersString(e)}\n${
        pretty(e.rhs, level + 1)
      }`;
    case "Call":
      if (!needsSplit(e)) return s + exprString(e);
      return `${s}${e.func}(\n${e.args.map((a) => pretty(a, level + 1)).join(",\n")}\n${s})`;
    case "ParenExpr":
      if (!needsSplit(e)) return s + exprString(e);
      return `${s}(\n${pretty(e.expr, level + 1)}\n${s})`;
    case "SubqueryExpr": {
      // Prometheus indents neither an unsplit subquery nor the suffix of a split one.
      if (!needsSplit(e)) return exprString(e);
      const [at, offset] = atOffset(e);
      const step = e.stepMs === 0 ? "" : formatDurationMs(e.stepMs);
      return `${pretty(e.expr, level)}[${formatDurationMs(e.rangeMs)}:${step}]${at}${offset}`;
    }
    case "UnaryExpr":
      return `${s}${e.op}${pretty(e.expr, level).trim()}`;
    default:
      return s + exprString(e);
  }
}
