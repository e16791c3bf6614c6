/** Regex assertion helper for VRL tests. */

import assert from "node:assert/strict";

/** Asserts that `s` matches `re`. */
export function assertMatch(s: string, re: RegExp): void {
  assert.ok(re.test(s), `${JSON.stringify(s)} does not match ${re}`);
}
