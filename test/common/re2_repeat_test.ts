/**
 * Risky patterns whose nested counts multiply past RE2's limit of 1000 (`(a{1,100}){1,100}b`) run on
 * RE2 written out under the limit, with V8's matches and captures; past what can be written out
 * (`(a{1,1000}){1,1000}`, which Rust refuses as too large too) they are refused instead of left to
 * V8's backtracking.
 */
import assert from "node:assert/strict";
import { compileRegExp } from "../../src/common/regexp.ts";
import { LinearRegExp, TOO_LARGE } from "../../src/common/linear_regexp.ts";
import { jsToRe2 } from "../../src/common/js_to_re2.ts";
import { rustRegexToJs } from "../../src/common/rust_regex.ts";

/** Risky, nested counts over 1000, groups inside and around the counts, greedy and lazy. */
const PATTERNS = [
  "(a{1,100}){1,100}b",
  "(?<x>a{2,40}?){3,50}b",
  "((?:ab|a){1,50}){1,30}c",
  "(x{1,40}(y)?){2,30}z",
  "^(\\d{1,3}\\.?){1,400}$",
  "((a{1,20}){1,20}){1,5}b",
  "(?i)(a{1,50}|b){1,40}c",
];

/** Short subjects: V8 answers on them quickly, so its answer is the reference. */
const SUBJECTS = [
  "",
  "b",
  "ab",
  "aaab",
  "aaaaaaaab",
  "xxaaac",
  "ababac",
  "aabaabc",
  "xyxxyz",
  "xxxxz",
  "yyz",
  "12.3.456",
  "1234",
  "AaBc",
  "aaaaaaaaaaab",
];

Deno.test("risky patterns over RE2's nested count limit run on RE2 with V8's matches and captures", () => {
  for (const pattern of PATTERNS) {
    const { source, flags } = rustRegexToJs(pattern);
    const linear = compileRegExp(source, flags);
    assert.ok(linear instanceof LinearRegExp, `${pattern} runs on RE2`);
    const reading = jsToRe2(source, flags)!;
    assert.equal(reading.tooLarge, false, pattern);
    for (const subject of SUBJECTS) {
      const v8 = new RegExp(source, flags);
      const got = linear.exec(subject), want = v8.exec(subject);
      assert.deepEqual(got && [...got], want && [...want], `${pattern} on ${JSON.stringify(subject)}`);
      assert.equal(got?.index, want?.index, `${pattern} on ${JSON.stringify(subject)}: index`);
      assert.deepEqual(got?.groups, want?.groups, `${pattern} on ${JSON.stringify(subject)}: groups`);
      const g = new RegExp(source, flags + "g");
      assert.equal(subject.replace(compileRegExp(source, flags + "g"), "<$1>"), subject.replace(g, "<$1>"));
    }
  }
});

Deno.test("a nested count V8 would backtrack on for seconds answers at once", () => {
  const { source, flags } = rustRegexToJs("(a{1,100}){1,100}b");
  const re = compileRegExp(source, flags);
  assert.equal(re.test("a".repeat(5000) + "c"), false);
  assert.deepEqual(re.exec("a".repeat(150) + "b")?.map((g) => g.length), [151, 50]);
});

Deno.test("risky nested counts too large to write out are refused; safe ones stay on V8", () => {
  for (const pattern of ["(a{1,1000}){1,1000}b", "(a{1,500}){1,500}b", "((a{1,2}){1,1000}){1,2}b"]) {
    const { source, flags } = rustRegexToJs(pattern);
    assert.equal(jsToRe2(source, flags)!.tooLarge, true, pattern);
    assert.throws(
      () => compileRegExp(source, flags),
      (e: Error) => e instanceof SyntaxError && e.message === TOO_LARGE,
    );
  }
  // not risky (each count fixed): V8 takes it in linear time, as before
  const { source, flags } = rustRegexToJs("(ab{2}){1000}");
  const re = compileRegExp(source, flags);
  assert.ok(!(re instanceof LinearRegExp));
  assert.equal(re.test("abb".repeat(1000)), true);
});
