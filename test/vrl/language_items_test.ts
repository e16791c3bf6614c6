/** Language items from VRL's own test corpus: `return`, groups as blocks, path fields, operators, checks. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("return", [
  ok(`return 1`, 1),
  ok(`.a = 1\nreturn .a\n.b = 2`, 1),
  ok(`if true { return "early" }\n"late"`, "early"),
  ok(`if false { return "early" }\n"late"`, "late"),
  ok(`x = 0\nx = x + 1\nreturn {"x": x}`, { x: 1 }),
  ok(`return parse_json!("[1]")`, [1]),
  ok(`return (1 + 2)`, 3),
  ok(`v = parse_json("{") ?? return "bad"\nv`, "bad"),
  rejects(`return parse_json("1")`, "E100"),
  rejects(`return`, "E204"),
  rejects(`map_values([1]) -> |v| { return v }`, "E203"),
]);

table("groups and blocks", [
  ok(`(a = 1; a + 1)`, 2),
  ok(`(1; 2; 3)`, 3),
  ok(`(\n  a = 2\n  a * 3\n)`, 6),
  ok(`if (x = 1; x > 0) { x } else { 0 }`, 1),
  ok(`x = (y = "a"; y + "b"); x`, "ab"),
  ok(`{ a = 1; a + 2 }`, 3),
  ok(`(1)`, 1),
  rejects(`()`, "E203"),
]);

table("newline before a block", [
  ok(`if true\n{ 1 } else\n{ 2 }`, 1),
  ok(`if false\n{\n1\n}\nelse\n{\n2\n}`, 2),
  ok(`map_values([1]) -> |v|\n{ v + 1 }`, [2]),
]);

table("path fields starting with digits", [
  ok(`.0tar = 1; .0tar`, 1),
  ok(`.a.0b = 2; .a`, { "0b": 2 }),
  ok(`.12 = 3; ."12"`, 3),
  ok(`.a.0b.9c = true; .a`, { "0b": { "9c": true } }),
]);

table("string repetition and NaN", [
  ok(`"ab" * 3`, "ababab"),
  ok(`3 * "ab"`, "ababab"),
  ok(`"ab" * 0`, ""),
  ok(`"ab" * -2`, ""),
  ok(`x = "-" * 3; x + "|"`, "---|"),
  exact(`1.5 * 2`, "3.0"),
  fails(`x = to_float!("1e308") * 10.0; x - x`, "NaN"),
  ok(`x = to_float!("1e308") * 10.0; x / x ?? "nan"`, "nan"),
  fails(`x = to_float!("1e308") * 10.0; y = 0.0 - x; x + y`, "NaN"),
]);

table("reserved keywords (E205)", [
  rejects(`type = 1`, "E205"),
  rejects(`in = 1`, "E205"),
  rejects(`x = while`, "E205"),
  rejects(`let = 1`, "E205"),
  ok(`.type = 1; .type`, 1),
  ok(`x = {"for": 1}; x.for`, 1),
  ok(`type_def = 1; type_def`, 1),
]);

table("parent path segment rejects this mutation (E642)", [
  rejects(`.a = "x"\n.a.b = 1`, "E642"),
  rejects(`x = 1\nx.y = 2`, "E642"),
  rejects(`.a = [1]\n.a.b = 2`, "E642"),
  rejects(`.a = {"b": 1}\n.a[0] = 2`, "E642"),
  rejects(`.a.b.c = 1\n.a.b.c.d = 2`, "E642"),
  ok(`x = null\nx.a = 1\nx`, { a: 1 }),
  ok(`.a = [1]\n.a[0] = 2\n.a`, [2]),
  ok(`.a.b = 1\n.a.c = 2\n.a`, { b: 1, c: 2 }),
  ok(`.a = .x\n.a.b = 1\n.a`, { b: 1 }),
]);

table("function compile errors (E610) and closure checks (E120, E122)", [
  rejects(`to_unix_timestamp(now(), unit: "days")`, "E610"),
  rejects(`log("x", level: "loud")`, "E610"),
  rejects(`parse_timestamp!("x", "%Y", timezone: "Mars/Base")`, "E610"),
  rejects(`map_values([1]) -> |a, b| { a }`, "E120"),
  rejects(`filter([1]) -> |_i, v| { v }`, "E122"),
  rejects(`map_keys({"a": 1}) -> |k| { 1 }`, "E122"),
  ok(`filter([1, 2]) -> |_i, v| { v == 2 }`, [2]),
  ok(`map_keys({"a": 1}) -> |k| { upcase(k) }`, { A: 1 }),
]);

// `.a.(b | c).d`: the first field present at that level is read; the last one is the fallback.
table("path coalescing", [
  ok(`.a.(b | c).d`, 2, { a: { c: { d: 2 } } }),
  ok(`.a.(b | c).d`, 1, { a: { b: { d: 1 }, c: { d: 2 } } }),
  ok(`.a.(b | c).d`, null, { a: { b: null, c: { d: 2 } } }),
  ok(`.a.(b | c | "e f")`, 3, { a: { "e f": 3 } }),
  ok(`.(x | y)`, null),
  ok(`v = {"b": 1}\nv.(a | b)`, 1),
  ok(`upcase!(.(message | msg))`, "HI", { msg: "hi" }),
  rejects(`.a.(b | c).d = 1`, "E203"),
  rejects(`parse_json!("{}").(a | b)`, "E203|supported once per path"),
  rejects(`.(a | b).(c | d)`, "E203|supported once per path"),
]);
