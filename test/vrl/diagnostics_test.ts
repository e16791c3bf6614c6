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
  ['1 / .x\n.a = 1\nto_int(.b)\nupcase!("a")', [
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
    "3 │ to_int(.b)",
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
  // `assignment::Error::FallibleAssignment`: the target and `=` are context labels quoting the fix.
  [".a = parse_json(.b)", [
    "error[E103]: unhandled fallible assignment",
    "  ┌─ :1:6",
    "  │",
    "1 │ .a = parse_json(.b)",
    "  │ ---- ^^^^^^^^^^^^^^",
    "  │ │    │",
    "  │ │    this expression is fallible",
    "  │ │    update the expression to be infallible",
    "  │ or change this to an infallible assignment:",
    "  │ .a, err = parse_json(.b)",
    "  │",
    ERROR_DOCS,
    ...TAIL(103),
  ]],
  // The same for a merge-assignment, whose right-hand side is what can fail.
  ['x = {}\nx |= parse_json("{}")', [
    "error[E103]: unhandled fallible assignment",
    "  ┌─ :2:6",
    "  │",
    '2 │ x |= parse_json("{}")',
    "  │ ---- ^^^^^^^^^^^^^^^^",
    "  │ │    │",
    "  │ │    this expression is fallible",
    "  │ │    update the expression to be infallible",
    "  │ or change this to an infallible assignment:",
    '  │ x, err = parse_json("{}")',
    "  │",
    ERROR_DOCS,
    ...TAIL(103),
  ]],
  // `assignment::Error::InfallibleAssignment`: the error target is the primary label.
  ["ok, err = 1 + 1", [
    "error[E104]: unnecessary error assignment",
    "  ┌─ :1:5",
    "  │",
    "1 │ ok, err = 1 + 1",
    "  │ --  ^^^   ----- because this expression can't fail",
    "  │ │   │",
    "  │ │   this error assignment is unnecessary",
    "  │ use: ok = 1 + 1",
    "  │",
    ERROR_DOCS,
    ...TAIL(104),
  ]],
  // `function_call::Error::WrongNumberOfArgs`: counted before any argument is bound, over all of them.
  ['upcase("a", "b")', [
    "error[E106]: wrong number of function arguments",
    "  ┌─ :1:8",
    "  │",
    '1 │ upcase("a", "b")',
    "  │        ^^^^^^^^",
    "  │        │",
    "  │        too many function arguments",
    "  │        this function takes a maximum of 1 argument",
    "  │",
    ...TAIL(106),
  ]],
  ['contains("a", "b", true, value: "c")', [
    "error[E106]: wrong number of function arguments",
    "  ┌─ :1:10",
    "  │",
    '1 │ contains("a", "b", true, value: "c")',
    "  │          ^^^^^^^^^^^^^^^^^^^^^^^^^^",
    "  │          │",
    "  │          too many function arguments",
    "  │          this function takes a maximum of 3 arguments",
    "  │",
    ...TAIL(106),
  ]],
  // `function_call::Error::UnknownKeyword`: the keyword, and the function's name listing its keywords.
  ['upcase(valu: "a")', [
    "error[E108]: unknown function argument keyword",
    "  ┌─ :1:8",
    "  │",
    '1 │ upcase(valu: "a")',
    "  │ ------ ^^^^ unknown keyword",
    "  │ │",
    '  │ this function accepts the following keywords: "value"',
    "  │",
    ...TAIL(108),
  ]],
  ['parse_json!("{}", strict: true)', [
    "error[E108]: unknown function argument keyword",
    "  ┌─ :1:19",
    "  │",
    '1 │ parse_json!("{}", strict: true)',
    "  │ ----------        ^^^^^^ unknown keyword",
    "  │ │",
    '  │ this function accepts the following keywords: "value", "max_depth", "lossy"',
    "  │",
    ...TAIL(108),
  ]],
  // lalrpop's UnrecognizedEof (E204) and UnrecognizedToken (E203): `syntax error`, the token labelled.
  ["(1 +", [
    "error[E204]: syntax error",
    "  ┌─ :1:5",
    "  │",
    "1 │ (1 +",
    "  │     ^ unexpected end of program",
    "  │",
    ...TAIL(204),
  ]],
  // `function_call::Error::MissingArgument`: the parameter's keyword and 0-based position.
  ['contains(substring: "a")', [
    "error[E107]: missing function argument",
    "  ┌─ :1:1",
    "  │",
    '1 │ contains(substring: "a")',
    '  │ ^^^^^^^^^^^^^^^^^^^^^^^^ required argument missing: "value" (position 0)',
    "  │",
    ...TAIL(107),
  ]],
  ['contains("a")', [
    "error[E107]: missing function argument",
    "  ┌─ :1:1",
    "  │",
    '1 │ contains("a")',
    '  │ ^^^^^^^^^^^^^ required argument missing: "substring" (position 1)',
    "  │",
    ...TAIL(107),
  ]],
  // `op::Error::ChainedComparison`: the whole operation, with an empty label.
  ["1 == 2 == true", [
    "error[E650]: comparison operators can't be chained together",
    "  ┌─ :1:1",
    "  │",
    "1 │ 1 == 2 == true",
    "  │ ^^^^^^^^^^^^^^",
    "  │",
    ...TAIL(650),
  ]],
  // `op::Error::MergeNonObjects`: each side that is no object gets its own primary label.
  ["{} | 1", [
    "error[E652]: only objects can be merged",
    "  ┌─ :1:6",
    "  │",
    "1 │ {} | 1",
    "  │      ^ this expression must resolve to an object",
    "  │",
    ...TAIL(652),
  ]],
  ['1 | "a"', [
    "error[E652]: only objects can be merged",
    "  ┌─ :1:1",
    "  │",
    '1 │ 1 | "a"',
    "  │ ^   ^^^ this expression must resolve to an object",
    "  │ │",
    "  │ this expression must resolve to an object",
    "  │",
    ...TAIL(652),
  ]],
  // `abort::Error` FallibleExpr: checked before the message's type.
  ['abort parse_json("x")', [
    "error[E631]: unhandled fallible expression",
    "  ┌─ :1:7",
    "  │",
    '1 │ abort parse_json("x")',
    "  │       ^^^^^^^^^^^^^^^",
    "  │       │",
    "  │       abort only accepts an infallible expression argument",
    "  │       handle errors before using the expression as an abort message",
    "  │",
    ERROR_DOCS,
    ...TAIL(631),
  ]],
  // `abort::Error` NonString, with VRL's coercion hint.
  ["abort 1", [
    "error[E300]: non-string abort message",
    "  ┌─ :1:7",
    "  │",
    "1 │ abort 1",
    "  │       ^",
    "  │       │",
    "  │       abort only accepts an expression argument resolving to a string",
    "  │       this expression resolves to integer",
    "  │",
    "  = hint: coerce the value to the required type using a coercion function",
    ...TAIL(300),
  ]],
  // `not::Error` NonBoolean: the `!` is the primary label, the operand's kind the context.
  ["!1", [
    "error[E660]: non-boolean negation",
    "  ┌─ :1:1",
    "  │",
    "1 │ !1",
    "  │ ^- this expression resolves to integer",
    "  │ │",
    "  │ negation only works on boolean values",
    "  │",
    "  = hint: coerce the value to the required type using a coercion function",
    ...TAIL(660),
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

// A parenthesized comparison is a group, not a chain: VRL compiles `(a == b) == c`.
Deno.test("a parenthesized comparison compared again is no chained comparison", () => {
  assert.equal(compileVrl("(1 == 2) == false").run(new Map()), true);
});

// VRL's `fallible_expression_error`: an unhandled statement is reported at its first expression that can
// fail, and a call left fallible only by an argument whose type must be checked at run time is E110.
const UNHANDLED_CASES: [string, string[]][] = [
  ['if true { parse_json("x") }', [
    "error[E100]: unhandled error",
    "  ┌─ :1:11",
    "  │",
    '1 │ if true { parse_json("x") }',
    "  │           ^^^^^^^^^^^^^^^",
    "  │           │",
    "  │           expression can result in runtime error",
    "  │           handle the error case to ensure runtime success",
    "  │",
    "  = see documentation about error handling at https://errors.vrl.dev/#handling",
    ...TAIL(100),
  ]],
  ["upcase(.message)", [
    "error[E110]: invalid argument type",
    "  ┌─ :1:8",
    "  │",
    "1 │ upcase(.message)",
    "  │        ^^^^^^^^",
    "  │        │",
    "  │        this expression resolves to any",
    '  │        but the parameter "value" expects the exact type string',
    "  │",
    "  = try: ensuring an appropriate type at runtime",
    "  =",
    "  =     .message = string!(.message)",
    "  =     upcase(.message)",
    "  =",
    "  = try: coercing to an appropriate type and specifying a default value as a fallback in case coercion fails",
    "  =",
    '  =     .message = to_string(.message) ?? "default"',
    "  =     upcase(.message)",
    "  =",
    "  = see documentation about error handling at https://errors.vrl.dev/#handling",
    ...TAIL(110),
  ]],
];

for (const [program, want] of UNHANDLED_CASES) {
  Deno.test(`diagnostic text of the unhandled ${JSON.stringify(program)}`, () => {
    assert.throws(() => compileVrl(program), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(e.message, want.join("\n"));
      return true;
    });
  });
}
