/**
 * Compile errors rendered in full as VRL's test corpus expects them (codespan-reporting without colour, line
 * ends trimmed): every label of the diagnostic, then its notes and the three every VRL diagnostic carries.
 */

import assert from "node:assert/strict";
import { compileVrl } from "../../engine/vrl/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";
import "./harness.ts";

const TAIL = (code: number) => [
  `  = learn more about error code ${code} at https://errors.vrl.dev/${code}`,
  "  = see language documentation at https://vrl.dev",
  "  = try your code in the VRL REPL, learn more at https://vrl.dev/examples",
];
const ERROR_DOCS = "  = see documentation about error handling at https://errors.vrl.dev/#handling";

const CASES: [program: string, diagnostic: string[]][] = [
  // VRL's `ExpressionError::Fallible`: a primary and a context label on the same span.
  ["1 / .x", [
    "error[E100]: unhandled error",
    "  ┌─ :1:1",
    "  │",
    "1 │ 1 / .x",
    "  │ ^^^^^^",
    "  │ │",
    "  │ expression can result in runtime error",
    "  │ handle the error case to ensure runtime success",
    "  │",
    ERROR_DOCS,
    ...TAIL(100),
  ]],
  // `function_call::Error::AbortInfallible`: the `!` is a context label whose message trails the carets.
  ['.a = "x"\nupcase!(.a)', [
    "error[E620]: can't abort infallible function",
    "  ┌─ :2:1",
    "  │",
    "2 │ upcase!(.a)",
    "  │ ^^^^^^- remove this abort-instruction",
    "  │ │",
    "  │ this function can't fail",
    "  │",
    ERROR_DOCS,
    ...TAIL(620),
  ]],
  // `function_call::Error::FallibleArgument`.
  ["upcase(parse_json(.x))", [
    "error[E630]: fallible argument",
    "  ┌─ :1:8",
    "  │",
    "1 │ upcase(parse_json(.x))",
    "  │        ^^^^^^^^^^^^^^",
    "  │        │",
    "  │        this expression can fail",
    "  │        handle the error before passing it in as an argument",
    "  │",
    ERROR_DOCS,
    ...TAIL(630),
  ]],
  // `op::Error::UnnecessaryCoalesce`: three labels, the rightmost trailing, the others hanging right to left.
  ['"a" ?? "b"', [
    "error[E651]: unnecessary error coalescing operation",
    "  ┌─ :1:1",
    "  │",
    '1 │ "a" ?? "b"',
    "  │ ^^^ -- --- this expression never resolves",
    "  │ │   │",
    "  │ │   remove this error coalescing operation",
    "  │ this expression can't fail",
    "  │",
    ...TAIL(651),
  ]],
  // Labels on two lines: each line gets its own carets.
  [".a = 1\nx = .a ??\n  2", [
    "error[E651]: unnecessary error coalescing operation",
    "  ┌─ :2:5",
    "  │",
    "2 │ x = .a ??",
    "  │     ^^ -- remove this error coalescing operation",
    "  │     │",
    "  │     this expression can't fail",
    "3 │   2",
    "  │   - this expression never resolves",
    "  │",
    ...TAIL(651),
  ]],
  // An unhandled error does not stop checking: every one is reported, then the error that stopped it.
  ['1 / .x\n.a = 1\nupcase(.b)\nupcase!("a")', [
    "error[E100]: unhandled error",
    "  ┌─ :1:1",
    "  │",
    "1 │ 1 / .x",
    "  │ ^^^^^^",
    "  │ │",
    "  │ expression can result in runtime error",
    "  │ handle the error case to ensure runtime success",
    "  │",
    ERROR_DOCS,
    ...TAIL(100),
    "",
    "error[E100]: unhandled error",
    "  ┌─ :3:1",
    "  │",
    "3 │ upcase(.b)",
    "  │ ^^^^^^^^^^",
    "  │ │",
    "  │ expression can result in runtime error",
    "  │ handle the error case to ensure runtime success",
    "  │",
    ERROR_DOCS,
    ...TAIL(100),
    "",
    "error[E620]: can't abort infallible function",
    "  ┌─ :4:1",
    "  │",
    '4 │ upcase!("a")',
    "  │ ^^^^^^- remove this abort-instruction",
    "  │ │",
    "  │ this function can't fail",
    "  │",
    ERROR_DOCS,
    ...TAIL(620),
  ]],
  // `function_call::Error::Undefined`: the nearest known function by edit distance.
  ['parse_jsn!("1")', [
    "error[E105]: call to undefined function",
    "  ┌─ :1:1",
    "  │",
    '1 │ parse_jsn!("1")',
    "  │ ^^^^^^^^^",
    "  │ │",
    "  │ undefined function",
    '  │ did you mean "parse_json"?',
    "  │",
    ...TAIL(105),
  ]],
  // `predicate::Error::NonBoolean`, with its coercion hint and the docs of `if`; kinds in VRL's order.
  ['x = if .b == 1 { "a" } else { null }\nif x { 1 }', [
    "error[E102]: non-boolean predicate",
    "  ┌─ :2:4",
    "  │",
    "2 │ if x { 1 }",
    "  │    ^",
    "  │    │",
    "  │    this predicate must resolve to a boolean",
    "  │    instead it resolves to string or null",
    "  │",
    "  = hint: coerce the value to the required type using a coercion function",
    "  = see documentation about if expressions at https://expressions.vrl.dev/#if",
    ...TAIL(102),
  ]],
  // An event field nothing is known about is `any`.
  ["if .x { 1 }", [
    "error[E102]: non-boolean predicate",
    "  ┌─ :1:4",
    "  │",
    "1 │ if .x { 1 }",
    "  │    ^^",
    "  │    │",
    "  │    this predicate must resolve to a boolean",
    "  │    instead it resolves to any",
    "  │",
    "  = hint: coerce the value to the required type using a coercion function",
    "  = see documentation about if expressions at https://expressions.vrl.dev/#if",
    ...TAIL(102),
  ]],
  // `function_call::Error::InvalidArgumentKind`, with VRL's two suggested fixes quoting the argument.
  ["upcase(42)", [
    "error[E110]: invalid argument type",
    "  ┌─ :1:8",
    "  │",
    "1 │ upcase(42)",
    "  │        ^^",
    "  │        │",
    "  │        this expression resolves to the exact type integer",
    '  │        but the parameter "value" expects the exact type string',
    "  │",
    "  = try: ensuring an appropriate type at runtime",
    "  =",
    "  =     42 = string!(42)",
    "  =     upcase(42)",
    "  =",
    "  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails",
    "  =",
    '  =     42 = to_string(42) ?? "default"',
    "  =     upcase(42)",
    "  =",
    ERROR_DOCS,
    ...TAIL(110),
  ]],
  // Checking goes on after a failed statement; reading a variable whose assignment failed drops the
  // statement without a report of its own (no E701), as VRL's `skip_missing_assignment_target`.
  ['x = upcase!("a")\ny = x + 1\nz', [
    "error[E620]: can't abort infallible function",
    "  ┌─ :1:5",
    "  │",
    '1 │ x = upcase!("a")',
    "  │     ^^^^^^- remove this abort-instruction",
    "  │     │",
    "  │     this function can't fail",
    "  │",
    ERROR_DOCS,
    ...TAIL(620),
    "",
    "error[E701]: call to undefined variable",
    "  ┌─ :3:1",
    "  │",
    "3 │ z",
    "  │ ^ undefined variable",
    "  │",
    ...TAIL(701),
  ]],
  // A single label keeps its message after the carets.
  ["x + 1", [
    "error[E701]: call to undefined variable",
    "  ┌─ :1:1",
    "  │",
    "1 │ x + 1",
    "  │ ^ undefined variable",
    "  │",
    ...TAIL(701),
  ]],
];

for (const [program, want] of CASES) {
  Deno.test(`diagnostic text of ${JSON.stringify(program)}`, () => {
    assert.throws(() => compileVrl(program), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(e.message, want.join("\n"));
      return true;
    });
  });
}
