/** VRL docs examples of the expressions reference (literals, operators, paths, assignment, control flow). */

import { type DocsExample, ex, exCompile, exJson, v } from "./example.ts";

/** Examples of the expressions page, grouped by the docs' section (in `fn`). */
export const EXPRESSIONS: DocsExample[] = [
  ex("array", "Array literal", v`["first", "second", "third"]`, ["first", "second", "third"]),
  ex("array", "Mixed array literal", v`["mixed", 1, 1.0, true, false, {"foo": "bar"}]`, [
    "mixed",
    1,
    1,
    true,
    false,
    { foo: "bar" },
  ]),
  ex("array", "Nested array literal", v`["first-level", ["second-level", ["third-level"]]]`, ["first-level", [
    "second-level",
    ["third-level"],
  ]]),
  exJson("float", "Float literal", v`1_000_000.01`, "1000000.01"),
  ex("integer", "Integer literal", v`1_000_000`, 1000000),
  ex(
    "object",
    "Object literal",
    v`{ "field1": "value1", "field2": [ "value2", "value3", "value4" ], "field3": { "field4": "value5" } }`,
    { field1: "value1", field2: ["value2", "value3", "value4"], field3: { field4: "value5" } },
  ),
  ex("string", "String literal with escapes", v`"Hello, \"world\"!"`, 'Hello, "world"!'),
  ex("string", "Raw string literal", v`s'Hello, "world"!'`, 'Hello, "world"!'),
  ex("string", "Unicode string literal", v`"Hello, world! 🌎"`, "Hello, world! 🌎"),
  ex("string", "Unicode escape", v`"Hello, world! \u{1F30E}"`, "Hello, world! 🌎"),
  ex(
    "timestamp",
    "Timestamp literal",
    v`t'2021-02-11T10:32:50.553955473Z'`,
    "2021-02-11T10:32:50.553955473Z",
  ),
  ex(
    "timestamp",
    "Timestamp literal with offset",
    v`t'2021-02-11T10:32:50.553-04:00'`,
    "2021-02-11T14:32:50.553Z",
  ),
  ex("regex", "Regular expression literal", v`match("2021-02-11", r'^\d{4}-\d{2}-\d{2}$')`, true),
  ex("arithmetic", "Sum (int)", v`1 + 1`, 2),
  exJson("arithmetic", "Sum (float)", v`1.0 + 1.0`, "2.0"),
  exJson("arithmetic", "Sum (numeric)", v`1 + 1.0`, "2.0"),
  ex("arithmetic", "Sum (string)", v`"Hello" + ", " + "World!"`, "Hello, World!"),
  ex("arithmetic", "Difference (int)", v`2 - 1`, 1),
  exJson("arithmetic", "Difference (numeric)", v`2.0 - 1`, "1.0"),
  ex("arithmetic", "Multiplication (int)", v`2 * 1`, 2),
  exJson("arithmetic", "Multiplication (numeric)", v`2.0 * 1`, "2.0"),
  exJson("arithmetic", "Division (int)", v`2 / 1`, "2.0"),
  exJson("arithmetic", "Division (float)", v`2.0 / 1.0`, "2.0"),
  ex("arithmetic", "Remainder", v`3 % 2`, 1),
  ex("assignment", "Path assignment", v`.message = "Hello, World!"`, "Hello, World!"),
  ex(
    "assignment",
    "Nested path assignment",
    v`.parent.child = "Hello, World!"
.`,
    { parent: { child: "Hello, World!" } },
  ),
  ex(
    "assignment",
    "Double assignment",
    v`.first = .second = "Hello, World!"
.`,
    { first: "Hello, World!", second: "Hello, World!" },
  ),
  ex(
    "assignment",
    "Array element assignment",
    v`.array[1] = "Hello, World!"
.`,
    { array: [null, "Hello, World!"] },
  ),
  ex(
    "assignment",
    "Variable assignment",
    v`my_variable = "Hello, World!"
my_variable`,
    "Hello, World!",
  ),
  ex(
    "assignment",
    "Object replacement",
    v`. = { "foo": "bar" }
.`,
    { foo: "bar" },
    { old: 1 },
  ),
  ex(
    "assignment",
    "Fallible assignment (success)",
    v`.parsed, .err = parse_json("{\"Hello\": \"World!\"}")
.`,
    { parsed: { Hello: "World!" }, err: null },
  ),
  ex(
    "block",
    "Simple block",
    v`{
  message = "{\"Hello\": \"World!\"}"
  parse_json!(message)
}`,
    { Hello: "World!" },
  ),
  ex(
    "coalesce",
    "Error coalescing",
    v`parse_syslog("not syslog") ?? parse_apache_log("not apache", "common") ?? "malformed"`,
    "malformed",
  ),
  ex("comparison", "Equal", v`1 == 1`, true),
  ex("comparison", "Equal (numeric)", v`1 == 1.0`, true),
  ex("comparison", "Not equal", v`1 != 2`, true),
  ex("comparison", "Greater than or equal", v`2 >= 2`, true),
  ex("comparison", "Less than", v`1 < 2`, true),
  ex("comparison", "Greater than (string)", v`"b" > "a"`, true),
  ex("function call", "Positional function invocation", v`split("hello, world!", ", ")`, ["hello", "world!"]),
  ex("function call", "Keyword function invocation", v`split("hello, world!", pattern: ", ")`, [
    "hello",
    "world!",
  ]),
  ex(
    "function call",
    "Keyword function invocation (out of order)",
    v`split(pattern: ", ", value: "hello, world!")`,
    ["hello", "world!"],
  ),
  ex("if", "True if expression", v`if true { "Hello, World!" }`, "Hello, World!"),
  ex(
    "if",
    "False if expression",
    v`if false {
  # not evaluated
}`,
    null,
  ),
  ex(
    "if",
    "If/else expression",
    v`if false { "Hello, World!" } else { "Goodbye, World!" }`,
    "Goodbye, World!",
  ),
  ex(
    "if",
    "If/else if expression",
    v`if false { "Hello, World!" } else if true { "Goodbye, World!" }`,
    "Goodbye, World!",
  ),
  ex("index", "Array index expression", v`.array[0]`, "first", { array: ["first", "second"] }),
  ex("index", "Array negative index expression", v`.array[-1]`, "second", { array: ["first", "second"] }),
  ex("logical", "AND", v`true && true`, true),
  ex("logical", "OR (boolean)", v`false || "foo"`, "foo"),
  ex("logical", "OR (null)", v`null || "foo"`, "foo"),
  ex("logical", "NOT", v`!false`, true),
  ex("path", "Root path", v`.`, { message: "Hello, World!" }, { message: "Hello, World!" }),
  ex("path", "Top-level path", v`.message`, "Hello, World!", { message: "Hello, World!" }),
  ex("path", "Nested path", v`.parent.child`, "Hello, World!", { parent: { child: "Hello, World!" } }),
  ex("path", "Nested path coalescing", v`.grand_parent.(parent1 | parent2).child`, "Hello, World!", {
    grand_parent: { parent2: { child: "Hello, World!" } },
  }),
  ex("path", "Array element path (first)", v`.array[0]`, "first", { array: ["first", "second"] }),
  ex("path", "Quoted path", v`."parent.key.with.special characters".child`, "Hello, World!", {
    "parent.key.with.special characters": { child: "Hello, World!" },
  }),
  ex(
    "variable",
    "Simple variable",
    v`my_variable = 1
my_variable`,
    1,
  ),
  // The errors reference: each compile-time error's example program and its code.
  exCompile(
    "errors",
    "E102 non-boolean predicate",
    v`if "this evaluates to a string" { .fail = true }`,
    "E102",
  ),
  exCompile("errors", "E103 unhandled fallible assignment", v`. |= parse_key_value(.message)`, "E103"),
  exCompile("errors", "E104 unnecessary error assignment", v`.message, err = downcase("HELLO")`, "E104"),
  exCompile("errors", "E105 call to undefined function", v`parse_keyvalue(.message)`, "E105"),
  exCompile("errors", "E106 function argument arity mismatch", v`to_int(.field1, .field2)`, "E106"),
  exCompile("errors", "E107 required argument missing", v`parse_timestamp(.timestamp)`, "E107"),
  exCompile(
    "errors",
    "E108 unknown function argument keyword",
    v`parse_timestamp!(.timestamp, fmt: "%D")`,
    "E108",
  ),
  exCompile("errors", "E110 invalid argument type", v`downcase(42)`, "E110"),
  // the program ends where an operand is due: lalrpop's UnrecognizedEof, E204
  exCompile("errors", "E204 syntax error", v`.x = 1 +`, "E204"),
  exCompile("errors", "E203 syntax error", v`.x = 1 + )`, "E203"),
  exCompile("errors", "E620 can't abort infallible function", v`downcase!("text")`, "E620"),
  exCompile("errors", "E630 fallible argument", v`upcase(parse_json(.x))`, "E630"),
  exCompile("errors", "E631 fallible abort message expression", v`abort upcase(.x)`, "E631"),
  exCompile(
    "errors",
    "E642 parent path segment rejects this mutation",
    v`.foo = "bar"
.foo.bar = "baz"`,
    "E642",
  ),
  exCompile("errors", "E651 unnecessary error coalescing operation", v`"foo" ?? "bar"`, "E651"),
  exCompile("errors", "E660 non-boolean negation", v`!"foo"`, "E660"),
  exCompile("errors", "E701 call to undefined variable", v`my_var`, "E701"),
];
