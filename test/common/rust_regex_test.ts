/**
 * Rust `regex` spellings as JS regexes: each pattern matches (and does not match) what Rust's regex
 * crate does with it (unanchored, as DataFusion's `~` searches), and what Rust refuses is refused
 * with its reason.
 */
import assert from "node:assert/strict";
import { rustRegexToJs } from "../../src/common/rust_regex.ts";

function compiled(pattern: string): RegExp {
  const { source, flags } = rustRegexToJs(pattern);
  return new RegExp(source, flags);
}

const CASES: Array<[pattern: string, matches: string[], misses: string[]]> = [
  ["(?i)^web", ["WEB-1", "web"], ["a web"]],
  ["a(?i)b|c", ["aB", "C"], ["AB"]],
  ["^a(?i:b)c$", ["aBc"], ["aBC"]],
  ["^(?i)a(?-i)b$", ["Ab"], ["AB"]],
  ["(?i:a(?-i:b))", ["Ab"], ["aB"]],
  ["[[:digit:]]$", ["h1"], ["h٣"]],
  ["^[[:^alpha:]]+$", ["12"], ["a1"]],
  ["\\pL+-\\d", ["été-٣"], ["1-2"]],
  ["^\\p{Greek}+$", ["αβ"], ["ab"]],
  ["^\\p{greek}+$", ["αβ"], ["ab"]],
  ["^\\p{Letter}+$", ["ab"], ["a1"]],
  ["^\\P{^Greek}+$", ["αβ"], ["ab"]],
  ["^\\w+$", ["été_1"], ["a-b"]],
  ["(?-u)^\\w+$", ["ab_1"], ["été"]],
  ["^\\s$", ["\u0085"], ["\ufeff"]],
  ["\\bfoo\\b", ["a foo b"], ["éfoo", "foo1"]],
  ["\\<foo\\>", ["a foo b"], ["afoo"]],
  ["\\b{start}foo", ["a foo"], ["afoo"]],
  ["a.b", ["a\rb"], ["a\nb"]],
  ["(?s)a.b", ["a\nb"], []],
  ["(?m)^b$", ["a\nb\nc"], ["a\rb\rc"]],
  ["^b$", ["b"], ["a\nb"]],
  ["(?x) a b  # then c\n c", ["abc"], ["a b c"]],
  ["(?x)a\\ b", ["a b"], ["ab"]],
  ["^(?U)a+b$", ["aab"], ["b"]],
  ["^[a-z&&[^aeiou]]+$", ["bcd"], ["bad"]],
  ["^[a-z--[aeiou]]+$", ["bcd"], ["bad"]],
  ["^[a-c~~b-d]+$", ["ad"], ["b"]],
  ["^[a[0-9]]+$", ["a1"], ["b"]],
  ["^[]a]+$", ["]a"], ["b"]],
  ["^[\\-a\\]]+$", ["-a]"], ["b"]],
  ["\\x{41}\\u0042\\U00000043\\x44", ["ABCD"], ["abcd"]],
  ["a\\#b\\ c\\~", ["a#b c~"], []],
  ["(?P<a>x)(?<b>y)", ["xy"], ["yx"]],
  ["^(?:ab)+$", ["abab"], ["aba"]],
  ["^a{2,3}$", ["aa", "aaa"], ["a", "aaaa"]],
  ["a]b}", ["a]b}"], []],
  // an assertion repeated (JS refuses `^*` unless it is in a group)
  ["^*a$+", ["ba", "a"], ["ab"]],
  ["\\Ab+\\z?", ["bb", "bc"], ["ab"]],
  ["(?m)^?x(?s:$){1,2}", ["a\nx\nb", "ax"], ["xa"]],
  ["(^)*a(\\b)+", ["ba b"], ["ab"]],
];

Deno.test("Rust patterns match as Rust's regex crate matches them", () => {
  for (const [pattern, matches, misses] of CASES) {
    const re = compiled(pattern);
    for (const s of matches) assert.ok(re.test(s), `${pattern} should match ${JSON.stringify(s)}`);
    for (const s of misses) assert.ok(!re.test(s), `${pattern} should not match ${JSON.stringify(s)}`);
  }
});

const REFUSED: Array<[pattern: string, reason: string]> = [
  ["w(?=e)", "look-around, including look-ahead and look-behind, is not supported"],
  ["(?<!a)b", "look-around, including look-ahead and look-behind, is not supported"],
  ["(a)\\1", "backreferences are not supported"],
  ["(?P<a>x)(?P=a)", "backreferences are not supported"],
  ["(?c)x", "unrecognized flag: c"],
  ["(?i-)x", "dangling flag negation operator"],
  ["(?ii)x", "duplicate flag: i"],
  ["(?)x", "empty flag group"],
  ["\\Qa\\E", "unrecognized escape sequence: \\Q"],
  ["(a", "unclosed group"],
  ["a)", "unopened group"],
  ["*a", "repetition operator missing expression"],
  ["a{3,2}", "invalid repetition count range, the start must be <= the end"],
  ["(?P<a>x)(?<a>y)", "duplicate capture group name: a"],
  ["\\p{Foo}", "Unicode property not found: Foo"],
  ["[a", "unclosed character class"],
  ["[z-a]", "invalid character class range, the start must be <= the end"],
];

Deno.test("what Rust's regex crate refuses is refused with its reason", () => {
  for (const [pattern, reason] of REFUSED) {
    assert.throws(() => rustRegexToJs(pattern), { message: reason }, pattern);
  }
});
