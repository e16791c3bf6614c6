/** Cases in the style of VRL's own test corpus (`lib/tests/tests/`) that Petrel once got wrong. */

import { exact, fails, ok, rejects, table } from "./harness.ts";

table("corpus: integer literals", [
  // i64::MIN written out: its digits alone wrap to i64::MIN, and negating keeps it there.
  exact(`-9223372036854775808`, "-9223372036854775808"),
  exact(`-9223372036854775808 - 1`, "9223372036854775807"),
  exact(`-9223372036854775807`, "-9223372036854775807"),
]);

// VRL's `slice`: a start before the beginning is an error (only `end` is clamped), worded as VRL's range check.
table("corpus: slice bounds", [
  ok(`slice!("abc", -3)`, "abc"),
  ok(`slice!("abc", 1, 10)`, "bc"),
  ok(`slice!([1, 2, 3], 3)`, []),
  fails(`slice!("abc", -4)`, `"start" must be between "-3" and "3"`),
  fails(`slice!("abc", 4)`, `"start" must be between "-3" and "3"`),
  fails(`slice!("abc", 2, 1)`, `"end" must be greater or equal to "start"`),
  fails(`slice!([1, 2, 3], 1, -3)`, `"end" must be greater or equal to "start"`),
]);

table("corpus: string literals", [
  // A line continuation drops the newline and the indentation after it.
  ok(`"a\\\n   b"`, "ab"),
  rejects(`"a\\`, "E202|unterminated string literal"),
]);

// `==` is `Value::eq_lossy`: an integer and a float meet by value at the top level only; inside arrays
// and objects (and in assert_eq, includes, unique, tally_value) values compare as Rust's PartialEq.
table("corpus: equality of integers and floats", [
  ok(`1 == 1.0`, true),
  ok(`[1] == [1.0]`, false),
  ok(`{"a": 1} != {"a": 1.0}`, true),
  ok(`[1, [2]] == [1, [2]]`, true),
  ok(`includes([1.0], 1)`, false),
  ok(`length(unique([1, 1.0, 1]))`, 2),
  ok(`tally_value([1, 1.0, 1], 1)`, 2),
  // Rust prints the float 1.0 as "1"
  fails(`assert_eq!(1, 1.0)`, "assertion failed: 1 == 1"),
]);
