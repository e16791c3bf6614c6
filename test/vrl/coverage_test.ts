/** Every standard-library function is exercised by at least one case table. */

import assert from "node:assert/strict";
import { STDLIB } from "../../engine/vrl/stdlib/mod.ts";

Deno.test("every stdlib function appears in a test table", async () => {
  const dir = new URL(".", import.meta.url);
  let text = "";
  for await (const e of Deno.readDir(dir)) {
    if (e.name.endsWith("_test.ts") && e.name !== "coverage_test.ts") {
      text += await Deno.readTextFile(new URL(e.name, dir));
    }
  }
  const untested = Object.keys(STDLIB).filter((name) => !new RegExp(`\\b${name}!?\\(`).test(text));
  assert.deepEqual(untested, []);
});
