/**
 * RE2 spellings as JS regexes: each pattern matches (and does not match) what Go's regexp does
 * with it, fully anchored as Prometheus anchors matchers (the equivalence test checks the same
 * patterns against a real Prometheus).
 */
import assert from "node:assert/strict";
import { re2ToJs } from "../../src/common/re2.ts";

function anchored(pattern: string): RegExp {
  const { source, flags } = re2ToJs(pattern);
  return new RegExp(source, flags);
}

const CASES: Array<[pattern: string, matches: string[], misses: string[]]> = [
  ["i-[[:digit:]]", ["i-0", "i-9"], ["i-a", "i-"]],
  ["[^[:alpha:][:space:]]+", ["12-", "#"], ["a1", " "]],
  ["[[:punct:]]", ["!", "[", "`", "~", "/"], ["a", "0"]],
  ["\\pL+", ["api", "été"], ["a1", ""]],
  ["\\PN+\\_", ["ab_"], ["a1_"]],
  ["\\p{Greek}+", ["αβ"], ["ab"]],
  ["\\p{^Greek}+", ["ab"], ["αβ"]],
  ["(?P<j>a)pi", ["api"], ["Api"]],
  ["a\\Q.*\\Eb", ["a.*b"], ["axxb"]],
  ["\\Aapi\\z", ["api"], ["api\n"]],
  ["[]a]+", ["]a]"], ["b"]],
  ["(?i)API", ["api", "Api"], ["apx"]],
  ["(?is)a.b", ["A\nB"], ["ab"]],
  ["a.b", ["a\nb"], ["ab"]],
  // checked against Prometheus 2.42 (Go's regexp)
  ["a(?i)b", ["ab", "aB"], ["Ab"]],
  ["(?i:a)b", ["ab", "Ab"], ["aB"]],
  ["a(?-s).b", ["a b"], ["a\nb"]],
  ["(?-s:a.)|a.", ["a\n", "ab"], ["b"]],
  ["(?i)a|b", ["A", "B"], ["c"]],
  ["(a(?i)b|c)d", ["aBd", "Cd"], ["aBD", "AbD"]],
  ["(?U)(a+)(a*)", ["a", "aa"], [""]],
  ["(?U)a+?", ["aaa"], [""]],
  ["x[[:^alpha:]]", ["x1", "x "], ["xb"]],
  ["\\x{41}b\\x42", ["AbB"], ["abb"]],
  ["\\pN+", ["1", "١", "Ⅻ"], ["a"]],
  ["\\101\\0\\v\\a\\f", ["A\0\v\x07\f"], ["A"]],
  ["a{2,1000}", ["aa", "aaa"], ["a"]],
  ["a{,2}|a{01}|b{", ["a{,2}", "a{01}", "b{"], ["aa"]],
  ["a\\sb", ["a b", "a\nb", "a\fb"], ["a\vb"]],
  ["\\d\\w\\b", ["1a"], ["١a", "1é"]],
  ["(?m)a$\\n^b", ["a\nb"], ["ab"]],
  ["a[^x]b", ["a\nb"], ["axb"]],
  ["^*a$+", ["a"], ["b"]],
  ["(?i)\\p{Lu}", ["A", "a"], ["1"]],
  ["\\p{C}", ["\x07"], ["\u{e0080}"]],
  ["(?P<1a>x)(?<n>y)", ["xy"], ["x"]],
  ["[\\d\\-\\pL]+", ["1-a"], [" "]],
  ["(?)a(?:)", ["a"], [""]],
  ["(?P<n>a)(?P<n>b)", ["ab"], ["a"]],
  ["ba(?i)*", ["b", "baa"], ["bA"]],
  ["b(?i)a*", ["bAa"], ["Ba"]],
  ["(a{2}){3}|x{1000}", ["aaaaaa"], ["aaaa"]],
];

/** Patterns Go refuses, with its reason (the same as Prometheus 2.42 prints). */
const REFUSED: Array<[pattern: string, reason: string]> = [
  ["(?=x)", "invalid or unsupported Perl syntax: `(?=`"],
  ["(?<!x)", "invalid or unsupported Perl syntax: `(?<`"],
  ["(?P=n)", "invalid or unsupported Perl syntax: `(?P`"],
  ["(?z)", "invalid or unsupported Perl syntax: `(?z`"],
  ["(?-)", "invalid or unsupported Perl syntax: `(?-)`"],
  ["(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"],
  ["a{1001}", "invalid repeat count: `{1001}`"],
  ["\\C", "invalid escape sequence: `\\C`"],
  ["\\1", "invalid escape sequence: `\\1`"],
  ["\\8", "invalid escape sequence: `\\8`"],
  ["\\Z", "invalid escape sequence: `\\Z`"],
  ["ab\\E", "invalid escape sequence: `\\E`"],
  ["[\\b]", "invalid escape sequence: `\\b`"],
  ["[\\Q]\\E]", "invalid escape sequence: `\\Q`"],
  ["\\x{110000}", "invalid escape sequence: `\\x{110000`"],
  ["a(", "missing closing ): `^(?:a()$`"],
  ["(?i", "missing closing ): `^(?:(?i)$`"],
  ["a)", "unexpected ): `^(?:a))$`"],
  ["a)|(b", "unexpected ): `a)|(b`"],
  ["[a", "missing closing ]: `[a)$`"],
  ["[z-a]", "invalid character class range: `z-a`"],
  ["[[:foo:]]", "invalid character class range: `[:foo:]`"],
  ["\\p{Foo}", "invalid character class range: `\\p{Foo}`"],
  ["\\p{greek}", "invalid character class range: `\\p{greek}`"],
  ["\\p{Cn}", "invalid character class range: `\\p{Cn}`"],
  ["*a", "missing argument to repetition operator: `*`"],
  ["a**", "invalid nested repetition operator: `**`"],
  ["x{2}{3}", "invalid nested repetition operator: `{2}{3}`"],
  ["(a{500}){3}", "invalid repeat count: `{3}`"],
  ["((a{10}b)*){101}", "invalid repeat count: `{101}`"],
  ["(?P<a", "invalid named capture: `(?P<a)$`"],
  ["(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"],
  ["\\p{", "invalid character class range: `\\p{)$`"],
  ["a\\", "missing closing ): `^(?:a\\)$`"],
  ["a*?+", "invalid nested repetition operator: `*?+`"],
  ["[a-\\d]", "invalid escape sequence: `\\d`"],
];

Deno.test("RE2 patterns match as Go's regexp matches them", () => {
  for (const [pattern, matches, misses] of CASES) {
    const re = anchored(pattern);
    for (const s of matches) assert.ok(re.test(s), `${pattern} should match ${JSON.stringify(s)}`);
    for (const s of misses) assert.ok(!re.test(s), `${pattern} should not match ${JSON.stringify(s)}`);
  }
});

Deno.test("RE2 patterns Go refuses are refused with Go's reason", () => {
  for (const [pattern, reason] of REFUSED) {
    assert.throws(() => re2ToJs(pattern), { message: reason }, pattern);
  }
  // label_replace compiles only the anchored pattern, which this one closes
  assert.doesNotThrow(() => re2ToJs("a)|(b", false));
});
