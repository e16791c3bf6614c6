/**
 * Grok patterns read as Oniguruma (Ruby syntax, what the `grok` crate compiles them with) reads
 * them: `^` `$` are line anchors, `(?m)` lets `.` take `\n`, `(?s)` is no option, `\A` `\z` `\Z`
 * are string anchors, `\h` `\H` hex digits, `.` takes everything but `\n`, and an isolated option
 * runs to the end of its group, alternatives included.
 */

import assert from "node:assert/strict";
import { translateOniguruma } from "../../engine/regex_translate.ts";
import { toJsRegExp } from "../../engine/vrl/regex.ts";
import { LinearRegExp } from "../../src/common/linear_regexp.ts";
import { fails, ok, rejects, table } from "./harness.ts";

table("parse_grok: Oniguruma anchors, options and escapes", [
  // `(?m)` is Ruby's dot-all: GREEDYDATA runs over the newline
  ok(`parse_grok!("a\\nb", "(?m)%{GREEDYDATA:x}")`, { x: "a\nb" }),
  ok(`parse_grok!("a\\nb", "%{GREEDYDATA:x}")`, { x: "a" }),
  ok(`parse_grok!("a\\nb", "(?m:%{GREEDYDATA:x})")`, { x: "a\nb" }),
  ok(`parse_grok!("a\\nb", "(?m)(?-m)%{GREEDYDATA:x}")`, { x: "a" }),
  // `^` and `$` match at every line, with no option
  ok(`parse_grok!("GET /a\\nPOST /b", "^POST %{NOTSPACE:p}$")`, { p: "/b" }),
  ok(`parse_grok!("a\\nb", "^%{WORD:x}$")`, { x: "a" }),
  ok(`parse_grok!("one\\ntwo", "(?m)^%{WORD:a}$.%{WORD:b}$")`, { a: "one", b: "two" }),
  // `^` is not after a `\n` that ends the text (Oniguruma's BEGIN_LINE); `$` is before it and after it
  ok(`parse_grok!("abc\\n", "^%{WORD:w}$")`, { w: "abc" }),
  ok(`parse_grok!("abc\\n", "%{WORD:w}$")`, { w: "abc" }),
  fails(`parse_grok!("abc\\n", "^$")`, "unable to parse"),
  fails(`parse_grok!("abc\\n", "%{WORD:w}\\n^")`, "unable to parse"),
  ok(`parse_grok!("abc\\n", "%{WORD:w}\\n$")`, { w: "abc" }),
  ok(`parse_grok!("abc\\nd", "%{WORD:w}\\n^")`, { w: "abc" }),
  ok(`parse_grok!("abc\\n\\n", "\\n^(?<e>)$")`, { e: "" }),
  ok(`parse_grok!("", "^$")`, {}),
  // `\A` `\z` are the string's ends; `\Z` also before a last `\n`
  fails(`parse_grok!("a\\nb", "\\\\A%{WORD:x}$\\\\z")`, "unable to parse"),
  ok(`parse_grok!("a\\nb", "\\\\A%{WORD:x}$")`, { x: "a" }),
  ok(`parse_grok!("abc\\n", "%{WORD:w}\\\\Z")`, { w: "abc" }),
  fails(`parse_grok!("abc\\n", "%{WORD:w}\\\\z")`, "unable to parse"),
  fails(`parse_grok!("abc\\n\\n", "%{WORD:w}\\\\Z")`, "unable to parse"),
  // `.` stops at `\n` only: a CRLF line keeps its `\r`
  ok(`parse_grok!("hello\\r", "%{GREEDYDATA:m}")`, { m: "hello\r" }),
  // `\h` `\H`, in a class too
  ok(`parse_grok!("id=00fFz", "id=(?<h>[\\\\h]+)")`, { h: "00fF" }),
  ok(`parse_grok!("00ff-x1", "(?<h>\\\\H+)")`, { h: "-x" }),
  ok(`parse_grok!("00-x1", "(?<h>[\\\\H0]+)")`, { h: "00-x" }),
  // an isolated option takes the rest of its group, alternatives included: a(?i:b|c)
  fails(`parse_grok!("C", "(?<v>a(?i)b|c)")`, "unable to parse"),
  ok(`parse_grok!("aC", "(?<v>a(?i)b|c)")`, { v: "aC" }),
  // with UTF-8 subjects `\w` `\d` `\s` `\b` are Unicode: letters, marks, decimal digits; NEL is a space
  ok(`parse_grok!("héllo wörld", "%{WORD:a} %{WORD:b}")`, { a: "héllo", b: "wörld" }),
  ok(`parse_grok!("x=١٢3;", "=(?<n>\\\\d+)")`, { n: "١٢3" }),
  ok(`parse_grok!("a\u0085b", "%{WORD:a}\\\\s%{WORD:b}")`, { a: "a", b: "b" }),
  fails(`parse_grok!("a\ufeffb", "%{WORD:a}\\\\s%{WORD:b}")`, "unable to parse"),
  ok(`parse_grok!("-éa-", "(?<w>\\\\b\\\\w+\\\\b)")`, { w: "éa" }),
  ok(`parse_grok!("naïve", "(?<w>na\\\\B.)")`, { w: "naï" }),
  ok(`parse_grok!("é_1 x", "(?<w>[\\\\w]+)")`, { w: "é_1" }),
  // escaped punctuation is the character; what the u flag refuses keeps ASCII classes
  ok(`parse_grok!("say \\"hi\\"", "\\\\\\"(?<q>\\\\w+)\\\\\\"")`, { q: "hi" }),
  ok(`parse_grok!("ab-c.d é", "(?<w>[\\\\w-.]+)")`, { w: "ab-c.d" }),
  // `(?s)` is Perl's, not Ruby's
  rejects(`parse_grok!("a", "(?s)%{GREEDYDATA:x}")`, "E610|undefined group option"),
  rejects(`parse_grok!("a", "a(?s:b)")`, "E610|undefined group option"),
]);

