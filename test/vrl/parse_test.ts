/** Parsing functions for structured text. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("parse_json", [
  ok(`parse_json!("{\\"a\\": [1, 2.5, null, true]}")`, { a: [1, 2.5, null, true] }),
  exact(`parse_json!("3")`, "3"),
  exact(`parse_json!("3.0")`, "3.0"),
  exact(`parse_json!("9007199254740993")`, "9007199254740993"),
  ok(`parse_json!("\\"s\\"")`, "s"),
  fails(`parse_json!("{")`, "unable to parse json"),
  fails(`parse_json!("")`, "unable to parse json"),
  rejects(`parse_json("{}")`, "E100"),
]);

// VRL passes serde_json's error through: its wording and its line/column (of the offending byte).
const serde = (text: string, message: string) =>
  fails(`parse_json!(.t)`, `unable to parse json: ${message}`, { t: text });
table("parse_json errors", [
  serde("not json", "expected ident at line 1 column 2"),
  serde("", "EOF while parsing a value at line 1 column 0"),
  serde("{", "EOF while parsing an object at line 1 column 1"),
  serde("[1,]", "trailing comma at line 1 column 4"),
  serde('{"a": 1,}', "trailing comma at line 1 column 9"),
  serde('{"a" 1}', "expected `:` at line 1 column 6"),
  serde("{a:1}", "key must be a string at line 1 column 2"),
  serde("[1 2]", "expected `,` or `]` at line 1 column 4"),
  serde('{"a": 1 "b": 2}', "expected `,` or `}` at line 1 column 9"),
  serde("01", "invalid number at line 1 column 2"),
  serde('"abc', "EOF while parsing a string at line 1 column 4"),
  serde('"a\\qb"', "invalid escape at line 1 column 4"),
  serde('{"a":1} x', "trailing characters at line 1 column 9"),
  serde('{\n"a": nul}', "expected ident at line 2 column 9"),
  serde("<html>", "expected value at line 1 column 1"),
]);

table("parse_key_value", [
  ok(
    `parse_key_value!("@timestamp=\\"Sun Jan 10 16:47:39 EST 2021\\" level=info msg=\\"Stopping all fetchers\\" tag#production=stopping_fetchers id=ConsumerFetcherManager-1382721708341 module=kafka.consumer.ConsumerFetcherManager")`,
    {
      "@timestamp": "Sun Jan 10 16:47:39 EST 2021",
      level: "info",
      msg: "Stopping all fetchers",
      "tag#production": "stopping_fetchers",
      id: "ConsumerFetcherManager-1382721708341",
      module: "kafka.consumer.ConsumerFetcherManager",
    },
  ),
  ok(
    `parse_key_value!("path:\\"/cart_link\\", host:store.app.com, fwd: \\"102.30.171.16\\", dyno: web.1, connect:0ms, service:87ms, status:304, bytes:632, protocol:https", field_delimiter: ",", key_value_delimiter: ":")`,
    {
      path: "/cart_link",
      host: "store.app.com",
      fwd: "102.30.171.16",
      dyno: "web.1",
      connect: "0ms",
      service: "87ms",
      status: "304",
      bytes: "632",
      protocol: "https",
    },
  ),
  ok(`parse_key_value!("env:prod,env:stage", field_delimiter: ",", key_value_delimiter: ":")`, {
    env: ["prod", "stage"],
  }),
  ok(`parse_key_value!("a=1 flag")`, { a: "1", flag: true }),
  fails(`parse_key_value!("a=1 flag", accept_standalone_key: false)`, "could not parse"),
  ok(`parse_key_value!("")`, {}),
  // Lenient whitespace (the default) allows blanks around the key/value delimiter; strict does not.
  ok(`parse_key_value!("a = 1 b = 2")`, { a: "1", b: "2" }),
  ok(`parse_key_value!(.m)`, { msg: 'a "b"', n: "1" }, { m: 'msg="a \\"b\\"" n=1' }),
  ok(`parse_key_value!(.m)`, { msg: '"unterminated', n: "1" }, { m: 'msg="unterminated n=1' }),
  ok(`parse_key_value!("k:v ,  x: y", field_delimiter: ",", key_value_delimiter: ":")`, { k: "v", x: "y" }),
  fails(
    `parse_key_value!("foo=bar baz", accept_standalone_key: false)`,
    "could not parse whole line successfully",
  ),
]);

table("parse_logfmt", [
  ok(`parse_logfmt!("level=info msg=\\"Stopping all fetchers\\" tag=stopping_fetchers id=1")`, {
    level: "info",
    msg: "Stopping all fetchers",
    tag: "stopping_fetchers",
    id: "1",
  }),
  ok(`parse_logfmt!("lvl=info msg=\\"escaped \\\\\\"quote\\\\\\"\\"")`, {
    lvl: "info",
    msg: 'escaped "quote"',
  }),
  ok(`parse_logfmt!("standalone")`, { standalone: true }),
]);

table("parse_csv", [
  ok(`parse_csv!("foo,bar,\\"foo \\"\\", bar\\"")`, ["foo", "bar", 'foo ", bar']),
  ok(`parse_csv!("foo bar", delimiter: " ")`, ["foo", "bar"]),
  ok(`parse_csv!("a,,c")`, ["a", "", "c"]),
  // The csv crate reads no record from an empty text (VRL: `unwrap_or_default()`).
  ok(`parse_csv!("")`, []),
  fails(`parse_csv!("a", delimiter: ",,")`, "single character"),
  // one byte, as the csv crate takes: a character of two UTF-8 bytes is not one
  fails(`parse_csv!("aéb", delimiter: "é")`, "single character"),
  ok(`parse_csv!("a\tb", delimiter: "\t")`, ["a", "b"]),
  fails(`parse_csv!("\\"open")`, "unterminated"),
]);

table("parse_query_string", [
  ok(`parse_query_string("foo=%2B1&bar=2&bar=3&xyz")`, { foo: "+1", bar: ["2", "3"], xyz: "" }),
  ok(`parse_query_string("?foo%5b%5d=1&foo%5b%5d=2")`, { "foo[]": ["1", "2"] }),
  ok(`parse_query_string("a=b+c")`, { a: "b c" }),
  ok(`parse_query_string("")`, {}),
  rejects(`parse_query_string!("a")`, "E620"),
]);

table("parse_url", [
  ok(`parse_url!("ftp://foo:bar@example.com:4343/foobar?hello=world#123")`, {
    fragment: "123",
    host: "example.com",
    password: "bar",
    path: "/foobar",
    port: 4343,
    query: { hello: "world" },
    scheme: "ftp",
    username: "foo",
  }),
  ok(`parse_url!("https://example.com", default_known_ports: true)`, {
    fragment: null,
    host: "example.com",
    password: "",
    path: "/",
    port: 443,
    query: {},
    scheme: "https",
    username: "",
  }),
  // The url crate's `host_str()` keeps an IPv6 address's brackets.
  ok(`parse_url!("http://[::1]:8080/x").host`, "[::1]"),
  ok(`parse_url!("http://[0:0:0:0:0:0:0:1]/").host`, "[::1]"),
  // `username()`, `password()` and `fragment()` are percent-encoded text; a bare `#` is an empty fragment.
  ok(`u = parse_url!("https://us%20er:p%40ss@example.com/#a%20b c"); [u.username, u.password, u.fragment]`, [
    "us%20er",
    "p%40ss",
    "a%20b%20c",
  ]),
  ok(`parse_url!("http://example.com/#").fragment`, ""),
  // `path()` is the serialization's path: empty for a non-special URL without one, "/" for http.
  ok(`[parse_url!("redis://cache:6379").path, parse_url!("http://cache").path]`, ["", "/"]),
  fails(`parse_url!("not a url")`, "unable to parse url"),
]);

// The url crate's `ParseError` texts.
const urlError = (url: string) => `_, err = parse_url("${url}"); err`;
const urlFailure = (url: string, reason: string) =>
  `function call error for "parse_url" at (9:${url.length + 22}): unable to parse url: ${reason}`;
table(
  "parse_url errors",
  [
    ["not a url", "relative URL without a base"],
    ["http://", "empty host"],
    ["http://host:99999/", "invalid port number"],
    ["http://host:abc/", "invalid port number"],
    ["http://[::1]:x/", "invalid port number"],
    ["http://[::1/", "invalid IPv6 address"],
    ["http://[::g]/", "invalid IPv6 address"],
    ["http://1.2.3.256/", "invalid IPv4 address"],
    ["http://a b/", "invalid domain character"],
    ["http://a<b/", "invalid domain character"],
    ["http://xn--a.com/", "invalid international domain name"],
  ].map(([url, reason]) => ok(urlError(url), urlFailure(url, reason))),
);

table("parse_int/parse_float", [
  exact(`parse_int!("-42")`, "-42"),
  exact(`parse_int!("0x2A")`, "42"),
  exact(`parse_int!("0b1010")`, "10"),
  exact(`parse_int!("0o17")`, "15"),
  exact(`parse_int!("017")`, "15"),
  exact(`parse_int!("ff", base: 16)`, "255"),
  exact(`parse_int!("0")`, "0"),
  fails(`parse_int!("12a")`, "could not parse integer"),
  fails(`parse_int!("99999999999999999999")`, "too large"),
  // VRL reads a prefix only at the very start: a sign sends the text to base 10 (its tests: "-42", "042" is 34).
  exact(`parse_int!("042")`, "34"),
  exact(`parse_int!("-017")`, "-17"),
  exact(`parse_int!("+12")`, "12"),
  exact(`parse_int!("-ff", 16)`, "-255"),
  fails(`parse_int!("-0x1A")`, "could not parse integer: invalid digit found in string"),
  fails(`parse_int!("0X1A")`, "could not parse integer: invalid digit found in string"),
  // Rust's ParseIntError texts.
  ok(`_, err = parse_int(""); err`, `function call error for "parse_int" at (9:22): value is empty`),
  ok(
    `_, err = parse_int("0x"); err`,
    `function call error for "parse_int" at (9:24): could not parse integer: cannot parse integer from empty string`,
  ),
  ok(
    `_, err = parse_int("-99999999999999999999"); err`,
    `function call error for "parse_int" at (9:43): could not parse integer: number too small to fit in target type`,
  ),
  fails(`parse_int!("-")`, "could not parse integer: invalid digit found in string"),
  fails(`parse_int!("1", base: 40)`, "invalid base"),
  exact(`parse_float!("42.5")`, "42.5"),
  exact(`parse_float!("-1e-2")`, "-0.01"),
  exact(`parse_float!("7")`, "7.0"),
  fails(`parse_float!("abc")`, "could not parse"),
]);

table("parse_duration/parse_bytes", [
  exact(`parse_duration!("1005ms", unit: "s")`, "1.005"),
  exact(`parse_duration!("1h30m", unit: "m")`, "90.0"),
  exact(`parse_duration!("1s 1ms", unit: "ms")`, "1001.0"),
  exact(`parse_duration!("1s", "ms")`, "1000.0"),
  exact(`parse_duration!("100ns", "us")`, "0.1"),
  fails(`parse_duration!("1 parsec", "s")`, "unable to parse duration"),
  fails(`parse_duration!("1s", "lightyears")`, "unknown unit"),
  exact(`parse_bytes!("1KiB", unit: "B")`, "1024.0"),
  exact(`parse_bytes!("1MB", unit: "KB", base: "10")`, "1000.0"),
  exact(`parse_bytes!("2GiB", unit: "MiB")`, "2048.0"),
  fails(`parse_bytes!("x", unit: "B")`, "unable to parse bytes"),
]);

table("parse_tokens", [
  ok(`parse_tokens("A sentence \\"with \\\\\\"a\\\\\\" sentence inside\\" and [some brackets] -")`, [
    "A",
    "sentence",
    'with \\"a\\" sentence inside',
    "and",
    "some brackets",
    null,
  ]),
  ok(`parse_tokens("")`, []),
]);
