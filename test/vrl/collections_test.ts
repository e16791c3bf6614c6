/** Object and array functions. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("keys/values/length", [
  ok(`keys({"b": 1, "a": 2})`, ["a", "b"]),
  ok(`keys({})`, []),
  ok(`values({"b": 1, "a": 2})`, [2, 1]),
  exact(`length([1, 2])`, "2"),
  exact(`length({"a": 1})`, "1"),
  exact(`length("héllo")`, "6"),
  exact(`length("")`, "0"),
  rejects(`keys([1])`, "E110"),
  rejects(`length(1)`, "E110"),
  ok(`keys(object!(.o))`, ["x"], { o: { x: 1 } }),
]);

table("merge/flatten/unflatten/compact", [
  ok(`merge({"a": 1, "b": {"c": 1}}, {"b": {"d": 2}})`, { a: 1, b: { d: 2 } }),
  ok(`merge({"a": 1, "b": {"c": 1}}, {"b": {"d": 2}}, deep: true)`, { a: 1, b: { c: 1, d: 2 } }),
  ok(`merge({}, {})`, {}),
  rejects(`merge({}, .x)`, "E100"),
  ok(`flatten({"parent": {"child1": 1, "child2": {"x": 2}}, "other": 3})`, {
    "parent.child1": 1,
    "parent.child2.x": 2,
    other: 3,
  }),
  ok(`flatten({"a": {"b": 1}}, separator: "_")`, { a_b: 1 }),
  ok(`flatten({"a": {}, "b": [1, [2]]})`, { a: {}, b: [1, [2]] }),
  ok(`flatten([1, [2, [3, 4]], []])`, [1, 2, 3, 4]),
  ok(`unflatten({"a.b.c": 1, "a.d": 2, "e": 3})`, { a: { b: { c: 1 }, d: 2 }, e: 3 }),
  ok(`unflatten({"a_b": 1}, "_")`, { a: { b: 1 } }),
  ok(`unflatten({"a": {"b.c": 1}}, recursive: false)`, { a: { "b.c": 1 } }),
  ok(`unflatten({"a": {"b.c": 1}})`, { a: { b: { c: 1 } } }),
  ok(`compact({"a": null, "b": "", "c": {}, "d": [], "e": 0, "f": {"g": null}})`, { e: 0 }),
  ok(`compact(["a", null, "", [], {}])`, ["a"]),
  ok(`compact({"a": null, "b": ""}, string: false)`, { b: "" }),
  ok(`compact({"f": {"g": null}}, recursive: false)`, { f: { g: null } }),
  ok(`compact({"a": "-", "b": " "}, nullish: true)`, {}),
]);

table("push/append/pop/get/set/remove", [
  ok(`push([1, 2], 3)`, [1, 2, 3]),
  ok(`push([], [1])`, [[1]]),
  ok(`x = [1]; y = push(x, 2); [x, y]`, [[1], [1, 2]]),
  ok(`append([1], [2, 3])`, [1, 2, 3]),
  ok(`append([], [])`, []),
  ok(`pop([1, 2])`, [1]),
  ok(`pop([])`, []),
  ok(`get!({"a": {"b": [1, 2]}}, ["a", "b", 1])`, 2),
  ok(`get!({"a": 1}, ["x"])`, null),
  ok(`get!([1, 2], [-1])`, 2),
  fails(`get!({"a": 1}, [true])`, "path segment must be either string or integer"),
  ok(`set!({"a": 1}, ["b", "c"], 2)`, { a: 1, b: { c: 2 } }),
  ok(`set!([1], [2], "x")`, [1, null, "x"]),
  ok(`x = {"a": 1}; _ = set!(x, ["a"], 2); x`, { a: 1 }),
  ok(`remove!({"a": 1, "b": 2}, ["a"])`, { b: 2 }),
  ok(`remove!({"a": {"b": 1}}, ["a", "b"], compact: true)`, {}),
  ok(`remove!([1, 2, 3], [0])`, [2, 3]),
  ok(`remove!({"a": 1}, [])`, { a: 1 }),
]);

table("unique/includes/entries/chunks", [
  ok(`unique(["a", "b", "a", 1, 1.0, 1])`, ["a", "b", 1, 1.0]),
  ok(`unique([])`, []),
  ok(`includes(["a", 1], 1)`, true),
  ok(`includes(["a", 1], "b")`, false),
  ok(`includes([{"a": 1}], {"a": 1})`, true),
  ok(`to_entries({"b": 2, "a": 1})`, [{ key: "a", value: 1 }, { key: "b", value: 2 }]),
  ok(`to_entries({})`, []),
  ok(`from_entries([{"key": "a", "value": 1}, ["b", 2]])`, { a: 1, b: 2 }),
  fails(`from_entries!([1])`, "entries must be objects"),
  ok(`object_from_array([["a", 1], ["b", 2]])`, { a: 1, b: 2 }),
  ok(`object_from_array([1, 2], keys: ["a", "b"])`, { a: 1, b: 2 }),
  ok(`chunks([1, 2, 3, 4, 5], 2)`, [[1, 2], [3, 4], [5]]),
  ok(`chunks("abcdefgh", 3)`, ["abc", "def", "gh"]),
  ok(`chunks([], 2)`, []),
  fails(`chunks!([1], 0)`, "must be at least 1"),
  ok(`zip([1, 2], ["a", "b", "c"])`, [[1, "a"], [2, "b"]]),
  ok(`zip([[1, 2], [3, 4]])`, [[1, 3], [2, 4]]),
  ok(`tally!(["a", "b", "a"])`, { a: 2, b: 1 }),
  fails(`tally!(["a", 1])`, "all values must be strings"),
  exact(`tally_value(["a", "b", "a"], "a")`, "2"),
]);