const translations: [string, string, string][] = [
  ["(?m)a.b", "a[\\s\\S]b", ""],
  ["a.b", "a[^\\n]b", ""],
  ["(?im)^a$", "(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))a(?![^\\n])", "i"],
  ["\\Aa\\z", "(?<![\\s\\S])a(?![\\s\\S])", ""],
  ["a\\Z", "a(?=\\n?(?![\\s\\S]))", ""],
  ["[\\h]\\h", "[0-9A-Fa-f][0-9A-Fa-f]", ""],
  ["\\H", "[^0-9A-Fa-f]", ""],
  ["a(?i)b|c", "a(?i:b|c)", ""],
  ["(x(?i)y|z)w", "(x(?i:y|z))w", ""],
  ["a(?m)b|.", "a(?:b|[\\s\\S])", ""],
  ["(?m:.)(?-m:.)", "(?:[\\s\\S])(?:[^\\n])", ""],
  ["(?i:a)b", "(?i:a)b", ""],
  ["[$^]", "[$^]", ""],
  ["\\d\\S[\\s\\D]", "\\p{Nd}\\P{White_Space}[\\p{White_Space}\\P{Nd}]", ""],
  ['\\"\\:\\-[\\-\\:]', '":-[\\-:]', ""],
];

for (const [onig, js, flags] of translations) {
  Deno.test(`translateOniguruma ${onig}`, () => {
    assert.deepEqual(translateOniguruma(onig), { source: js, flags });
  });
}

Deno.test("translateOniguruma: options Oniguruma does not have are errors", () => {
  for (const p of ["(?s)a", "a(?s)b", "(?s:a)", "(?U)a", "(?-s)a"]) {
    assert.throws(() => translateOniguruma(p), /undefined group option/, p);
  }
});

Deno.test("grok's anchors and dots read as RE2's: risky patterns still match in linear time", () => {
  const pad = " ".repeat(200);
  for (
    const p of [
      "^(?<a>.*?) (?<b>.*?) (?<c>.*)x$",
      "(?m)^(?<a>.*?) (?<b>.*?) (?<c>.*)x$",
      "\\A(a+)+\\z",
      // `^` after a final `\n` (RE2's `(?m:^)` matches there, Oniguruma's does not)
      "\\n^(?<a>a*)*$",
    ]
  ) {
    const re = toJsRegExp(p);
    assert.ok(re instanceof LinearRegExp, p);
    assert.equal(re.exec(" ".repeat(30_000)), null, p);
    // the same answers as V8 on the same source, `\r` and U+2028 included
    const subjects = [`a b cx\nd e fx${pad}`, `a b c\rx y zx${pad}`, `a b c\u2028x\ny zx${pad}`, `${pad}\n`];
    for (const s of [...subjects, `${pad}\naa`]) {
      const v8: RegExp = new RegExp(re.source, re.flags);
      assert.deepEqual(re.exec(s)?.slice(), v8.exec(s)?.slice(), `${p} on ${JSON.stringify(s.slice(0, 12))}`);
    }
  }
});
