/** Tables for the engine's building blocks: Rust regex translation, chrono formats, JSONPath, value rendering. */
import assert from "node:assert/strict";
import { parseJsonPath, queryJsonPath } from "../../engine/jsonpath.ts";
import { compileRustRegex, parseReplacement, replaceAllRust } from "../../engine/rust_regex.ts";
import { compileStrftime, parseStrftime } from "../../engine/strftime.ts";
import { formatFloat, Timestamp, toCompactJson, toStringLossy } from "../../engine/value.ts";

/** [rust pattern, input, expected first match (or null)]. */
const REGEX: [string, string, string | null][] = [
  ["(?P<n>\\d+)", "ab 123", "123"],
  ["\\d+", "٣٤", "٣٤"], // Rust \d is Unicode-aware
  ["\\w+", "héllo!", "héllo"],
  ["\\bfoo\\b", "a foo b", "foo"],
  ["\\bfoo\\b", "éfoo", null], // é is a word character for Rust's \b
  ["(?i)ABC", "xabcx", "abc"],
  ["(?s)a.b", "a\nb", "a\nb"],
  ["(?m)^b$", "a\nb\nc", "b"],
  ["(?x) a b  # comment\n c", "abc", "abc"],
  ["[[:alpha:]]+", "12ab3", "ab"],
  ["[[:digit:][:upper:]]+", "abC9d", "C9"],
  ["[[:^alpha:]]+", "ab1-é😀c", "1-é😀"], // negated POSIX classes take everything outside the ASCII set
  ["[x[:^digit:]]+", "12x a3", "x a"],
  ["[^[:^digit:]]+", "ab12c", "12"],
  ["\\x{41}\\x42", "AB", "AB"],
  ["\\pL+", "1é2", "é"],
  ["\\p{Greek}+", "aαβ", "αβ"],
  ["a\\-b\\#c", "a-b#c", "a-b#c"],
  ["\\A\\d", "1a", "1"],
  ["\\d\\z", "a1", "1"],
  ["[]a]+", "]a]", "]a]"],
  ["a{2}", "aaa", "aa"],
  ["x}", "x}", "x}"],
  // Inline flags after the start last to the end of their group (Rust), scoped modifiers in JS.
  ["a(?i)b", "xaBx", "aB"],
  ["a(?i)b|c", "C", "C"],
  ["(x(?i)y)z", "xYz", "xYz"],
  ["(x(?i)y)z", "xYZ", null],
  ["(?i:a)b", "AbB", "Ab"],
  ["(?i)a(?-i)b", "AB", null],
  ["(?i)a(?-i:b)C", "AbC", "AbC"],
  ["(?:a)(?s:.)", "a\n", "a\n"],
  ["a(?U)b+", "abbb", "ab"],
  ["a(?x) b c", "abc", "abc"],
];

for (const [pat, input, expected] of REGEX) {
  Deno.test(`rust regex ${JSON.stringify(pat)} on ${JSON.stringify(input)}`, () => {
    const m = compileRustRegex(pat).exec(input);
    assert.equal(m ? m[0] : null, expected);
  });
}

Deno.test("rust regex: unsupported syntax is rejected", () => {
  assert.throws(() => compileRustRegex("(a)\\1"), /backreferences/);
  assert.throws(() => compileRustRegex("[a"), /unclosed/);
  assert.throws(() => compileRustRegex("("), /unclosed group/);
  assert.throws(() => compileRustRegex("a(?c)b"), /unrecognized flag: c/);
  // Rust's regex crate has no look-around and no named backreferences (reference §4.14).
  for (const p of ["a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b", "x(?<n>a(?=b))"]) {
    assert.throws(
      () => compileRustRegex(p),
      /look-around, including look-ahead and look-behind, is not supported/,
    );
  }
  assert.throws(() => compileRustRegex("(?<n>a)\\k<n>"), /unrecognized escape sequence/);
  assert.throws(() => compileRustRegex("\\cA"), /unrecognized escape sequence/);
  // A named group (`(?<n>`, `(?P<n>`) is not a look-behind.
  assert.equal(compileRustRegex("(?<n>a)(?P<m>b)").exec("ab")?.groups?.m, "b");
});

/** [replacement, expected on "k=v" with pattern (?P<key>\w)=(\w)]. */
const REPLACEMENTS: [string, string][] = [
  ["$2=$1", "v=k"],
  ["${key}!", "k!"],
  ["$key!", "k!"],
  ["$$1", "$1"],
  ["$1a", ""],
  ["${1}a", "ka"],
  ["$9", ""],
  ["$", "$"],
];
for (const [rep, expected] of REPLACEMENTS) {
  Deno.test(`rust replacement ${rep}`, () => {
    const re = compileRustRegex("(?P<key>\\w)=(\\w)", "g");
    assert.equal(replaceAllRust("k=v", re, parseReplacement(rep)), expected);
  });
}

