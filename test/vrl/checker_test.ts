import { httpStatusOf } from "../../src/http/render_error.ts";
/** Compile-time checks: fallibility rules, type errors, and diagnostics with line and column. */

import assert from "node:assert/strict";
import { compileVrl } from "../../engine/vrl/mod.ts";
import { PetrelError } from "../../src/common/errors.ts";
import { ok, rejects, table } from "./harness.ts";

table("fallibility rules", [
  // A fallible call must be handled by `!`, `??`, or `ok, err =`.
  rejects(`parse_json("{")`, "E100"),
  rejects(`parse_json(.x)`, "E110"),
  rejects(`.y = parse_json(.x)`, "E103"),
  ok(`.y = parse_json(.x) ?? null; .y`, null, { x: "{" }),
  // Calls become fallible when an argument's type is not known to fit; left unhandled that is E110.
  rejects(`upcase(.x)`, "E110"),
  ok(`.x = "a"; upcase(.x)`, "A"),
  ok(`x = to_string(1); upcase(x)`, "1"),
  // The type of the event is tracked through assignments and merges of branches.
  ok(`if true { .x = "a" } else { .x = "b" }; upcase(.x)`, "A"),
  rejects(`if true { .x = "a" } else { .x = 1 }; upcase(.x)`, "E110"),
  rejects(`if true { .x = "a" }; upcase(.x)`, "E110"),
  ok(`.a.b = "s"; upcase(.a.b)`, "S"),
  rejects(`.a.b = "s"; . = parse_json!("{}"); upcase(.a.b)`, "E110"),
  ok(`del(.x); .x == null`, true),
  // Errors in function arguments propagate to the call.
  rejects(`upcase(string(.x))`, "E630"),
  ok(`upcase(string(.x) ?? "d")`, "D"),
  // `!` aborts on error, so the expression is infallible.
  ok(`upcase(string!(.x))`, "X", { x: "x" }),
  // Arithmetic and comparison rules.
  rejects(`1 + .x`, "E100"),
  ok(`1 + 2.5 > 3`, true),
  rejects(`"a" + 1`, "E100"),
  rejects(`x = 5; x / .y`, "E100"),
  ok(`x = 5; x / 2`, 2.5),
  // Statically wrong argument types are compile errors, not runtime errors.
  rejects(`upcase(1)`, "E110"),
  rejects(`parse_regex("a", "not a regex")`, "E110"),
  rejects(`to_unix_timestamp("2020")`, "E110"),
  // Unnecessary handling is rejected.
  rejects(`upcase!("a")`, "E620"),
  rejects(`upcase("a") ?? "b"`, "E651"),
  rejects(`a, err = upcase("a")`, "E104"),
  // Undefined names.
  rejects(`nope()`, "E105"),
  rejects(`x + 1`, "E701"),
  // Predicates must be boolean.
  rejects(`if .x { 1 }`, "E102"),
  ok(`if exists(.x) && .x == 1 { "y" } else { "n" }`, "y", { x: 1 }),
  // Closure bodies are checked like blocks.
  rejects(`map_values(["1"]) -> |v| { parse_json(v) }`, "E100"),
  rejects(`map_values(["1"]) -> |v| { parse_json(v) }`, "E100"),
  ok(`map_values(["1"]) -> |v| { parse_json!(v) }`, [1]),
]);

const diagnostics: [string, string, string[]][] = [
  [".a = 1\n.b = parse_json(.x)\n.", "E103", [
    "error[E103]: unhandled fallible assignment",
    ":2:6",
    "2 │ .b = parse_json(.x)",
  ]],
  ["upcase(\n  1\n)", "E110", [
    "error[E110]: invalid argument type",
    ":2:3",
    'but the parameter "value" expects the exact type string',
  ]],
  ["x = 1\n\nfoo(x)", "E105", ["error[E105]: call to undefined function", ":3:1", "^^^"]],
  [".a = {", "E204", ["error[E204]: syntax error", ":1:7", "^ unexpected end of program"]],
  ["  .a = 1 +", "E204", [":1:11"]],
  [".a = 1 + )", "E203", ["error[E203]: syntax error", ":1:10", '^ unexpected ")"']],
  ['. = "\\q"', "E209", ["invalid escape character: \\q", ":1:6"]],
];

for (const [src, code, parts] of diagnostics) {
  Deno.test(`diagnostic ${code} for ${JSON.stringify(src)}`, () => {
    assert.throws(() => compileVrl(src), (e: unknown) => {
      assert.ok(e instanceof PetrelError);
      assert.equal(e.code, 1004);
      assert.equal(httpStatusOf(e), 400);
      for (const p of parts) {
        assert.ok(e.message.includes(p), `missing ${JSON.stringify(p)} in:\n${e.message}`);
      }
      return true;
    });
  });
}

table("typed results of parsing functions", [
  ok(`m = parse_regex!(.msg, r'user=(?P<user>\\w+)'); upcase(m.user)`, "BOB", { msg: "user=bob" }),
  rejects(`m = parse_regex!(.msg, r'user=(?P<user>\\w+)'); upcase(m."1")`, "E110"),
  ok(`s = parse_syslog!(.m); upcase(s.message)`, "HI", { m: "<13>1 2020-03-13T20:45:38.119Z h a 1 - - hi" }),
  rejects(`s = parse_syslog!(.m); upcase(s.hostname)`, "E110"),
  ok(`u = parse_url!(.u); upcase(u.scheme)`, "HTTPS", { u: "https://x" }),
  ok(`c = parse_common_log!(.l); c.status == 200`, true, {
    l: '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 1',
  }),
  ok(`is_null(parse_nginx_log!(.l, "combined").nope)`, true, {
    l: '1.1.1.1 - - [01/Apr/2021:12:02:31 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"',
  }),
]);
