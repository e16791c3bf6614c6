/**
 * Fallibility as VRL decides it: functions whose failure depends on an argument are infallible when
 * that argument is a constant it accepts (also through a variable holding a constant), and fallible
 * otherwise; `from_unix_timestamp` and `get_timezone_name` are always fallible.
 */

import { ok, rejects, table } from "./harness.ts";

table("fallibility: infallible with accepted constants", [
  ok(`zip([1, 2, 3], [4, 5, 6, 7])`, [[1, 4], [2, 5], [3, 6]]),
  ok(`zip([[1, 2], [3, 4]])`, [[1, 3], [2, 4]]),
  ok(`encode_key_value({"a": 1}, fields_ordering: ["a"])`, "a=1"),
  ok(`encode_key_value({"a": 1})`, "a=1"),
  ok(`encode_logfmt({"b": 2, "a": 1}, ["b"])`, "b=2 a=1"),
  ok(`contains_all("The Needle In The Haystack", ["Needle", "Haystack"])`, true),
  ok(`object_from_array([["one", 1], ["two", 2]])`, { one: 1, two: 2 }),
  ok(`object_from_array([1, 2], ["a", "b"])`, { a: 1, b: 2 }),
  ok(`from_entries([{"key": "a", "value": 1}])`, { a: 1 }),
  ok(`mod(5, 2)`, 1),
  ok(`mod(5.5, 2.0)`, 1.5),
  ok(`chunks([1, 2, 3, 4], 2)`, [[1, 2], [3, 4]]),
  ok(`crc("foo")`, "2356372769"),
  ok(`crc("foo", algorithm: "CRC_32_ISO_HDLC")`, "2356372769"),
  ok(`parse_tokens("A [b c] \\"d e\\"")`, ["A", "b c", "d e"]),
  ok(`x = random_int(0, 10); x >= 0 && x < 10`, true),
  ok(`x = random_float(0.0, 1.0); x >= 0.0 && x < 1.0`, true),
]);

table("fallibility: constants through variables", [
  ok(`n = 2\nchunks([1, 2, 3], n)`, [[1, 2], [3]]),
  ok(`m = 3\nm2 = m\nmod(10, m2)`, 1),
  ok(`subs = ["a", "b"]\ncontains_all("abc", subs)`, true),
  ok(`k = 2 + 1\nmod(7, k)`, 1),
  rejects(`n = 2\nif .x == 1 { n = 3 }\nmod(5, n)`, "E100"),
  rejects(`n = 2\nn = .n\nmod(5, n)`, "E110"),
  rejects(`n = 2\nfor_each([1]) -> |_i, v| { n = v }\nmod(5, n)`, "E100"),
  rejects(`n = 2\nn, _err = parse_int("0")\nmod(5, n)`, "E100"),
]);

table("fallibility: fallible without an accepted constant", [
  rejects(`zip(.a)`, "E110"),
  rejects(`zip([1, 2])`, "E100"),
  rejects(`encode_key_value({"a": 1}, fields_ordering: [1])`, "E100"),
  rejects(`contains_all("abc", [1])`, "E100"),
  rejects(`object_from_array([1, 2])`, "E100"),
  rejects(`from_entries([1])`, "E100"),
  rejects(`mod(5, 0)`, "E100"),
  rejects(`mod(5, .m)`, "E110"),
  rejects(`chunks([1], 0)`, "E100"),
  rejects(`crc("foo", .alg)`, "E110"),
  rejects(`random_int(3, 1)`, "E100"),
  rejects(`random_float(1.0, .hi)`, "E110"),
  rejects(`from_unix_timestamp(5)`, "E100"),
  rejects(`get_timezone_name()`, "E100"),
  ok(`from_unix_timestamp!(5)`, "1970-01-01T00:00:05Z"),
  ok(`get_timezone_name!()`, "UTC"),
  rejects(`mod!(5, 2)`, "E620"),
  rejects(`parse_tokens!("a")`, "E620"),
]);

table("closure parameters typed from the collection", [
  ok(`map_values({"a": 1, "b": 2}) -> |v| { v + 1 }`, { a: 2, b: 3 }),
  ok(`map_values([1.5, 2.5]) -> |v| { v * 2.0 }`, [3, 5]),
  ok(`for_each({"a": "x"}) -> |k, v| { .out = k + v }; .out`, "ax"),
  ok(`filter([1, 2, 3, 4]) -> |_i, v| { v > 2 }`, [3, 4]),
  ok(`filter({"a": 1, "b": 5}) -> |_k, v| { v > 2 }`, { b: 5 }),
  ok(`x = [[1], [2, 3]]\nmap_values(x) -> |v| { length(v) }`, [1, 2]),
  ok(`x = [1, "a"]\nmap_values(x) -> |v| { to_string(v) }`, ["1", "a"]),
  rejects(`map_values([1, "a"]) -> |v| { v + 1 }`, "E100"),
  rejects(`map_values({"a": 1}, recursive: true) -> |v| { v + 1 }`, "E100"),
  rejects(`x = [1]\nx[5] + 1`, "E100"),
]);

table("fallibility: blocks and if expressions are as fallible as their statements", [
  rejects(`x = (1; parse_int("3"))`, "E103"),
  rejects(`x = if true { parse_int("3") } else { 1 }`, "E103"),
  rejects(`x = if true { 1 } else { parse_int("3") }`, "E103"),
  rejects(`if true { parse_int("3") }`, "E100"),
  rejects(`{ parse_int("3") }`, "E100"),
  ok(`x, err = (1; parse_int("a")); err != null`, true),
  ok(`x, err = (1; parse_int("7")); [x, err]`, [7, null]),
  ok(`x, err = if true { parse_int("z") } else { 1 }; [x, err == null]`, [0, false]),
  ok(`x = (parse_int("x"); 2) ?? 3; x`, 3),
  ok(`x = (parse_int!("3"); 2); x`, 2),
  // A closure body stays a root of its own: its fallible statements are unhandled there.
  rejects(`map_values([1]) -> |v| { (1; parse_int("3")) }`, "E100"),
]);

table("fallibility: `ok, err |=` merges into ok", [
  ok(`.a = {"x": 1}; .a, err |= parse_json("{\\"y\\": 2}"); [.a, err]`, [{ x: 1, y: 2 }, null]),
  ok(`.a = {"x": 1}; .a, err |= parse_json("[1]"); err != null`, true),
  ok(`o = {"k": "v"}; o, e |= parse_json("{}"); [o, e]`, [{ k: "v" }, null]),
  rejects(`.a = {"x": 1}; .a, err |= {"z": 1}`, "E104"),
]);

table("compile errors: VRL's codes for operators, abort and arguments", [
  rejects(`1 < 2 < 3`, "E650"),
  rejects(`1 == 1 != false`, "E650"),
  ok(`(1 < 2) == true`, true),
  rejects(`{} | 1`, "E652"),
  rejects(`[1] | [2]`, "E652"),
  ok(`{"a": 1} | {"b": 2}`, { a: 1, b: 2 }),
  rejects(`!1`, "E660"),
  ok(`!false`, true),
  rejects(`abort 1`, "E300"),
  rejects(`abort upcase(.x)`, "E631"),
  rejects(`upcase(parse_json("1"))`, "E630"),
  ok(`upcase(string!(parse_json!("\\"a\\"")))`, "A"),
]);
