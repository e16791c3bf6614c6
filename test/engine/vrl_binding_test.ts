/** The `vrl` processor running the `engine/vrl/` interpreter (reference §4.18). */
import assert from "node:assert/strict";
import { compilePipeline } from "../../engine/mod.ts";
import { run, summary } from "./helpers.ts";

const TS = "transform:\n  - field: ts\n    type: epoch, ms\n    index: time\n";

Deno.test("vrl: program result becomes the entry; special variables set from fields", () => {
  const p = compilePipeline(
    `version: 2\nprocessors:\n  - epoch:\n      field: ts\n  - vrl:\n      source: |\n        .greptime_table_suffix = "_" + to_string!(.id)\n        .greptime_ttl = "1d"\n        .n = to_int!(.n) + 1\n        .\n${TS}`,
  );
  const s = summary(run(p, [{ id: 7, n: 1, ts: 1716668197217 }], { table: "logs" }));
  assert.deepEqual(s, [{
    table: "logs_7",
    options: { ttl: "1d" },
    columns: ["ts:TimestampMillisecond:TIMESTAMP", "id:Int64:FIELD", "n:Int64:FIELD"],
    rows: [[1716668197217, 7, 2]],
  }]);
});

Deno.test("vrl: one-to-many and null result", () => {
  const p = compilePipeline(
    `processors:\n  - vrl:\n      source: |\n        if .drop == true { null } else { map_values(array!(.items)) -> |x| { {"ts": x} } }\n${TS}`,
  );
  assert.deepEqual(summary(run(p, [{ items: [1, 2] }, { drop: true }]))[0].rows, [[1], [2]]);
});

Deno.test("vrl: compile errors and result-kind check at upload", () => {
  assert.throws(
    () => compilePipeline("processors:\n  - vrl:\n      source: '.a = '\n"),
    /Failed to compile VRL, /,
  );
  assert.throws(
    () => compilePipeline("processors:\n  - vrl:\n      source: '\"text\"'\n"),
    /Vrl script should return object or array in the end, got `string`/,
  );
});

Deno.test("vrl: runtime errors are per-entry", () => {
  const p = compilePipeline(`processors:\n  - vrl:\n      source: |\n        abort\n        .\n${TS}`);
  assert.throws(() => run(p, [{ ts: 1 }]), /Failed to execute VRL, /);
  assert.equal(run(p, [{ ts: 1 }], { skipError: true }).skipped, 1);
});
