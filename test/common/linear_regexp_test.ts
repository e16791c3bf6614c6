/**
 * LinearRegExp gives what V8's RegExp gives (matches, captures, named groups, `replace`, `split`,
 * `matchAll`, `lastIndex`) on ordinary inputs, and answers at once where V8 backtracks exponentially;
 * compileRegExp hands out one only for patterns that could backtrack that way.
 */
import assert from "node:assert/strict";
import { compileRegExp } from "../../src/common/regexp.ts";
import { LinearRegExp } from "../../src/common/linear_regexp.ts";
import { jsToRe2 } from "../../src/common/js_to_re2.ts";
import { rustRegexToJs } from "../../src/common/rust_regex.ts";
import { re2ToJs } from "../../src/common/re2.ts";
import { translateOniguruma } from "../../engine/regex_translate.ts";

const rust = (p: string) => rustRegexToJs(p);
const go = (p: string) => re2ToJs(p);
const grok = (p: string) => {
  const t = translateOniguruma(p);
  return { source: t.source, flags: t.flags + "u" };
};

/** Risky patterns, translated as each dialect's users write them. */
const PATTERNS: { source: string; flags: string }[] = [
  rust("(?<x>(a+)+)b"),
  rust("(a|aa)+$"),
  rust("(?i)(\\w+\\s?)+!"),
  rust("^(?:([a-z]+)=(\\d+);?)*$"),
  rust("(?s)(.*?,)+(x)"),
  rust("(?m)^(a|ab)+$"),
  rust("((?:ab|a)(?:bc|c)?)+"),
  rust("(?U)(a+)+"),
  rust("([\\p{Greek}\\d]+\\.?)+ω"),
  rust("(?-u:\\b)(\\w+-?)+(?-u:\\b)"),
  // Unicode word boundaries: RE2 on ASCII subjects, V8 on the others
  rust("\\b(\\w+\\s?)+\\b"),
  rust("(?<w>\\b(\\w+\\s?)+)$"),
  rust("(?i)\\<(\\w|[a-f\\d])+\\d*\\>"),
  rust("\\b{start}(a|ab|[c-e])+\\b{end}\\B"),
  rust("\\b{start-half}(\\d+|[0-9a-f]+)+\\b{end-half}"),
  go("(a+)+b"),
  go("(?i)(foo|fob)+baz"),
  go("\\b(\\w+\\s*)+\\b"),
  go("([[:alpha:]]+[[:digit:]]*)+"),
  go("(.*)(,.*)+"),
  grok("(?<x>(a+)+)b"),
  grok("(?<word>(\\w|-)+)\\s+(?<rest>.*)"),
  // Oniguruma's Unicode \w \d \s \b
  grok("\\b(\\w+\\s?)+\\b"),
  grok("(?<n>\\d+\\.?)+\\S"),
];

const INPUTS = [
  "",
  "aab",
  "aaab aab",
  "foo bar baz!",
  "FooBarBAZ",
  "k=1;v=22;",
  "ab\nba\nab",
  "abc abcabc",
  "αβγ1.δ2ω",
  "one-two three",
  "x,y,z,x",
  "tab\there, and ünïcödé",
  "a".repeat(20) + "c",
  "😀ab😀 aab😀",
  "café ab_cd, ab-ce éa aé",
  "a".repeat(20) + "!",
  "ab abab cd 12.5,3",
];

function sameExec(a: RegExpExecArray | null, b: RegExpExecArray | null, what: string): void {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.deepEqual([...a], [...b], what);
  assert.equal(a.index, b.index, what);
  assert.deepEqual(a.groups === undefined ? undefined : { ...a.groups }, b.groups && { ...b.groups }, what);
}

Deno.test("LinearRegExp matches as RegExp does: exec, test, replace, split, matchAll, sticky", () => {
  for (const { source, flags } of PATTERNS) {
    const reading = jsToRe2(source, flags);
    assert.ok(reading?.risky, `${source} should be read as risky`);
    for (const s of INPUTS) {
      const what = `/${source}/${flags} on ${JSON.stringify(s)}`;
      const v8 = new RegExp(source, flags), lin = new LinearRegExp(source, flags);
      sameExec(lin.exec(s), v8.exec(s), what);
      assert.equal(lin.test(s), v8.test(s), what);
      const v8g = new RegExp(source, flags + "g"), ling = new LinearRegExp(source, flags + "g");
      assert.equal(s.replace(ling, "<$1|$&>"), s.replace(v8g, "<$1|$&>"), what);
      const fn = (...args: unknown[]) => JSON.stringify(args.slice(0, -2));
      assert.equal(s.replace(ling, fn), s.replace(v8g, fn), what);
      assert.deepEqual(s.split(lin), s.split(v8), what);
      assert.deepEqual(s.split(lin, 2), s.split(v8, 2), what);
      assert.deepEqual(
        [...s.matchAll(ling)].map((m) => [m.index, ...m]),
        [...s.matchAll(v8g)].map((m) => [m.index, ...m]),
      );
      const v8y = new RegExp(source, flags + "y"), liny = new LinearRegExp(source, flags + "y");
      for (const at of [0, 1, 3]) {
        v8y.lastIndex = liny.lastIndex = at;
        sameExec(liny.exec(s), v8y.exec(s), `${what} sticky at ${at}`);
        assert.equal(liny.lastIndex, v8y.lastIndex, what);
      }
    }
  }
});

