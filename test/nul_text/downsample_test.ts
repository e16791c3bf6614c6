/** Downsampling groups an ordinary table by its tags as stored: a tag holding U+0000 reaches the target whole. */
import assert from "node:assert/strict";
import { parseDownsampleRules } from "../../src/config/downsample.ts";
import { startTestServer } from "../helpers/server.ts";
import { lineWrite, sql } from "../retention/http_helpers.ts";

const MIN = 60_000;
const BASE = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 6 * 3_600_000;

Deno.test("nul text: a downsampled table keeps a NUL-holding tag whole", async () => {
  const rules = parseDownsampleRules([{
    source: "nul_weather",
    interval: "10m",
    aggregates: ["max", "count"],
    target: "nul_weather_10m",
    delay: "0s",
  }]);
  const server = await startTestServer({ downsample: rules });
  try {
    await lineWrite(server.url, [
      `nul_weather,station=s\u0000x temp=1 ${BASE}`,
      `nul_weather,station=s\u0000x temp=3 ${BASE + MIN}`,
      `nul_weather,station=plain temp=2 ${BASE}`,
    ]);
    assert.equal(await server.server.downsampler.runOnce(BASE + 20 * MIN), 1);
    const rows = await sql(
      server.url,
      "SELECT station, temp_max, temp_count FROM nul_weather_10m ORDER BY temp_max",
    );
    assert.deepEqual(rows.map((r) => [r[0], Number(r[1]), Number(r[2])]), [["plain", 2, 1], [
      "s\u0000x",
      3,
      2,
    ]]);
  } finally {
    await server.stop();
  }
});
