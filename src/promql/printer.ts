/** Expressions back to PromQL text exactly as Prometheus' `String()` methods print them. */
import type { LabelMatcher } from "../common/label_matcher.ts";
import type { AggregateExpr, BinaryExpr, Expr, TimeModifiers, VectorSelector } from "./ast.ts";
import { formatDurationMs } from "./duration.ts";
import { goQuote } from "./lexer.ts";

const MATCH_OP = { EQ: "=", NEQ: "!=", RE: "=~", NRE: "!~" } as const;

/** A label matcher as `name="value"`. */
export function matcherString(m: LabelMatcher): string {
  return `${m.name}${MATCH_OP[m.type]}${goQuote(m.value)}`;
}

/** Go's `strconv.FormatFloat(v, 'f', -1, 64)`, with Go's spellings of infinities. */
export function formatFloatF(v: number): string {
  if (v !== v) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  if (Object.is(v, -0)) return "-0";
  const abs = Math.abs(v);
  if (abs >= 1e-6 && abs < 1e21) return String(v);
  // Positional notation for very small and very large numbers, from the shortest digits.
  const [mant, expText] = abs.toExponential().split("e");
  const exp = Number(expText);
  const digits = mant.replace(".", "");
  const sign = v < 0 ? "-" : "";
  if (exp >= 0) return sign + digits + "0".repeat(Math.max(0, exp + 1 - digits.length));
  return sign + "0." + "0".repeat(-exp - 1) + digits;
}

/** ` @ …` and ` offset …` of a selector or subquery. */
export function atOffset(m: TimeModifiers): [string, string] {
  let offset = "";
  if (m.offsetMs > 0) offset = ` offset ${formatDurationMs(m.offsetMs)}`;
  else if (m.offsetMs < 0) offset = ` offset -${formatDurationMs(-m.offsetMs)}`;
  let at = "";
  if (m.timestampMs !== null) at = ` @ ${(m.timestampMs / 1000).toFixed(3)}`;
  else if (m.startOrEnd === "start") at = " @ start()";
  else if (m.startOrEnd === "end") at = " @ end()";
  return [at, offset];
}

/** A selector without its time modifiers: `name{a="b",c=~"d"}`. */
export function selectorString(vs: VectorSelector): string {
  const parts: string[] = [];
  for (const m of vs.matchers) {
    if (m.name === "__name__" && m.type === "EQ" && m.value === vs.name && m.value !== "") continue;
    parts.push(matcherString(m));
  }
  if (parts.length === 0) return vs.name;
  parts.sort();
  return `${vs.name}{${parts.join(",")}}`;
}

/** The operator and grouping of an aggregation: `sum by (job) `. */
export function aggregateOpString(e: AggregateExpr): string {
  if (e.without) return `${e.op} without (${e.grouping.join(", ")}) `;
  if (e.grouping.length > 0) return `${e.op} by (${e.grouping.join(", ")}) `;
  return e.op;
}

/** ` bool on (a) group_left (b)` of a binary expression. */
export function binaryModifiersString(e: BinaryExpr): string {
  let out = e.returnBool ? " bool" : "";
  const vm = e.matching;
  if (vm !== null && (vm.matchingLabels.length > 0 || vm.on)) {
    out += ` ${vm.on ? "on" : "ignoring"} (${vm.matchingLabels.join(", ")})`;
    if (vm.card === "many-to-one" || vm.card === "one-to-many") {
      out += ` group_${vm.card === "many-to-one" ? "left" : "right"} (${vm.include.join(", ")})`;
    }
  }
  return out;
}

/** Go's `%v` of a float64 (`strconv` 'g', shortest): exponent form below 1e-4 and from 1e6 on. */
export function formatFloatV(v: number): string {
  if (v !== v) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const [mant, expText] = v.toExponential().split("e");
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return formatFloatF(v);
}

/** A number literal as written back (durations as durations, Prometheus 3; numbers as Go's `%v`). */
export function numberString(val: number, duration: boolean): string {
  if (duration) return val < 0 ? `-${formatDurationMs(-val * 1000)}` : formatDurationMs(val * 1000);
  return formatFloatV(val);
}

/**
 * Prometheus' canonical text of an expression.
 * @example exprString(parseExpr("foo/bar")) === "foo / bar"
 */
export function exprString(e: Expr): string {
  switch (e.type) {
    case "NumberLiteral":
      return numberString(e.val, e.duration);
    case "StringLiteral":
      return goQuote(e.val);
    case "VectorSelector": {
      const [at, offset] = atOffset(e);
      return selectorString(e) + at + offset;
    }
    case "MatrixSelector": {
      const [at, offset] = atOffset(e.vectorSelector);
      return `${selectorString(e.vectorSelector)}[${formatDurationMs(e.rangeMs)}]${at}${offset}`;
    }
    case "SubqueryExpr": {
      const [at, offset] = atOffset(e);
      const step = e.stepMs === 0 ? "" : formatDurationMs(e.stepMs);
      return `${exprString(e.expr)}[${formatDurationMs(e.rangeMs)}:${step}]${at}${offset}`;
    }
    case "Call":
      return `${e.func}(${e.args.map(exprString).join(", ")})`;
    case "AggregateExpr": {
      const args = e.param === null ? exprString(e.expr) : `${exprString(e.param)}, ${exprString(e.expr)}`;
      return `${aggregateOpString(e)}(${args})`;
    }
    case "BinaryExpr":
      return `${exprString(e.lhs)} ${e.op}${binaryModifiersString(e)} ${exprString(e.rhs)}`;
    case "UnaryExpr":
      return `${e.op}${exprString(e.expr)}`;
    case "ParenExpr":
      return `(${exprString(e.expr)})`;
  }
}
