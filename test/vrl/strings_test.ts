/** String functions. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("case and search", [
  ok(`upcase("Hello ß")`, "HELLO SS"),
  ok(`downcase("HeLLo")`, "hello"),
  ok(`upcase("")`, ""),
  rejects(`upcase(1)`, "E110"),
  ok(`contains("banana", "nan")`, true),
  ok(`contains("banana", "NAN")`, false),
  ok(`contains("banana", "NAN", case_sensitive: false)`, true),
  ok(`contains("", "")`, true),
  ok(`contains_all("abc", ["a", "c"])`, true),
  ok(`contains_all("abc", ["a", "z"])`, false),
  fails(`contains_all!("abc", [1])`, "expected string"),
  ok(`starts_with("foobar", "foo")`, true),
  ok(`starts_with("foobar", "FOO", case_sensitive: false)`, true),
  ok(`starts_with("fo", "foo")`, false),
  ok(`ends_with("foobar", "bar")`, true),
  ok(`ends_with("foobar", "BAR")`, false),
  ok(`ends_with("foobar", "BAR", false)`, true),
  exact(`find("foobar", "bar")`, "3"),
  exact(`find("foobar", "baz")`, "null"),
  exact(`find("foobar", r'z')`, "null"),
  exact(`find("foobar", r'o+')`, "1"),
  exact(`find("abcabc", "a", from: 1)`, "3"),
  // `from` past the end: nothing, not even the empty pattern, is found there.
  exact(`find("abc", "", from: 3)`, "3"),
  exact(`find("abc", "", from: 4)`, "null"),
  exact(`find("ñ", "", from: 2)`, "2"),
  exact(`find("ñ", "", from: 3)`, "null"),
  exact(`find("abc", r'', from: 10)`, "null"),
  exact(`find("abc", "c", from: 10)`, "null"),
]);

table("replace/split/join", [
  ok(`replace("aaa", "a", "b")`, "bbb"),
  ok(`replace("aaa", "a", "b", count: 2)`, "bba"),
  ok(`replace("foo bar", r'\\s+', "_")`, "foo_bar"),
  ok(`replace("abc", r'(?P<first>a)(b)', "$2$first")`, "bac"),
  ok(`replace("abc", r'(?P<first>a)', "[\${first}]")`, "[a]bc"),
  ok(`replace("AbAb", r'(?i)a', "x", count: 1)`, "xbAb"),
  ok(`replace("no match", "zz", "y")`, "no match"),
  ok(`split("a,b,c", ",")`, ["a", "b", "c"]),
  ok(`split("a,b,c", ",", limit: 2)`, ["a", "b,c"]),
  ok(`split("a1b22c", r'\\d+')`, ["a", "b", "c"]),
  ok(`split("", ",")`, [""]),
  ok(`join!(["a", "b"], ", ")`, "a, b"),
  ok(`join!(["a", "b"])`, "ab"),
  ok(`join!([], ",")`, ""),
  fails(`join!(["a", 1], ",")`, "all array items must be strings"),
]);

table("slice/truncate/strip/strlen", [
  ok(`slice!("hello", 1)`, "ello"),
  ok(`slice!("hello", 1, 3)`, "el"),
  ok(`slice!("hello", -3)`, "llo"),
  ok(`slice!("hello", 0, -1)`, "hell"),
  ok(`slice!([1, 2, 3], 1)`, [2, 3]),
  // VRL slices bytes: "é" is two.
  ok(`slice!("héllo", 1, 3)`, "é"),
  ok(`slice!("héllo", 1, 2)`, "\uFFFD"),
  fails(`slice!("abc", 5)`, `"start" must be between`),
  ok(`strip_whitespace("  a b \\n")`, "a b"),
  ok(`strip_whitespace("")`, ""),
  // Rust's trim: NEL (U+0085) is white space, the byte order mark (U+FEFF) is not.
  ok(`strip_whitespace(string!(.s))`, "\uFEFFa", { s: "\u0085\u3000\uFEFFa\u00a0\u0085" }),
  ok(`truncate("A rather long sentence.", limit: 11, suffix: "...")`, "A rather lo..."),
  ok(`truncate("A rather long sentence.", 11, true)`, "A rather lo..."),
  ok(`truncate("short", 10)`, "short"),
  ok(`truncate("abc", 0)`, ""),
  exact(`strlen("héllo")`, "5"),
  exact(`strlen("")`, "0"),
  rejects(`strlen([1])`, "E110"),
]);

table("case conversions", [
  ok(`camelcase("input-string")`, "inputString"),
  ok(`camelcase("input_string_here")`, "inputStringHere"),
  ok(`pascalcase("input-string")`, "InputString"),
  ok(`snakecase("InputString")`, "input_string"),
  ok(`snakecase("input-string")`, "input_string"),
  ok(`kebabcase("InputString")`, "input-string"),
  ok(`screamingsnakecase("input-string")`, "INPUT_STRING"),
  ok(`snakecase("HTTPServer")`, "http_server"),
  ok(`camelcase("")`, ""),
]);

table("format_number/format_int", [
  ok(`format_number(1234567.89, 3, decimal_separator: ".", grouping_separator: ",")`, "1,234,567.890"),
  ok(`format_number(1234567, grouping_separator: "_")`, "1_234_567"),
  ok(`format_number(4.5)`, "4.5"),
  // VRL cuts the fraction at `scale` digits (its own tests: 1234.567 with scale 2 is "1234.56").
  ok(`format_number(-1234.5, 0, grouping_separator: ",")`, "-1,234"),
  ok(`format_number(0.125, 2, decimal_separator: ",")`, "0,12"),
  ok(`format_number(1234.567, 2)`, "1234.56"),
  ok(
    `format_number(11222333444.56789, 3, decimal_separator: ",", grouping_separator: ".")`,
    "11.222.333.444,567",
  ),
  ok(`format_number(2.675, 2)`, "2.67"),
  ok(`format_number(0.1 + 0.2, 2)`, "0.30"),
  ok(`format_number(100, 2)`, "100.00"),
  ok(`format_number(4.0, 1)`, "4.0"),
  ok(`format_int!(255, 16)`, "ff"),
  ok(`format_int!(-8, 2)`, "-1000"),
  fails(`format_int!(1, 1)`, "invalid base"),
]);

table("misc string functions", [
  ok(`strip_ansi_escape_codes("\\u{1b}[46mfoo\\u{1b}[0m bar")`, "foo bar"),
  ok(`basename!("/usr/local/bin/vrl")`, "vrl"),
  ok(`basename!("/usr/local/")`, "local"),
  ok(`basename!("/")`, null),
  ok(`dirname!("/usr/local/bin/vrl")`, "/usr/local/bin"),
  ok(`dirname!("file")`, "."),
  ok(`dirname!("/file")`, "/"),
  ok(`split_path("/usr/local/bin")`, ["/", "usr", "local", "bin"]),
  ok(`split_path("a/b")`, ["a", "b"]),
  ok(`sieve("test123%456.ÿ", r'[a-z0-9.]')`, "test123456."),
  ok(`sieve("test123%456.ÿ", "test123456.", replace_single: "*", replace_repeated: "<r>")`, "test123*456.*"),
  ok(`shannon_entropy("vector.dev") > 2.9`, true),
  ok(`shannon_entropy("")`, 0),
]);
