/** The engine benchmark runs and checks its own row count. */
import assert from "node:assert/strict";
import { benchPipeline, makeNginxNdjson } from "../../engine/bench.ts";

Deno.test("bench: nginx NDJSON lines go through dissect + date", () => {
  const r = benchPipeline(2000);
  assert.ok(r.linesPerSec > 0 && Number.isFinite(r.linesPerSec));
  assert.ok(r.jsonParseLinesPerSec > 0);
  assert.equal(makeNginxNdjson(3).split("\n").length, 3);
});
