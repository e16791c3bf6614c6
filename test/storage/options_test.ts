import { httpStatusOf } from "../../src/http/render_error.ts";
import { PetrelError } from "../../src/common/errors.ts";
import assert from "node:assert/strict";
import { formatTtl, normalizeOptions, optionsForCreate, parseTtl } from "../../src/storage/options.ts";

const TTLS: Array<[string, number | null, string]> = [
  ["7d", 7 * 86_400_000, "7days"],
  ["1d", 86_400_000, "1day"],
  ["30d", 30 * 86_400_000, "30days"],
  ["1h", 3_600_000, "1h"],
  ["90m", 5_400_000, "1h 30m"],
  ["2s", 2000, "2s"],
  ["1h 30m", 5_400_000, "1h 30m"],
  ["forever", null, "forever"],
  ["instant", 0, "instant"],
  ["0s", null, "forever"],
];

for (const [text, ms, shown] of TTLS) {
  Deno.test(`ttl '${text}' parses to ${ms} and shows as '${shown}'`, () => {
    assert.equal(parseTtl(text), ms);
    assert.equal(formatTtl(text), shown);
  });
}

Deno.test("bad option values are 400s naming the option", () => {
  const bad: Array<Record<string, string>> = [
    { ttl: "soon" },
    { append_mode: "yes" },
    { skip_wal: "1" },
    { merge_mode: "first" },
    { nonsense: "x" },
    { append_mode: "true", merge_mode: "last_row" },
  ];
  for (const opts of bad) {
    assert.throws(() => normalizeOptions(opts), (e: PetrelError) => httpStatusOf(e) === 400);
  }
});

Deno.test("optionsForCreate filters write-only hints and forces per create type", () => {
  assert.deepEqual(
    optionsForCreate("log", { auto_create_table: "true", ttl: "1d", merge_mode: "last_row" }),
    {
      ttl: "1d",
      append_mode: "true",
    },
  );
  assert.deepEqual(optionsForCreate("physical", { TTL: "1d", unknown: "x" }), { ttl: "1d" });
});
