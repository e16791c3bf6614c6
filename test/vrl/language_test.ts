/** The language itself: literals, paths, assignment, operators, templates, control flow, error handling. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("literals", [
  exact(`1`, "1"),
  exact(`1.0`, "1.0"),
  exact(`-3`, "-3"),
  exact(`1_000_000`, "1000000"),
  exact(`1.5e3`, "1500.0"),
  ok(`"a\\tb\\n\\"q\\" \\u{1F600}"`, 'a\tb\n"q" 😀'),
  ok(`s'raw \\n {{ no }}'`, "raw \\n {{ no }}"),
  ok(`s'it\\'s'`, "it's"),
  ok(`true`, true),
  ok(`null`, null),
  ok(`[1, "two", [3], {"four": 4},]`, [1, "two", [3], { four: 4 }]),
  ok(`{"b": 1, "a": {"c": null}}`, { a: { c: null }, b: 1 }),
  ok(`{}`, {}),
  ok(`t'2021-02-03T04:05:06.789Z'`, "2021-02-03T04:05:06.789Z"),
  ok(`t'2021-02-03T04:05:06+02:00'`, "2021-02-03T02:05:06Z"),
  ok(`is_regex(r'^a+$')`, true),
  ok(`# a comment\n1 # trailing\n`, 1),
  ok(`"multi \\\n   line"`, "multi line"),
  rejects(`t'not a time'`, "E206"),
  rejects(`"\\q"`, "E209"),
  rejects(`"unterminated`, "E202"),
]);

table("paths", [
  ok(`.a.b`, 1, { a: { b: 1 } }),
  ok(`.a.c`, null, { a: { b: 1 } }),
  ok(`.a.b.c`, null, { a: { b: 1 } }),
  ok(`.a[1]`, 20, { a: [10, 20, 30] }),
  ok(`.a[-1]`, 30, { a: [10, 20, 30] }),
  ok(`.a[5]`, null, { a: [10, 20, 30] }),
  ok(`.a[0].b`, "x", { a: [{ b: "x" }] }),
  ok(`."key with space"`, 1, { "key with space": 1 }),
  ok(`.a."b.c"`, 2, { a: { "b.c": 2 } }),
  ok(`.@timestamp`, "t", { "@timestamp": "t" }),
  ok(`.`, { x: 1 }, { x: 1 }),
  ok(`%`, {}),
  ok(`%custom = "m"; %custom`, "m"),
  ok(`%a.b = 1; %`, { a: { b: 1 } }),
  ok(`x = {"a": [1, {"b": 2}]}; x.a[1].b`, 2),
  rejects(`y`, "E701"),
  ok(`.a.(b | c)`, 1, { a: { c: 1 } }),
]);

table("assignment", [
  ok(`.a = 1; .`, { a: 1 }),
  ok(`.a.b.c = 1; .`, { a: { b: { c: 1 } } }),
  ok(`.a.b = 1; .`, { a: { b: 1 } }, { a: "scalar is replaced" }),
  ok(`.a[2] = 1; .a`, [null, null, 1]),
  ok(`.a[1] = "x"; .a`, [1, "x", 3], { a: [1, 2, 3] }),
  ok(`.a[-1] = "x"; .a`, [1, 2, "x"], { a: [1, 2, 3] }),
  ok(`. = {"new": true}; .`, { new: true }, { old: 1 }),
  ok(`.a = .b = 5; .`, { a: 5, b: 5 }),
  ok(`x = 1; x = x + 1; x`, 2),
  rejects(`_ = 5; .`, "E640"),
  ok(`.b = .a; .b.c = 2; .a`, { c: 1 }, { a: { c: 1 } }),
  ok(`x = .a; x.c = 2; .a`, { c: 1 }, { a: { c: 1 } }),
  ok(`.b = map_values(array!(.a)) -> |v| { v }; .b[0].x = 2; .a`, [{ x: 1 }], { a: [{ x: 1 }] }),
  ok(`.b = filter(array!(.a)) -> |_i, _v| { true }; .b[0].x = 2; .a`, [{ x: 1 }], { a: [{ x: 1 }] }),
  ok(`.b = push!(.a, 1); .b[0].x = 2; .a`, [{ x: 1 }], { a: [{ x: 1 }] }),
  ok(`.a = {"a": 1}; .a |= {"b": 2}; .a`, { a: 1, b: 2 }),
  rejects(`.a |= {"b": 2}`, "E103"),
  ok(`x = {"k": 1}; x |= {"k": 2, "j": 3}; x`, { j: 3, k: 2 }),
  ok(
    `.a = 1
.b = 2
.c = .a + .b
.`,
    { a: 1, b: 2, c: 3 },
  ),
]);

table("del and exists", [
  ok(`del(.a)`, 1, { a: 1, b: 2 }),
  ok(`del(.a); .`, { b: 2 }, { a: 1, b: 2 }),
  ok(`del(.missing)`, null, { a: 1 }),
  ok(`del(.a.b); .`, { a: {} }, { a: { b: 1 } }),
  ok(`del(.a.b, compact: true); .`, {}, { a: { b: 1 } }),
  ok(`del(.a[0]); .a`, [2, 3], { a: [1, 2, 3] }),
  ok(`x = del(.); [x, .]`, [{ a: 1 }, {}], { a: 1 }),
  ok(`v = {"a": 1, "b": 2}; del(v.a); v`, { b: 2 }),
  ok(`exists(.a)`, true, { a: null }),
  ok(`exists(.b)`, false, { a: null }),
  ok(`exists(.a[1])`, true, { a: [0, 1] }),
  ok(`exists(.a[2])`, false, { a: [0, 1] }),
  ok(`exists(.a.b.c)`, false, { a: { b: 1 } }),
  rejects(`del(1)`, "E110"),
  rejects(`exists!(.a)`, "E620"),
]);

table("arithmetic", [
  exact(`1 + 2`, "3"),
  exact(`1 + 2.0`, "3.0"),
  exact(`10 / 4`, "2.5"),
  exact(`10 / 5`, "2.0"),
  exact(`7 % 3`, "1"),
  exact(`-7 % 3`, "-1"),
  exact(`2 * 3 + 4`, "10"),
  exact(`2 * (3 + 4)`, "14"),
  exact(`10 - 2 - 3`, "5"),
  exact(`9223372036854775807 + 1`, "-9223372036854775808"),
  ok(`"ab" + "cd"`, "abcd"),
  ok(`x = 2; -x`, -2),
  rejects(`-(.n)`, "E100"),
  ok(`.a + .b ?? "failed"`, "failed", { a: 1, b: "x" }),
  ok(`x = 0; _y, err = 1 / x; err`, "can't divide by zero"),
  rejects(`1 / .x`, "E100"),
  rejects(`.a = .b + 1`, "E103"),
  ok(`.a = 1; .a + 1`, 2),
  ok(`.a = "x"; .a + "y"`, "xy"),
]);

table("comparison and logic", [
  ok(`1 < 2`, true),
  ok(`2 <= 2.0`, true),
  ok(`"a" < "b"`, true),
  ok(`t'2020-01-01T00:00:00Z' < t'2021-01-01T00:00:00Z'`, true),
  ok(`1 == 1.0`, true),
  ok(`"1" == 1`, false),
  ok(`[1, {"a": 2}] == [1, {"a": 2}]`, true),
  ok(`null != false`, true),
  ok(`true && false`, false),
  ok(`false || true`, true),
  ok(`null || "fallback"`, "fallback"),
  ok(`"value" || "fallback"`, "value"),
  ok(`!true`, false),
  ok(`!(1 > 2) && 3 >= 3`, true),
  ok(`1 == 1 || 1 / 0 == 1 ?? false`, true),
  ok(`.a < 5 ?? "incomparable"`, "incomparable", { a: "x" }),
  rejects(`.a < 1`, "E100"),
  rejects(`!.a`, "E100"),
  ok(`{"a": 1} | {"b": 2}`, { a: 1, b: 2 }),
]);

table("templates", [
  ok(`.name = "world"; "hello {{ .name }}!"`, "hello world!"),
  ok(`x = "v"; "{{x}}-{{ x }}"`, "v-v"),
  ok(`"{{ .n }}"`, "3", { n: 3 }),
  ok(`"\\{{ literal }}"`, "{{ literal }}"),
  ok(`"{{ .missing }}|"`, "|"),
]);

table("if/else and blocks", [
  ok(`if true { 1 } else { 2 }`, 1),
  ok(`if false { 1 } else { 2 }`, 2),
  ok(`if false { 1 }`, null),
  ok(`if .a == 1 { "one" } else if .a == 2 { "two" } else { "many" }`, "two", { a: 2 }),
  ok(`if exists(.a) {\n  .b = 1\n}\nelse {\n  .b = 2\n}\n.b`, 2),
  ok(`x = { y = 1; y + 1 }; x`, 2),
  ok(`if is_string(.a) { upcase!(.a) } else { "no" }`, "no", { a: 1 }),
  rejects(`if .a { 1 }`, "E102"),
  rejects(`if "yes" { 1 }`, "E102"),
]);

table("error handling", [
  ok(`x, err = parse_json("{\\"a\\": 1}"); [x, err]`, [{ a: 1 }, null]),
  ok(`x, err = parse_json("nope"); [x, is_string(err)]`, [null, true]),
  ok(`x, err = to_int("nope"); x`, 0),
  ok(`x, err = parse_int("12"); x`, 12),
  ok(`.a = parse_json(.s) ?? {"default": true}; .a`, { default: true }, { s: "{" }),
  ok(`parse_int(.a) ?? parse_int(.b) ?? -1`, 7, { a: "x", b: "7" }),
  ok(`upcase!(.a)`, "X", { a: "x" }),
  fails(`upcase!(.a)`, `function call error for "upcase" at (0:11): expected string, got integer`, { a: 1 }),
  fails(`parse_json!(.a)`, "unable to parse json", { a: "{" }),
  rejects(`x, err = 1 + 1`, "E104"),
  rejects(`upcase!("a")`, "E620"),
  rejects(`"a" ?? "b"`, "E651"),
  rejects(`parse_json(.a)`, "E110"),
  rejects(`.x = parse_json(.a)`, "E103|:1:6"),
]);

table("abort", [
  fails(`abort`, "aborted"),
  fails(`if .a == 1 { abort "bad record" }; .`, "bad record", { a: 1 }),
  ok(`if .a == 1 { abort "bad record" }; .`, { a: 2 }, { a: 2 }),
]);

table("closures", [
  ok(`map_values({"a": 1, "b": 2}) -> |v| { v * 10 }`, { a: 10, b: 20 }),
  ok(`map_values([1, 2]) -> |v| { v + 1 }`, [2, 3]),
  ok(`map_values({"a": {"b": "x"}}, recursive: true) -> |v| { if is_string(v) { upcase!(v) } else { v } }`, {
    a: { b: "X" },
  }),
  ok(`map_keys({"a": 1, "b": 2}) -> |k| { upcase(k) }`, { A: 1, B: 2 }),
  ok(`map_keys({"a": {"b": 1}}, recursive: true) -> |k| { "_" + k }`, { _a: { _b: 1 } }),
  ok(`filter({"a": 1, "b": null}) -> |_k, v| { v != null }`, { a: 1 }),
  ok(`filter([1, 2, 3, 4]) -> |i, v| { mod(v, 2) == 0 }`, [2, 4]),
  ok(`n = 0; for_each({"a": 1, "b": 2}) -> |_k, v| { n = n + v }; n`, 3),
  ok(`s = ""; for_each(["x", "y"]) -> |i, v| { s = s + to_string(i) + v }; s`, "0x1y"),
  ok(`keys = []; for_each({"b": 1, "a": 2}) -> |k, _v| { keys = push(keys, k) }; keys`, ["a", "b"]),
  rejects(`map_values([1]) -> |a, b| { a }`, "E120"),
  rejects(`map_values([1])`, "E111"),
  rejects(`upcase("a") -> |x| { x }`, "E109"),
]);

table("functions: call syntax", [
  ok(`contains("Hello", substring: "ell")`, true),
  ok(`contains(substring: "ELL", value: "Hello", case_sensitive: false)`, true),
  rejects(`nope(1)`, "E105|undefined function"),
  rejects(`upcase()`, "E107"),
  rejects(`upcase("a", "b")`, "E106"),
  rejects(`upcase(valu: "a")`, "E108"),
  rejects(`upcase(1)`, "E110"),
]);
