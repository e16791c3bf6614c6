/**
 * Chains of unbounded loops one stretch of text can be split between (`.*a.*a.*b`, `\d+\d+x`): V8
 * takes time of the order of a power of the subject's length on them, so compileRegExp hands out a
 * LinearRegExp for long subjects; everyday patterns, and loops a character keeps apart, stay V8's.
 * JS's multiline anchors (a JS `m` flag: no translator emits one, grok's `^` `$` are lookarounds)
 * read as RE2's where `\n` is the only line terminator.
 */
import assert from "node:assert/strict";
import { compileRegExp } from "../../src/common/regexp.ts";
import { LinearRegExp } from "../../src/common/linear_regexp.ts";
import { jsToRe2 } from "../../src/common/js_to_re2.ts";
import { RISKY_CHAIN, shortForV8 } from "../../src/common/loop_risk.ts";
import { rustRegexToJs } from "../../src/common/rust_regex.ts";
import { translateOniguruma } from "../../engine/regex_translate.ts";

const rust = (p: string) => rustRegexToJs(p);
const grok = (p: string) => {
  const t = translateOniguruma(p);
  return { source: t.source, flags: t.flags + "u" };
};
const chainOf = ({ source, flags }: { source: string; flags: string }) => jsToRe2(source, flags)?.chain;

Deno.test("chains of loops that share characters go linear; everyday patterns stay V8's", () => {
  for (
    const p of [
      rust(".*a.*a.*a.*a.*b"),
      rust("a.*a.*b"),
      rust("\\d+\\d+\\d+x"),
      rust("(\\d+)(\\d+)x"),
      rust("a*a*a*a*b"),
      rust(".*?.*?=.*"),
      rust("\\s*\\s*\\s*$"),
      rust("(?i)A+a+B"),
      // a bounded loop with many turns backtracks like an unbounded one
      rust("\\d{1,1000}\\d{1,1000}x"),
      // the branches of a group are read on their own, each as if something before could take its start
      rust("(?:x|a.*b.*c)z"),
      rust("(\\d+\\d+x)+"),
      // the chain passes through the pattern's own characters: α is in [α-ω]
      rust("[α-ω]+[α-ω]+ω"),
      // grok's %{DATA:a} %{DATA:b} %{GREEDYDATA:c}x, expanded
      grok("(?<a>.*?) (?<b>.*?) (?<c>.*)x"),
      grok("(?m)^(?<a>.*?) (?<b>.*?) (?<c>.*)$"),
    ]
  ) {
    assert.ok(chainOf(p)! >= RISKY_CHAIN, `${p.source}: chain ${chainOf(p)}`);
    const re = compileRegExp(p.source, p.flags);
    assert.ok(re instanceof LinearRegExp, p.source);
  }
  for (
    const p of [
      rust("error|warn"),
      rust("^GET /api/.*"),
      rust("\\d{3}"),
      rust(".*error.*"),
      rust("error.*timeout"),
      rust(".*error.*|.*warn.*"),
      // a character the loop before cannot take fixes where it ends
      rust("\\w+=\\d+;\\w+=\\d+"),
      rust("^\\S+\\s+\\S+\\s+\\S+"),
      rust("\\w+\\s+\\w+\\s+\\w+x"),
      rust("(?<ip>\\d+\\.\\d+)\\s+(.*)"),
      rust("host-\\d+ .*INFO"),
      // anchored: the search does not retry at every start
      rust("^(.*)=(.*)$"),
      // each turn of the group starts with a `.` the loop before cannot take
      rust("[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*"),
      rust("[a-c]+[x-z]+[a-c]+[x-z]+"),
      grok("(?m)^\\d+ \\w+$"),
    ]
  ) {
    assert.ok(chainOf(p)! < RISKY_CHAIN, `${p.source}: chain ${chainOf(p)}`);
    assert.ok(!(compileRegExp(p.source, p.flags) instanceof LinearRegExp), p.source);
  }
});

Deno.test("a chain of loops answers at once on a long subject, the same as V8 on short ones", () => {
  const evil = "b" + "a".repeat(30_000);
  for (const p of [rust(".*a.*a.*a.*a.*b"), rust("a+a+a+a+b")]) {
    const re = compileRegExp(p.source, p.flags);
    assert.equal(re.test(evil), false);
    assert.equal(re.exec(evil), null);
    assert.deepEqual([...re.exec("zaaaab")!], [new RegExp(p.source, p.flags).exec("zaaaab")![0]]);
  }
  const digits = compileRegExp(rust("(\\d+)(\\d+)(\\d+)x").source, rust("").flags);
  assert.equal(digits.exec("x" + "1".repeat(30_000)), null);
  assert.deepEqual([...digits.exec("a 12345x")!], ["12345x", "123", "4", "5"]);
  // short subjects, where V8's worst case is small, keep V8 (faster on everyday lines): same answers
  assert.deepEqual([shortForV8(3), shortForV8(4), shortForV8(5)], [181, 69, 41]);
  const short = "x" + "1".repeat(100) + "x 12x 9x";
  assert.deepEqual([...digits.exec(short)!], [...new RegExp(digits.source, digits.flags).exec(short)!]);
});

Deno.test("multiline anchors: linear where `\\n` is the only line terminator, V8's meaning elsewhere", () => {
  const p = { source: "^(?<a>.*?) (?<b>.*?) (?<c>.*)x$", flags: "mu" };
  assert.equal(jsToRe2(p.source, p.flags)?.lineFeedsOnly, true);
  const re = compileRegExp(p.source, p.flags);
  assert.ok(re instanceof LinearRegExp);
  assert.equal(re.exec(" ".repeat(30_000)), null);
  const v8 = new RegExp(p.source, p.flags);
  const pad = " ".repeat(200);
  for (
    const s of [
      `a b cx\nd e fx${pad}`,
      `q\na b cx${pad}\nz`,
      `a b cx\r\nd e fx${pad}`,
      `a b c\rx y zx${pad}`,
      `a b c\u2028x y zx${pad}`,
      `${pad}\n`,
    ]
  ) {
    const what = JSON.stringify(s.slice(0, 20));
    const lin = new LinearRegExp(p.source, p.flags), ref = new RegExp(p.source, p.flags);
    assert.deepEqual(lin.exec(s)?.slice(), v8.exec(s)?.slice(), what);
    assert.equal(lin.test(s), ref.test(s), what);
    const g = new LinearRegExp(p.source, p.flags + "g"), vg = new RegExp(p.source, p.flags + "g");
    assert.deepEqual(
      [...s.matchAll(g)].map((m) => [m.index, ...m]),
      [...s.matchAll(vg)].map((m) => [m.index, ...m]),
    );
  }
  // an empty line at the end: `^` after the last `\n`, in both
  const lines = { source: "^$", flags: "mu" };
  assert.deepEqual(
    [..."a\n\nb\n".matchAll(new LinearRegExp(lines.source, lines.flags + "g"))].map((m) => m.index),
    [..."a\n\nb\n".matchAll(new RegExp(lines.source, lines.flags + "g"))].map((m) => m.index),
  );
});
