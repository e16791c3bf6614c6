/**
 * RE2 spellings as JS regexes: each pattern matches (and does not match) what Go's regexp does
 * with it, fully anchored as Prometheus anchors matchers (the equivalence test checks the same
 * patterns against a real Prometheus).
 */
import assert from "node:assert/strict";
import { re2ToJs } from "../../src/common/re2.ts";

function anchored(pattern: string): RegExp {
  const { source, flags } = re2ToJs(pattern);
  return new RegExp(`^(?:${source})$`, flags);
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
  ["[\\Q]-\\E]+", ["]-]"], ["a"]],
  ["\\Aapi\\z", ["api"], ["api\n"]],
  ["[]a]+", ["]a]"], ["b"]],
  ["(?i)API", ["api", "Api"], ["apx"]],
  ["(?is)a.b", ["A\nB"], ["ab"]],
  ["a.b", ["a\nb"], ["ab"]],
];

Deno.test("RE2 patterns match as Go's regexp matches them", () => {
  for (const [pattern, matches, misses] of CASES) {
    const re = anchored(pattern);
    for (const s of matches) assert.ok(re.test(s), `${pattern} should match ${JSON.stringify(s)}`);
    for (const s of misses) assert.ok(!re.test(s), `${pattern} should not match ${JSON.stringify(s)}`);
  }
});