/** [format, input, expected RFC 3339 (zoned) or `naive:<local RFC 3339>`, or null for no match]. */
const DATES: [string, string, string | null][] = [
  ["%Y-%m-%dT%H:%M:%S%:z", "2024-05-25T20:16:37+08:00", "2024-05-25T12:16:37Z"],
  ["%Y-%m-%dT%H:%M:%S%z", "2024-05-25T20:16:37+0800", "2024-05-25T12:16:37Z"],
  ["%Y-%m-%dT%H:%M:%S%z", "2024-05-25T20:16:37 +08 00", "2024-05-25T12:16:37Z"],
  ["%Y-%m-%dT%H:%M:%S%z", "2024-05-25T20:16:37Z", null],
  ["%Y-%m-%dT%H:%M:%S%#z", "2024-05-25T20:16:37Z", "2024-05-25T20:16:37Z"],
  ["%Y-%m-%dT%H:%M:%S%.3f", "2024-05-25T20:16:37.123", "naive:2024-05-25T20:16:37.123Z"],
  ["%Y-%m-%dT%H:%M:%S%.3f", "2024-05-25T20:16:37", "naive:2024-05-25T20:16:37Z"],
  ["%Y-%m-%dT%H:%M:%S%.3f", "2024-05-25T20:16:37.1234", null],
  ["%Y-%m-%dT%H:%M:%S%.f", "2024-05-25T20:16:37.123456789", "naive:2024-05-25T20:16:37.123456789Z"],
  ["%Y-%m-%dT%H:%M:%S%.f", "2024-05-25T20:16:37.1", "naive:2024-05-25T20:16:37.100Z"],
  ["%Y-%m-%d %H:%M:%S", "2024-05-25    20:16:37", "naive:2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M:%S", "2024-05-2520:16:37", "naive:2024-05-25T20:16:37Z"],
  ["%d/%b/%Y:%H:%M:%S %z", "25/MAY/2024:20:16:37 +0000", "2024-05-25T20:16:37Z"],
  ["%B %d %Y %H:%M", "September 01 2024 10:00", "naive:2024-09-01T10:00:00Z"],
  ["%a, %d %b %Y %H:%M:%S %z", "Sat, 25 May 2024 20:16:37 +0000", "2024-05-25T20:16:37Z"],
  ["%a, %d %b %Y %H:%M:%S %z", "Fri, 25 May 2024 20:16:37 +0000", null], // weekday must agree
  ["%Y-%j %H:%M", "2024-060 01:02", "naive:2024-02-29T01:02:00Z"],
  ["%y-%m-%d %H:%M", "69-01-01 00:00", "naive:2069-01-01T00:00:00Z"],
  ["%y-%m-%d %H:%M", "70-01-01 00:00", "naive:1970-01-01T00:00:00Z"],
  ["%Y-%m-%d %I:%M:%S %p", "2024-05-25 12:00:00 am", "naive:2024-05-25T00:00:00Z"],
  ["%Y-%m-%d %H:%M:%S %Z", "2024-05-25 20:16:37 CEST", "naive:2024-05-25T20:16:37Z"],
  ["%s", "1716668197", "naive:2024-05-25T20:16:37Z"],
  ["%F %T", "2024-05-25 20:16:37", "naive:2024-05-25T20:16:37Z"],
  ["%Y-%m-%d %H:%M", "2024-02-30 10:00", null],
  ["%Y-%m-%d %H:%M", "2024-05-25 24:00", null],
  ["%Y-%m-%d", "2024-05-25", null],
  ["%Y-%m-%d %H", "2024-05-25 10", null],
  ["%%%Y-%m-%d %H:%M", "%2024-05-25 10:00", "naive:2024-05-25T10:00:00Z"],
  ["%u %Y-%m-%d %H:%M", "6 2024-05-25 10:00", "naive:2024-05-25T10:00:00Z"],
  ["%w %Y-%m-%d %H:%M", "0 2024-05-26 10:00", "naive:2024-05-26T10:00:00Z"],
  ["%u %Y-%m-%d %H:%M", "7 2024-05-25 10:00", null],
];

for (const [fmt, input, expected] of DATES) {
  Deno.test(`strftime ${fmt} on ${input}`, () => {
    const items = compileStrftime(fmt);
    assert.ok(items, "format compiles");
    const r = parseStrftime(input, items);
    if (expected === null) return assert.equal(r, null);
    assert.ok(r, "parses");
    const iso = new Timestamp(r.ms, r.subMs).toRfc3339();
    assert.equal(r.zoned ? iso : "naive:" + iso, expected);
  });
}

Deno.test("strftime: invalid formats do not compile", () => {
  for (const f of ["%Q", "%", "%.2f", "%:x"]) assert.equal(compileStrftime(f), null, f);
});

