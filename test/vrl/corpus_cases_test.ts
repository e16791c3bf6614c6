/** Cases in the style of VRL's own test corpus (`lib/tests/tests/`) that Petrel once got wrong. */

import { exact, table } from "./harness.ts";

table("corpus: integer literals", [
  // i64::MIN written out: its digits alone wrap to i64::MIN, and negating keeps it there.
  exact(`-9223372036854775808`, "-9223372036854775808"),
  exact(`-9223372036854775808 - 1`, "9223372036854775807"),
  exact(`-9223372036854775807`, "-9223372036854775807"),
]);
