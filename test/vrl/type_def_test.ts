/**
 * `type_def(value)`: the static type of its argument in VRL's `Kind::debug_info` rendering. Scalars, literals,
 * joins and typed function results follow VRL's type rules; how VRL prints the unknown part of a collection
 * (here `"unknown": {"any": true}`) is Petrel's best recollection (see engine/vrl/README.md).
 */

import { ok, rejects, table } from "./harness.ts";

const ANY = { any: true };
/** A path read nothing is known about: any kind but undefined (VRL upgrades undefined to null). */
const UNKNOWN_READ = {
  bytes: true,
  integer: true,
  float: true,
  boolean: true,
  timestamp: true,
  regex: true,
  null: true,
  object: { unknown: ANY },
  array: { unknown: ANY },
};

table("type_def: literals", [
  ok(`type_def(42)`, { integer: true }),
  ok(`type_def(4.2)`, { float: true }),
  ok(`type_def("x")`, { bytes: true }),
  ok(`type_def(true)`, { boolean: true }),
  ok(`type_def(null)`, { null: true }),
  ok(`type_def(t'2021-01-01T00:00:00Z')`, { timestamp: true }),
  ok(`type_def(r'a+')`, { regex: true }),
  ok(`type_def([])`, { array: {} }),
  ok(`type_def({})`, { object: {} }),
  ok(`type_def([1, "a", null])`, { array: { 0: { integer: true }, 1: { bytes: true }, 2: { null: true } } }),
  ok(`type_def({"a": 1, "b": "x"})`, { object: { a: { integer: true }, b: { bytes: true } } }),
  ok(`type_def({"a": [1, {"b": null}], "c": {}})`, {
    object: {
      a: { array: { 0: { integer: true }, 1: { object: { b: { null: true } } } } },
      c: { object: {} },
    },
  }),
  ok(`type_def(value: [[true]])`, { array: { 0: { array: { 0: { boolean: true } } } } }),
  ok(`type_def(abort)`, { never: true }),
]);

table("type_def: variables, assignments and joins", [
  ok(`x = "a"; type_def(x)`, { bytes: true }),
  ok(`x = 1; x = "a"; type_def(x)`, { bytes: true }),
  ok(`x = 1; if .c == 1 { x = "a" }; type_def(x)`, { bytes: true, integer: true }),
  ok(`x = null; if .c == 1 { x = 1 } else { x = 2.5 }; type_def(x)`, { integer: true, float: true }),
  ok(`type_def(if .c == 1 { 1 })`, { integer: true, null: true }),
  ok(`type_def(if .c == 1 { 1 } else { [2] })`, { integer: true, array: { 0: { integer: true } } }),
  // A field or index only one branch has may be absent.
  ok(`x = {"a": 1}; if .c == 1 { x = {"b": "s"} }; type_def(x)`, {
    object: { a: { integer: true, undefined: true }, b: { bytes: true, undefined: true } },
  }),
  ok(`x = [1]; if .c == 1 { x = [true, "s"] }; type_def(x)`, {
    array: { 0: { integer: true, boolean: true }, 1: { bytes: true, undefined: true } },
  }),
  ok(`x = {"a": 1}; x.b = "s"; type_def(x)`, { object: { a: { integer: true }, b: { bytes: true } } }),
  ok(`x = {"a": {"b": 1}}; x.a.b = "s"; type_def(x)`, { object: { a: { object: { b: { bytes: true } } } } }),
  // Writing past the end fills the gap with nulls.
  ok(`x = [1]; x[2] = "a"; type_def(x)`, {
    array: { 0: { integer: true }, 1: { null: true }, 2: { bytes: true } },
  }),
  ok(`x = [1, "a"]; x[0] = true; type_def(x)`, { array: { 0: { boolean: true }, 1: { bytes: true } } }),
  ok(`x = [1, "a"]; type_def([x[1], x[-2], x[5]])`, {
    array: { 0: { bytes: true }, 1: { integer: true }, 2: { null: true } },
  }),
  ok(`x = {"a": {"b": 1}}; type_def([x.a.b, x.c])`, { array: { 0: { integer: true }, 1: { null: true } } }),
  // del: an exact object loses the field; an array's indices shift, so only its element types stay known.
  ok(`x = {"a": 1, "b": 2}; del(x.a); type_def(x)`, { object: { b: { integer: true } } }),
  ok(`x = [1, "a"]; del(x[0]); type_def(x)`, {
    array: { unknown: { integer: true, bytes: true, undefined: true } },
  }),
  ok(`x = [1, "a"]; del(x[0]); upcase!(x[0])`, "A"),
  // The argument is only type-checked: it does not run.
  ok(`type_def(.a.b.c)`, UNKNOWN_READ),
]);

table("type_def: event paths", [
  ok(`type_def(.foo)`, UNKNOWN_READ),
  ok(`type_def(.foo[0].bar)`, UNKNOWN_READ),
  ok(`type_def(.)`, { object: { unknown: ANY } }),
  ok(`.foo = 1; type_def(.foo)`, { integer: true }),
  ok(`.foo = 1; type_def(.)`, { object: { foo: { integer: true }, unknown: ANY } }),
  ok(`. = {"a": "x"}; type_def(.)`, { object: { a: { bytes: true } } }),
  ok(`type_def(%)`, { object: { unknown: ANY } }),
  ok(`x = {"a": 1}; if .c == 1 { x = .y }; type_def(x.a)`, UNKNOWN_READ),
]);

table("type_def: function results", [
  ok(`type_def(to_string(1))`, { bytes: true }),
  ok(`type_def(upcase("a"))`, { bytes: true }),
  ok(`type_def(now())`, { timestamp: true }),
  ok(`type_def(length([1]))`, { integer: true }),
  ok(`type_def(to_int(.x) ?? 0)`, { integer: true }),
  ok(`type_def(parse_json!("1"))`, {
    bytes: true,
    integer: true,
    float: true,
    boolean: true,
    null: true,
    object: { unknown: ANY },
    array: { unknown: ANY },
  }),
  ok(`type_def(parse_regex!("ab", r'(?P<first>a)(b)'))`, {
    object: {
      0: { bytes: true, null: true },
      1: { bytes: true, null: true },
      2: { bytes: true, null: true },
      first: { bytes: true },
    },
  }),
  ok(`type_def(parse_url!("https://example.com/p?q=1"))`, {
    object: {
      scheme: { bytes: true },
      username: { bytes: true },
      password: { bytes: true },
      path: { bytes: true },
      host: { bytes: true, null: true },
      port: { integer: true, null: true },
      fragment: { bytes: true, null: true },
      query: { object: { unknown: { bytes: true, undefined: true, array: { unknown: ANY } } } },
    },
  }),
  ok(`type_def(parse_query_string("a=1").a)`, { bytes: true, null: true, array: { unknown: ANY } }),
  ok(`type_def(1).integer`, true),
]);

table("type_def: fallibility and arguments", [
  // VRL rejects a fallible argument before type_def could render `"fallible": true`.
  rejects(`type_def(parse_json("x"))`, "E630"),
  ok(`type_def(parse_json("x") ?? 1)`, {
    bytes: true,
    integer: true,
    float: true,
    boolean: true,
    null: true,
    object: { unknown: ANY },
    array: { unknown: ANY },
  }),
  rejects(`type_def()`, "E107"),
  rejects(`type_def(1, 2)`, "E106"),
  rejects(`type_def(v: 1)`, "E108"),
  rejects(`type_def!(1)`, "E620"),
  ok(`type_def = 1; type_def`, 1),
]);
