/** Regex functions and Rust-to-JS regex translation. */

import assert from "node:assert/strict";
import { translateRegex } from "../../engine/vrl/regex.ts";
import { fails, ok, rejects, table } from "./harness.ts";

table("match", [
  ok(`match("I'm a little teapot", r'teapot')`, true),
  ok(`match("I'm a little teapot", r'^teapot')`, false),
  ok(`match("ABC", r'(?i)abc')`, true),
  ok(`match("a\\nb", r'(?s)a.b')`, true),
  ok(`match("line1\\nline2", r'(?m)^line2$')`, true),
  ok(`match("abc", r'\\Aabc\\z')`, true),
  ok(`match("abc", r'[[:alpha:]]+')`, true),
  ok(`match("123", r'^[[:digit:]]+$')`, true),
  ok(`match("a b", r'(?x) a \\s b  # comment')`, true),
  ok(`match("", r'^$')`, true),
  ok(`[match("aB", r'a(?i)b'), match("AB", r'a(?i)b'), match("C", r'a(?i)b|c')]`, [true, false, true]),
  rejects(`match("a", "a")`, "E110"),
  rejects(`r'('`, "E203"),
  // Literals are Rust regex, read by the same translator as the pipeline's regex processor: Unicode
  // `\d`, and no atomic groups (Rust's regex crate rejects them; only grok patterns allow them).
  ok(`match("٣٤", r'^\\d+$')`, true),
  rejects(`r'(?>a)b'`, "E203"),
  ok(`[match("xYz", r'(x(?i)y)z'), match("xYZ", r'(x(?i)y)z')]`, [true, false]),
]);

table("match_any/match_array", [
  ok(`match_any("abc", [r'x', r'b'])`, true),
  ok(`match_any("abc", [r'x', r'y'])`, false),
  ok(`match_any("abc", [])`, false),
  rejects(`match_any("abc", ["b"])`, "E610"),
  ok(`match_array(["foo", "bar"], r'ba')`, true),
  ok(`match_array(["foo", "bar"], r'ba', all: true)`, false),
  ok(`match_array([], r'x')`, false),
]);

table("parse_regex", [
  ok(`parse_regex!("first group and second group.", r'(?P<number>.*?) group')`, { number: "first" }),
  ok(`parse_regex!("5.86.210.12 - zieme4647", r'^(?P<host>[\\w\\.]+) - (?P<user>[\\w]+)')`, {
    host: "5.86.210.12",
    user: "zieme4647",
  }),
  ok(`parse_regex!("ab", r'(?P<a>a)(?P<z>z)?', numeric_groups: true)`, {
    "0": "a",
    "1": "a",
    "2": null,
    a: "a",
    z: null,
  }),
  ok(`parse_regex!("abc", r'b')`, {}),
  fails(`parse_regex!("abc", r'z')`, "could not find any pattern matches"),
  ok(`parse_regex(.missing, r'a') ?? "none"`, "none"),
  rejects(`parse_regex("a", r'a')`, "E100"),
]);

table("parse_regex_all", [
  ok(`parse_regex_all!("first group and second group.", r'(?P<number>\\w+) group')`, [
    { number: "first" },
    { number: "second" },
  ]),
  ok(`parse_regex_all!("abc", r'(?P<x>z)')`, []),
  ok(`parse_regex_all!("a1b2", r'(?P<d>\\d)', numeric_groups: true)`, [{ "0": "1", "1": "1", d: "1" }, {
    "0": "2",
    "1": "2",
    d: "2",
  }]),
  // The regex crate takes no empty match right where the previous match ended ("aaa", then none at 3).
  ok(`length(parse_regex_all!("aaa", r'a*'))`, 1),
]);

// Grok patterns (Oniguruma): more in grok_oniguruma_test.ts.
const translations: [string, string, string][] = [
  ["(?P<name>\\w+)", "(?<name>[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]+)", ""],
  ["(?i)abc", "abc", "i"],
  ["(?i)^a$", "(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))a(?![^\\n])", "i"],
  ["\\Aabc\\z", "(?<![\\s\\S])abc(?![\\s\\S])", ""],
  ["[[:alpha:]][[:digit:]]", "[A-Za-z][0-9]", ""],
  ["(?>a+)b", "(?:a+)b", ""],
  ["a++b*+", "a+b*", ""],
  ["(?x) a b # c", "ab", ""],
  ["[]a]", "[\\]a]", ""],
  ["[^]a]", "[^\\]a]", ""],
  ["a(?i)b", "a(?i:b)", ""],
  ["a(?i)b|c", "a(?i:b|c)", ""],
  ["(x(?i)y)z", "(x(?i:y))z", ""],
  ["(?i:a)b", "(?i:a)b", ""],
  ["a(?-i)b", "a(?-i:b)", ""],
];

for (const [rust, js, flags] of translations) {
  Deno.test(`translateRegex ${rust}`, () => {
    assert.deepEqual(translateRegex(rust), { source: js, flags });
  });
}
