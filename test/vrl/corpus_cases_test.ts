/** Cases in the style of VRL's own test corpus (`lib/tests/tests/`) that Petrel once got wrong. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("corpus: integer literals", [
  // i64::MIN written out: its digits alone wrap to i64::MIN, and negating keeps it there.
  exact(`-9223372036854775808`, "-9223372036854775808"),
  exact(`-9223372036854775808 - 1`, "9223372036854775807"),
  exact(`-9223372036854775807`, "-9223372036854775807"),
]);

// VRL's `slice`: a start before the beginning is an error (only `end` is clamped), worded as VRL's range check.
table("corpus: slice bounds", [
  ok(`slice!("abc", -3)`, "abc"),
  ok(`slice!("abc", 1, 10)`, "bc"),
  ok(`slice!([1, 2, 3], 3)`, []),
  fails(`slice!("abc", -4)`, `"start" must be between "-3" and "3"`),
  fails(`slice!("abc", 4)`, `"start" must be between "-3" and "3"`),
  fails(`slice!("abc", 2, 1)`, `"end" must be greater or equal to "start"`),
  fails(`slice!([1, 2, 3], 1, -3)`, `"end" must be greater or equal to "start"`),
]);

table("corpus: string literals", [
  // A line continuation drops the newline and the indentation after it.
  ok(`"a\\\n   b"`, "ab"),
  rejects(`"a\\`, "E202|unterminated string literal"),
]);

// `==` is `Value::eq_lossy`: an integer and a float meet by value at the top level only; inside arrays
// and objects (and in assert_eq, includes, unique, tally_value) values compare as Rust's PartialEq.
table("corpus: equality of integers and floats", [
  ok(`1 == 1.0`, true),
  ok(`[1] == [1.0]`, false),
  ok(`{"a": 1} != {"a": 1.0}`, true),
  ok(`[1, [2]] == [1, [2]]`, true),
  ok(`includes([1.0], 1)`, false),
  ok(`length(unique([1, 1.0, 1]))`, 2),
  ok(`tally_value([1, 1.0, 1], 1)`, 2),
  // Rust prints the float 1.0 as "1"
  fails(`assert_eq!(1, 1.0)`, "assertion failed: 1 == 1"),
]);

// VRL's key/value serializer flattens arrays like objects, by index; nulls are left out.
table("corpus: encode_key_value flattening", [
  ok(`encode_key_value({"a": null, "b": [1, 2], "c": 1.5})`, "b.0=1 b.1=2 c=1.5"),
  ok(`encode_logfmt({"d": {"e": [{"f": 1}]}})`, "d.e.0.f=1"),
]);

table("corpus: parse_csv without a record", [
  ok(`parse_csv!("")`, []),
  ok(`parse_csv!("\\na,b\\n")`, ["a", "b"]),
]);

// Rust's `f64 as i64` truncates and saturates.
table("corpus: to_int of large floats", [
  exact(`to_int(9.3e18)`, "9223372036854775807"),
  exact(`to_int(-1e300)`, "-9223372036854775808"),
  exact(`to_int(-3.99)`, "-3"),
]);

// VRL strings are bytes: `find`'s `from` and its result are byte offsets.
table("corpus: find counts bytes", [
  exact(`find("ñfoo", "foo")`, "2"),
  exact(`find("ñfooñfoo", "foo", 3)`, "7"),
  exact(`find("ñfooñfoo", r'f.o', 3)`, "7"),
]);

// A closure takes exactly the parameters its function gives it, not fewer.
table("corpus: closure arity", [
  rejects(`for_each([1]) -> |v| { v }`, "E120"),
  rejects(`filter([1]) -> |v| { true }`, "E120"),
  ok(`filter([1, 2]) -> |_i, v| { v == 2 }`, [2]),
]);

// Progressive type checking: an argument that only may have the right type is checked at run time when the
// error is handled (`??`, `!`, `ok, err =`); left unhandled it is E110, not E100.
table("corpus: unchecked argument types", [
  rejects(`upcase(.message)`, "E110|this expression resolves to any"),
  ok(`upcase(.message) ?? "none"`, "none", { message: 1 }),
  fails(`upcase!(.message)`, "expected string, got integer", { message: 1 }),
  ok(`x, err = upcase(.message); [x, err == null]`, ["A", true], { message: "a" }),
  rejects(`if true { parse_json("x") }`, "E100|:1:11"),
]);

// `split` with a regex is Rust's `Regex::split`: groups are not output, empty matches split.
table("corpus: split on a regex", [
  ok(`split("a1b2c", r'(\\d)')`, ["a", "b", "c"]),
  ok(`split("abc", r'')`, ["", "a", "b", "c", ""]),
  ok(`split("a,b,c,d", r',', limit: 2)`, ["a", "b,c,d"]),
  ok(`split("aab", r'a*')`, ["", "b", ""]),
]);

// `replace` expands the replacement as the regex crate's `Captures::expand` does.
table("corpus: replace with Rust's replacement syntax", [
  ok(`replace("abc", r'b', "[$0]")`, "a[b]c"),
  ok(`replace("abc", r'(?P<x>b)', "[\${x}]")`, "a[b]c"),
  ok(`replace("abc", r'b', "$&")`, "a$&c"),
  ok(`replace("abc", r'(b)', "$1x")`, "ac"),
  ok(`replace("abc", r'(b)', "$$1")`, "a$1c"),
  ok(`replace("aaa", r'a', "b", count: 2)`, "bba"),
  ok(`replace("abc", "", "-")`, "-a-b-c-"),
  ok(`replace("abc", "", "-", count: 2)`, "-a-bc"),
]);

// `parse_groks` compiles its constant patterns and aliases with the program (E610), as `parse_grok` does.
table("corpus: parse_groks patterns checked when compiling", [
  rejects(`parse_groks!("x", patterns: ["%{NOPE:x}"])`, "E610|NOPE"),
  rejects(`parse_groks!("x", patterns: ["%{a:x}"], aliases: {"a": "%{NOPE}"})`, "E610|NOPE"),
  ok(`parse_groks!("1", patterns: ["%{a:x}"], aliases: {"a": "%{INT}"})`, { x: "1" }),
]);

// serde_json refuses a number no f64 holds (JSON.parse would give Infinity, rendered null).
table("corpus: parse_json numbers out of range", [
  fails(`parse_json!("1e400")`, "unable to parse json: number out of range at line 1 column 5"),
  fails(`parse_json!("[1,\\n -1e400]")`, "number out of range at line 2 column 7"),
  exact(`parse_json!("1e300")`, "1e300"),
]);

// VRL: "single-target no-op assignments are useless"; `_` only takes the value or error of `ok, err =`.
table("corpus: no-op assignment", [
  rejects(`_ = 5`, "E640|this no-op assignment has no effect"),
  ok(`_, err = parse_json("{}"); err`, null),
  ok(`x, _ = parse_json("1"); x`, 1),
]);

// Lexical scoping (VRL's RFC 8381): a variable introduced in a block, branch or closure ends with it.
table("corpus: variables are scoped to their block", [
  rejects(`{\n  x = 1\n}\nx`, "E701"),
  rejects(`if true { y = 1 }\ny`, "E701"),
  rejects(`for_each([1]) -> |_i, v| { z = v }\nz`, "E701"),
  ok(`x = 0\n{\n  x = 1\n}\nx`, 1),
  ok(`n = 0\nfor_each([1, 2]) -> |_i, v| { n = n + v }\nn`, 3),
  ok(`x = {\n  a = 1\n  a + 1\n}\nx`, 2),
  ok(`if (x = 1; x > 0) { x } else { 0 }`, 1),
]);

table("corpus: encode_key_value quotes keys as values", [
  ok(`encode_key_value({"a b": 1, "c": "d e"})`, '"a b"=1 c="d e"'),
  ok(`encode_key_value({"x y": true}, flatten_boolean: true)`, '"x y"'),
]);

table("corpus: ip_subnet prefix lengths", [
  ok(`ip_subnet!("192.168.10.32", "/32")`, "192.168.10.32"),
  ok(`ip_subnet!("192.168.10.32", "/0")`, "0.0.0.0"),
  fails(`ip_subnet!("192.168.10.32", "/33")`, "unable to parse subnet"),
  fails(`ip_subnet!("192.168.10.32", "/x")`, "unable to parse subnet"),
]);

// Rust keeps the sign of a negative zero: serde_json writes -0.0, Display writes -0.
table("corpus: negative zero", [
  ok(`encode_json(-0.0)`, "-0.0"),
  ok(`to_string(0.0 * -1)`, "-0"),
]);

// VRL's common/combined log regexes: any field may be `-` (then absent), and nothing may follow the last one.
table("corpus: common log fields", [
  ok(`parse_common_log!("- - - - - - -")`, {}),
  ok(`parse_common_log!("127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \\"-\\" 200 -")`, {
    host: "127.0.0.1",
    status: 200,
    timestamp: "2000-10-10T20:55:36Z",
  }),
  ok(`parse_common_log!("h  -  frank  -  \\"GET / HTTP/1.1\\"  200  5")`, {
    host: "h",
    user: "frank",
    message: "GET / HTTP/1.1",
    method: "GET",
    path: "/",
    protocol: "HTTP/1.1",
    status: 200,
    size: 5,
  }),
  fails(`parse_common_log!("h - - - \\"-\\" 200 5 extra")`, "failed parsing common log line"),
  ok(`parse_apache_log!("h - - - - 200 5 \\"-\\" \\"curl\\"", "combined")`, {
    host: "h",
    status: 200,
    size: 5,
    agent: "curl",
  }),
]);

// `parse_regex_all` iterates as `Regex::captures_iter`: no empty match right where the last match ended.
table("corpus: parse_regex_all and empty matches", [
  ok(`parse_regex_all!("aab", r'(?P<x>a*)')`, [{ x: "aa" }, { x: "" }]),
  ok(`parse_regex_all!("a1b2", r'(?P<d>\\d)')`, [{ d: "1" }, { d: "2" }]),
]);

// `replace_with` iterates as the regex crate does; `start` and `end` count bytes.
table("corpus: replace_with matches", [
  ok(`replace_with("ñab", r'b') -> |m| { to_string(m.start) + "-" + to_string(m.end) }`, "ña3-4"),
  ok(`replace_with("aab", r'a*') -> |m| { "<" + m.string + ">" }`, "<aa>b<>"),
]);