const DOC = {
  store: {
    book: [
      { category: "ref", author: "Nigel", price: 8.95, tags: ["a", "b"] },
      { category: "fiction", author: "Evelyn", price: 12.99, isbn: "0-553" },
      { category: "fiction", author: "Herman", price: 8.99, isbn: "0-395" },
    ],
    bicycle: { color: "red", price: 19.95 },
  },
  "odd-key": 1,
};

/** [path, expected matches]. */
const PATHS: [string, unknown[] | null][] = [
  ["$.store.bicycle.color", ["red"]],
  ["$['store']['bicycle']['price']", [19.95]],
  ["$.store.book[0].author", ["Nigel"]],
  ["$.store.book[-1].author", ["Herman"]],
  ["$.store.book[0,2].author", ["Nigel", "Herman"]],
  ["$.store.book[1:].price", [12.99, 8.99]],
  ["$.store.book[::2].price", [8.95, 8.99]],
  ["$.store.book[*].isbn", ["0-553", "0-395"]],
  ["$.store.*.color", ["red"]],
  ["$..author", ["Nigel", "Evelyn", "Herman"]],
  ["$.store.book[?(@.isbn)].author", ["Evelyn", "Herman"]],
  ["$.store.book[?(!@.isbn)].author", ["Nigel"]],
  ["$.store.book[?(@.price < 10)].author", ["Nigel", "Herman"]],
  ["$.store.book[?(@.price < 10 && @.category == 'fiction')].author", ["Herman"]],
  ["$.store.book[?(@.price > 12 || @.author == 'Nigel')].author", ["Nigel", "Evelyn"]],
  ["$.store.book[?(@.author ~= 'N.*')].price", [8.95]],
  // jsonpath-rust's ~= is a Rust regex: its inline flags and classes, refused patterns match nothing
  ["$.store.book[?(@.author ~= '(?i)^n')].price", [8.95]],
  ["$.store.book[?(@.author ~= '^[[:upper:]][[:alpha:]]+l$')].author", ["Nigel"]],
  ["$.store.book[?(@.author ~= '(?<=N)i')].author", []],
  ["$.store.book[?(@.category in ['ref','x'])].author", ["Nigel"]],
  ["$.store.book[?(@.category nin ['ref'])].author", ["Evelyn", "Herman"]],
  ["$.store.book[?(@.tags size 2)].author", ["Nigel"]],
  ["$.store.book[?(@.tags anyOf ['b','z'])].author", ["Nigel"]],
  ["$.store.book[?(@.tags subsetOf ['a','b','c'])].author", ["Nigel"]],
  ["$.store.book[?(@.tags noneOf ['a'])].author", []],
  ["$.store.book.length()", [3]],
  ["$.odd-key", [1]],
  ["$.missing", null],
  ["$.store.book[*].missing", null],
  ["$.store.book[?(@.price > 100)].author", []],
];

for (const [path, expected] of PATHS) {
  Deno.test(`jsonpath ${path}`, () => {
    assert.deepEqual(queryJsonPath(parseJsonPath(path), DOC), expected);
  });
}

Deno.test("jsonpath: a ~= pattern that backtracks exponentially in V8 answers at once (linear, as Rust's)", () => {
  const doc = { logs: [{ msg: "a".repeat(60) + "c" }, { msg: "aab" }] };
  assert.deepEqual(queryJsonPath(parseJsonPath("$.logs[?(@.msg ~= '(a+)+b')].msg"), doc), ["aab"]);
});

Deno.test("jsonpath: syntax errors", () => {
  for (const p of ["store", "$.", "$[", "$.a[?(@.x ==)]"]) assert.throws(() => parseJsonPath(p), Error, p);
});

/** [value, to_string_lossy]. */
const STRINGS: [unknown, string][] = [
  [1, "1"],
  [1.5, "1.5"],
  [1e21, "1000000000000000000000"],
  [1e-7, "0.0000001"],
  [-2.5e-8, "-0.000000025"],
  [9007199254740993n, "9007199254740993"],
  [true, "true"],
  [null, "<null>"],
  ["s", "s"],
  [{ b: 1, a: [1, "x"] }, '{"a":[1,"x"],"b":1}'],
  [new Timestamp(1716668197217), "2024-05-25T20:16:37.217Z"],
  [new Timestamp(1716668197217, 1000), "2024-05-25T20:16:37.217001Z"],
  [new Timestamp(1716668197000, 0), "2024-05-25T20:16:37Z"],
  [Timestamp.fromNs(-1n), "1969-12-31T23:59:59.999999999Z"],
];

for (const [v, s] of STRINGS) {
  Deno.test(`to_string_lossy ${s}`, () => assert.equal(toStringLossy(v), s));
}

Deno.test("formatFloat special values and compact JSON of timestamps", () => {
  assert.deepEqual([NaN, Infinity, -Infinity, 0.1].map(formatFloat), ["NaN", "inf", "-inf", "0.1"]);
  assert.equal(toCompactJson([Timestamp.fromNs(0n)], false), '["1970-01-01T00:00:00+00:00"]');
});
