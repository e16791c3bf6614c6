/** `[[downsample]]` rules: defaults, and `/config`'s rendering reads back as the same rules. */
import assert from "node:assert/strict";
import { applyToml, defaultConfig, renderConfigToml } from "../../src/config/config.ts";

Deno.test("downsample rules: defaults fill in, and the rendered config reads back unchanged", () => {
  const config = defaultConfig();
  applyToml(
    config,
    `[[downsample]]\nsource = "cpu"\ninterval = "5m"\ntarget = "cpu:5m"\n\n` +
      `[[downsample]]\nsource = "weather"\ndatabase = "edge"\ninterval = "1h"\naggregates = ["MAX", "last", "max"]\n` +
      `target = "weather_1h"\ntarget_database = "rollups"\nttl = "400d"\ndelay = "90s"\nmax_lateness = "0s"\n`,
    "test.toml",
  );
  assert.deepEqual(config.downsample, [
    {
      source: "cpu",
      database: "public",
      interval: 300_000,
      aggregates: ["avg", "min", "max", "sum", "count", "last"],
      target: "cpu:5m",
      target_database: "public",
      ttl: "",
      delay: 60_000,
      max_lateness: 7 * 86_400_000,
    },
    {
      source: "weather",
      database: "edge",
      interval: 3_600_000,
      aggregates: ["max", "last"],
      target: "weather_1h",
      target_database: "rollups",
      ttl: "400d",
      delay: 90_000,
      max_lateness: 0,
    },
  ]);
  const again = defaultConfig();
  applyToml(again, renderConfigToml(config), "rendered");
  assert.deepEqual(again.downsample, config.downsample);
});
