/**
 * VRL's compile errors of assignments, function-call arguments and operators, with the labels and notes
 * VRL's `compiler/expression/*` gives them (message texts as VRL's, so the rendered reports match).
 */

import type { Span } from "./ast.ts";
import { COERCE_VALUE, type DiagnosticLabel, SEE_ERROR_DOCS, VrlCompileError } from "./diagnostic.ts";

const text = (s: Span) => (src: string) => src.slice(s.start, s.end);
const label = (s: Span, message: string, primary = false): DiagnosticLabel => ({
  start: s.start,
  end: s.end,
  message,
  primary,
});

/**
 * VRL's E103 (`assignment::Error::FallibleAssignment`): the value can fail. The target and its `=` (up to
 * the value's start, less one) carry the suggested `target, err = value`, quoting the program.
 */
export function fallibleAssignment(target: Span, value: Span): VrlCompileError {
  const assignment = { start: target.start, end: Math.max(target.start, value.start - 1) };
  return new VrlCompileError("E103", "unhandled fallible assignment", value.start, value.end, "", {
    labels: [
      label(value, "this expression is fallible", true),
      label(value, "update the expression to be infallible"),
      label(assignment, "or change this to an infallible assignment:"),
      { ...label(assignment, ""), quote: (src) => `${text(target)(src)}, err = ${text(value)(src)}` },
    ],
    notes: [SEE_ERROR_DOCS],
  });
}

/** VRL's E104 (`assignment::Error::InfallibleAssignment`): `ok, err = value` where the value can't fail. */
export function infallibleAssignment(ok: Span, err: Span, value: Span): VrlCompileError {
  return new VrlCompileError("E104", "unnecessary error assignment", err.start, err.end, "", {
    labels: [
      label(err, "this error assignment is unnecessary", true),
      label(value, "because this expression can't fail"),
      { ...label(ok, ""), quote: (src) => `use: ${text(ok)(src)} = ${text(value)(src)}` },
    ],
    notes: [SEE_ERROR_DOCS],
  });
}

/** VRL's E640 (`assignment::ErrorVariant::UnnecessaryNoop`): `_ = value` without an error target. */
export function unnecessaryNoop(target: Span, value: Span, assignment: Span): VrlCompileError {
  return new VrlCompileError("E640", "unnecessary no-op assignment", value.start, value.end, "", {
    labels: [
      label(value, "this no-op assignment has no effect", true),
      label(target, "either assign to a path or variable here"),
      label(assignment, "or remove the assignment"),
    ],
  });
}

/** VRL's E106 (`function_call::Error::WrongNumberOfArgs`): more arguments than parameters, over all of them. */
export function wrongNumberOfArgs(args: Span, max: number): VrlCompileError {
  const what = `this function takes a maximum of ${max} ${max === 1 ? "argument" : "arguments"}`;
  return new VrlCompileError("E106", "wrong number of function arguments", args.start, args.end, "", {
    labels: [label(args, "too many function arguments", true), label(args, what)],
  });
}

/** VRL's E108 (`function_call::Error::UnknownKeyword`): the keyword, and the function's name listing its keywords. */
export function unknownKeyword(keyword: Span, name: Span, keywords: string[]): VrlCompileError {
  const accepted = keywords.map((k) => `"${k}"`).join(", ");
  return new VrlCompileError("E108", "unknown function argument keyword", keyword.start, keyword.end, "", {
    labels: [
      label(keyword, "unknown keyword", true),
      label(name, `this function accepts the following keywords: ${accepted}`),
    ],
  });
}

/** VRL's E107 (`function_call::Error::MissingArgument`): a required parameter, by keyword and 0-based position. */
export function missingArgument(call: Span, keyword: string, position: number): VrlCompileError {
  const message = `required argument missing: "${keyword}" (position ${position})`;
  return new VrlCompileError("E107", "missing function argument", call.start, call.end, message);
}

/** VRL's E650 (`op::Error::ChainedComparison`): the whole operation, under a label without a message. */
export function chainedComparison(op: Span): VrlCompileError {
  return new VrlCompileError("E650", "comparison operators can't be chained together", op.start, op.end);
}

/** VRL's E652 (`op::Error::MergeNonObjects`): each side of `|` that can't be an object. */
export function mergeNonObjects(sides: Span[]): VrlCompileError {
  const labels = sides.map((s) => label(s, "this expression must resolve to an object", true));
  return new VrlCompileError("E652", "only objects can be merged", sides[0].start, sides[0].end, "", {
    labels,
  });
}

/** VRL's E631 (`abort::Error` FallibleExpr): an abort message that can fail. */
export function fallibleAbortMessage(message: Span): VrlCompileError {
  return new VrlCompileError("E631", "unhandled fallible expression", message.start, message.end, "", {
    labels: [
      label(message, "abort only accepts an infallible expression argument", true),
      label(message, "handle errors before using the expression as an abort message"),
    ],
    notes: [SEE_ERROR_DOCS],
  });
}

/** VRL's E300 (`abort::Error` NonString): an abort message that isn't known to be a string. */
export function nonStringAbortMessage(message: Span, kind: string): VrlCompileError {
  return new VrlCompileError("E300", "non-string abort message", message.start, message.end, "", {
    labels: [
      label(message, "abort only accepts an expression argument resolving to a string", true),
      label(message, `this expression resolves to ${kind}`),
    ],
    notes: [COERCE_VALUE],
  });
}

/** VRL's E660 (`not::Error` NonBoolean): `!` (the primary label) on an operand that can't be a boolean. */
export function nonBooleanNegation(not: Span, operand: Span, kind: string): VrlCompileError {
  return new VrlCompileError("E660", "non-boolean negation", not.start, not.end, "", {
    labels: [
      label(not, "negation only works on boolean values", true),
      label(operand, `this expression resolves to ${kind}`),
    ],
    notes: [COERCE_VALUE],
  });
}