Deno.test("compileRegExp: risky patterns become linear and answer at once; others stay V8's", () => {
  const evil = "a".repeat(50) + "c";
  for (
    const { source, flags } of [
      rust("(?<x>(a+)+)b"),
      go("(a|aa)+b"),
      grok("^(a*)*b"),
      rust("(?i)(a|Ab)+d"),
      rust("(?i)(k|\\x{212A}b)+c"),
    ]
  ) {
    const re = compileRegExp(source, flags);
    assert.ok(re instanceof LinearRegExp, source);
    const started = performance.now();
    assert.equal(re.exec(evil), null);
    assert.ok(performance.now() - started < 1000);
  }
  // no loop over an ambiguous group, or each turn starts with a separator found nowhere else in it
  for (
    const { source, flags } of [
      rust("^web-\\d+$"),
      rust("(?<ip>\\d+\\.\\d+)\\s+(.*)"),
      go("foo|bar.*"),
      grok("\\b(?:[0-9A-Za-z][0-9A-Za-z-]{0,62})(?:\\.(?:[0-9A-Za-z][0-9A-Za-z-]{0,62}))*(\\.?|\\b)"),
      rust("(?:,[a-z]*)+"),
      go("([0-9A-Fa-f]{1,4}:)+[0-9A-Fa-f]{1,4}"),
      // the next character picks the alternative: one way to read a stretch
      rust("^h(1|2)+$"),
      rust("(?:GET|PUT|DELETE)+"),
    ]
  ) {
    assert.ok(!(compileRegExp(source, flags) instanceof LinearRegExp), source);
  }
  // what RE2 cannot say the same way (back-references, `v`-mode set operations, `\<` not next to a
  // word character) stays V8's
  for (
    const { source, flags } of [rust("\\<(.a+)+"), rust("([\\w&&[^\\d]]+,?)+"), {
      source: "(a+)+\\1",
      flags: "u",
    }]
  ) {
    assert.equal(jsToRe2(source, flags), null, source);
    assert.ok(!(compileRegExp(source, flags) instanceof LinearRegExp), source);
  }
});

Deno.test("LinearRegExp: a group that sat out a loop's last turn keeps its last match, as in Rust and Go", () => {
  // V8 resets it (["ab", undefined]); GreptimeDB's Rust regex and Prometheus' Go RE2 report "a"
  const { source, flags } = rust("(?:(a)|b)+");
  assert.ok(compileRegExp(source, flags) instanceof LinearRegExp);
  assert.deepEqual([...compileRegExp(source, flags).exec("ab")!], ["ab", "a"]);
});

Deno.test("Unicode word boundaries: linear on ASCII subjects, V8's Unicode meaning on the others", () => {
  // Rust's Unicode `\w`, as the translator spells it, takes exactly RE2's ASCII `\w` among ASCII characters
  const word = rust("\\w").source, ascii = /^[0-9A-Za-z_]$/;
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    for (const flags of ["v", "vi"]) {
      assert.equal(new RegExp(`^${word}$`, flags).test(ch), ascii.test(ch), ch);
    }
  }
  const { source, flags } = rust("\\b(\\w+\\s?)+$");
  assert.equal(jsToRe2(source, flags)?.asciiOnly, true);
  const re = compileRegExp(source, flags);
  assert.ok(re instanceof LinearRegExp);
  const started = performance.now();
  assert.equal(re.exec("a".repeat(50) + "!"), null);
  assert.ok(performance.now() - started < 1000);
  // `é` is a word character to Rust's `\b`, not to RE2's: a non-ASCII subject keeps Rust's answer
  const bound = rust("\\ba");
  assert.equal(new LinearRegExp(bound.source, bound.flags).exec("éa"), null);
  assert.equal("éa a".replace(new LinearRegExp(bound.source, bound.flags + "g"), "X"), "éa X");
  assert.deepEqual("éa a".split(new LinearRegExp(bound.source, bound.flags)), ["éa ", ""]);
  // `(?-u)\b` is ASCII in any subject, except where case is ignored (JS's `i` adds U+017F and U+212A)
  const asciiB = rust("(?-u)\\b(\\w+\\s?)+$"), asciiBi = rust("(?i-u)\\b(\\w+\\s?)+$");
  assert.equal(jsToRe2(asciiB.source, asciiB.flags)?.asciiOnly, false);
  assert.equal(jsToRe2(asciiBi.source, asciiBi.flags)?.asciiOnly, true);
  const goBi = go("(?i)\\b(\\w+\\s?)+$");
  assert.equal(jsToRe2(goBi.source, goBi.flags)?.asciiOnly, true);
  const kelvin = "\u212a";
  for (const { source, flags } of [asciiBi, goBi]) {
    assert.equal(
      new LinearRegExp(source, flags).test(kelvin),
      new RegExp(source, flags).test(kelvin),
      source,
    );
  }
});
