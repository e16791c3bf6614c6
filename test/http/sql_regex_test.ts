/**
 * SQL regexes through `/v1/sql` as GreptimeDB runs them, with Rust's `regex` crate: inline and scoped
 * flags, POSIX and Unicode classes, Unicode `\d \w`, `.` short of `\n`, named groups, Rust's
 * replacement syntax, the flags argument, `List<String>` from regexp_match, and what Rust refuses
 * (lookaround, back-references, unknown flags) answered 400 naming the pattern.
 */
import { startTestServer } from "../helpers/server.ts";
import { runCases, type SqlCase } from "./fixtures/sql_client.ts";

const SETUP = "CREATE TABLE hosts (host STRING, ts TIMESTAMP TIME INDEX, PRIMARY KEY(host)); " +
  "INSERT INTO hosts (host, ts) VALUES ('web-1', 1000), ('Web-2', 2000), ('db-3', 3000), ('été-٣', 4000)";

const OPERATORS: SqlCase[] = [
  {
    name: "an inline (?i) flag",
    sql: "SELECT host FROM hosts WHERE host ~ '(?i)^web' ORDER BY host",
    rows: [["Web-2"], ["web-1"]],
  },
  {
    name: "!~ with an inline flag",
    sql: "SELECT count(*) FROM hosts WHERE host !~ '(?i)^web'",
    rows: [[2]],
  },
  {
    name: "a flag group mid-pattern lasts to the end of its group, across |",
    sql: "SELECT 'aB' ~ 'a(?i)b|c' AS a, 'C' ~ 'a(?i)b|c' AS b, 'aBC' ~ '^a(?i:b)c$' AS c, " +
      "'Ab' ~ '^(?i)a(?-i)b$' AS d, 'AB' ~ '^(?i)a(?-i)b$' AS e, 'ABab' ~ '^(?i:ab)(?:ab)$' AS f",
    rows: [[true, true, false, true, false, true]],
  },
  {
    name: "~* can be turned off inside the pattern",
    sql: "SELECT 'ABC' ~* '(?-i)b' AS a, 'ABC' ~* 'b' AS b",
    rows: [[false, true]],
  },
  {
    name: "POSIX classes are ASCII",
    sql: "SELECT host FROM hosts WHERE host ~ '[[:digit:]]$' ORDER BY host",
    rows: [["Web-2"], ["db-3"], ["web-1"]],
  },
  {
    name: "Unicode classes, and \\d \\w are Unicode-aware",
    sql:
      "SELECT count(*) FILTER (WHERE host ~ '\\pL+-\\d') AS p, count(*) FILTER (WHERE host ~ '^\\w+-\\d$') AS w, " +
      "count(*) FILTER (WHERE host ~ '(?-u)^\\w+-\\d$') AS ascii FROM hosts",
    rows: [[4, 4, 3]],
  },
  {
    name: ". stops at a newline unless (?s); (?m) lines end at \\n",
    sql: "SELECT ('a' || chr(10) || 'b') ~ 'a.b' AS a, ('a' || chr(10) || 'b') ~ '(?s)a.b' AS b, " +
      "('a' || chr(10) || 'b') ~ '(?m)^b$' AS c, ('a' || chr(10) || 'b') ~ '^b$' AS d",
    rows: [[false, true, true, false]],
  },
  {
    name: "verbose mode, swapped greed and class set operations",
    sql: "SELECT regexp_replace('aaa', '(?U)a+', 'x') AS u, 'abc' ~ '(?x) a b  # b then c\n c' AS x, " +
      "'bcd' ~ '^[a-z&&[^aeiou]]+$' AS s, 'bad' ~ '^[a-z&&[^aeiou]]+$' AS t",
    rows: [["xaa", true, true, false]],
  },
  {
    name: "lookahead is refused as Rust refuses it",
    sql: "SELECT host FROM hosts WHERE host ~ 'w(?=e)'",
    error: { status: 400, message: /w\(\?=e\).*look-around/ },
  },
  {
    name: "a back-reference is refused",
    sql: "SELECT regexp_like(host, '(a)\\1') FROM hosts",
    error: { status: 400, message: /\(a\)\\1.*backreferences are not supported/ },
  },
  {
    name: "an unclosed group is a 400 naming the pattern",
    sql: "SELECT count(*) FROM hosts WHERE host ~* '(web'",
    error: { status: 400, message: /\(web.*unclosed group/ },
  },
];

const FUNCTIONS: SqlCase[] = [
  {
    name: "regexp_like with an inline flag",
    sql: "SELECT count(*) FROM hosts WHERE regexp_like(host, '(?i)WEB')",
    rows: [[2]],
  },
  {
    name: "regexp_like's flags argument",
    sql: "SELECT regexp_like('Web', '^w', 'i') AS a, regexp_like('a' || chr(10) || 'b', 'a.b', 's') AS b",
    schema: [["a", "Boolean"], ["b", "Boolean"]],
    rows: [[true, true]],
  },
  {
    name: "an unknown flag is named",
    sql: "SELECT regexp_like('Web', '^w', 'c')",
    error: { status: 400, message: /unrecognized flag: c/ },
  },
  {
    name: "regexp_like takes no global flag",
    sql: "SELECT regexp_like('Web', '^w', 'g')",
    error: { status: 400, message: 'regexp_like() does not support the "global" option' },
  },
  {
    name: "named groups in Rust's spellings, and ${name} in the replacement",
    sql:
      "SELECT regexp_replace('db-3', '(?P<a>[a-z]+)', '${a}!') AS p, regexp_replace('db-3', '(?<a>[a-z]+)', '$a_!') AS q",
    rows: [["db!-3", "!-3"]],
  },
  {
    name: "Rust's replacement syntax: $1, ${1}, $1x as group '1x', $$, and \\1 as ${1}",
    sql: "SELECT regexp_replace('abc', '(b)', '[$1]') AS a, regexp_replace('abc', '(b)', '$1x') AS b, " +
      "regexp_replace('abc', '(b)', '${1}x') AS c, regexp_replace('abc', 'b', '$$') AS d, " +
      "regexp_replace('abc', '(b)', '<\\1>') AS e, regexp_replace('abc', 'b', '$') AS f",
    rows: [["a[b]c", "ac", "abxc", "a$c", "a<b>c", "a$c"]],
  },
  {
    name: "regexp_replace's flags: g replaces all, the others are inline flags",
    sql: "SELECT regexp_replace('aAa', 'a', 'x') AS a, regexp_replace('aAa', 'a', 'x', 'g') AS b, " +
      "regexp_replace('aAa', 'a', 'x', 'gi') AS c, regexp_replace('aAa', 'a', 'x', 'i') AS d",
    rows: [["xAa", "xAx", "xxx", "xAa"]],
  },
  {
    name: "regexp_match answers a List<String>, NULL for a group that took no part",
    sql:
      "SELECT regexp_match('abc', '(b)(x)?') AS m, regexp_match('été', '\\w+') AS w, regexp_match('abc', 'z') AS n",
    schema: [["m", "List<String>"], ["w", "List<String>"], ["n", "List<String>"]],
    rows: [[["b", null], ["été"], null]],
  },
  {
    name: "regexp_count with Unicode \\w and an inline flag",
    sql:
      "SELECT regexp_count('été', '\\w') AS a, regexp_count('aAa', '(?i)a') AS b, regexp_count('aAa', 'a', 1, 'i') AS c",
    rows: [[3, 3, 3]],
  },
  {
    name: "regexp_count takes no global flag",
    sql: "SELECT regexp_count('aAa', 'a', 1, 'g')",
    error: { status: 400, message: "regexp_count() does not support global flag" },
  },
  {
    name: "a bad regexp_replace pattern is a 400 naming it",
    sql: "SELECT regexp_replace('abc', '[b', 'x')",
    error: { status: 400, message: /\[b.*unclosed character class/ },
  },
];

Deno.test("/v1/sql regexes with Rust's syntax", async (t) => {
  const server = await startTestServer();
  try {
    await runCases(t, server.url, [{ sql: SETUP, affected: [0, 4] }]);
    await t.step("operators", (t) => runCases(t, server.url, OPERATORS));
    await t.step("functions", (t) => runCases(t, server.url, FUNCTIONS));
  } finally {
    await server.stop();
  }
});
